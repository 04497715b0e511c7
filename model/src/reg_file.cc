// SPDX-License-Identifier: GPL-2.0-or-later
#include "reg_file.h"

namespace rtl8168sim {

using namespace reg;
static_assert(kFileSize <= RegLayout::kMaxWindow);

RegFile::RegFile(const RegLayout& layout) : layout_(&layout) { reset(); }

void RegFile::reset() {
  std::array<uint8_t, 6> mac;
  for (int i = 0; i < 6; i++) mac[i] = bytes_[i];
  for (unsigned i = 0; i < kFileSize; i++) bytes_[i] = layout_->reset[i];
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
    if (layout_->locked[at] && !open) continue;  // Cfg9346 lock (datasheet §Cfg9346)
    uint8_t cur = bytes_[at];
    cur = static_cast<uint8_t>((cur & ~layout_->wmask[at]) | (v & layout_->wmask[at]));
    cur = static_cast<uint8_t>(cur & ~(v & layout_->w1c[at]));
    bytes_[at] = cur;
    if (layout_->hook[at] != Hook::None) {
      const uint8_t start = layout_->reg_start[at];
      bool seen = false;
      for (unsigned k = 0; k < t.count; k++) seen |= t.offsets[k] == start;
      if (!seen && t.count < t.offsets.size()) t.offsets[t.count++] = start;
    }
  }
  return t;
}

const char* RegFile::check_fixed_bits(const ChipProfile& p) const {
  const IrqRegs& irq = p.irq;
  RegFile fresh(*layout_);
  fresh.set32(TxConfig, p.txconfig_reset);
  for (unsigned i = 0; i < kFileSize; i++) {
    if (!layout_->known[i]) continue;  // plain storage: any value
    uint8_t device_set = 0;          // bits the device stores itself (set8/set16/set32)
    if ((i >= irq.status && i < irq.status + irq.width) ||
        (i >= PHYstatus && i < PHYstatus + p.phystatus_width)) {
      device_set = 0xff;
    }
    if (i == ChipCmd) device_set = RxBufEmpty;
    const uint8_t fixed = static_cast<uint8_t>(~layout_->wmask[i] & ~device_set);
    // e.g. TxPoll (stores nothing: a stored bit would read back as a doorbell
    // in progress forever), TCTR's storage, the rings' alignment bits, XID.
    if ((bytes_[i] ^ fresh.bytes_[i]) & fixed) return "register bits a guest cannot write differ from power-on";
  }
  return nullptr;
}

bool RegFile::implemented(uint32_t off, unsigned size) const {
  for (unsigned i = 0; i < size && off + i < kFileSize; i++) {
    if (layout_->known[off + i]) return true;
  }
  return false;
}

}  // namespace rtl8168sim
