// SPDX-License-Identifier: GPL-2.0-or-later
#include "wide_regs.h"

namespace rtl8168sim {

WideRegs::WideRegs(std::span<const WideRegSpec> rows) : rows_(rows) {
  uint32_t n = 0;
  for (const WideRegSpec& r : rows_) {
    start_.push_back(n);
    n += r.size;
  }
  bytes_.assign(n, 0);
}

void WideRegs::power_on(std::span<const uint8_t, 6> mac) {
  for (size_t i = 0; i < rows_.size(); i++) {
    const WideRegSpec& r = rows_[i];
    for (unsigned b = 0; b < r.size; b++) {
      uint8_t v = 0;
      if (r.init == WideReset::StationAddress) {
        v = b < mac.size() ? mac[b] : 0;
      } else if (b < 4) {
        v = static_cast<uint8_t>(r.reset >> (8 * b));
      }
      bytes_[start_[i] + b] = v;
    }
  }
}

long WideRegs::index_of(uint32_t at, uint8_t* wmask) const {
  for (size_t i = 0; i < rows_.size(); i++) {
    const WideRegSpec& r = rows_[i];
    if (at < r.offset || at >= uint32_t{r.offset} + r.size) continue;
    const unsigned b = at - r.offset;
    if (wmask) *wmask = static_cast<uint8_t>(r.writable >> (8 * (b % 4)));
    return static_cast<long>(start_[i] + b);
  }
  return -1;
}

bool WideRegs::implemented(uint32_t off, unsigned size) const {
  for (unsigned i = 0; i < size; i++) {
    if (index_of(off + i, nullptr) >= 0) return true;
  }
  return false;
}

uint64_t WideRegs::read(uint32_t off, unsigned size) const {
  uint64_t v = 0;
  for (unsigned i = 0; i < size; i++) {
    const long at = index_of(off + i, nullptr);
    if (at >= 0) v |= static_cast<uint64_t>(bytes_[static_cast<size_t>(at)]) << (8 * i);
  }
  return v;
}

void WideRegs::write(uint32_t off, unsigned size, uint64_t value) {
  for (unsigned i = 0; i < size; i++) {
    uint8_t wmask = 0;
    const long at = index_of(off + i, &wmask);
    if (at < 0) continue;
    uint8_t& cur = bytes_[static_cast<size_t>(at)];
    const auto v = static_cast<uint8_t>(value >> (8 * i));
    cur = static_cast<uint8_t>((cur & ~wmask) | (v & wmask));
  }
}

// The rows' bytes in table order, length-prefixed. Every row is storage
// with no behaviour behind it, so any byte values are a state the device can
// hold; the read-only station address backup loads as the blob has it (the
// saving device's address), as IDR0-5 do.
void WideRegs::visit(Archive& a) {
  std::vector<uint8_t> b = bytes_;
  a.bytes(b, bytes_.size());
  if (a.loading()) {
    if (b.size() == bytes_.size()) {
      bytes_ = std::move(b);
    } else {
      a.fail();
    }
  }
}

}  // namespace rtl8168sim
