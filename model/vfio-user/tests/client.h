// SPDX-License-Identifier: GPL-2.0-or-later
// A small vfio-user client for the tests: the server runs in this process on
// its own thread (its own io_context) and serves one end of a socketpair;
// the test speaks the protocol on the other end, byte for byte, with
// transport.h. Frames the device sends land in a capture backend; the guest
// memory is a memfd the client shares (DMA_MAP with the fd) or serves itself
// when the server asks with DMA_READ / DMA_WRITE.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "server.h"
#include "transport.h"

namespace vfio_user_test {

using namespace vfio_user;

// The wire as the test sees it.
class CaptureBackend : public NetBackend {
 public:
  void send(const uint8_t* frame, size_t len) override {
    std::lock_guard<std::mutex> g(mu);
    frames.emplace_back(frame, frame + len);
  }
  void start(Receive on_frame, Link) override { receive = std::move(on_frame); }
  bool initially_up() const override { return true; }
  std::vector<std::vector<uint8_t>> take() {
    std::lock_guard<std::mutex> g(mu);
    return std::exchange(frames, {});
  }
  std::mutex mu;
  std::vector<std::vector<uint8_t>> frames;
  Receive receive;
};

struct HarnessOptions {
  std::string chip = "8168c";
  std::vector<std::pair<std::string, std::string>> params;
  // A --netdev spec and a --pcap file instead of the capture backend (wire()
  // is then nullptr).
  std::string netdev;
  std::string pcap;
  SessionLimits limits{.message_timeout_ms = 2000, .dma_timeout_ms = 300, .max_held = 256};
};

class Harness {
 public:
  explicit Harness(const HarnessOptions& o = {});
  ~Harness();

  // Send a request and wait for its reply (answering the server's DMA
  // requests meanwhile from `memory_`). False when the server closed.
  bool call(Message req, Message& reply, std::vector<int> fds = {});
  Message call_ok(Message req, std::vector<int> fds = {});  // asserts no error flag
  // The errno of the reply (0 when it succeeded).
  int call_err(Message req, std::vector<int> fds = {});
  void send_raw(const void* data, size_t len);
  // True when the server closed the connection within timeout_ms.
  bool closed_by_server(int timeout_ms = 3000);

  // Helpers for the common messages.
  static Message request(uint16_t command);
  Message negotiate(const std::string& caps_json =
                        R"({"capabilities":{"max_msg_fds":16,"max_data_xfer_size":1048576,)"
                        R"("pgsizes":4096,"max_dma_maps":65535,"migration":{"pgsize":4096,)"
                        R"("max_bitmap_size":268435456},"write_multiple":true}})");
  uint64_t read_region(uint32_t region, uint64_t off, uint32_t count);
  void write_region(uint32_t region, uint64_t off, uint32_t count, uint64_t value);
  int write_region_err(uint32_t region, uint64_t off, uint32_t count, uint64_t value);
  uint32_t cfg32(uint32_t off) {
    return uint32_t(read_region(VFIO_PCI_CONFIG_REGION_INDEX, off, 4));
  }
  uint64_t reg(uint32_t off, uint32_t size) {
    return read_region(VFIO_PCI_BAR2_REGION_INDEX, off, size);
  }
  void set_reg(uint32_t off, uint32_t size, uint64_t v) {
    write_region(VFIO_PCI_BAR2_REGION_INDEX, off, size, v);
  }

  // Guest memory: a memfd of `size` bytes at iova `base`, shared with the
  // server (with_fd) or served through DMA messages (without).
  void map_memory(uint64_t base, size_t size, bool with_fd);
  uint8_t* mem(uint64_t iova) { return memory_ + (iova - mem_base_); }
  // An eventfd registered with SET_IRQS(index, TRIGGER); returns it.
  int irq_eventfd(uint32_t index);
  // Pending count of an eventfd (0 when none, without blocking).
  static uint64_t drain(int efd);

  // Turn off answering DMA requests (a client that stops responding).
  void ignore_dma(bool on) { ignore_dma_ = on; }
  uint64_t dma_requests() const { return dma_requests_; }

  // The function's identity (the chip profile's, as the server builds it).
  const rtl8168_pci_identity& identity() const { return id_; }
  CaptureBackend* wire() { return wire_; }
  Server& server() { return *server_; }
  int sock() const { return sock_; }
  // Stop the server thread and wait (after which server() may be read).
  void stop();

 private:
  void serve_dma(const Message& m);

  boost::asio::io_context io_;
  rtl8168_pci_identity id_{};
  std::unique_ptr<Server> server_;
  CaptureBackend* wire_ = nullptr;
  int sock_ = -1;
  std::thread thread_;
  uint16_t next_id_ = 1;
  uint8_t* memory_ = nullptr;
  size_t mem_size_ = 0;
  uint64_t mem_base_ = 0;
  int memfd_ = -1;
  std::vector<int> eventfds_;
  bool ignore_dma_ = false;
  uint64_t dma_requests_ = 0;
};

// A driver's TX path, for the tests that need a frame and its interrupt:
// the guest memory of map_memory(kRam, kRamSize, ...) holds a one-descriptor
// ring at kRing and the frame at kBuf. The registers are the chip's as r8169
// writes them (the 8168's IntrMask 0x3c and TxPoll 0x38; the RTL8125's
// 32-bit IntrMask at 0x38 and its doorbell at 0x90).
inline constexpr uint64_t kRam = 0x100000, kRamSize = 1 << 20;
inline constexpr uint64_t kRing = kRam + 0x1000, kBuf = kRam + 0x2000;
// Bus master on, the ring, TX/RX enabled, the interrupt mask.
void bring_up_tx(Harness& h, uint32_t irq_mask);
// A 60-byte broadcast frame with `tag` at byte 14 in one descriptor; the doorbell.
void kick_one_frame(Harness& h, uint8_t tag);
// The frames the backend got, waiting up to 3 s for n of them.
std::vector<std::vector<uint8_t>> wait_frames(Harness& h, size_t n);
// Whether efd becomes readable within timeout_ms.
bool wait_eventfd(int efd, int timeout_ms);

}  // namespace vfio_user_test
