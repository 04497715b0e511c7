// SPDX-License-Identifier: GPL-2.0-or-later
// One client connection on the event loop: when the socket is readable, read
// one message (transport.h), hand it to the Dispatcher, send the reply. The
// session is also the message path of DMA windows without an fd: the model
// asks for guest memory synchronously (rtl8168_host_ops.dma_read), so a
// DMA_READ / DMA_WRITE request goes out and the session waits, bounded, for
// its reply; requests that arrive meanwhile are held (bounded) and handled
// in order afterwards. A client that does not answer in time fails that DMA
// (the model reports it as the chip reports a master abort).
#pragma once

// clang-format off
// Asio 1.74's awaitable.hpp uses std::exchange without including <utility>.
#include <utility>
#include <boost/asio.hpp>
// clang-format on
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <utility>

#include "dispatch.h"

namespace vfio_user {

struct SessionLimits {
  int message_timeout_ms = 5000;  // a started message must be complete within this
  int dma_timeout_ms = 1000;      // wait for the client's DMA reply (QEMU's own wait is 5 s)
  size_t max_held = 256;          // requests held while a DMA reply is awaited
};

class Session : public DmaMessages {
 public:
  using OnClose = std::function<void(const std::string& why)>;
  Session(boost::asio::io_context& io, int fd, Device& dev, SessionLimits limits, OnClose on_close);
  ~Session() override;

  void start();
  int dma_read(uint64_t addr, void* buf, size_t len) override;
  int dma_write(uint64_t addr, const void* buf, size_t len) override;

 private:
  void arm();
  void on_readable();
  void process(Message& m);
  void close(const std::string& why);
  // Send a DMA request and wait for its reply; fills `reply`. 0 or -1.
  int dma_request(uint16_t cmd, uint64_t addr, const void* data, size_t len, Message& reply);

  boost::asio::posix::stream_descriptor sock_;
  Device& dev_;
  Dispatcher dispatch_;
  SessionLimits limits_;
  OnClose on_close_;
  std::deque<Message> held_;
  uint16_t next_id_ = 0;
  bool closed_ = false, broken_ = false;
  std::string broken_why_;
};

}  // namespace vfio_user
