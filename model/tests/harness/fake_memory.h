// SPDX-License-Identifier: GPL-2.0-or-later
// Fake guest RAM for the model's bus-master DMA: one contiguous block at a
// guest-physical base. Any access that is not entirely inside it fails
// (non-zero return), like a master abort on an unmapped address.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

namespace rtl8168_test {

class FakeMemory {
 public:
  static constexpr uint64_t kDefaultSize = 16u << 20;  // 16 MiB

  explicit FakeMemory(uint64_t size = kDefaultSize, uint64_t base = 0)
      : base_(base), bytes_(static_cast<size_t>(size), 0) {}

  uint64_t base() const { return base_; }
  uint64_t size() const { return bytes_.size(); }
  // Whether [addr, addr+len) lies inside guest RAM (overflow-safe).
  bool contains(uint64_t addr, size_t len) const {
    if (addr < base_) return false;
    const uint64_t off = addr - base_;
    return off <= bytes_.size() && len <= bytes_.size() - off;
  }

  // DMA entry points: 0 on success, -1 (and a fault count) outside RAM.
  int dma_read(uint64_t addr, void* buf, size_t len) {
    max_dma_len = std::max<uint64_t>(max_dma_len, len);
    if (!contains(addr, len) || fails(read_fault, addr, len)) {
      ++faults;
      return -1;
    }
    if (len) std::copy_n(&bytes_[addr - base_], len, static_cast<uint8_t*>(buf));
    ++reads;
    read_bytes_total += len;
    return 0;
  }
  int dma_write(uint64_t addr, const void* buf, size_t len) {
    max_dma_len = std::max<uint64_t>(max_dma_len, len);
    if (!contains(addr, len) || fails(write_fault, addr, len)) {
      ++faults;
      return -1;
    }
    if (len) std::copy_n(static_cast<const uint8_t*>(buf), len, &bytes_[addr - base_]);
    ++writes;
    write_bytes_total += len;
    return 0;
  }

  // CPU-side access by the test driver (little-endian, as the descriptors are).
  // Out-of-range CPU accesses are test bugs: they abort loudly.
  uint8_t* at(uint64_t addr, size_t len) {
    if (!contains(addr, len)) std::abort();
    return &bytes_[addr - base_];
  }
  const uint8_t* at(uint64_t addr, size_t len) const {
    if (!contains(addr, len)) std::abort();
    return &bytes_[addr - base_];
  }
  void write(uint64_t addr, std::span<const uint8_t> data) {
    if (!data.empty()) std::copy(data.begin(), data.end(), at(addr, data.size()));
  }
  std::vector<uint8_t> read(uint64_t addr, size_t len) const {
    const uint8_t* p = at(addr, len);
    return std::vector<uint8_t>(p, p + len);
  }
  void fill(uint64_t addr, size_t len, uint8_t v) { std::fill_n(at(addr, len), len, v); }

  uint64_t rd(uint64_t addr, unsigned size) const {
    const uint8_t* p = at(addr, size);
    uint64_t v = 0;
    for (unsigned i = 0; i < size; ++i) v |= static_cast<uint64_t>(p[i]) << (8 * i);
    return v;
  }
  void wr(uint64_t addr, uint64_t v, unsigned size) {
    uint8_t* p = at(addr, size);
    for (unsigned i = 0; i < size; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
  }
  uint16_t r16(uint64_t a) const { return static_cast<uint16_t>(rd(a, 2)); }
  uint32_t r32(uint64_t a) const { return static_cast<uint32_t>(rd(a, 4)); }
  uint64_t r64(uint64_t a) const { return rd(a, 8); }
  void w16(uint64_t a, uint16_t v) { wr(a, v, 2); }
  void w32(uint64_t a, uint32_t v) { wr(a, v, 4); }
  void w64(uint64_t a, uint64_t v) { wr(a, v, 8); }

  const std::vector<uint8_t>& bytes() const { return bytes_; }

  uint64_t reads = 0, writes = 0, faults = 0;
  uint64_t read_bytes_total = 0, write_bytes_total = 0;
  uint64_t max_dma_len = 0;  // longest single transaction the model asked for

  // Fault windows: DMA of the given direction touching [begin, end) fails
  // although the RAM is there (a read-only or write-only IOMMU mapping).
  struct Window {
    uint64_t begin = 0, end = 0;
  };
  Window read_fault, write_fault;

 private:
  static bool fails(const Window& w, uint64_t addr, size_t len) {
    return w.begin < w.end && addr < w.end && addr + len > w.begin;
  }
  uint64_t base_;
  std::vector<uint8_t> bytes_;
};

}  // namespace rtl8168_test
