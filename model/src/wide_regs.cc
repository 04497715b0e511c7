// SPDX-License-Identifier: GPL-2.0-or-later
#include "wide_regs.h"

#include <algorithm>

namespace rtl8168sim {

WideRegs::WideRegs(std::span<const WideRegSpec> rows) : rows_(rows) {
  uint32_t n = 0;
  for (size_t i = 0; i < rows_.size(); i++) {
    start_.push_back(n);
    n += rows_[i].size;
    by_offset_.push_back(static_cast<uint16_t>(i));
  }
  bytes_.assign(n, 0);
  // Rows do not overlap (reg_tables.h), so at most one covers a byte: the
  // last one starting at or below it.
  std::stable_sort(by_offset_.begin(), by_offset_.end(),
                   [this](uint16_t a, uint16_t b) { return rows_[a].offset < rows_[b].offset; });
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

long WideRegs::row_of(uint32_t at) const {
  if (last_row_ < rows_.size() && at >= rows_[last_row_].offset &&
      at < uint32_t{rows_[last_row_].offset} + rows_[last_row_].size) {
    return static_cast<long>(last_row_);
  }
  const auto after =
      std::upper_bound(by_offset_.begin(), by_offset_.end(), at,
                       [this](uint32_t a, uint16_t row) { return a < rows_[row].offset; });
  if (after == by_offset_.begin()) return -1;
  const uint16_t row = *(after - 1);
  if (at >= uint32_t{rows_[row].offset} + rows_[row].size) return -1;
  last_row_ = row;
  return row;
}

long WideRegs::index_of(uint32_t at, uint8_t* wmask) const {
  const long i = row_of(at);
  if (i < 0) return -1;
  const WideRegSpec& r = rows_[static_cast<size_t>(i)];
  const unsigned b = at - r.offset;
  if (wmask) *wmask = static_cast<uint8_t>(r.writable >> (8 * (b % 4)));
  return static_cast<long>(start_[static_cast<size_t>(i)] + b);
}

bool WideRegs::implemented(uint32_t off, unsigned size) const {
  for (unsigned i = 0; i < size; i++) {
    if (index_of(off + i, nullptr) >= 0) return true;
  }
  return false;
}

uint64_t WideRegs::read(uint32_t off, unsigned size) const {
  uint64_t v = 0;
  if (const long row = row_of(off); row >= 0) {
    const auto i = static_cast<size_t>(row);
    if (off + size <= uint32_t{rows_[i].offset} + rows_[i].size) {
      // The whole access inside one row: its bytes are consecutive in storage.
      const uint8_t* at = bytes_.data() + start_[i] + (off - rows_[i].offset);
      for (unsigned b = 0; b < size; b++) v |= static_cast<uint64_t>(at[b]) << (8 * b);
      return v;
    }
  }
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
