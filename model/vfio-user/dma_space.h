// SPDX-License-Identifier: GPL-2.0-or-later
// The client's memory as the device may reach it: the windows DMA_MAP
// announced. A window that came with a file descriptor (a shareable memory
// backend: memfd, a file) is mmap()ed and accessed directly; one without is
// reached through DMA_READ / DMA_WRITE messages to the client (DmaMessages).
// Windows never overlap (a map over an existing one fails with EEXIST, as
// the protocol asks), unmaps must match a window exactly, and every access
// is checked against the windows and their read/write permission: an access
// outside them fails like a master abort (the model then reports the error
// the way the chip does).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>

#include "protocol.h"
#include "unique_fd.h"

namespace vfio_user {

// The message path for windows without an fd (the session sends the
// request and waits for the client's reply). Return 0 or -1.
class DmaMessages {
 public:
  virtual ~DmaMessages() = default;
  virtual int dma_read(uint64_t addr, void* buf, size_t len) = 0;
  virtual int dma_write(uint64_t addr, const void* buf, size_t len) = 0;
};

class DmaSpace {
 public:
  DmaSpace() = default;
  DmaSpace(const DmaSpace&) = delete;
  DmaSpace& operator=(const DmaSpace&) = delete;
  ~DmaSpace() { clear(); }

  void set_messages(DmaMessages* m) { messages_ = m; }

  // 0, or the errno of the error reply.
  int map(const DmaMap& req, UniqueFd fd);
  int unmap(const DmaUnmap& req);
  // Drop every window (client gone, or DMA_UNMAP with the ALL flag).
  void clear();

  // 0, or -1 when any byte lies outside a window with that permission or
  // the message path failed.
  int read(uint64_t addr, void* buf, size_t len);
  int write(uint64_t addr, const void* buf, size_t len);

  size_t windows() const { return windows_.size(); }

 private:
  struct Window {
    uint64_t size = 0;
    uint32_t prot = 0;         // VFIO_DMA_MAP_FLAG_READ / _WRITE
    uint8_t* host = nullptr;   // the window's first byte, nullptr: message path
    void* map_base = nullptr;  // what munmap() takes
    size_t map_len = 0;
  };
  // The window holding addr, or end().
  std::map<uint64_t, Window>::iterator find(uint64_t addr);
  template <bool kWrite, typename Buf>
  int access(uint64_t addr, Buf buf, size_t len);

  std::map<uint64_t, Window> windows_;  // by iova; ordered, so lookups are deterministic
  DmaMessages* messages_ = nullptr;
};

}  // namespace vfio_user
