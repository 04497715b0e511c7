// SPDX-License-Identifier: GPL-2.0-or-later
// Writes the fuzz target's seed corpus (model/fuzz/corpus/): one driver-like
// scenario per file, encoded with the same definitions the target decodes
// (fuzz_input.h), so the corpus can be regenerated whenever the encoding
// changes instead of being edited by hand.
//   rtl8168-fuzz-seeds --out DIR     write every seed into DIR
//   rtl8168-fuzz-seeds --check DIR   exit 1 unless every seed in DIR is current
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "fuzz_input.h"
#include "rtl8168/rtl8168.h"

namespace {

using namespace rtl8168_fuzz;
using namespace rtl8168_driver;

// The header byte naming `name` (fuzz_input.h param_hash); the first
// parameter with that hash must be this one.
uint8_t param_index(const char* name) {
  const uint8_t h = param_hash(name);
  for (size_t i = 0; i < rtl8168_param_count(); i++) {
    const char* n = rtl8168_param_at(i)->name;
    if (param_hash(n) != h) continue;
    if (std::strcmp(n, name) == 0) return h;
    std::fprintf(stderr, "rtl8168-fuzz-seeds: '%s' and '%s' share a hash\n", n, name);
    std::exit(2);
  }
  std::fprintf(stderr, "rtl8168-fuzz-seeds: no parameter '%s'\n", name);
  std::exit(2);
}

struct Param {
  const char* name;
  uint8_t sel;  // < 11: the target's table of interesting values, else `value`
  uint32_t value;
};

// Header: flags, parameters, re-entry program.
Encoder header(uint8_t flags, std::vector<Param> params = {}, std::vector<uint8_t> program = {}) {
  Encoder e;
  e.u8(flags).u8(static_cast<unsigned>(params.size()));
  for (const Param& p : params) e.u8(param_index(p.name)).u8(p.sel).u32(p.value);
  program.resize(kReentrySlots, kReNone);
  for (uint8_t b : program) e.u8(b);
  return e;
}

using UpArgs = BringUp;
void bring_up(Encoder& e, const UpArgs& a = {}) { a.encode(e); }

void tx(Encoder& e, uint8_t flags, FrameKind kind, uint16_t payload, uint8_t frags = 1,
        uint16_t mss = 0, uint16_t tci = 0) {
  e.op(kTxFrame).u8(flags).u8(kind).u16(payload).u8(frags - 1).u16(mss).u16(tci);
}

void rx(Encoder& e, RxClass c, uint16_t len, uint8_t seed = 1) {
  e.op(kReceiveClass).u8(c).u16(len).u8(seed);
}

void step(Encoder& e, TimeMode m, uint32_t amount = 0) { e.op(kTimeStep).u8(m).u32(amount); }
void drain(Encoder& e, uint8_t n = 31) { step(e, kTimeDrain, n); }
void ack(Encoder& e, bool mask = true) { e.op(kIrqAck).u8(mask); }
void poll(Encoder& e) { e.op(kRxPoll); }
// The model's fault injection (op kFaultSpec, fuzz_input.h FaultMode).
void fault(Encoder& e, FaultMode m, uint32_t a = 0, uint32_t b = 0, uint8_t c = 0) {
  e.op(kFaultSpec).u8(m).u32(a).u32(b).u8(c);
}

std::map<std::string, std::vector<uint8_t>> seeds() {
  std::map<std::string, std::vector<uint8_t>> s;
  auto add = [&](const std::string& name, const Encoder& e) { s[name] = e.bytes; };

  for (uint8_t timed = 0; timed < 2; timed++) {
    const std::string mode = timed ? "-timed" : "-functional";
    const uint8_t f = timed ? kFlagTiming : 0;
    {
      Encoder e = header(f);
      bring_up(e);
      ack(e);
      add("bringup" + mode, e);
    }
    {
      Encoder e = header(f);
      bring_up(e);
      tx(e, kTxKick, kRaw, 100);
      drain(e);
      ack(e);
      tx(e, kTxKick, kIpv4Tcp, 1400);
      drain(e);
      add("tx-plain" + mode, e);
    }
    {
      Encoder e = header(f);
      bring_up(e);
      tx(e, kTxKick | kTxCsum, kIpv4Tcp, 1000);
      tx(e, kTxKick | kTxCsum, kIpv4Udp, 333, 2);
      tx(e, kTxKick | kTxCsum, kIpv6Tcp, 700, 3);
      tx(e, kTxKick | kTxCsum, kIpv6Udp, 51);
      drain(e);
      ack(e);
      add("tx-csum" + mode, e);
    }
    {
      Encoder e = header(f);
      bring_up(e);
      tx(e, kTxKick | kTxTso, kIpv4Tcp, 8000, 3, 1448);
      drain(e);
      tx(e, kTxKick | kTxTso | kTxVlan, kIpv6Tcp, 5000, 2, 1220, 0x0123);
      drain(e);
      ack(e);
      add("tx-tso" + mode, e);
    }
    {
      Encoder e = header(f);
      bring_up(e);
      tx(e, kTxKick | kTxVlan, kRaw, 200, 1, 0, 0x2005);
      tx(e, kTxKick | kTxVlan | kTxCsum, kIpv4Tcp, 600, 4, 0, 0x0fff);
      drain(e);
      add("tx-vlan-sg" + mode, e);
    }
    {
      Encoder e = header(f);
      bring_up(e);
      tx(e, kTxKick | kTxHpq, kRaw, 64);
      tx(e, 0, kRaw, 128);
      tx(e, 0, kRaw, 256, 2);
      e.op(kDoorbell).u8(kNPQ);
      e.op(kDoorbell).u8(kHPQ | kNPQ | kFSWInt);
      drain(e);
      ack(e);
      add("tx-hpq-npq" + mode, e);
    }
    {
      Encoder e = header(f);
      UpArgs a;  // broadcast, multicast and our address: the default accept bits
      a.flags |= kUpAllMulti;
      bring_up(e, a);
      rx(e, kRxOurs, 100);
      rx(e, kRxBroadcast, 300);
      rx(e, kRxMulticast, 80, 0x16);
      rx(e, kRxOtherUnicast, 80);  // filtered: not promiscuous
      rx(e, kRxTcpGood, 500);
      rx(e, kRxUdpBad, 200);
      rx(e, kRxTcp6, 400);
      rx(e, kRxVlanOurs, 90, 0x42);
      rx(e, kRxRunt, 9);
      rx(e, kRxJumbo, 100);  // over RxMaxSize 0x4000? no: over the 2 KiB buffer
      drain(e);
      poll(e);
      ack(e);
      add("rx-classes" + mode, e);
    }
    {
      Encoder e = header(f);
      UpArgs a;
      a.accept = 0x3f;  // promiscuous, runts and errors too
      a.flags &= static_cast<uint8_t>(~kUpRxVlan);
      bring_up(e, a);
      rx(e, kRxOtherUnicast, 60);
      rx(e, kRxMulticast, 60, 0x99);
      rx(e, kRxVlanOurs, 90, 0x42);
      e.op(kReceiveRaw).u16(20);
      for (int i = 0; i < 20; i++) e.u8(0xff);
      drain(e);
      poll(e);
      add("rx-promisc" + mode, e);
    }
    {
      // Small RX FIFO, a short ring, frames faster than the guest re-arms:
      // back-pressure (receive() 0, rx_ready) and RxOverflow drops.
      Encoder e = header(f, {{"rx-fifo-size", 5, 0}});
      UpArgs a;
      a.rx_n = 2;
      bring_up(e, a);
      for (int i = 0; i < 12; i++) rx(e, kRxOurs, 1400, static_cast<uint8_t>(i));
      e.op(kCanReceive);
      step(e, kTimeSmall, 2000);
      poll(e);
      drain(e);
      poll(e);
      for (int i = 0; i < 4; i++) rx(e, kRxBroadcast, 1000);
      drain(e);
      add("rx-backpressure" + mode, e);
    }
    {
      Encoder e = header(f);
      bring_up(e);
      e.op(kPhy).u8(1).u8(0).u16(0);       // BMSR
      e.op(kPhy).u8(2).u8(0).u16(0);       // PHYSID1
      e.op(kPhy).u8(3).u8(0).u16(0);       // PHYSID2
      e.op(kPhy).u8(0x1f).u8(1).u16(1);    // page 1
      e.op(kPhy).u8(0x1f).u8(1).u16(0);    // page 0
      e.op(kPhy).u8(4).u8(1).u16(0x01e1);  // ADVERTISE
      e.op(kPhy).u8(0).u8(1).u16(0x9200);  // BMCR reset | ANENABLE | ANRESTART
      drain(e);
      e.op(kPhy).u8(1).u8(0).u16(0);
      e.op(kPhy).u8(0).u8(1).u16(0x0800);  // power down
      e.op(kSetLink).u8(0);
      e.op(kSetLink).u8(1);
      e.op(kPhy).u8(0).u8(1).u16(0x1000);
      drain(e);
      ack(e);
      add("phy" + mode, e);
    }
    {
      Encoder e = header(f);
      bring_up(e);
      tx(e, kTxKick, kRaw, 100);
      rx(e, kRxOurs, 100);
      drain(e);
      e.op(kTally).u8(kCounterDump).u8(kAddrRam).u32(0x0c00);  // dump
      e.op(kTally).u8(kCounterReset).u8(kAddrRam).u32(0x0c00);  // reset
      e.op(kTally).u8(kCounterDump).u8(kAddrBeyond).u32(0);    // dump to no RAM: SYSErr
      e.op(kTally).u8(0x9).u8(kAddrRamEnd).u32(8);
      ack(e);
      add("tally" + mode, e);
    }
    {
      // Save at rest, mid-DMA (timed: right after the doorbell) and with RX in
      // flight; load back, migrate, and load mutated copies.
      Encoder e = header(f);
      bring_up(e);
      e.op(kSave).u8(0);
      tx(e, kTxKick, kIpv4Tcp, 3000, 2);  // SG, as r8169 sends a frame with frags
      rx(e, kRxOurs, 300);
      e.op(kSave).u8(1);
      step(e, kTimeSmall, 3000);
      e.op(kSave).u8(2);
      drain(e);
      e.op(kLoad).u8(1).u8(0);
      drain(e);
      e.op(kMigrate).u8(2).u8(0);
      drain(e);
      e.op(kLoad).u8(0).u8(1).u8(kMutFlip).u32(3).u32(1);        // magic: refused
      e.op(kLoad).u8(1).u8(1).u8(kMutTruncate).u32(100).u32(0);  // truncated: refused
      e.op(kMigrate).u8(2).u8(1).u8(kMutAppend).u32(0).u32(7);   // trailing bytes: refused
      ack(e);
      add("state" + mode, e);
    }
    {
      // MSI: edges only, including one caused by an IntrMask write.
      Encoder e = header(f | kFlagMsi);
      UpArgs a;
      a.imask = 0;
      bring_up(e, a);
      tx(e, kTxKick, kRaw, 100);
      drain(e);
      e.op(kRegWriteKnown).u8(known_reg(kIntrMask)).u32(0xffff);  // an edge from the mask
      ack(e, false);
      rx(e, kRxOurs, 100);
      drain(e);
      e.op(kMsi).u8(0);
      rx(e, kRxOurs, 100);
      drain(e);
      ack(e);
      e.op(kMsi).u8(1);
      add("msi" + mode, e);
    }
    {
      // Interrupt moderation (IntrMitigate) timers.
      Encoder e = header(f);
      UpArgs a;
      a.mit = 0x5151;
      bring_up(e, a);
      for (int i = 0; i < 3; i++) tx(e, kTxKick, kRaw, 100);
      for (int i = 0; i < 3; i++) rx(e, kRxOurs, 100);
      drain(e);
      e.op(kRegWriteKnown).u8(known_reg(kIntrMitigate)).u32(0);  // off: release held events
      ack(e);
      add("mitigation" + mode, e);
    }
  }
  // The RTL8168evl profile (chip=8168evl: side buses, its TSO and short-frame
  // checksum defects, the generic PHY), functional and timed.
  for (uint8_t timed = 0; timed < 2; timed++) {
    const std::string mode = timed ? "-timed" : "-functional";
    const uint8_t f = timed ? kFlagTiming : 0;
    const std::vector<Param> evl = {{"chip", 3, 0}};
    {
      Encoder e = header(f, evl);
      bring_up(e);
      tx(e, kTxKick | kTxTso, kIpv4Tcp, 8000, 3, 1448);
      tx(e, kTxKick | kTxTso, kIpv4Tcp, 1454, 2, 1448);  // a last SG fragment of 6 bytes
      tx(e, kTxKick | kTxCsum, kIpv4Udp, 10);            // padded by the chip
      tx(e, kTxKick, kRaw, 600, 66);                     // SG without TSO
      drain(e);
      rx(e, kRxTcpGood, 500);
      drain(e);
      poll(e);
      ack(e);
      add("evl-traffic" + mode, e);
    }
    {
      // ERI / EPHY / CSI accesses (r8169 rtl_eri_read/write, rtl_ephy_write, rtl_csi_read),
      // saved while one is in flight, then a migration.
      Encoder e = header(f, evl);
      bring_up(e);
      e.op(kRegWriteKnown).u8(known_reg(kERIDR)).u32(0x12345678);
      e.op(kRegWriteKnown).u8(known_reg(kERIAR)).u32(0x8000f0d0);  // write, mask 0xf, ExGMAC 0xd0
      e.op(kSave).u8(0);
      drain(e, 2);
      e.op(kRegWriteKnown).u8(known_reg(kERIAR)).u32(0x0000f0d0);  // read
      e.op(kRegWriteKnown).u8(known_reg(kEPHYAR)).u32(0x80011234);  // write reg 1
      e.op(kSave).u8(1);
      e.op(kRegWriteKnown).u8(known_reg(kEPHYAR)).u32(0x00010000);  // read reg 1
      e.op(kRegWriteKnown).u8(known_reg(kCSIAR)).u32(0x0000f070);  // read 0x70
      e.op(kMigrate).u8(1).u8(0);
      drain(e);
      e.op(kLoad).u8(0).u8(0);
      drain(e);
      e.op(kPhy).u8(0x1f).u8(1).u16(0x0a43);  // a generic-PHY page
      e.op(kPhy).u8(0).u8(1).u16(0x9200);     // BMCR reset | ANENABLE | ANRESTART
      e.op(kSave).u8(2);
      drain(e);
      e.op(kMigrate).u8(2).u8(0);
      drain(e);
      add("evl-sidebus-state" + mode, e);
    }
  }
  // The RTL8168h profile (chip=8168h: parameter sel bit 2, the chips added
  // after the 8168evl): r8169's VER_46 ports, functional and timed. MAC OCP
  // through OCPDR (r8168_mac_ocp_write: OCPAR_FLAG | reg << 15 | data; the read
  // is the address written, then OCPDR read at once), the PHY through GPHY_OCP
  // (r8168_phy_ocp_write/read: bit 31 is the handshake r8169 polls), the link
  // list re-init at 0xe8de, the firmware's PHY patch request (0xb820 bit 4), an
  // OCP address out of the space and a GPHY command replaced in flight; MISC's
  // RXDV gate opened as rtl_hw_start_8168h_1 does, traffic both ways, a save
  // with a GPHY_OCP access in flight, then a migration.
  for (uint8_t timed = 0; timed < 2; timed++) {
    const std::string mode = timed ? "-timed" : "-functional";
    const uint8_t f = timed ? kFlagTiming : 0;
    const std::vector<Param> h = {{"chip", 7, 0}};
    const auto ocp = [](uint32_t reg) { return reg << 15; };
    constexpr uint32_t kFlag = 0x80000000u;
    Encoder e = header(f, h);
    bring_up(e);
    e.op(kRegWriteKnown).u8(known_reg(kOCPDR)).u32(ocp(0xe8de));  // the modify's read
    e.op(kRegReadRaw).u16(kOCPDR).u8(2);
    e.op(kRegWriteKnown).u8(known_reg(kOCPDR)).u32(kFlag | ocp(0xe8de) | 0x8000);  // BIT(15): re-init
    e.op(kRegReadRaw).u16(0xd3).u8(0);  // MCU: LINK_LIST_RDY low while the list re-inits
    drain(e, 2);
    e.op(kRegReadRaw).u16(0xd3).u8(0);
    e.op(kRegWriteKnown).u8(known_reg(kOCPDR)).u32(kFlag | ocp(0x1234) | 0xbeef);  // out of space
    e.op(kRegWriteKnown).u8(known_reg(kOCPDR)).u32(ocp(0x1234));
    e.op(kRegReadRaw).u16(kOCPDR).u8(2);
    e.op(kRegWriteKnown).u8(known_reg(kGPHY_OCP)).u32(kFlag | ocp(0xb820) | 0x0010);
    drain(e, 2);
    e.op(kRegWriteKnown).u8(known_reg(kGPHY_OCP)).u32(ocp(0xb800));  // patch ready?
    drain(e, 2);
    e.op(kRegReadRaw).u16(kGPHY_OCP).u8(2);
    e.op(kRegWriteKnown).u8(known_reg(kGPHY_OCP)).u32(kFlag | ocp(0xa400) | 0x9200);
    e.op(kRegWriteKnown).u8(known_reg(kGPHY_OCP)).u32(ocp(0xa402));  // replaces the write
    e.op(kSave).u8(0);
    drain(e, 2);
    e.op(kRegReadRaw).u16(kGPHY_OCP).u8(2);
    e.op(kRegWriteKnown).u8(known_reg(kMISC)).u32(0);  // RXDV_GATED_EN off
    tx(e, kTxKick | kTxTso, kIpv4Tcp, 8000, 3, 1448);
    tx(e, kTxKick | kTxCsum, kIpv4Udp, 10);
    drain(e);
    rx(e, kRxTcpGood, 500);
    rx(e, kRxOurs, 1500);
    drain(e);
    poll(e);
    ack(e);
    e.op(kMigrate).u8(0).u8(0);
    drain(e);
    e.op(kLoad).u8(0).u8(0);
    drain(e);
    add("h-ocp-traffic" + mode, e);
  }
  // The RTL8125B profile (chip=8125b: parameter sel 15, the second chip added
  // after the 8168evl): r8169's VER_63 traffic, functional and timed. The
  // target kicks and acks through the chip's own ports (the model's chip
  // list: the doorbell at 0x90, 32-bit IntrStatus/IntrMask at 0x3c/0x38).
  // rtl_hw_init_8125's link-list wait, the 8125 registers above the
  // 256-byte file (MAC0_BKP read, RSS_CTRL/Q_NUM_CTRL and the moderation
  // block written, an unimplemented address), the 16-byte descriptor format
  // (0xeb58 bit 0 cleared), the extended tally switched on (0xea84) and
  // dumped, the 2.5G advertisement (PHY OCP 0xa5d4) cleared and restored
  // with a restart, the FIFO-empty status at IntrMitigate after StopReq,
  // traffic on both TX queues (queue 1's ring at 0x2100) and in, a save with
  // a GPHY_OCP access in flight, a migration and a load.
  for (uint8_t timed = 0; timed < 2; timed++) {
    const std::string mode = timed ? "-timed" : "-functional";
    const uint8_t f = timed ? kFlagTiming : 0;
    const std::vector<Param> b = {{"chip", 15, 0}};
    const auto ocp = [](uint32_t reg) { return reg << 15; };
    constexpr uint32_t kFlag = 0x80000000u;
    const auto wr = [](Encoder& e, uint16_t off, uint8_t size_sel, uint64_t v) {
      e.op(kRegWriteRaw).u16(off).u8(size_sel).u64(v);  // size_sel: 0 = 1, 1 = 2, 2 = 4 bytes
    };
    const auto rd = [](Encoder& e, uint16_t off, uint8_t size_sel) { e.op(kRegReadRaw).u16(off).u8(size_sel); };
    Encoder e = header(f, b);
    e.op(kRegWriteKnown).u8(known_reg(kOCPDR)).u32(kFlag | ocp(0xe8de) | 0x0000);  // bit 14 cleared
    rd(e, 0xd3, 0);  // MCU: LINK_LIST_RDY low
    drain(e, 2);
    rd(e, 0xd3, 0);
    for (unsigned i = 0; i < 6; i++) rd(e, static_cast<uint16_t>(0x19e0 + i), 0);  // MAC0_BKP
    bring_up(e);
    wr(e, 0x4500, 0, 0);       // RSS_CTRL_8125 (8 bits, as r8169)
    wr(e, 0x4800, 1, 0);       // Q_NUM_CTRL_8125
    wr(e, 0x0a00, 2, 0);       // the moderation block
    wr(e, 0x0a7c, 2, 0xffffffffu);
    wr(e, 0x7a, 1, 0);         // INT_CFG1_8125
    wr(e, 0x8000, 2, 0x12345678u);  // unimplemented: reads 0
    rd(e, 0x8000, 2);
    e.op(kRegWriteKnown).u8(known_reg(kOCPDR)).u32(kFlag | ocp(0xeb58) | 0x0000);  // 16-byte descriptors
    e.op(kRegWriteKnown).u8(known_reg(kOCPDR)).u32(kFlag | ocp(0xea84) | 0x0003);  // extended tally
    e.op(kRegWriteKnown).u8(known_reg(kGPHY_OCP)).u32(kFlag | ocp(0xa5d4) | 0x0000);  // no 2.5G
    drain(e, 2);
    e.op(kRegWriteKnown).u8(known_reg(kGPHY_OCP)).u32(kFlag | ocp(0xa400) | 0x1200);  // AN restart
    drain(e);
    e.op(kRegWriteKnown).u8(known_reg(kGPHY_OCP)).u32(ocp(0xa434));  // PHYSR
    drain(e, 2);
    rd(e, 0xb8, 2);
    e.op(kRegWriteKnown).u8(known_reg(kGPHY_OCP)).u32(kFlag | ocp(0xa5d4) | 0x0080);  // 2.5G again
    drain(e, 2);
    e.op(kRegWriteKnown).u8(known_reg(kGPHY_OCP)).u32(kFlag | ocp(0xa400) | 0x1200);
    drain(e);
    wr(e, 0x2104, 2, 0);                                   // TX queue 1's ring, high
    wr(e, 0x2100, 2, 0x4000);                              // ... and low
    tx(e, kTxKick | kTxTso, kIpv4Tcp, 8000, 3, 1448);
    tx(e, kTxKick | kTxCsum | kTxHpq, kIpv4Udp, 10);
    drain(e);
    rx(e, kRxTcpGood, 500);
    rx(e, kRxOurs, 1500);
    drain(e);
    poll(e);
    ack(e);
    e.op(kTally).u8(kCounterDump).u8(kAddrRam).u32(0x0c00);  // 192 bytes
    drain(e, 2);
    e.op(kRegWriteKnown).u8(known_reg(kGPHY_OCP)).u32(ocp(0xa616));  // 2.5G ability, in flight
    e.op(kSave).u8(0);
    drain(e, 2);
    wr(e, 0x37, 0, 0x80);  // ChipCmd StopReq
    rd(e, 0xe2, 1);        // IntrMitigate: FIFO-empty status
    e.op(kMigrate).u8(0).u8(0);
    drain(e);
    e.op(kLoad).u8(0).u8(0);
    drain(e);
    add("b-traffic" + mode, e);
  }
  // The RTL8125B's multi-queue mode as Realtek's r8125 drives it
  // (docs/R8125.md "ISR v2 and per-queue vectors"): rings of two owned
  // descriptors for RX queues 1-3 (RDSAR_Q1 0x4000 + 8 (q - 1)), RSS with
  // the Microsoft key and a table spreading over the four queues, TCP
  // frames of eight flows in (the queues' descriptors posted again before
  // each phase); first ISR v1 with IMR1-IMR3 set (ISR1-ISR3 read and acked),
  // then with MSI on ISR v2 (INT_CFG0 bit 0, IMR_V2_SET for the RX queues,
  // TX queue 0 and the link), ISR_V2 read and acked, a message masked
  // through IMR_V2_CLEAR while its frame arrives and unmasked, MSI off
  // mid-flight and back, garbage in every per-queue register, the 32-byte
  // RxDescV3 (RxConfig bit 24) over rings laid out for 16 bytes, a save, a
  // migration and a load with ISR v2 on, and ISR v1 again.
  for (uint8_t timed = 0; timed < 2; timed++) {
    const std::string mode = timed ? "-timed" : "-functional";
    const uint8_t f = static_cast<uint8_t>((timed ? kFlagTiming : 0) | 1u << kFlagRamShift);  // 128 KiB
    const auto wr = [](Encoder& e, uint16_t off, uint8_t size_sel, uint64_t v) {
      e.op(kRegWriteRaw).u16(off).u8(size_sel).u64(v);
    };
    const auto rd = [](Encoder& e, uint16_t off, uint8_t size_sel) { e.op(kRegReadRaw).u16(off).u8(size_sel); };
    // A TCP/IPv4 frame of flow n, 10.0.n.1:4096 -> 10.0.1.1:80 (checksums
    // left 0: the RSS hash is what matters). Under the Microsoft key and the
    // table below flows 0-7 land on queues 2, 1, 1, 2, 3, 0, 0, 3.
    const auto tcp_frame = [](unsigned n) {
      std::vector<uint8_t> fr = {0x02, 0, 0, 0, 0, 0x01, 0x02, 0, 0, 0, 0, 0x02, 0x08, 0x00,
                                 0x45, 0, 0, 60, 0, 0, 0x40, 0, 64, 6, 0, 0,
                                 10, 0, static_cast<uint8_t>(n), 1, 10, 0, 1, 1,
                                 0x10, 0x00, 0x00, 80};
      fr.resize(14 + 60, 0);
      fr[14 + 20 + 12] = 0x50;  // TCP data offset
      return fr;
    };
    const auto frame_in = [&](Encoder& e, unsigned n) {
      const std::vector<uint8_t> fr = tcp_frame(n);
      e.op(kReceiveRaw).u16(static_cast<unsigned>(fr.size()));
      for (uint8_t b : fr) e.u8(b);
    };
    constexpr uint32_t kQueueRings = 0x10000, kQueueBufs = 0x11000;
    Encoder e = header(f, {{"chip", 15, 0}});
    UpArgs up;
    up.accept |= 0x01;  // AcceptAllPhys: every flow's frame is taken
    bring_up(e, up);
    // (Re)post both descriptors of queues 1-3, as a driver's RX poll does.
    const auto post_queues = [&](Encoder& enc) {
      for (unsigned q = 1; q < 4; q++) {
        const uint32_t ring = kQueueRings + (q - 1) * 0x100;
        for (unsigned slot = 0; slot < 2; slot++) {
          const uint32_t opts1 = 0x80000000u | (slot == 1 ? 0x40000000u : 0) | 0x800;  // Own, EOR, 2 KiB
          const uint32_t buf = kQueueBufs + ((q - 1) * 2 + slot) * 0x800;
          enc.op(kMemWrite).u32(ring + 16 * slot).u8(16).u32(opts1).u32(0).u32(buf).u32(0);
        }
      }
    };
    post_queues(e);
    for (unsigned q = 1; q < 4; q++) {
      const uint32_t ring = kQueueRings + (q - 1) * 0x100;
      wr(e, static_cast<uint16_t>(0x4000 + 8 * (q - 1) + 4), 2, 0);
      wr(e, static_cast<uint16_t>(0x4000 + 8 * (q - 1)), 2, ring);
    }
    static constexpr uint8_t kKey[40] = {
        0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3,
        0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3,
        0x80, 0x30, 0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa};
    for (unsigned i = 0; i < 40; i += 4) {
      wr(e, static_cast<uint16_t>(0x4600 + i), 2,
         kKey[i] | kKey[i + 1] << 8 | kKey[i + 2] << 16 | static_cast<uint32_t>(kKey[i + 3]) << 24);
    }
    for (unsigned i = 0; i < 128; i += 4) wr(e, static_cast<uint16_t>(0x4700 + i), 2, 0x03020100u);
    wr(e, 0x4500, 2, 0x0f | 7u << 8 | 2u << 16);  // RSS_CTRL: TCP/IP types, 128 entries, 4 rings
    // ISR v1 with the queue registers.
    for (unsigned q = 1; q < 4; q++) wr(e, static_cast<uint16_t>(0x800 + 4 * (q - 1)), 1, 0x0003);
    for (unsigned n = 0; n < 5; n++) frame_in(e, n);  // queues 2, 1, 1, 2, 3
    drain(e);
    for (unsigned q = 1; q < 4; q++) {
      rd(e, static_cast<uint16_t>(0x802 + 4 * (q - 1)), 1);
      wr(e, static_cast<uint16_t>(0x802 + 4 * (q - 1)), 1, 0xffff);
    }
    poll(e);
    ack(e);
    // ISR v2, with MSI (each message its own).
    post_queues(e);
    e.op(kMsi).u8(1);
    wr(e, 0x34, 0, 0x01);
    wr(e, 0xd0c, 2, 0x000f | 1u << 16 | 1u << 21);
    for (unsigned n = 4; n < 8; n++) frame_in(e, n);  // queues 3, 0, 0, 3
    frame_in(e, 1);                                   // queue 1
    tx(e, kTxKick, kIpv4Tcp, 200);
    drain(e);
    rd(e, 0xd04, 2);
    wr(e, 0xd04, 2, 0xffffffffu);
    poll(e);
    post_queues(e);
    wr(e, 0xd00, 2, 0x0000000fu);  // masked while frames arrive
    frame_in(e, 1);  // queue 1
    frame_in(e, 0);  // queue 2
    drain(e);
    wr(e, 0xd0c, 2, 0x0000000fu);  // unmasked: the pending messages go
    wr(e, 0xd04, 2, 0xffffffffu);
    e.op(kMsi).u8(0);  // MSI off mid-flight: INTx
    frame_in(e, 3);    // queue 2
    drain(e);
    e.op(kMsi).u8(1);
    wr(e, 0xd04, 2, 0xffffffffu);
    for (uint16_t off = 0x800; off < 0x80c; off += 2) wr(e, off, 1, 0xa5a5);
    for (uint16_t off = 0xd00; off < 0xd10; off += 4) wr(e, off, 2, 0xa5a5a5a5u);
    rd(e, 0xd04, 2);
    // RxDescV3 over the 16-byte rings (RX_FETCH_DFLT_8125 | RX_DMA_BURST |
    // RX_PAUSE_SLOT_ON | the accept bits, and EnableRxDescV3).
    poll(e);
    post_queues(e);
    wr(e, 0x44, 2, 0x40000f0fu | 1u << 24);
    for (unsigned n = 0; n < 4; n++) frame_in(e, n);
    drain(e);
    e.op(kSave).u8(0);
    drain(e, 2);
    e.op(kMigrate).u8(0).u8(0);
    drain(e);
    e.op(kLoad).u8(0).u8(0);
    drain(e);
    wr(e, 0x34, 0, 0x00);  // ISR v1 again
    frame_in(e, 5);
    drain(e);
    poll(e);
    ack(e);
    add("b-mq-isr2" + mode, e);
  }
  {
    // Lossy TxPoll (RTL8168 quirk): a doorbell while the engine is busy is lost.
    Encoder e = header(kFlagTiming | kFlagLossy);
    bring_up(e);
    tx(e, kTxKick, kRaw, 1500);
    step(e, kTimeSmall, 100);
    tx(e, kTxKick, kRaw, 1500);
    step(e, kTimeSmall, 100);
    tx(e, kTxKick, kRaw, 60);
    drain(e);
    e.op(kDoorbell).u8(kNPQ);
    drain(e);
    add("lossy-txpoll", e);
  }
  {
    // Re-entry: loopback from transmit() (slirp answering at once) in
    // promiscuous mode, ISR reads/acks, doorbells and saves from callbacks.
    Encoder e = header(kFlagReenter | kFlagRxReadyNow, {},
                       {kReLoopback, kReAckIsr, kReLoopback, kReDoorbell, kReSave, kReCanReceive,
                        kReTimer, kReReadIsr});
    UpArgs a;
    a.accept = 0x0f;
    bring_up(e, a);
    for (int i = 0; i < 6; i++) tx(e, kTxKick, kRaw, static_cast<uint16_t>(100 + 200 * i));
    tx(e, kTxKick | kTxTso, kIpv4Tcp, 6000, 2, 1000);
    drain(e);
    poll(e);
    ack(e);
    add("reentry", e);
  }
  {
    // Hostile rings: a descriptor pointing into the ring itself, buffers
    // across the end of RAM and beyond it, an address that wraps, a frame
    // without LastFrag, too many fragments.
    Encoder e = header(0);
    bring_up(e);
    e.op(kMemDesc).u8(0).u8(0).u32(0xb0000040).u32(0).u8(kAddrTxRing).u32(0);
    e.op(kDoorbell).u8(kNPQ);
    tx(e, kTxKick | kTxCrossEnd, kRaw, 800, 2);
    tx(e, kTxKick | kTxBadAddr, kRaw, 800, 2);
    e.op(kMemDesc).u8(0).u8(3).u32(0xb0000100).u32(0).u8(kAddrHuge).u32(0);
    e.op(kDoorbell).u8(kNPQ);
    tx(e, kTxKick | kTxNoLast, kRaw, 300, 2);
    tx(e, kTxKick, kRaw, 3000, 0);  // frags-1 = 0xff: 66 fragments
    e.op(kMemDesc).u8(2).u8(0).u32(0x80000800).u32(0).u8(kAddrRxRing).u32(0);
    rx(e, kRxOurs, 200);
    e.op(kMemDesc).u8(2).u8(1).u32(0x80000800).u32(0).u8(kAddrRamEnd).u32(4);
    rx(e, kRxOurs, 200);
    drain(e);
    ack(e);
    add("hostile-rings", e);
  }
  {
    // DMA fault windows: reads fail, then writes fail, then only a window.
    Encoder e = header(0);
    bring_up(e);
    e.op(kFault).u8(1).u32(0).u16(0);
    tx(e, kTxKick, kRaw, 100);
    rx(e, kRxOurs, 100);
    e.op(kFault).u8(2).u32(0).u16(0);
    tx(e, kTxKick, kRaw, 100);
    rx(e, kRxOurs, 100);
    e.op(kFault).u8(4 | 3).u32(0x1000).u16(0x800);  // RX buffer 0 only
    rx(e, kRxOurs, 100);
    e.op(kFault).u8(0).u32(0).u16(0);
    tx(e, kTxKick, kRaw, 100);
    drain(e);
    ack(e);
    add("dma-faults", e);
  }
  {
    // Register file edges: every size at odd and high offsets (BAR2 above
    // 0xff, beyond the BAR), locked registers, W1C, TCTR/TimerInt.
    Encoder e = header(0);
    const unsigned offs[] = {0x00, 0x01, 0x37,  0x3d,  0x3e,  0x3f,  0xfc,
                             0xfe, 0xff, 0x100, 0xffc, 0xfff, 0x1000};
    for (unsigned off : offs) {
      for (uint8_t sz = 0; sz < 8; sz++) {
        e.op(kRegReadRaw).u16(off).u8(sz);
        e.op(kRegWriteRaw).u16(off).u8(sz).u64(0xa5a5a5a5a5a5a5a5ull);
      }
    }
    e.op(kRegWriteKnown).u8(known_reg(kTCTR)).u32(0);
    e.op(kRegWriteKnown).u8(known_reg(kTimerInt)).u32(0x1000);
    e.op(kRegWriteKnown).u8(known_reg(kIntrMask)).u32(kPCSTimeout);
    step(e, kTimeBig, 100000);
    ack(e);
    add("registers", e);
  }
  {
    Encoder e = header(kFlagTiming, {{"pcie-read-latency", 64, 10000}, {"tx-mxdma", 2, 0}});
    bring_up(e);
    for (int i = 0; i < 8; i++) tx(e, kTxKick, kRaw, 1500, 2);
    for (int i = 0; i < 5; i++) step(e, kTimeSmall, 4000);
    e.op(kSave).u8(0);
    e.op(kSetLink).u8(0);
    e.op(kSave).u8(1);
    drain(e);
    e.op(kMigrate).u8(0).u8(0);
    drain(e);
    add("timed-burst-link-flap", e);
  }
  // Fault injection (docs/FAULTS.md): every class, functional and timed,
  // with the state saved and migrated while faults are pending.
  for (uint8_t timed = 0; timed < 2; timed++) {
    const std::string mode = timed ? "-timed" : "-functional";
    const uint8_t f = timed ? kFlagTiming : 0;
    {
      Encoder e = header(f);
      bring_up(e);
      fault(e, kFaultDmaRead, 0, 0, 0);           // the next read fails
      tx(e, kTxKick, kRaw, 100);
      fault(e, kFaultDmaWrite, 1, 0, 1);          // the 2nd write, twice
      rx(e, kRxOurs, 100);
      rx(e, kRxOurs, 100);
      fault(e, kFaultDmaWriteWin, 0x0000, 0x3ff, 0);  // NPQ ring write-backs (count 1)
      tx(e, kTxKick, kRaw, 200);
      drain(e);
      ack(e);
      bring_up(e);  // the driver's reset after SYSErr
      tx(e, kTxKick, kRaw, 200);
      fault(e, kFaultList);
      drain(e);
      add("faults-dma" + mode, e);
    }
    {
      Encoder e = header(f);
      bring_up(e);
      fault(e, kFaultRxWithhold, 0, 0, 3);  // 4 descriptor fetches find nothing
      fault(e, kFaultRxFifoOver, 5, 0, 0);
      for (int i = 0; i < 8; i++) rx(e, kRxOurs, 300, static_cast<uint8_t>(i));
      drain(e);
      poll(e);
      ack(e);
      add("faults-rx" + mode, e);
    }
    {
      Encoder e = header(f | kFlagMsi);
      bring_up(e);
      fault(e, kFaultAutonegSlow, 2'000'000, 0, 0);
      fault(e, kFaultLink, 100'000, 0, 0);    // down
      fault(e, kFaultLink, 300'000, 0, 1);    // up
      fault(e, kFaultLink, 600'000, 1, 3);    // speed 100, full
      fault(e, kFaultLink, 900'000, 5000, 2); // flap every 15 us, 3 times
      fault(e, kFaultSpuriousIrq, 50'000, 0x8000, 3);  // SYSErr|RxOK, every 10 us, 4 times
      step(e, kTimeBig, 5'000'000);
      ack(e);
      fault(e, kFaultIrqRaceAck, 0, 0, 0x80);  // pull events after every ack
      tx(e, kTxKick, kRaw, 1500);
      rx(e, kRxOurs, 700);
      ack(e);
      ack(e);
      fault(e, kFaultClear);
      fault(e, kFaultIrqRaceRead, 0, 0x0004, 1);  // TxOK after 2 reads
      ack(e, false);
      ack(e, false);
      drain(e);
      add("faults-link-irq" + mode, e);
    }
    {
      Encoder e = header(f);
      bring_up(e);
      fault(e, kFaultTxStopFetch, 2, 0, 0);  // frame 3 is never fetched
      for (int i = 0; i < 4; i++) tx(e, kTxKick, kRaw, 100);
      drain(e);
      e.op(kSave).u8(0);
      e.op(kMigrate).u8(0).u8(0);
      e.op(kRegWriteKnown).u8(known_reg(kChipCmd)).u32(kCmdRxEnb);  // TxEnb off restarts the engine
      e.op(kRegWriteKnown).u8(known_reg(kChipCmd)).u32(kCmdTxEnb | kCmdRxEnb);
      e.op(kDoorbell).u8(kNPQ);
      drain(e);
      add("faults-tx-stall" + mode, e);
    }
  }
  {
    // Faults pending across save, load, migration and reset; specs of raw
    // bytes (refused) and a full schedule.
    Encoder e = header(kFlagTiming);
    bring_up(e);
    fault(e, kFaultSpuriousIrq, 2'000'000, 0x0100, 0);
    fault(e, kFaultRxWithhold, 0, 1, 1);
    fault(e, kFaultAutonegSlow, 1'000'000, 0, 1);
    rx(e, kRxOurs, 100);
    e.op(kSave).u8(0);
    e.op(kLoad).u8(0).u8(1).u8(kMutByte).u32(100000).u32(0x41);  // into the fault text, mostly
    e.op(kMigrate).u8(0).u8(0);
    step(e, kTimeBig, 3'000'000);
    for (int i = 0; i < 34; i++) fault(e, kFaultDmaRead, 1000 + i, 0, 0);  // 32 fit
    e.op(kReset);
    const char raw[] = "link:at=+1ms,flap,every=10us,count=all;dma-read:nth=0;garbage";
    e.op(kFaultSpec).u8(kFaultRaw).u32(sizeof raw - 1).u32(0).u8(0);
    for (char ch : std::string(raw)) e.u8(static_cast<uint8_t>(ch));
    e.op(kFaultSpec).u8(kFaultRaw).u32(40).u32(0).u8(0);
    for (int i = 0; i < 40; i++) e.u8(static_cast<uint8_t>(0xf0 + i));
    fault(e, kFaultList);
    add("faults-state-hostile", e);
  }
  // Issue 7's defects, one seed each: 1, 3, 4 and 7 broke an invariant of the
  // target on the model before 3a8cf17 (regressions/README.md); 6 is coverage.
  {
    // 1: the state blob after an SG frame was refused (cur_desc_ kept).
    Encoder e = header(0);
    bring_up(e);
    tx(e, kTxKick, kRaw, 100, 2);
    e.op(kSave).u8(0);
    e.op(kMigrate).u8(0).u8(0);
    add("issue7-sg-state", e);
  }
  {
    // 3: a 1-entry ring holding one TSO descriptor, MSS 1, write-backs failing
    // (read-only ring): one doorbell re-segmented it without bound.
    Encoder e = header(0);
    UpArgs a;
    a.tx_n = 1;
    bring_up(e, a);
    e.op(kFault).u8(4 | 2).u32(0).u16(0x3ff);  // writes to the NPQ ring fail
    tx(e, kTxKick | kTxTso, kIpv4Tcp, 6000, 1, 1);
    drain(e, 4);
    add("issue7-tso-readonly-ring", e);
  }
  {
    // 4: stats not zero after rtl8168_reset with frames in the RX FIFO.
    Encoder e = header(kFlagTiming);
    bring_up(e);
    rx(e, kRxOurs, 1000);
    rx(e, kRxOurs, 1000);
    e.op(kReset);
    add("issue7-reset-stats", e);
  }
  {
    // 6: TimerInt raises PCSTimeout when TCTR reaches it.
    Encoder e = header(kFlagTiming);
    bring_up(e);
    e.op(kRegWriteKnown).u8(known_reg(kIntrMask)).u32(kPCSTimeout);
    e.op(kRegWriteKnown).u8(known_reg(kTimerInt)).u32(1000);
    e.op(kRegWriteKnown).u8(known_reg(kTCTR)).u32(0);  // reset the count
    drain(e, 8);
    ack(e);
    drain(e, 8);
    add("issue7-chip-timer", e);
  }
  {
    // 7: receive(NULL, len) returned len without counting.
    Encoder e = header(0);
    bring_up(e);
    e.op(kNullReceive).u16(64);
    add("issue7-null-receive", e);
  }
  return s;
}

std::vector<uint8_t> read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc == 3 ? argv[1] : "";
  if (mode != "--out" && mode != "--check") {
    std::fprintf(stderr, "usage: %s --out DIR | --check DIR\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir = argv[2];
  const auto all = seeds();
  if (mode == "--out") {
    std::filesystem::create_directories(dir);
    for (const auto& [name, bytes] : all) {
      std::ofstream out(dir / name, std::ios::binary | std::ios::trunc);
      out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<long>(bytes.size()));
      if (!out) {
        std::fprintf(stderr, "rtl8168-fuzz-seeds: cannot write %s\n", (dir / name).c_str());
        return 1;
      }
    }
    std::printf("rtl8168-fuzz-seeds: wrote %zu seeds to %s\n", all.size(), dir.c_str());
    return 0;
  }
  int bad = 0;
  for (const auto& [name, bytes] : all) {
    if (read_file(dir / name) != bytes) {
      std::fprintf(stderr, "rtl8168-fuzz-seeds: %s is missing or stale\n", name.c_str());
      bad = 1;
    }
  }
  if (bad) {
    std::fprintf(stderr, "regenerate: rtl8168-fuzz-seeds --out %s\n", dir.c_str());
  }
  return bad;
}
