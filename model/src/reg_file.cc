// SPDX-License-Identifier: GPL-2.0-or-later
#include "reg_file.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace rtl8168sim {

using namespace reg;
static_assert(kFileSize <= RegLayout::kMaxWindow);
static_assert(sizeof(bool) == 1);  // RegLayout::known and ::locked read as bytes
static_assert(static_cast<uint8_t>(Hook::None) == 0);  // RegLayout::hook read as bytes

RegFile::RegFile(const RegLayout& layout) : layout_(&layout) { reset(); }

void RegFile::reset() {
  std::array<uint8_t, 6> mac;
  for (int i = 0; i < 6; i++) mac[i] = bytes_[i];
  for (unsigned i = 0; i < kFileSize; i++) bytes_[i] = layout_->reset[i];
  for (int i = 0; i < 6; i++) bytes_[i] = mac[i];
}

uint64_t RegFile::read(uint32_t off, unsigned size) const { return load_le(&bytes_[off], size); }

namespace {

// `N` bytes at `p` as one little-endian word (N = 1, 2, 4: one load on a
// little-endian host; the byte loop is what a big-endian one compiles).
template <unsigned N, typename T>
uint64_t word(const T* p) {
  static_assert(sizeof(T) == 1);
  uint64_t v = 0;
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(&v, p, N);
  } else {
    for (unsigned i = 0; i < N; i++) v |= uint64_t{static_cast<uint8_t>(p[i])} << (8 * i);
  }
  return v;
}

template <unsigned N>
void store_word(uint8_t* p, uint64_t v) {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(p, &v, N);
  } else {
    for (unsigned i = 0; i < N; i++) p[i] = static_cast<uint8_t>(v >> (8 * i));
  }
}

}  // namespace

// The access at once: each byte takes its writable bits from the value and
// loses the write-1-to-clear bits written as 1, unless Cfg9346 locks it (a
// locked byte keeps its value and touches no hook). Accesses are 1, 2 or 4
// bytes inside the file (Device::reg_write).
RegFile::Touched RegFile::write(uint32_t off, unsigned size, uint64_t value) {
  switch (size) {
    case 1: return write_n<1>(off, value);
    case 2: return write_n<2>(off, value);
    default: return write_n<4>(off, value);
  }
}

template <unsigned N>
RegFile::Touched RegFile::write_n(uint32_t off, uint64_t value) {
  Touched t;
  const bool open = unlocked();
  uint64_t wmask = word<N>(&layout_->wmask[off]);
  uint64_t w1c = word<N>(&layout_->w1c[off]);
  // Cfg9346 lock (datasheet §Cfg9346): `locked` bytes are 0 or 1, made 0xff
  // per locked byte; `hook` bytes are Hook::None (0) or a hook.
  const uint64_t locked = open ? 0 : word<N>(&layout_->locked[off]) * 0xff;
  wmask &= ~locked;
  w1c &= ~locked;
  uint64_t cur = word<N>(&bytes_[off]);
  cur = ((cur & ~wmask) | (value & wmask)) & ~(value & w1c);
  store_word<N>(&bytes_[off], cur);
  if (word<N>(&layout_->hook[off]) == 0) return t;  // no hooked byte
  const uint8_t first = layout_->reg_start[off];
  constexpr uint64_t kEveryByte = N == 1 ? 0x01 : N == 2 ? 0x0101 : 0x01010101;
  if (word<N>(&layout_->reg_start[off]) == first * kEveryByte &&
      word<N>(&layout_->hook[off]) == static_cast<uint8_t>(layout_->hook[off]) * kEveryByte &&
      word<N>(&layout_->locked[off]) == uint64_t{layout_->locked[off]} * kEveryByte) {
    // Every byte of one register with one hook and one lock (the usual
    // access, a driver writing exactly one register): touched once if hooked
    // and not locked, as the byte loop below would find.
    if (layout_->hook[off] != Hook::None && !(locked & 0xff)) t.offsets[t.count++] = first;
    return t;
  }
  for (unsigned i = 0; i < N; i++) {
    const unsigned at = off + i;
    if (layout_->hook[at] == Hook::None || ((locked >> (8 * i)) & 0xff)) continue;
    const uint8_t start = layout_->reg_start[at];
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

bool RegFile::implemented_any(uint32_t off, unsigned size) const {
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
