// SPDX-License-Identifier: GPL-2.0-or-later
#include "server.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>

namespace vfio_user {

namespace asio = boost::asio;

Server::Server(asio::io_context& io, std::unique_ptr<NetBackend> net,
               std::unique_ptr<PcapWriter> pcap, ServerConfig sc)
    : io_(io),
      net_(std::move(net)),
      pcap_(std::move(pcap)),
      sc_(sc),
      timer_(io),
      start_(std::chrono::steady_clock::now()) {}

std::unique_ptr<Server> Server::create(asio::io_context& io, const rtl8168_config* cfg, bool pme,
                                       std::unique_ptr<NetBackend> net,
                                       std::unique_ptr<PcapWriter> pcap, ServerConfig sc,
                                       std::string& err) {
  std::unique_ptr<Server> s(new Server(io, std::move(net), std::move(pcap), sc));
  s->dev_ = Device::create(cfg, pme, *s, err);
  if (!s->dev_) return nullptr;
  Server* self = s.get();
  if (s->net_) {
    if (!s->net_->initially_up()) s->dev_->set_link(false);
    s->net_->start(
        [self](const uint8_t* f, size_t n) {
          self->frames_received_++;
          if (self->pcap_) self->pcap_->frame(self->now(), f, n);
          self->dev_->receive(f, n);
        },
        [self](bool up) { self->dev_->set_link(up); });
  }
  return s;
}

Server::~Server() {
  session_.reset();
  if (!path_.empty()) ::unlink(path_.c_str());
}

// The model's clock: nanoseconds of the host's monotonic clock since the
// server started (never backwards; the model's timing follows it when
// timing=on, and functional mode only orders events by it).
uint64_t Server::now() {
  const auto d = std::chrono::steady_clock::now() - start_;
  const uint64_t ns = uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(d).count());
  last_now_ = std::max(last_now_, ns);
  return last_now_;
}

void Server::arm_timer(uint64_t deadline_ns) {
  timer_.cancel();
  if (deadline_ns == RTL8168_NO_DEADLINE) return;
  timer_.expires_at(start_ + std::chrono::nanoseconds(deadline_ns));
  timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;  // re-armed or cancelled
    dev_->timer_expired();
  });
}

void Server::transmit(const uint8_t* frame, size_t len) {
  frames_sent_++;
  if (pcap_) pcap_->frame(now(), frame, len);
  if (net_) net_->send(frame, len);
}

// PATH appears only once the socket listens. A client that connects as soon as the file
// exists (run-guest waits for it, then starts QEMU) would otherwise find a socket that is
// bound but not yet listening and get ECONNREFUSED. So: bind a private name beside PATH
// (PATH.PID), listen, then link(2) PATH to it (the socket is found by its inode; link fails
// when PATH exists, which keeps "must not exist") and remove the private name.
bool Server::listen(const std::string& path, std::string& err) {
  const std::string staging = path + "." + std::to_string(::getpid());
  if (staging.size() >= sizeof(sockaddr_un{}.sun_path)) {
    err = "socket path too long: " + path + " (the server first binds " + staging + ", which must fit in " +
          std::to_string(sizeof(sockaddr_un{}.sun_path) - 1) + " bytes)";
    return false;
  }
  boost::system::error_code ec;
  acceptor_ = std::make_unique<asio::local::stream_protocol::acceptor>(io_);
  acceptor_->open(asio::local::stream_protocol(), ec);
  if (!ec) acceptor_->bind(asio::local::stream_protocol::endpoint(staging), ec);
  if (ec) {
    err = "cannot listen on " + path + ": " + ec.message();
    acceptor_.reset();
    return false;
  }
  acceptor_->listen(1, ec);
  const int linked = ec ? -1 : ::link(staging.c_str(), path.c_str());
  const int link_errno = errno;
  ::unlink(staging.c_str());
  if (ec || linked != 0) {
    err = "cannot listen on " + path + ": " + (ec ? ec.message() : std::strerror(link_errno));
    acceptor_.reset();
    return false;
  }
  path_ = path;
  accept();
  return true;
}

void Server::accept() {
  acceptor_->async_accept(
      [this](const boost::system::error_code& ec, asio::local::stream_protocol::socket sock) {
        if (ec) {
          if (ec != asio::error::operation_aborted)
            std::cerr << "rtl8168-vfio-user: accept: " << ec.message() << "\n";
          return;
        }
        std::cerr << "rtl8168-vfio-user: client connected\n";
        serve(sock.release());
      });
}

void Server::serve(int fd) {
  ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  session_ = std::make_unique<Session>(io_, fd, *dev_, sc_.limits,
                                       [this](const std::string& why) { session_closed(why); });
  session_->start();
}

// One log line per connection that ends. The session is destroyed from the
// loop, not from inside its own handler.
void Server::session_closed(const std::string& why) {
  std::cerr << "rtl8168-vfio-user: client gone: " << why << "\n";
  asio::post(io_, [this] {
    session_.reset();
    if (acceptor_ && sc_.persist) {
      accept();
    } else {
      timer_.cancel();
      if (acceptor_) acceptor_->close();
      acceptor_.reset();
      io_.stop();
    }
  });
}

}  // namespace vfio_user
