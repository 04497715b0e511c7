// SPDX-License-Identifier: GPL-2.0-or-later
#include "reg_file.h"

namespace rtl8168sim {
namespace {

using namespace reg;
constexpr uint32_t kAll = 0xffffffffu;

// Register table for the RTL8168c. Sources: r8169_main.c register enums and
// the probe/open traffic (docs/R8169.md §2, §A); RTL8169 datasheet Rev 1.21.
// Bytes not covered here are plain read/write storage.
constexpr RegSpec kTable[] = {
    {MAC0, 4, "MAC0", 0, kAll, 0, true, Hook::None},
    {MAC4, 2, "MAC4", 0, 0xffff, 0, true, Hook::None},
    {MAR0, 4, "MAR0", 0, kAll, 0, false, Hook::None},
    {MAR4, 4, "MAR4", 0, kAll, 0, false, Hook::None},
    // Command bits self-clear when the dump/reset is done (r8169 rtl_counters_cond).
    {CounterAddrLow, 4, "CounterAddrLow", 0, 0xffffffc9u, 0, false, Hook::CounterAddrLow},
    {CounterAddrHigh, 4, "CounterAddrHigh", 0, kAll, 0, false, Hook::None},
    {LED_CTRL, 4, "LED_CTRL", 0, kAll, 0, false, Hook::None},
    // Descriptor rings are 256-byte aligned (datasheet): low bits read 0.
    {TxDescStartAddrLow, 4, "TxDescStartAddrLow", 0, 0xffffff00u, 0, false, Hook::None},
    {TxDescStartAddrHigh, 4, "TxDescStartAddrHigh", 0, kAll, 0, false, Hook::None},
    {TxHDescStartAddrLow, 4, "TxHDescStartAddrLow", 0, 0xffffff00u, 0, false, Hook::None},
    {TxHDescStartAddrHigh, 4, "TxHDescStartAddrHigh", 0, kAll, 0, false, Hook::None},
    // Bit 0 (RxBufEmpty) is status; reset self-clears (r8169 rtl_chipcmd_cond).
    {ChipCmd, 1, "ChipCmd", RxBufEmpty, CmdStopReq | CmdReset | CmdRxEnb | CmdTxEnb, 0, false, Hook::ChipCmd},
    {TxPoll, 1, "TxPoll", 0, 0, 0, false, Hook::TxPoll},
    {IntrMask, 2, "IntrMask", 0, 0xffff, 0, false, Hook::IntrMask},
    {IntrStatus, 2, "IntrStatus", 0, 0, 0xffff, false, Hook::IntrStatus},
    {TxConfig, 4, "TxConfig", 0 /* profile */, ~kTxConfigXidMask, 0, false, Hook::None},
    {RxConfig, 4, "RxConfig", 0, kAll, 0, false, Hook::None},
    // TCTR reads the live count (chip_timer.h); a write stores nothing and restarts it.
    {TCTR, 4, "TCTR", 0, 0, 0, false, Hook::TimerCount},
    {RxMissed, 4, "RxMissed", 0, kAll, 0, false, Hook::None},
    {Cfg9346, 1, "Cfg9346", 0, 0xcf, 0, false, Hook::None},
    {Config0, 1, "Config0", 0, 0xff, 0, true, Hook::None},
    {Config1, 1, "Config1", 0, 0xff, 0, true, Hook::None},
    {Config2, 1, "Config2", 0, 0xff, 0, true, Hook::None},
    {Config3, 1, "Config3", 0, 0xff, 0, true, Hook::None},
    {Config4, 1, "Config4", 0, 0xff, 0, true, Hook::None},
    {Config5, 1, "Config5", 0, 0xff, 0, true, Hook::None},
    {TimerInt, 4, "TimerInt", 0, kAll, 0, false, Hook::TimerCompare},
    {PHYAR, 4, "PHYAR", 0, kAll, 0, false, Hook::Phyar},
    {CSIDR, 4, "CSIDR", 0, kAll, 0, false, Hook::None},
    {CSIAR, 4, "CSIAR", 0, kAll, 0, false, Hook::Csiar},
    {PHYstatus, 1, "PHYstatus", 0, 0, 0, false, Hook::None},
    {ERIDR, 4, "ERIDR", 0, kAll, 0, false, Hook::None},
    {ERIAR, 4, "ERIAR", 0, kAll, 0, false, Hook::Eriar},
    {EPHYAR, 4, "EPHYAR", 0, kAll, 0, false, Hook::Ephyar},
    {OCPDR, 4, "OCPDR", 0, kAll, 0, false, Hook::None},
    {OCPAR, 4, "OCPAR", 0, kAll, 0, false, Hook::Ocpar},
    {GPHY_OCP, 4, "GPHY_OCP", 0, kAll, 0, false, Hook::GphyOcp},
    {RxMaxSize, 2, "RxMaxSize", 0, 0xffff, 0, false, Hook::None},
    {CPlusCmd, 2, "CPlusCmd", 0, 0xffff, 0, false, Hook::None},
    {IntrMitigate, 2, "IntrMitigate", 0, 0xffff, 0, false, Hook::IntrMitigate},
    {RxDescAddrLow, 4, "RxDescAddrLow", 0, 0xffffff00u, 0, false, Hook::None},
    {RxDescAddrHigh, 4, "RxDescAddrHigh", 0, kAll, 0, false, Hook::None},
};

struct ByteInfo {
  std::array<uint8_t, kFileSize> wmask{};
  std::array<uint8_t, kFileSize> w1c{};
  std::array<bool, kFileSize> locked{};
  std::array<uint8_t, kFileSize> reg_start{};
  std::array<Hook, kFileSize> hook{};
  std::array<bool, kFileSize> known{};  // covered by kTable
  constexpr ByteInfo() {
    for (unsigned i = 0; i < kFileSize; i++) {
      wmask[i] = 0xff;
      reg_start[i] = static_cast<uint8_t>(i);
      hook[i] = Hook::None;
    }
    for (const RegSpec& r : kTable) {
      for (unsigned b = 0; b < r.width; b++) {
        const unsigned i = r.offset + b;
        wmask[i] = static_cast<uint8_t>(r.writable >> (8 * b));
        w1c[i] = static_cast<uint8_t>(r.w1c >> (8 * b));
        locked[i] = r.locked;
        reg_start[i] = r.offset;
        hook[i] = r.hook;
        known[i] = true;
      }
    }
  }
};
constexpr ByteInfo kBytes{};

}  // namespace

RegFile::RegFile() { reset(); }

void RegFile::reset() {
  std::array<uint8_t, 6> mac;
  for (int i = 0; i < 6; i++) mac[i] = bytes_[i];
  bytes_.fill(0);
  for (const RegSpec& r : kTable) {
    for (unsigned b = 0; b < r.width; b++) bytes_[r.offset + b] = static_cast<uint8_t>(r.reset >> (8 * b));
  }
  for (int i = 0; i < 6; i++) bytes_[i] = mac[i];
}

uint64_t RegFile::read(uint32_t off, unsigned size) const {
  uint64_t v = 0;
  for (unsigned i = 0; i < size; i++) v |= static_cast<uint64_t>(bytes_[off + i]) << (8 * i);
  return v;
}

RegFile::Touched RegFile::write(uint32_t off, unsigned size, uint64_t value) {
  Touched t;
  const bool open = unlocked();
  for (unsigned i = 0; i < size; i++) {
    const unsigned at = off + i;
    const uint8_t v = static_cast<uint8_t>(value >> (8 * i));
    if (kBytes.locked[at] && !open) continue;  // Cfg9346 lock (datasheet §Cfg9346)
    uint8_t cur = bytes_[at];
    cur = static_cast<uint8_t>((cur & ~kBytes.wmask[at]) | (v & kBytes.wmask[at]));
    cur = static_cast<uint8_t>(cur & ~(v & kBytes.w1c[at]));
    bytes_[at] = cur;
    if (kBytes.hook[at] != Hook::None) {
      const uint8_t start = kBytes.reg_start[at];
      bool seen = false;
      for (unsigned k = 0; k < t.count; k++) seen |= t.offsets[k] == start;
      if (!seen && t.count < t.offsets.size()) t.offsets[t.count++] = start;
    }
  }
  return t;
}

const char* RegFile::check_fixed_bits(uint32_t txconfig_reset) const {
  RegFile fresh;
  fresh.set32(TxConfig, txconfig_reset);
  for (unsigned i = 0; i < kFileSize; i++) {
    if (!kBytes.known[i]) continue;  // plain storage: any value
    uint8_t device_set = 0;          // bits the device stores itself (set8/set16/set32)
    if (i == IntrStatus || i == IntrStatus + 1u || i == PHYstatus) device_set = 0xff;
    if (i == ChipCmd) device_set = RxBufEmpty;
    const uint8_t fixed = static_cast<uint8_t>(~kBytes.wmask[i] & ~device_set);
    // e.g. TxPoll (stores nothing: a stored bit would read back as a doorbell
    // in progress forever), TCTR's storage, the rings' alignment bits, XID.
    if ((bytes_[i] ^ fresh.bytes_[i]) & fixed) return "register bits a guest cannot write differ from power-on";
  }
  return nullptr;
}

Hook RegFile::hook_of(uint32_t reg_offset) { return kBytes.hook[reg_offset & 0xff]; }

bool RegFile::implemented(uint32_t off, unsigned size) {
  for (unsigned i = 0; i < size && off + i < kFileSize; i++) {
    if (kBytes.known[off + i]) return true;
  }
  return false;
}

}  // namespace rtl8168sim
