// SPDX-License-Identifier: GPL-2.0-or-later
// The stream socket backend (net_backend.h): length-prefixed frames; and
// the choice of backend from the --netdev spec.
#include <arpa/inet.h>

#include <cstring>
#include <deque>
#include <iostream>
#include <vector>

#include "net_address.h"
#include "net_backend.h"
#include "net_dgram.h"
#include "net_slirp.h"

namespace vfio_user {

namespace asio = boost::asio;
using asio::generic::stream_protocol;

namespace {

class NoneBackend : public NetBackend {
 public:
  void send(const uint8_t*, size_t) override {}
  void start(Receive, Link) override {}
  bool initially_up() const override { return true; }
};

class StreamBackend : public NetBackend {
 public:
  StreamBackend(asio::io_context& io, stream_protocol::endpoint ep, bool listen, std::string name)
      : ep_(ep), listen_(listen), name_(std::move(name)), sock_(io), acceptor_(io) {}

  void start(Receive on_frame, Link on_link) override {
    on_frame_ = std::move(on_frame);
    on_link_ = std::move(on_link);
    if (listen_) {
      boost::system::error_code ec;
      acceptor_.open(ep_.protocol(), ec);
      if (!ec && ep_.protocol().family() != AF_UNIX)
        acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
      if (!ec) acceptor_.bind(ep_, ec);
      if (!ec) acceptor_.listen(1, ec);
      if (ec) {
        std::cerr << "rtl8168-vfio-user: netdev " << name_ << ": " << ec.message() << "\n";
        return;
      }
      accept();
    } else {
      sock_.async_connect(ep_, [this](const boost::system::error_code& ec) {
        if (ec) {
          std::cerr << "rtl8168-vfio-user: netdev " << name_ << ": " << ec.message() << "\n";
          return;
        }
        connected();
      });
    }
  }

  bool initially_up() const override { return false; }
  uint64_t dropped() const override { return dropped_; }

  void send(const uint8_t* frame, size_t len) override {
    if (!up_ || queue_.size() >= kMaxSendQueue) {
      dropped_++;
      return;
    }
    std::vector<uint8_t> buf(4 + len);
    const uint32_t be = htonl(uint32_t(len));
    std::memcpy(buf.data(), &be, 4);
    std::memcpy(buf.data() + 4, frame, len);
    queue_.push_back(std::move(buf));
    if (queue_.size() == 1) write_next();
  }

 private:
  void accept() {
    acceptor_.async_accept(sock_, [this](const boost::system::error_code& ec) {
      if (!ec) connected();
    });
  }
  void connected() {
    up_ = true;
    std::cerr << "rtl8168-vfio-user: netdev " << name_ << " connected\n";
    if (on_link_) on_link_(true);
    read_len();
  }
  void lost(const boost::system::error_code& ec) {
    if (!up_) return;
    up_ = false;
    dropped_ += queue_.size();  // the one being written included: its peer is gone
    queue_.clear();
    std::cerr << "rtl8168-vfio-user: netdev " << name_ << " lost: " << ec.message() << "\n";
    boost::system::error_code ignored;
    sock_.close(ignored);
    if (on_link_) on_link_(false);
    if (listen_) accept();  // the next peer may connect
  }
  void read_len() {
    asio::async_read(sock_, asio::buffer(len_buf_),
                     [this](const boost::system::error_code& ec, size_t) {
                       if (ec) return lost(ec);
                       uint32_t be;
                       std::memcpy(&be, len_buf_, 4);
                       const uint32_t len = ntohl(be);
                       if (len == 0 || len > kMaxFrame) return lost(asio::error::message_size);
                       frame_.resize(len);
                       asio::async_read(sock_, asio::buffer(frame_),
                                        [this](const boost::system::error_code& e2, size_t) {
                                          if (e2) return lost(e2);
                                          if (on_frame_) on_frame_(frame_.data(), frame_.size());
                                          read_len();
                                        });
                     });
  }
  void write_next() {
    asio::async_write(sock_, asio::buffer(queue_.front()),
                      [this](const boost::system::error_code& ec, size_t) {
                        if (ec) return lost(ec);
                        queue_.pop_front();
                        if (!queue_.empty()) write_next();
                      });
  }

  stream_protocol::endpoint ep_;
  bool listen_;
  std::string name_;
  stream_protocol::socket sock_;
  asio::basic_socket_acceptor<stream_protocol> acceptor_;
  Receive on_frame_;
  Link on_link_;
  bool up_ = false;
  uint64_t dropped_ = 0;
  uint8_t len_buf_[4];
  std::vector<uint8_t> frame_;
  std::deque<std::vector<uint8_t>> queue_;
};

}  // namespace

std::unique_ptr<NetBackend> make_net_backend(asio::io_context& io, const std::string& spec,
                                             std::string& err) {
  if (spec == "none") return std::make_unique<NoneBackend>();
  if (spec == "user" || spec.rfind("user,", 0) == 0) return make_slirp_backend(io, spec, err);
  const std::string kStream = "stream,";
  if (spec.rfind(kStream, 0) == 0) {
    const std::string rest = spec.substr(kStream.size());
    bool listen;
    std::string addr;
    if (rest.rfind("connect=", 0) == 0) {
      listen = false;
      addr = rest.substr(8);
    } else if (rest.rfind("listen=", 0) == 0) {
      listen = true;
      addr = rest.substr(7);
    } else {
      err = "netdev stream takes connect=ADDR or listen=ADDR, got '" + spec + "'";
      return nullptr;
    }
    NetAddress a;
    if (!parse_net_address(io, addr, "tcp", a, err)) return nullptr;
    return std::make_unique<StreamBackend>(io, a.endpoint<stream_protocol::endpoint>(), listen,
                                           spec);
  }
  if (spec.rfind("dgram,", 0) == 0) return make_dgram_backend(io, spec, err);
  err =
      "netdev must be 'none', 'user[,hostfwd=...]', 'stream,connect=ADDR' / "
      "'stream,listen=ADDR' or 'dgram,local=ADDR,remote=ADDR', got '" +
      spec + "'";
  return nullptr;
}

}  // namespace vfio_user
