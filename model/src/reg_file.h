// SPDX-License-Identifier: GPL-2.0-or-later
// The register file with table-driven decode (QEMU e1000e/igb style): the
// chip profile's RegLayout (reg_spec.h, reg_tables.cc) gives every
// register's width, reset value, writable and write-1-to-clear bits,
// Cfg9346 locking and the side-effect hook the device runs after a write.
// Reads are plain loads and never have side effects (ethtool -d dumps
// 0x00-0xff).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>

#include "reg_spec.h"
#include "profile.h"
#include "regs.h"

namespace rtl8168sim {

class RegFile {
 public:
  explicit RegFile(const RegLayout& layout);
  // Reset every register in the table to its reset value (MAC excluded:
  // the caller loads it).
  void reset();

  // Registers are little-endian (PCI); on a little-endian host one load.
  uint8_t u8(uint32_t off) const { return bytes_[off]; }
  uint16_t u16(uint32_t off) const { return static_cast<uint16_t>(load_le(&bytes_[off], 2)); }
  uint32_t u32(uint32_t off) const { return static_cast<uint32_t>(load_le(&bytes_[off], 4)); }
  uint64_t u64(uint32_t lo_off, uint32_t hi_off) const {
    return static_cast<uint64_t>(u32(hi_off)) << 32 | u32(lo_off);
  }
  // Device-side stores (bypass guest write masks).
  void set8(uint32_t off, uint8_t v) { bytes_[off] = v; }
  void set16(uint32_t off, uint16_t v) {
    bytes_[off] = static_cast<uint8_t>(v);
    bytes_[off + 1] = static_cast<uint8_t>(v >> 8);
  }
  void set32(uint32_t off, uint32_t v) {
    for (int i = 0; i < 4; i++) bytes_[off + i] = static_cast<uint8_t>(v >> (8 * i));
  }

  // For a loaded register file: nullptr when every bit that neither a guest
  // write nor the device changes holds its power-on value (the profile's
  // TxConfig, whose XID bits are read-only). The device's own status
  // (IntrStatus, PHYstatus, ChipCmd RxBufEmpty) is checked by its owners.
  const char* check_fixed_bits(const ChipProfile& p) const;

  // Guest read of `size` bytes at an aligned offset inside the file.
  uint64_t read(uint32_t off, unsigned size) const;

  // Guest write: applies writable / W1C / lock rules byte by byte and
  // reports which hooked registers were touched (by their first offset).
  struct Touched {
    std::array<uint8_t, 4> offsets{};
    unsigned count = 0;
  };
  Touched write(uint32_t off, unsigned size, uint64_t value);

  Hook hook_of(uint32_t reg_offset) const { return layout_->hook[reg_offset % reg::kFileSize]; }
  // Whether any byte of an access inside the file belongs to a register of
  // the table; the others are plain storage (traced as *_unimp). In line for
  // the guest's accesses (1, 2 or 4 bytes inside the file: every access asks).
  bool implemented(uint32_t off, unsigned size) const {
    if ((size == 1 || size == 2 || size == 4) && static_cast<uint64_t>(off) + size <= reg::kFileSize) {
      // `known` holds 0 or 1 per byte: any byte of the access known.
      return load_le(reinterpret_cast<const uint8_t*>(&layout_->known[off]), size) != 0;
    }
    return implemented_any(off, size);
  }
  bool unlocked() const { return bytes_[reg::Cfg9346] == reg::Cfg9346_Unlock; }

  std::span<uint8_t> raw() { return bytes_; }
  std::span<const uint8_t> raw() const { return bytes_; }

 private:
  template <unsigned N>
  Touched write_n(uint32_t off, uint64_t value);
  bool implemented_any(uint32_t off, unsigned size) const;  // implemented(), any access
  // `n` (1, 2 or 4) little-endian bytes at `p`.
  static uint64_t load_le(const uint8_t* p, unsigned n) {
    if constexpr (std::endian::native == std::endian::little) {
      switch (n) {
        case 1: return *p;
        case 2: { uint16_t v; std::memcpy(&v, p, 2); return v; }
        case 4: { uint32_t v; std::memcpy(&v, p, 4); return v; }
        default: break;
      }
    }
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) v |= static_cast<uint64_t>(p[i]) << (8 * i);
    return v;
  }

  const RegLayout* layout_;
  std::array<uint8_t, reg::kFileSize> bytes_{};
};

}  // namespace rtl8168sim
