// SPDX-License-Identifier: GPL-2.0-or-later
// sink: read each connection to EOF; bytes, SHA-256, pattern check, throughput.
#include <chrono>
#include <memory>
#include <vector>

#include "asio_coro.h"
#include "endpoint.h"
#include "modes.h"
#include "pattern.h"
#include "sha256.h"
#include "tcp_sessions.h"

namespace asio = boost::asio;
using asio::ip::tcp;

namespace peer {
namespace {

constexpr size_t kReadSize = 256 * 1024;

struct SinkConn {
  std::string remote;
  uint64_t bytes = 0;
  Sha256 sha;
  PatternChecker pattern;
  double seconds = 0;
  bool complete = false;
  std::string error;
};

asio::awaitable<void> SinkSession(tcp::socket socket, SinkConn* c) {
  c->remote = ToString(socket.remote_endpoint());
  const auto start = std::chrono::steady_clock::now();
  std::vector<uint8_t> buf(kReadSize);
  for (;;) {
    boost::system::error_code ec;
    const size_t n = co_await socket.async_read_some(asio::buffer(buf),
                                                     asio::redirect_error(asio::use_awaitable, ec));
    c->sha.Update(buf.data(), n);
    c->pattern.Feed(buf.data(), n);
    c->bytes += n;
    c->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (ec == asio::error::eof) break;
    if (ec) throw boost::system::system_error(ec, "read");
  }
  c->complete = true;
  boost::system::error_code ignored;
  socket.shutdown(tcp::socket::shutdown_send, ignored);
}

}  // namespace

ModeResult RunSink(Runtime& rt, const Options& opts) {
  std::vector<std::unique_ptr<SinkConn>> conns;
  for (uint64_t i = 0; i < opts.count; ++i) conns.push_back(std::make_unique<SinkConn>());
  ModeResult r;
  r.json["endpoint"] = StartTcpSessions(
      rt, opts,
      [&conns](tcp::socket s, size_t i) { return SinkSession(std::move(s), conns[i].get()); },
      [&conns](size_t i, const std::string& msg) { conns[i]->error = msg; });
  rt.Run();

  r.complete = true;
  uint64_t total = 0;
  auto& list = r.json["connections"] = nlohmann::json::array();
  for (auto& c : conns) {
    nlohmann::json j = {
        {"remote", c->remote},
        {"bytes", c->bytes},
        {"seconds", c->seconds},
        {"mbps", c->seconds > 0 ? static_cast<double>(c->bytes) * 8e-6 / c->seconds : 0.0},
        {"complete", c->complete}};
    j["sha256"] = c->sha.FinalHex();
    const auto mismatch = c->pattern.first_mismatch();
    j["pattern_ok"] = !mismatch.has_value();
    if (mismatch) j["pattern_first_mismatch"] = *mismatch;
    bool ok = c->complete;
    if (opts.expect_bytes) {
      const bool bytes_ok = c->bytes == *opts.expect_bytes;
      j["bytes_ok"] = bytes_ok;
      ok = ok && bytes_ok;
    }
    if (opts.expect_sha256) {
      const bool sha_ok = j["sha256"] == *opts.expect_sha256;
      j["sha256_ok"] = sha_ok;
      ok = ok && sha_ok;
    }
    if (opts.expect_pattern) ok = ok && !mismatch;
    if (!c->error.empty()) {
      j["error"] = c->error;
      r.error = true;
    }
    j["ok"] = ok;
    r.ok = r.ok && ok;
    r.complete = r.complete && c->complete;
    total += c->bytes;
    list.push_back(std::move(j));
  }
  r.json["bytes"] = total;
  if (opts.expect_bytes) r.json["expect_bytes"] = *opts.expect_bytes;
  if (opts.expect_sha256) r.json["expect_sha256"] = *opts.expect_sha256;
  if (opts.expect_pattern) r.json["expect_pattern"] = true;
  return r;
}

}  // namespace peer
