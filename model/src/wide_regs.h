// SPDX-License-Identifier: GPL-2.0-or-later
// The registers above the 256-byte register file, for profiles whose MMIO
// window is larger (the RTL8125's 64 KiB, ChipProfile::wide_regs): one row
// per register or block, each plain storage with its writable bits and
// reset value. Bytes no row covers read 0 and ignore writes (what the model
// assumes of the real part's unimplemented addresses; the device traces
// them as unassigned). Nothing here has side effects yet: the rows are what
// r8169 writes and reads (docs/R8125.md), the RSS and multi-queue
// registers are stored for the queues of a later stage.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "state_io.h"

namespace rtl8168sim {

// What a row holds at power-on.
enum class WideReset : uint8_t {
  Value,           // `reset` (rows of up to 4 bytes; wider rows: 0)
  StationAddress,  // the station address (the EEPROM/eFuse autoload's copy)
};

struct WideRegSpec {
  uint16_t offset;
  uint16_t size;       // bytes; a block of registers may be one row
  const char* name;
  uint32_t writable;   // bits a guest write changes, repeated every 4 bytes of the row
  uint32_t reset;
  WideReset init;
};

// Whether no two rows share a byte (WideRegs finds a byte's row by offset).
constexpr bool rows_disjoint(std::span<const WideRegSpec> rows) {
  for (size_t i = 0; i < rows.size(); i++) {
    for (size_t j = i + 1; j < rows.size(); j++) {
      const uint32_t a = rows[i].offset, b = rows[j].offset;
      if (a < b + uint32_t{rows[j].size} && b < a + uint32_t{rows[i].size}) return false;
    }
  }
  return true;
}

class WideRegs {
 public:
  explicit WideRegs(std::span<const WideRegSpec> rows);
  void power_on(std::span<const uint8_t, 6> mac);
  // Whether any byte of the access belongs to a row.
  bool implemented(uint32_t off, unsigned size) const;
  uint64_t read(uint32_t off, unsigned size) const;
  void write(uint32_t off, unsigned size, uint64_t value);
  uint32_t u32(uint32_t off) const { return static_cast<uint32_t>(read(off, 4)); }
  bool empty() const { return rows_.empty(); }

  // The rows' bytes in the blob (profiles with rows only).
  void visit(Archive& a);

 private:
  // The row covering byte `at`, or -1: the row found last if it covers
  // `at` (the RX path reads RSS_CTRL for every frame), else a binary search
  // over by_offset_.
  long row_of(uint32_t at) const;
  // The storage index of byte `at`, or -1 when no row covers it.
  long index_of(uint32_t at, uint8_t* wmask) const;
  std::span<const WideRegSpec> rows_;
  std::vector<uint32_t> start_;      // storage index of each row's first byte
  std::vector<uint16_t> by_offset_;  // row indexes in ascending offset order
  mutable size_t last_row_ = 0;      // a lookup cache only: not state
  std::vector<uint8_t> bytes_;
};

}  // namespace rtl8168sim
