// SPDX-License-Identifier: GPL-2.0-or-later
// source: send --bytes of the pattern on each connection, half-close, wait for EOF.
#include <boost/asio/write.hpp>
#include <chrono>
#include <memory>
#include <vector>

#include "asio_coro.h"
#include "endpoint.h"
#include "modes.h"
#include "pattern.h"
#include "tcp_sessions.h"

namespace asio = boost::asio;
using asio::ip::tcp;

namespace peer {
namespace {

struct SourceConn {
  std::string remote;
  uint64_t bytes = 0;     // sent
  uint64_t received = 0;  // from the other side before its EOF (normally 0)
  double send_seconds = 0;
  double seconds = 0;  // until the receiver closed: all data delivered
  bool complete = false;
  std::string error;
};

asio::awaitable<void> SourceSession(tcp::socket socket, SourceConn* c, uint64_t bytes) {
  c->remote = ToString(socket.remote_endpoint());
  const auto start = std::chrono::steady_clock::now();
  const auto since = [&start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  // The pattern's period is one static buffer: large writes, nothing regenerated.
  const auto period = PatternPeriod();
  while (c->bytes < bytes) {
    const size_t at = static_cast<size_t>(c->bytes % period.size());
    const size_t n = static_cast<size_t>(std::min<uint64_t>(bytes - c->bytes, period.size() - at));
    co_await asio::async_write(socket, asio::buffer(period.data() + at, n), asio::use_awaitable);
    c->bytes += n;
  }
  socket.shutdown(tcp::socket::shutdown_send);
  c->send_seconds = since();
  std::vector<uint8_t> buf(64 * 1024);
  for (;;) {
    boost::system::error_code ec;
    c->received += co_await socket.async_read_some(asio::buffer(buf),
                                                   asio::redirect_error(asio::use_awaitable, ec));
    if (ec == asio::error::eof) break;
    if (ec) throw boost::system::system_error(ec, "read");
  }
  c->seconds = since();
  c->complete = true;
}

}  // namespace

ModeResult RunSource(Runtime& rt, const Options& opts) {
  const uint64_t bytes = opts.bytes.value_or(0);
  std::vector<std::unique_ptr<SourceConn>> conns;
  for (uint64_t i = 0; i < opts.count; ++i) conns.push_back(std::make_unique<SourceConn>());
  ModeResult r;
  r.json["endpoint"] = StartTcpSessions(
      rt, opts,
      [&conns, bytes](tcp::socket s, size_t i) {
        return SourceSession(std::move(s), conns[i].get(), bytes);
      },
      [&conns](size_t i, const std::string& msg) { conns[i]->error = msg; });
  rt.Run();

  r.complete = true;
  uint64_t total = 0;
  auto& list = r.json["connections"] = nlohmann::json::array();
  for (auto& c : conns) {
    nlohmann::json j = {
        {"remote", c->remote},
        {"bytes", c->bytes},
        {"received", c->received},
        {"send_seconds", c->send_seconds},
        {"seconds", c->seconds},
        {"mbps", c->seconds > 0 ? static_cast<double>(c->bytes) * 8e-6 / c->seconds : 0.0},
        {"complete", c->complete}};
    if (!c->error.empty()) {
      j["error"] = c->error;
      r.error = true;
    }
    r.complete = r.complete && c->complete;
    total += c->bytes;
    list.push_back(std::move(j));
  }
  r.json["bytes"] = total;
  r.json["bytes_per_connection"] = bytes;
  r.json["sha256"] = PatternSha256(bytes);  // of each connection's stream
  return r;
}

}  // namespace peer
