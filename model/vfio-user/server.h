// SPDX-License-Identifier: GPL-2.0-or-later
// The server: one device on one event loop, its clock and timer (the host's
// monotonic clock since start: the model's `now`), its network backend and
// capture, and the client connection. It listens on a Unix socket path
// (serving one client at a time) or serves an already connected socket (the
// tests' socketpair).
#pragma once

// clang-format off
// Asio 1.74's awaitable.hpp uses std::exchange without including <utility>.
#include <utility>
#include <boost/asio.hpp>
// clang-format on
#include <chrono>
#include <memory>
#include <string>
#include <utility>

#include "device.h"
#include "net_backend.h"
#include "pcap_writer.h"
#include "session.h"

namespace vfio_user {

struct ServerConfig {
  bool persist = false;  // re-listen after a client leaves
  SessionLimits limits;
};

class Server : public DeviceHost {
 public:
  // nullptr with a message in err.
  static std::unique_ptr<Server> create(boost::asio::io_context& io, const rtl8168_config* cfg,
                                        bool pme, std::unique_ptr<NetBackend> net,
                                        std::unique_ptr<PcapWriter> pcap, ServerConfig sc,
                                        std::string& err);
  ~Server() override;

  // Listen on a new Unix socket at path (false with err: it exists, too long...).
  bool listen(const std::string& path, std::string& err);
  // Serve one connected socket (ownership taken).
  void serve(int fd);

  // DeviceHost
  uint64_t now() override;
  void arm_timer(uint64_t deadline_ns) override;
  void transmit(const uint8_t* frame, size_t len) override;

  Device& device() { return *dev_; }
  uint64_t frames_sent() const { return frames_sent_; }
  uint64_t frames_received() const { return frames_received_; }
  // Frames the network backend dropped, and the model's RX back-pressure.
  uint64_t frames_dropped() const { return (net_ ? net_->dropped() : 0) + dev_->rx_dropped(); }
  bool has_client() const { return session_ != nullptr; }

 private:
  Server(boost::asio::io_context& io, std::unique_ptr<NetBackend> net,
         std::unique_ptr<PcapWriter> pcap, ServerConfig sc);
  void accept();
  void session_closed(const std::string& why);

  boost::asio::io_context& io_;
  std::unique_ptr<NetBackend> net_;
  std::unique_ptr<PcapWriter> pcap_;
  ServerConfig sc_;
  std::unique_ptr<Device> dev_;
  std::unique_ptr<Session> session_;
  boost::asio::steady_timer timer_;
  std::chrono::steady_clock::time_point start_;
  uint64_t last_now_ = 0;
  std::unique_ptr<boost::asio::local::stream_protocol::acceptor> acceptor_;
  std::string path_;
  uint64_t frames_sent_ = 0, frames_received_ = 0;
};

}  // namespace vfio_user
