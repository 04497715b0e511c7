// SPDX-License-Identifier: GPL-2.0-or-later
#include "reg_file.h"

#include <algorithm>

namespace rtl8168sim {

using namespace reg;
static_assert(kFileSize <= RegLayout::kMaxWindow);
static_assert(sizeof(bool) == 1);  // RegLayout::known read as bytes (implemented)

RegFile::RegFile(const RegLayout& layout) : layout_(&layout) { reset(); }

void RegFile::reset() {
  std::array<uint8_t, 6> mac;
  for (int i = 0; i < 6; i++) mac[i] = bytes_[i];
  for (unsigned i = 0; i < kFileSize; i++) bytes_[i] = layout_->reset[i];
  for (int i = 0; i < 6; i++) bytes_[i] = mac[i];
}

uint64_t RegFile::read(uint32_t off, unsigned size) const { return load_le(&bytes_[off], size); }

// The access at once: each byte takes its writable bits from the value and
// loses the write-1-to-clear bits written as 1, unless Cfg9346 locks it (a
// locked byte keeps its value and touches no hook). Accesses are 1, 2 or 4
// bytes inside the file (Device::reg_write).
RegFile::Touched RegFile::write(uint32_t off, unsigned size, uint64_t value) {
  Touched t;
  const bool open = unlocked();
  uint64_t wmask = load_le(&layout_->wmask[off], size);
  uint64_t w1c = load_le(&layout_->w1c[off], size);
  if (!open) {
    uint8_t locked[8];
    for (unsigned i = 0; i < size; i++) locked[i] = layout_->locked[off + i] ? 0xff : 0;  // Cfg9346 lock (datasheet §Cfg9346)
    const uint64_t keep = load_le(locked, size);
    wmask &= ~keep;
    w1c &= ~keep;
  }
  uint64_t cur = load_le(&bytes_[off], size);
  cur = ((cur & ~wmask) | (value & wmask)) & ~(value & w1c);
  store_le(&bytes_[off], size, cur);
  for (unsigned i = 0; i < size; i++) {
    const unsigned at = off + i;
    if (layout_->hook[at] == Hook::None || (layout_->locked[at] && !open)) continue;
    const uint8_t start = layout_->reg_start[at];
    if (t.count > 0 && t.offsets[t.count - 1] == start) continue;  // the register's next byte
    bool seen = false;
    for (unsigned k = 0; k < t.count; k++) seen |= t.offsets[k] == start;
    if (!seen && t.count < t.offsets.size()) t.offsets[t.count++] = start;
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
  if (off >= kFileSize) return false;
  const unsigned n = std::min(size, kFileSize - off);
  if (n == 1 || n == 2 || n == 4) {
    // `known` holds 0 or 1 per byte: any byte of the access known.
    return load_le(reinterpret_cast<const uint8_t*>(&layout_->known[off]), n) != 0;
  }
  for (unsigned i = 0; i < n; i++) {
    if (layout_->known[off + i]) return true;
  }
  return false;
}

}  // namespace rtl8168sim
