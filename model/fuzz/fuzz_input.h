// SPDX-License-Identifier: GPL-2.0-or-later
// The input format of the fuzz target (fuzz_target.cc), shared with the seed
// generator (seed_gen.cc) so seeds are written by the same definitions the
// target decodes them with (docs/FUZZING.md, "Input encoding").
//
// An input is a header followed by operations. Every field is little-endian
// and every read past the end of the input yields 0, so any byte string is a
// valid input and a truncated one is simply a shorter run.
//
//   header: u8 flags (kFlag*), u8 n, n x {u8 param hash, u8 selector, u32 value},
//           8 bytes re-entry program (one Reentry action per callback, cycled)
//   ops:    u8 opcode (mod kOpCount), then that op's fields (see Op)
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "driver_regs.h"

namespace rtl8168_fuzz {

// A parameter is named in the header by an 8-bit hash of its name, so that
// adding or removing a parameter does not change what the other seeds set;
// a byte that names no parameter picks rtl8168_param_at(byte % count).
inline uint8_t param_hash(const char* name) {
  uint32_t h = 2166136261u;  // FNV-1a
  for (; *name; name++) h = (h ^ static_cast<uint8_t>(*name)) * 16777619u;
  return static_cast<uint8_t>(h ^ h >> 8 ^ h >> 16 ^ h >> 24);
}

// The operation an opcode byte names. kFaultSpec came after the corpus and
// the regressions were written: it takes the bytes 252..255, which none of
// them uses as an opcode, and every other byte keeps the operation it named
// before (byte % kFaultSpec), so each regression still replays its steps.
inline constexpr uint8_t kFaultSpecFirstByte = 252;
inline unsigned decode_op(uint8_t byte);

// The registers op kRegWriteKnown names by index (u8 % count): every
// register the model decodes, plus TCTR/TimerInt and MaxTxPacketSize/MISC, at
// their natural width, then four accesses of other widths. The index is part
// of the input format: entries are only ever appended. The seed generator
// finds an index by register (known_reg), the target reads the entry.
struct KnownReg {
  uint32_t off;
  unsigned size;
};
inline constexpr KnownReg kKnownRegs[] = {
    {rtl8168_driver::kMAC0, 4},          {rtl8168_driver::kMAC4, 2},
    {rtl8168_driver::kMAR0, 4},          {rtl8168_driver::kMAR4, 4},
    {rtl8168_driver::kCounterAddrLow, 4}, {rtl8168_driver::kCounterAddrHigh, 4},
    {rtl8168_driver::kLedCtrl, 4},       {rtl8168_driver::kTxDescLow, 4},
    {rtl8168_driver::kTxDescHigh, 4},    {rtl8168_driver::kTxHDescLow, 4},
    {rtl8168_driver::kTxHDescHigh, 4},   {rtl8168_driver::kChipCmd, 1},
    {rtl8168_driver::kTxPoll, 1},        {rtl8168_driver::kIntrMask, 2},
    {rtl8168_driver::kIntrStatus, 2},    {rtl8168_driver::kTxConfig, 4},
    {rtl8168_driver::kRxConfig, 4},      {rtl8168_driver::kTCTR, 4},
    {rtl8168_driver::kRxMissed, 4},      {rtl8168_driver::kCfg9346, 1},
    {rtl8168_driver::kConfig0, 1},       {rtl8168_driver::kConfig1, 1},
    {rtl8168_driver::kConfig2, 1},       {rtl8168_driver::kConfig3, 1},
    {rtl8168_driver::kConfig4, 1},       {rtl8168_driver::kConfig5, 1},
    {rtl8168_driver::kTimerInt, 4},      {rtl8168_driver::kPHYAR, 4},
    {rtl8168_driver::kCSIDR, 4},         {rtl8168_driver::kCSIAR, 4},
    {rtl8168_driver::kPHYstatus, 1},     {rtl8168_driver::kERIDR, 4},
    {rtl8168_driver::kERIAR, 4},         {rtl8168_driver::kEPHYAR, 4},
    {rtl8168_driver::kOCPDR, 4},         {rtl8168_driver::kOCPAR, 4},
    {rtl8168_driver::kGPHY_OCP, 4},      {rtl8168_driver::kRxMaxSize, 2},
    {rtl8168_driver::kCPlusCmd, 2},      {rtl8168_driver::kIntrMitigate, 2},
    {rtl8168_driver::kRxDescLow, 4},     {rtl8168_driver::kRxDescHigh, 4},
    {rtl8168_driver::kMaxTxPacketSize, 1}, {rtl8168_driver::kMISC, 4},
    // Other widths: IntrMask and IntrStatus in one access, TxPoll with the
    // three bytes after it, the 16 bits ending at ChipCmd, one byte of MAC0.
    {rtl8168_driver::kIntrMask, 4},      {rtl8168_driver::kTxPoll, 4},
    {rtl8168_driver::kChipCmd - 1, 2},   {rtl8168_driver::kMAC0, 1},
};
inline constexpr size_t kKnownRegCount = sizeof kKnownRegs / sizeof kKnownRegs[0];

// The kRegWriteKnown index of the register at `off` accessed with `size`
// bytes (natural width by default); a register the table lacks does not
// compile where the index is a constant expression.
constexpr uint8_t known_reg(uint32_t off, unsigned size = 0) {
  for (size_t i = 0; i < kKnownRegCount; i++) {
    if (kKnownRegs[i].off == off && (size == 0 || kKnownRegs[i].size == size)) {
      return static_cast<uint8_t>(i);
    }
  }
  throw "known_reg: not in kKnownRegs";
}

// Header flags.
inline constexpr uint8_t kFlagTiming = 0x01;      // timing=on (else functional mode)
inline constexpr uint8_t kFlagLossy = 0x02;       // lossy-txpoll=on
inline constexpr uint8_t kFlagMsi = 0x04;         // the host starts with MSI enabled
inline constexpr uint8_t kFlagRamShift = 3;       // bits 4:3: RAM 64/128/192/256 KiB
inline constexpr uint8_t kFlagReenter = 0x20;     // run the re-entry program from callbacks
inline constexpr uint8_t kFlagRxReadyNow = 0x40;  // refill from inside rx_ready (else after)
inline constexpr uint8_t kFlagTrace = 0x80;       // install the optional trace callback

inline constexpr size_t kReentrySlots = 8;

// What a transmit()/rx_ready() callback does before returning (rtl8168.h,
// "Re-entrancy": both may call any entry point).
enum Reentry : uint8_t {
  kReNone,
  kReLoopback,    // receive() the frame just sent (slirp answering synchronously)
  kReReadIsr,     // reg_read IntrStatus
  kReAckIsr,      // reg_write IntrStatus 0xffff
  kReDoorbell,    // reg_write TxPoll NPQ
  kReCanReceive,  // can_receive()
  kReTimer,       // timer_expired(now)
  kReSave,        // state_size + state_save (must not disturb anything)
  kReCount
};

// Operations. The fields each one reads follow its name.
enum Op : uint8_t {
  // u8 flags (kUp*), u8 tx_n-1, u8 rx_n-1, u16 rx_buf (bit 15: use bits 13:0, else 2048),
  // u8 RxConfig accept bits, u8 MXDMA, u16 IntrMask, u16 IntrMitigate
  kBringUp,
  kRegWriteKnown,  // u8 register (index into kKnownRegs), u32 value
  kRegWriteRaw,    // u16 offset, u8 size selector, u64 value
  kRegReadRaw,     // u16 offset, u8 size selector
  // u8 flags (kTx*), u8 kind (FrameKind), u16 payload, u8 frags-1, u16 mss, u16 vlan tci
  kTxFrame,
  kRxArm,         // re-arm every RX descriptor (Own | EOR on the last | buffer size)
  kRxPoll,        // driver RX poll: re-arm completed descriptors from the cursor on
  kReceiveClass,  // u8 RxClass, u16 length, u8 seed
  kReceiveRaw,    // u16 length (mod 9216), that many bytes
  kCanReceive,
  kTimeStep,     // u8 mode (TimeMode), u32 amount
  kSetLink,      // u8 up (bit 0)
  kFault,        // u8 mode (bit 0 reads fail, bit 1 writes fail, bit 2 window), u32 lo, u16 len
  kMemWrite,     // u32 address (mod RAM), u8 length, that many bytes
  kMemDesc,      // u8 ring (0 NPQ, 1 HPQ, 2 RX), u8 index, u32 opts1, u32 opts2, u8 addr sel, u32
  kPhy,          // u8 reg, u8 write (bit 0), u16 value
  kTally,        // u8 command (CounterReset 1 | CounterDump 8), u8 addr sel, u32
  kSave,         // u8 slot (mod 4)
  kLoad,         // u8 slot, u8 mutations (mod 5), mutations x {u8 kind, u32 pos, u32 value}
  kMigrate,      // like kLoad, onto a fresh device that replaces the current one
  kReset,        // rtl8168_reset
  kMsi,          // u8 on (bit 0)
  kIrqAck,       // u8 mode (bit 0: mask around the ack, as r8169's handler does)
  kNullReceive,  // u16 length
  kDoorbell,     // u8 TxPoll value
  // The model's fault injection (rtl8168_fault_add/_clear/_list): u8 mode
  // (FaultMode), u32 a, u32 b, u8 c; kFaultRaw then reads a % 128 bytes of text.
  kFaultSpec,
  kOpCount
};

// kFaultSpec modes: a valid spec of each class built from a, b, c (the
// target checks it is accepted unless the schedule is full), clear, list,
// or raw bytes as a spec (garbage must be refused, never crash).
enum FaultMode : uint8_t {
  kFaultDmaRead,       // nth=a%64+1, count=c%4+1
  kFaultDmaWrite,      // nth=a%64+1, count=c%4+1
  kFaultDmaReadWin,    // addr=a%RAM - +b%4096, count=all or c%8+1
  kFaultDmaWriteWin,   // same, writes
  kFaultRxWithhold,    // at=+a%1ms, frame=b%8+1, count=c%16+1
  kFaultRxFifoOver,    // frame=a%16+1, count=c%4+1
  kFaultLink,          // at=+a%10ms; c%4: down, up, flap every 10us+b%1ms count c%8+1, speed
  kFaultAutonegSlow,   // delay=a%10ms+1, count=c%3+1
  kFaultSpuriousIrq,   // at=+a%10ms, bits=b|1 (16 bits), every 10us+.. when c&1, count c%5+1
  kFaultIrqRaceAck,    // after=ack, bits=b (0: pull), count c%8+1 or all
  kFaultIrqRaceRead,   // after=read, bits=b (0: pull), count c%4+1
  kFaultTxStopFetch,   // frame=a%8+1, at=+b%1ms when c&1
  kFaultClear,
  kFaultList,
  kFaultRaw,
  kFaultModeCount
};

inline unsigned decode_op(uint8_t byte) {
  return byte >= kFaultSpecFirstByte ? static_cast<unsigned>(kFaultSpec) : byte % kFaultSpec;
}

// kBringUp flags.
inline constexpr uint8_t kUpChipReset = 0x01;  // ChipCmd reset and wait, as rtl_hw_reset
inline constexpr uint8_t kUpWaitLink = 0x02;   // step time until PHYstatus shows link
inline constexpr uint8_t kUpAllMulti = 0x04;   // MAR = all ones
inline constexpr uint8_t kUpRxVlan = 0x08;     // CPlusCmd RxVlan
inline constexpr uint8_t kUpRxCsum = 0x10;     // CPlusCmd RxChkSum
inline constexpr uint8_t kUpNoRxMax = 0x20;    // leave RxMaxSize 0 (no limit)
inline constexpr uint8_t kUpNoEnable = 0x40;   // leave ChipCmd TxEnb|RxEnb clear

// kTxFrame flags.
inline constexpr uint8_t kTxHpq = 0x01;       // high-priority ring
inline constexpr uint8_t kTxKick = 0x02;      // ring the doorbell after queueing
inline constexpr uint8_t kTxCrossEnd = 0x04;  // last fragment runs past the end of RAM
inline constexpr uint8_t kTxBadAddr = 0x08;   // first fragment beyond RAM
inline constexpr uint8_t kTxCsum = 0x10;      // IPv4/L4 checksum offload
inline constexpr uint8_t kTxTso = 0x20;       // GTSENV4/6 with the given MSS
inline constexpr uint8_t kTxVlan = 0x40;      // TxVlanTag
inline constexpr uint8_t kTxNoLast = 0x80;    // no LastFrag: the frame never ends

enum FrameKind : uint8_t { kRaw, kIpv4Tcp, kIpv4Udp, kIpv6Tcp, kIpv6Udp, kFrameKindCount };

enum RxClass : uint8_t {
  kRxOurs,  // unicast to our MAC
  kRxBroadcast,
  kRxMulticast,
  kRxOtherUnicast,  // promiscuous only
  kRxRunt,          // < 14 bytes
  kRxJumbo,         // 7-9 KiB
  kRxVlanOurs,      // 802.1Q tagged unicast
  kRxTcpGood,       // IPv4/TCP, checksums right
  kRxUdpBad,        // IPv4/UDP, L4 checksum wrong
  kRxTcp6,          // IPv6/TCP
  kRxClassCount
};

enum TimeMode : uint8_t {
  kTimeSmall,          // now += amount % 65536 ns
  kTimeDeadline,       // timer_expired at the armed deadline
  kTimeAfterDeadline,  // timer_expired at deadline + amount % 65536
  kTimeBig,            // now += amount ns (up to ~4 s)
  kTimeDrain,          // timer_expired at the deadline, (amount % 32) + 1 times
  kTimeModeCount
};

// Address selectors (kMemDesc, kTally): where a DMA address points.
enum AddrSel : uint8_t {
  kAddrRam,     // value % RAM size
  kAddrRamEnd,  // RAM size - (value % 64): across the end
  kAddrBeyond,  // RAM size + value: no RAM there
  kAddrHuge,    // 2^64 - 1 - (value % 64): address + length wraps
  kAddrTxRing,  // into the NPQ ring (rings into rings)
  kAddrRxRing,  // into the RX ring
  kAddrSelCount
};

// Blob mutations (kLoad, kMigrate).
enum Mutation : uint8_t {
  kMutFlip,      // flip bit value % 8 of byte pos
  kMutByte,      // byte pos = value
  kMutWord,      // u32 at pos = value
  kMutTruncate,  // cut the blob at pos
  kMutAppend,    // append 4 bytes of value
  kMutCount
};

// Little-endian writer used by the seed generator.
class Encoder {
 public:
  std::vector<uint8_t> bytes;

  Encoder& u8(unsigned v) {
    bytes.push_back(static_cast<uint8_t>(v));
    return *this;
  }
  Encoder& u16(unsigned v) { return u8(v).u8(v >> 8); }
  Encoder& u32(uint32_t v) { return u16(v & 0xffff).u16(v >> 16); }
  Encoder& u64(uint64_t v) {
    return u32(static_cast<uint32_t>(v)).u32(static_cast<uint32_t>(v >> 32));
  }
  Encoder& op(Op o) { return u8(o == kFaultSpec ? unsigned{kFaultSpecFirstByte} : unsigned{o}); }
};

// kBringUp and its fields, in one place for both sides: the seed generator
// writes them (encode), the target reads them back into the ranges it
// supports (decode) and performs r8169's open sequence with them
// (fuzz_target.cc op_bring_up: the host library's rtl8168_host::bring_up in
// kFuzzOrder, model/hostlib/bring_up.h). The defaults are a driver's usual ones.
struct BringUp {
  uint8_t flags = kUpChipReset | kUpWaitLink | kUpRxCsum | kUpRxVlan;
  unsigned tx_n = 16;   // descriptors per TX ring, 1..64
  unsigned rx_n = 8;    // RX descriptors, 1..16
  // RX buffer bytes: encode() writes 0 as "the default, 2048"; after
  // decode() it is the size itself (0..0x3fff).
  uint16_t rx_buf = 0;
  uint8_t accept = rtl8168_driver::kAcceptBroadcast | rtl8168_driver::kAcceptMulticast |
                   rtl8168_driver::kAcceptMyPhys;  // RxConfig accept bits (5:0)
  uint8_t mxdma = 7;                              // RxConfig / TxConfig MXDMA
  // r8169's IntrMask: SYSErr and the low byte (LinkChg, Rx/Tx OK/Err,
  // overflows, TxDescUnavail).
  uint16_t imask = rtl8168_driver::kSYSErr | 0x00ff;
  uint16_t mit = 0;  // IntrMitigate

  void encode(Encoder& e) const {
    e.op(kBringUp).u8(flags).u8(tx_n - 1).u8(rx_n - 1);
    e.u16(rx_buf ? (0x8000 | rx_buf) : 0).u8(accept).u8(mxdma).u16(imask).u16(mit);
  }
  template <typename Reader>
  static BringUp decode(Reader& r) {
    BringUp b;
    b.flags = r.u8();
    b.tx_n = r.u8() % 64 + 1;
    b.rx_n = r.u8() % 16 + 1;
    const uint16_t rb = r.u16();
    b.rx_buf = rb & 0x8000 ? rb & 0x3fff : 2048;
    b.accept = r.u8() & 0x3f;
    b.mxdma = r.u8() & 7;
    b.imask = r.u16();
    b.mit = r.u16();
    return b;
  }
};

}  // namespace rtl8168_fuzz
