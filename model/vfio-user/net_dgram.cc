// SPDX-License-Identifier: GPL-2.0-or-later
#include "net_dgram.h"

#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <deque>
#include <iostream>
#include <vector>

#include "net_address.h"

namespace vfio_user {

namespace asio = boost::asio;
using asio::generic::datagram_protocol;

namespace {

// A frame the socket could not take yet is retried after this long. Sends
// are non-blocking calls, not waits for writability: an unconnected Unix
// datagram socket polls writable even while the peer's queue is full (Linux
// checks the peer's queue only for a connected socket), so a wait would spin.
constexpr auto kRetry = std::chrono::milliseconds(1);

class DgramBackend : public NetBackend {
 public:
  DgramBackend(asio::io_context& io, std::string name)
      : name_(std::move(name)), sock_(io), retry_(io), buf_(kMaxFrame + 1) {}
  ~DgramBackend() override {
    boost::system::error_code ignored;
    sock_.close(ignored);
    if (!bound_path_.empty()) ::unlink(bound_path_.c_str());
  }

  bool open(const NetAddress& local, const NetAddress& remote, std::string& err) {
    const auto ep = local.endpoint<datagram_protocol::endpoint>();
    boost::system::error_code ec;
    sock_.open(ep.protocol(), ec);
    if (!ec) sock_.bind(ep, ec);
    if (!ec) sock_.non_blocking(true, ec);
    if (ec) {
      err = "cannot bind the local address: " + ec.message();
      return false;
    }
    if (local.family() == AF_UNIX)
      bound_path_ = reinterpret_cast<const sockaddr_un*>(&local.storage)->sun_path;
    remote_ = remote.endpoint<datagram_protocol::endpoint>();
    return true;
  }

  void start(Receive on_frame, Link) override {
    on_frame_ = std::move(on_frame);
    receive();
  }
  bool initially_up() const override { return true; }
  uint64_t dropped() const override { return dropped_; }

  void send(const uint8_t* frame, size_t len) override {
    if (queue_.size() >= kMaxSendQueue) {
      dropped_++;
      return;
    }
    queue_.emplace_back(frame, frame + len);
    if (!retry_armed_) flush();
  }

 private:
  // Send what is queued, in order, until the socket would block.
  void flush() {
    while (!queue_.empty()) {
      boost::system::error_code ec;
      sock_.send_to(asio::buffer(queue_.front()), remote_, 0, ec);
      if (ec == asio::error::would_block || ec == asio::error::try_again ||
          ec == asio::error::no_buffer_space) {
        retry_armed_ = true;
        retry_.expires_after(kRetry);
        retry_.async_wait([this](const boost::system::error_code& e) {
          if (e) return;  // cancelled: the backend is going away
          retry_armed_ = false;
          flush();
        });
        return;
      }
      if (ec) {
        // No one bound at the remote path, or the network refuses: this
        // frame is lost; one line per run of failures.
        dropped_++;
        if (!failing_)
          std::cerr << "rtl8168-vfio-user: netdev " << name_ << ": send: " << ec.message()
                    << " (frames are dropped while it fails)\n";
        failing_ = true;
      } else {
        failing_ = false;
      }
      queue_.pop_front();
    }
  }

  void receive() {
    sock_.async_receive_from(asio::buffer(buf_), from_,
                             [this](const boost::system::error_code& ec, size_t n) {
                               if (ec == asio::error::operation_aborted) return;
                               if (ec) {
                                 // A datagram socket has no error that goes away by reading
                                 // again: stop receiving, say why.
                                 std::cerr << "rtl8168-vfio-user: netdev " << name_
                                           << ": receive: " << ec.message() << "\n";
                                 return;
                               }
                               // One frame per datagram; an empty one or one longer than a frame
                               // can be (truncated into buf_) is not a frame.
                               if (n == 0 || n > kMaxFrame)
                                 dropped_++;
                               else if (on_frame_)
                                 on_frame_(buf_.data(), n);
                               receive();
                             });
  }

  std::string name_;
  datagram_protocol::socket sock_;
  datagram_protocol::endpoint remote_, from_;
  asio::steady_timer retry_;
  std::string bound_path_;
  Receive on_frame_;
  std::vector<uint8_t> buf_;
  std::deque<std::vector<uint8_t>> queue_;
  bool retry_armed_ = false, failing_ = false;
  uint64_t dropped_ = 0;
};

}  // namespace

std::unique_ptr<NetBackend> make_dgram_backend(asio::io_context& io, const std::string& spec,
                                               std::string& err) {
  std::string local, remote;
  std::string rest = spec.substr(spec.find(',') + 1);
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string opt = rest.substr(0, comma);
    rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
    std::string* slot = opt.rfind("local=", 0) == 0    ? &local
                        : opt.rfind("remote=", 0) == 0 ? &remote
                                                       : nullptr;
    if (!slot || !slot->empty()) {
      err = "netdev dgram takes local=ADDR and remote=ADDR once each, got '" + opt + "'";
      return nullptr;
    }
    *slot = opt.substr(opt.find('=') + 1);
    if (slot->empty()) {
      err = "netdev dgram: empty address in '" + opt + "'";
      return nullptr;
    }
  }
  if (local.empty() || remote.empty()) {
    err = "netdev dgram needs local=ADDR and remote=ADDR (unix:PATH or udp:HOST:PORT), got '" +
          spec + "'";
    return nullptr;
  }
  NetAddress l, r;
  if (!parse_net_address(io, local, "udp", l, err) || !parse_net_address(io, remote, "udp", r, err))
    return nullptr;
  if (l.family() != r.family()) {
    err =
        "netdev dgram: local and remote must be of one family (both unix or both IPv4/IPv6), "
        "got '" +
        spec + "'";
    return nullptr;
  }
  auto b = std::make_unique<DgramBackend>(io, spec);
  if (!b->open(l, r, err)) {
    err = "netdev " + spec + ": " + err;
    return nullptr;
  }
  return b;
}

}  // namespace vfio_user
