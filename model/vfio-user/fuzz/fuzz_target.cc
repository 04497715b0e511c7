// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer target over rtl8168-vfio-user's message parser and dispatch
// (docs/VFIO-USER.md "Fuzzing"): the input is a stream of records, each a
// control byte then the bytes of one message as they would arrive on the
// socket (16-byte header, then as many bytes as its size field says). The
// header goes through the same check the socket path applies
// (check_header: a bad one ends the connection, as it does there); the
// message is dispatched to a device whose guest memory is one shared
// 64 KiB memfd window (when a DMA_MAP asks for it) or DMA messages answered
// from a buffer. Control bits attach the fds a real client would send:
// bit 0 an eventfd, bit 1 the memfd, bit 2 a regular file (the wrong kind),
// bit 3 advances the clock by 1 ms and fires the model's timer.
// Checked after every message: a reply echoes the request's id and
// command, an error reply is only a header, every reply fits the maximum
// message, and the server never asked for more DMA than the client allows.
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "dispatch.h"

namespace {

using namespace vfio_user;

#define FUZZ_CHECK(cond)                                                                      \
  do {                                                                                        \
    if (!(cond)) {                                                                            \
      std::fprintf(stderr, "vfio-user fuzz: invariant failed: %s (%s:%d)\n", #cond, __FILE__, \
                   __LINE__);                                                                 \
      std::abort();                                                                           \
    }                                                                                         \
  } while (0)

// Deterministic time; the timer deadline is kept and fired by control bit 3.
class FuzzHost : public DeviceHost {
 public:
  uint64_t now() override { return now_; }
  void arm_timer(uint64_t d) override { deadline_ = d; }
  void transmit(const uint8_t*, size_t len) override {
    FUZZ_CHECK(len >= 60 && len <= 16384);
    frames_++;
  }
  uint64_t now_ = 0, deadline_ = RTL8168_NO_DEADLINE, frames_ = 0;
};

// DMA windows without an fd: served from a 1 MiB buffer at address 0
// (reads of anything else fail), as a client answering DMA_READ/WRITE.
class FuzzMessages : public DmaMessages {
 public:
  int dma_read(uint64_t addr, void* buf, size_t len) override {
    FUZZ_CHECK(len <= kMaxDataXfer);
    if (addr >= mem.size() || len > mem.size() - addr) return -1;
    std::memcpy(buf, mem.data() + addr, len);
    return 0;
  }
  int dma_write(uint64_t addr, const void* buf, size_t len) override {
    FUZZ_CHECK(len <= kMaxDataXfer);
    if (addr >= mem.size() || len > mem.size() - addr) return -1;
    std::memcpy(mem.data() + addr, buf, len);
    return 0;
  }
  std::vector<uint8_t> mem = std::vector<uint8_t>(1 << 20);
};

int shared_memfd() {
  static int fd = [] {
    const int f = memfd_create("vfio-fuzz-ram", MFD_CLOEXEC);
    if (f < 0 || ftruncate(f, 0x10000) != 0) std::abort();
    return f;
  }();
  return fd;
}

int regular_file() {
  static int fd = [] {
    const int f = memfd_create("vfio-fuzz-file", MFD_CLOEXEC);
    if (f < 0 || ftruncate(f, 16) != 0) std::abort();
    return f;
  }();
  return fd;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::unique_ptr<rtl8168_config, decltype(&rtl8168_config_free)> cfg(rtl8168_config_new(),
                                                                      rtl8168_config_free);
  char err[256];
  // The first byte picks the chip profile.
  const size_t chips = rtl8168_chip_count();
  rtl8168_chip_info chip;
  if (size == 0 || rtl8168_chip_at(data[0] % chips, &chip) != 0) return 0;
  if (rtl8168_config_set(cfg.get(), "chip", chip.id, err, sizeof err) != 0) std::abort();
  data++, size--;
  FuzzHost host;
  std::string e;
  auto dev = Device::create(cfg.get(), false, host, e);
  FUZZ_CHECK(dev);
  FuzzMessages msgs;
  dev->dma().set_messages(&msgs);
  Dispatcher dispatch(*dev);

  size_t pos = 0;
  while (pos < size) {
    const uint8_t ctl = data[pos++];
    if (size - pos < sizeof(Header)) break;
    Message m;
    std::memcpy(&m.hdr, data + pos, sizeof(Header));
    if (check_header(m.hdr, kMaxMessage)) break;  // the connection would close
    const size_t body = m.hdr.size - sizeof(Header);
    if (size - pos - sizeof(Header) < body) break;  // truncated: would time out and close
    m.payload.assign(data + pos + sizeof(Header), data + pos + sizeof(Header) + body);
    pos += m.hdr.size;
    if (ctl & 1) m.fds.emplace_back(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
    if (ctl & 2) m.fds.emplace_back(dup(shared_memfd()));
    if (ctl & 4) m.fds.emplace_back(dup(regular_file()));
    if (ctl & 8) {
      host.now_ += 1000000;
      if (host.deadline_ <= host.now_) dev->timer_expired();
    }
    const Header req = m.hdr;
    Outcome o = dispatch.handle(m);
    if (o.reply) {
      FUZZ_CHECK(!m.is_reply());
      FUZZ_CHECK(o.reply->hdr.id == req.id && o.reply->hdr.command == req.command);
      FUZZ_CHECK((o.reply->hdr.flags & kTypeMask) == kTypeReply);
      if (o.reply->hdr.flags & kError) FUZZ_CHECK(o.reply->payload.empty());
      FUZZ_CHECK(o.reply->payload.size() + sizeof(Header) <= kMaxMessage);
    }
    if (o.close) {
      FUZZ_CHECK(!o.log.empty());
      break;
    }
  }
  dev->client_gone();
  return 0;
}
