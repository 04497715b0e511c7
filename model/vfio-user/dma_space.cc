// SPDX-License-Identifier: GPL-2.0-or-later
#include "dma_space.h"

#include <sys/mman.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>

namespace vfio_user {

int DmaSpace::map(const DmaMap& req, UniqueFd fd) {
  constexpr uint32_t kKnown = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE;
  if (req.flags & ~kKnown) return EINVAL;
  if (req.size == 0 || req.iova % kPageSize || req.size % kPageSize) return EINVAL;
  if (req.iova + req.size < req.iova) return EINVAL;  // wraps
  if (windows_.size() >= kMaxDmaMaps) return ENOSPC;
  // Overlap with the window below or above (non-overlapping map: only the
  // neighbours can collide).
  auto next = windows_.lower_bound(req.iova);
  if (next != windows_.end() && next->first < req.iova + req.size) return EEXIST;
  if (next != windows_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second.size > req.iova) return EEXIST;
  }

  Window w;
  w.size = req.size;
  w.prot = req.flags;
  if (fd.valid()) {
    // Only something mmap() can back with the file's pages: a regular file
    // or memfd whose size covers the window (a map beyond the end would
    // raise SIGBUS on the first access). An eventfd, socket or pipe is the
    // wrong kind of fd.
    struct stat st;
    if (fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) return EINVAL;
    if (req.offset > uint64_t(st.st_size) || uint64_t(st.st_size) - req.offset < req.size)
      return EINVAL;
    const uint64_t page_off = req.offset % kPageSize;
    w.map_len = size_t(req.size + page_off);
    int prot = 0;
    if (req.flags & VFIO_DMA_MAP_FLAG_READ) prot |= PROT_READ;
    if (req.flags & VFIO_DMA_MAP_FLAG_WRITE) prot |= PROT_WRITE;
    if (prot == 0) prot = PROT_NONE;
    void* p = mmap(nullptr, w.map_len, prot, MAP_SHARED, fd.get(), off_t(req.offset - page_off));
    if (p == MAP_FAILED) return errno == EACCES ? EACCES : EINVAL;
    w.map_base = p;
    w.host = static_cast<uint8_t*>(p) + page_off;
  }
  windows_.emplace(req.iova, w);
  return 0;  // the fd closes here: the mapping holds its own reference
}

int DmaSpace::unmap(const DmaUnmap& req) {
  if (req.flags & ~uint32_t(VFIO_DMA_UNMAP_FLAG_ALL)) return EINVAL;
  if (req.flags & VFIO_DMA_UNMAP_FLAG_ALL) {
    if (req.iova || req.size) return EINVAL;
    clear();
    return 0;
  }
  auto it = windows_.find(req.iova);
  if (it == windows_.end() || it->second.size != req.size) return ENOENT;
  if (it->second.map_base) munmap(it->second.map_base, it->second.map_len);
  windows_.erase(it);
  return 0;
}

void DmaSpace::clear() {
  for (auto& [iova, w] : windows_)
    if (w.map_base) munmap(w.map_base, w.map_len);
  windows_.clear();
}

std::map<uint64_t, DmaSpace::Window>::iterator DmaSpace::find(uint64_t addr) {
  auto it = windows_.upper_bound(addr);
  if (it == windows_.begin()) return windows_.end();
  --it;
  if (addr - it->first >= it->second.size) return windows_.end();
  return it;
}

// An access may cross from one window into the next adjacent one (guest RAM
// split by a hole); each piece is checked on its own.
template <bool kWrite, typename Buf>
int DmaSpace::access(uint64_t addr, Buf buf, size_t len) {
  if (addr + len < addr) return -1;
  while (len > 0) {
    auto it = find(addr);
    if (it == windows_.end()) return -1;
    const Window& w = it->second;
    if (!(w.prot & (kWrite ? VFIO_DMA_MAP_FLAG_WRITE : VFIO_DMA_MAP_FLAG_READ))) return -1;
    const uint64_t off = addr - it->first;
    const size_t n = size_t(std::min<uint64_t>(len, w.size - off));
    if (w.host) {
      if constexpr (kWrite)
        std::memcpy(w.host + off, buf, n);
      else
        std::memcpy(buf, w.host + off, n);
    } else {
      if (!messages_) return -1;
      int rc;
      if constexpr (kWrite)
        rc = messages_->dma_write(addr, buf, n);
      else
        rc = messages_->dma_read(addr, buf, n);
      if (rc != 0) return -1;
    }
    addr += n;
    buf += n;
    len -= n;
  }
  return 0;
}

int DmaSpace::read(uint64_t addr, void* buf, size_t len) {
  return access<false>(addr, static_cast<uint8_t*>(buf), len);
}
int DmaSpace::write(uint64_t addr, const void* buf, size_t len) {
  return access<true>(addr, static_cast<const uint8_t*>(buf), len);
}

}  // namespace vfio_user
