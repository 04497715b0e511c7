// SPDX-License-Identifier: GPL-2.0-or-later
// Where the device's frames go and come from. `stream`: QEMU's stream
// socket protocol (net/stream.c, the framing of -netdev stream and
// -netdev socket: each frame preceded by its length as a 4-byte big-endian
// number), over a Unix or TCP socket, as the connecting or the listening
// side, so the device can be wired to another QEMU's -netdev stream.
// `dgram`: QEMU's datagram socket protocol (net/dgram.c, -netdev dgram: one
// frame per datagram, nothing else) over UDP or Unix datagram sockets
// (net_dgram.h). `user`: libslirp (net_slirp.h). `none`: frames leave into
// nothing (the pcap still sees them).
#pragma once

// clang-format off
// Asio 1.74's awaitable.hpp uses std::exchange without including <utility>.
#include <utility>
#include <boost/asio.hpp>
// clang-format on
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>

namespace vfio_user {

class NetBackend {
 public:
  using Receive = std::function<void(const uint8_t* frame, size_t len)>;
  using Link = std::function<void(bool up)>;
  virtual ~NetBackend() = default;
  virtual void send(const uint8_t* frame, size_t len) = 0;
  virtual void start(Receive on_frame, Link on_link) = 0;
  // Whether there is carrier before start() reports anything (a stream has
  // none until its peer connects, like QEMU's -netdev stream).
  virtual bool initially_up() const = 0;
  // Frames this backend dropped in either direction: sent while there is
  // no peer or its queue is full, refused by the socket, or received
  // malformed (a datagram that is empty or longer than kMaxFrame).
  virtual uint64_t dropped() const { return 0; }
};

// The largest frame accepted from a socket (QEMU's NET_BUFSIZE, 4096 +
// 65536): a longer length prefix closes the stream, a longer datagram is
// dropped.
inline constexpr uint32_t kMaxFrame = 4096 + 65536;
// Frames queued towards a slow peer before new ones are dropped.
inline constexpr size_t kMaxSendQueue = 1024;

// spec: "none", "user[,hostfwd=...]", "stream,connect=unix:PATH", "stream,connect=tcp:HOST:PORT",
// "stream,listen=unix:PATH", "stream,listen=tcp:HOST:PORT",
// "dgram,local=unix:PATH,remote=unix:PATH", "dgram,local=udp:HOST:PORT,remote=udp:HOST:PORT".
// nullptr with a message in err for a bad spec.
std::unique_ptr<NetBackend> make_net_backend(boost::asio::io_context& io, const std::string& spec,
                                             std::string& err);

}  // namespace vfio_user
