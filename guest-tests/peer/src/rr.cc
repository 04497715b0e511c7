// SPDX-License-Identifier: GPL-2.0-or-later
// rr: TCP request/response (netperf TCP_RR style). Client: --connect, sends the hello
// then --transactions requests, measures each round trip. Server: --listen, answers
// until EOF. Wire protocol: guest-tests/programs/rtl-pattern.h.
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include "asio_coro.h"
#include "endpoint.h"
#include "modes.h"
#include "pattern.h"
#include "stats.h"
#include "tcp_sessions.h"

namespace asio = boost::asio;
using asio::ip::tcp;

namespace peer {
namespace {

struct RrConn {
  std::string remote;
  uint32_t request_size = 0, response_size = 0;
  uint64_t announced = 0;     // transactions in the hello
  uint64_t transactions = 0;  // completed
  uint64_t bad_responses = 0;
  std::vector<uint64_t> latencies_ns;
  double seconds = 0;
  bool complete = false;
  std::string error;
};

std::vector<uint8_t> PatternBytes(size_t n) {
  std::vector<uint8_t> v(n);
  rtl_pattern_fill(v.data(), n, 0);
  return v;
}

asio::awaitable<void> ServerSession(tcp::socket socket, RrConn* c) {
  c->remote = ToString(socket.remote_endpoint());
  socket.set_option(tcp::no_delay(true));
  uint8_t hello[RTL_RR_HELLO_SIZE];
  co_await asio::async_read(socket, asio::buffer(hello), asio::use_awaitable);
  if (rtl_get_be32(hello) != RTL_RR_MAGIC) throw std::runtime_error("bad rr hello magic");
  c->request_size = rtl_get_be32(hello + 4);
  c->response_size = rtl_get_be32(hello + 8);
  c->announced = rtl_get_be32(hello + 12);
  if (c->request_size == 0 || c->response_size == 0 || c->request_size > RTL_RR_MAX_SIZE ||
      c->response_size > RTL_RR_MAX_SIZE)
    throw std::runtime_error("rr hello: request/response size out of range");
  std::vector<uint8_t> request(c->request_size);
  const std::vector<uint8_t> response = PatternBytes(c->response_size);
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    boost::system::error_code ec;
    const size_t n = co_await asio::async_read(socket, asio::buffer(request),
                                               asio::redirect_error(asio::use_awaitable, ec));
    if (ec == asio::error::eof && n == 0) break;
    if (ec) throw boost::system::system_error(ec, "read request");
    co_await asio::async_write(socket, asio::buffer(response), asio::use_awaitable);
    ++c->transactions;
  }
  c->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  c->complete = true;
}

asio::awaitable<void> ClientSession(tcp::socket socket, RrConn* c) {
  c->remote = ToString(socket.remote_endpoint());
  socket.set_option(tcp::no_delay(true));
  uint8_t hello[RTL_RR_HELLO_SIZE];
  rtl_put_be32(hello, RTL_RR_MAGIC);
  rtl_put_be32(hello + 4, c->request_size);
  rtl_put_be32(hello + 8, c->response_size);
  rtl_put_be32(hello + 12, static_cast<uint32_t>(c->announced));
  co_await asio::async_write(socket, asio::buffer(hello), asio::use_awaitable);
  const std::vector<uint8_t> request = PatternBytes(c->request_size);
  const std::vector<uint8_t> expected = PatternBytes(c->response_size);
  std::vector<uint8_t> response(c->response_size);
  c->latencies_ns.reserve(c->announced);
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < c->announced; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    co_await asio::async_write(socket, asio::buffer(request), asio::use_awaitable);
    co_await asio::async_read(socket, asio::buffer(response), asio::use_awaitable);
    const auto t1 = std::chrono::steady_clock::now();
    c->latencies_ns.push_back(static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count()));
    if (response != expected) ++c->bad_responses;
    ++c->transactions;
  }
  c->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  socket.shutdown(tcp::socket::shutdown_send);
  uint8_t byte;
  boost::system::error_code ec;
  co_await socket.async_read_some(asio::buffer(&byte, 1),
                                  asio::redirect_error(asio::use_awaitable, ec));
  if (ec != asio::error::eof)
    throw std::runtime_error("rr server sent data after the last response");
  c->complete = true;
}

}  // namespace

ModeResult RunRr(Runtime& rt, const Options& opts) {
  const bool server = opts.listen.has_value();
  std::vector<std::unique_ptr<RrConn>> conns;
  for (uint64_t i = 0; i < opts.count; ++i) {
    auto c = std::make_unique<RrConn>();
    c->request_size = opts.request_size;
    c->response_size = opts.response_size;
    c->announced = opts.transactions.value_or(1000);
    conns.push_back(std::move(c));
  }
  ModeResult r;
  r.json["role"] = server ? "server" : "client";
  r.json["endpoint"] = StartTcpSessions(
      rt, opts,
      [&conns, server](tcp::socket s, size_t i) {
        return server ? ServerSession(std::move(s), conns[i].get())
                      : ClientSession(std::move(s), conns[i].get());
      },
      [&conns](size_t i, const std::string& msg) { conns[i]->error = msg; });
  rt.Run();

  r.complete = true;
  std::vector<uint64_t> all;
  uint64_t total = 0;
  auto& list = r.json["connections"] = nlohmann::json::array();
  for (auto& c : conns) {
    nlohmann::json j = {{"remote", c->remote},
                        {"request_size", c->request_size},
                        {"response_size", c->response_size},
                        {"announced_transactions", c->announced},
                        {"transactions", c->transactions},
                        {"seconds", c->seconds},
                        {"complete", c->complete}};
    bool ok = c->complete && c->transactions == c->announced;
    if (server && opts.transactions) ok = ok && c->transactions == *opts.transactions;
    if (!server) {
      j["bad_responses"] = c->bad_responses;
      ok = ok && c->bad_responses == 0;
      j["latency"] = ToJson(Summarize(c->latencies_ns));
      j["transactions_per_second"] =
          c->seconds > 0 ? static_cast<double>(c->transactions) / c->seconds : 0.0;
      all.insert(all.end(), c->latencies_ns.begin(), c->latencies_ns.end());
    }
    if (!c->error.empty()) {
      j["error"] = c->error;
      r.error = true;
    }
    j["ok"] = ok;
    r.ok = r.ok && ok;
    r.complete = r.complete && c->complete;
    total += c->transactions;
    list.push_back(std::move(j));
  }
  r.json["transactions"] = total;
  if (!server) r.json["latency"] = ToJson(Summarize(std::move(all)));
  return r;
}

}  // namespace peer
