// SPDX-License-Identifier: GPL-2.0-or-later
#include "guest_ram.h"

#include <cstring>

namespace rtl8168_host {

int GuestRam::dma_read(uint64_t addr, void* buf, size_t len) const {
  if (!contains(addr, len)) return -1;
  if (len) std::memcpy(buf, bytes_.data() + addr, len);
  return 0;
}

int GuestRam::dma_write(uint64_t addr, const void* buf, size_t len) {
  if (!contains(addr, len)) return -1;
  if (len) std::memcpy(bytes_.data() + addr, buf, len);
  return 0;
}

uint32_t GuestRam::r32(uint64_t addr) const {
  return static_cast<uint32_t>(bytes_[addr]) | static_cast<uint32_t>(bytes_[addr + 1]) << 8 |
         static_cast<uint32_t>(bytes_[addr + 2]) << 16 |
         static_cast<uint32_t>(bytes_[addr + 3]) << 24;
}

void GuestRam::w32(uint64_t addr, uint32_t v) {
  for (unsigned i = 0; i < 4; i++) bytes_[addr + i] = static_cast<uint8_t>(v >> (8 * i));
}

void GuestRam::w64(uint64_t addr, uint64_t v) {
  w32(addr, static_cast<uint32_t>(v));
  w32(addr + 4, static_cast<uint32_t>(v >> 32));
}

}  // namespace rtl8168_host
