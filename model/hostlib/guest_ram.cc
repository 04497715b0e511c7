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

}  // namespace rtl8168_host
