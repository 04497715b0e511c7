// SPDX-License-Identifier: GPL-2.0-or-later
// Guest RAM of a host outside QEMU: flat memory at guest-physical 0 behind
// the model's DMA callbacks (rtl8168_host_ops.dma_read/dma_write). An access
// that is not wholly inside [0, size) fails, as a master abort does on PCIe:
// the callback returns -1 and the model counts and reports the failure
// (rtl8168.h, "DMA"). The RAM of the host library's host (host.h), which
// the bench and the fuzz target share.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace rtl8168_host {

class GuestRam {
 public:
  explicit GuestRam(size_t bytes = 0) : bytes_(bytes, 0) {}

  size_t size() const { return bytes_.size(); }
  uint8_t* data() { return bytes_.data(); }
  const uint8_t* data() const { return bytes_.data(); }
  uint8_t& operator[](uint64_t addr) { return bytes_[addr]; }
  uint8_t operator[](uint64_t addr) const { return bytes_[addr]; }
  // Exchange the storage (the fuzz target keeps one buffer for every run).
  void swap(std::vector<uint8_t>& other) { bytes_.swap(other); }

  // [addr, addr + len) lies in RAM (a 0-byte access at the end does).
  bool contains(uint64_t addr, size_t len) const {
    return addr <= bytes_.size() && len <= bytes_.size() - addr;
  }
  // The DMA callbacks' contract: 0, or -1 with nothing copied.
  int dma_read(uint64_t addr, void* buf, size_t len) const;
  int dma_write(uint64_t addr, const void* buf, size_t len);

  // CPU access by the driver (little-endian, like the device; inside RAM):
  // one load or store each, as a driver's readl/writel of its ring.
  uint32_t r32(uint64_t addr) const {
    uint32_t v;
    std::memcpy(&v, bytes_.data() + addr, sizeof v);
    return le(v);
  }
  void w32(uint64_t addr, uint32_t v) {
    v = le(v);
    std::memcpy(bytes_.data() + addr, &v, sizeof v);
  }
  void w64(uint64_t addr, uint64_t v) {
    v = le(v);
    std::memcpy(bytes_.data() + addr, &v, sizeof v);
  }

 private:
  // Host order <-> little-endian.
  template <class T>
  static T le(T v) {
    if constexpr (std::endian::native == std::endian::big) {
      if constexpr (sizeof(T) == 4) return __builtin_bswap32(v);
      if constexpr (sizeof(T) == 8) return __builtin_bswap64(v);
    }
    return v;
  }

  std::vector<uint8_t> bytes_;
};

}  // namespace rtl8168_host
