// SPDX-License-Identifier: GPL-2.0-or-later
// udp-echo: server (--listen) sends every datagram back to its sender; client
// (--connect) sends --datagrams numbered datagrams one at a time and times each echo.
// Datagram layout: 8-byte big-endian sequence number, then pattern bytes 8..size-1.
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstring>
#include <vector>

#include "asio_coro.h"
#include "endpoint.h"
#include "modes.h"
#include "pattern.h"
#include "stats.h"

namespace asio = boost::asio;
using asio::ip::udp;

namespace peer {
namespace {

struct UdpState {
  uint64_t datagrams = 0;  // echoed (server) or sent (client)
  uint64_t bytes = 0;
  uint64_t received = 0, lost = 0, bad = 0, stale = 0;  // client
  std::vector<uint64_t> latencies_ns;
  double seconds = 0;
  bool complete = false;
};

void PutSeq(uint8_t* p, uint64_t seq) {
  rtl_put_be32(p, static_cast<uint32_t>(seq >> 32));
  rtl_put_be32(p + 4, static_cast<uint32_t>(seq));
}

uint64_t GetSeq(const uint8_t* p) {
  return (static_cast<uint64_t>(rtl_get_be32(p)) << 32) | rtl_get_be32(p + 4);
}

asio::awaitable<void> Server(udp::socket& socket, UdpState* s, std::optional<uint64_t> limit,
                             Runtime* rt) {
  std::vector<uint8_t> buf(65536);
  for (;;) {
    udp::endpoint from;
    const size_t n =
        co_await socket.async_receive_from(asio::buffer(buf), from, asio::use_awaitable);
    co_await socket.async_send_to(asio::buffer(buf.data(), n), from, asio::use_awaitable);
    ++s->datagrams;
    s->bytes += n;
    if (limit && s->datagrams == *limit) break;
  }
  s->complete = true;
  rt->Finish();
}

asio::awaitable<void> Client(udp::socket& socket, UdpState* s, const Options* o, Runtime* rt) {
  const size_t size = o->datagram_size;
  const uint64_t count = o->datagrams.value_or(1000);
  std::vector<uint8_t> out(size), in(65536);
  rtl_pattern_fill(out.data(), size, 0);
  asio::steady_timer timer(socket.get_executor());
  // The timer handler may already be queued when an echo arrives just in time: it only
  // acts while `waiting` still holds its own sequence number.
  uint64_t waiting = UINT64_MAX;
  bool expired = false;
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t seq = 0; seq < count; ++seq) {
    PutSeq(out.data(), seq);
    const auto t0 = std::chrono::steady_clock::now();
    co_await socket.async_send(asio::buffer(out), asio::use_awaitable);
    ++s->datagrams;
    s->bytes += size;
    // Wait for this sequence number; the timer cancels the receive when it expires.
    waiting = seq;
    expired = false;
    timer.expires_after(std::chrono::milliseconds(o->reply_wait_ms));
    timer.async_wait([&socket, &expired, &waiting, seq](const boost::system::error_code& ec) {
      if (ec || waiting != seq) return;
      expired = true;
      boost::system::error_code ignored;
      socket.cancel(ignored);
    });
    for (;;) {
      boost::system::error_code ec;
      const size_t n = co_await socket.async_receive(asio::buffer(in),
                                                     asio::redirect_error(asio::use_awaitable, ec));
      if (expired) {
        ++s->lost;
        break;
      }
      if (ec == asio::error::connection_refused) continue;  // ICMP from an earlier send
      if (ec) throw boost::system::system_error(ec, "receive");
      if (n < 8 || GetSeq(in.data()) != seq) {
        ++s->stale;  // a late echo of an earlier datagram
        continue;
      }
      const auto t1 = std::chrono::steady_clock::now();
      s->latencies_ns.push_back(static_cast<uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count()));
      ++s->received;
      if (n != size || std::memcmp(in.data(), out.data(), size) != 0) ++s->bad;
      waiting = UINT64_MAX;
      timer.cancel();
      break;
    }
  }
  s->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  s->complete = true;
  rt->Finish();
}

}  // namespace

ModeResult RunUdpEcho(Runtime& rt, const Options& opts) {
  const bool server = opts.listen.has_value();
  UdpState state;
  udp::socket socket(rt.io());
  ModeResult r;
  r.json["role"] = server ? "server" : "client";
  std::string error;
  const auto on_done = [&rt, &error](std::exception_ptr e) {
    if (!e) return;
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& ex) {
      error = ex.what();
    }
    rt.Finish();
  };
  if (server) {
    const udp::endpoint local = ResolveUdp(rt.io(), ParseHostPort(*opts.listen, "--listen"));
    socket.open(local.protocol());
    socket.bind(local);
    r.json["endpoint"] = ToString(socket.local_endpoint());
    Runtime::WriteReadyFile(opts.ready_file, r.json["endpoint"]);
    asio::co_spawn(rt.io(), Server(socket, &state, opts.datagrams, &rt), on_done);
  } else {
    const udp::endpoint remote = ResolveUdp(rt.io(), ParseHostPort(*opts.connect, "--connect"));
    socket.open(remote.protocol());
    socket.connect(remote);
    r.json["endpoint"] = ToString(remote);
    Runtime::WriteReadyFile(opts.ready_file, ToString(remote));
    asio::co_spawn(rt.io(), Client(socket, &state, &opts, &rt), on_done);
  }
  rt.Run();

  r.json["datagrams"] = state.datagrams;
  r.json["bytes"] = state.bytes;
  if (server) {
    // Without --datagrams the server runs until a signal: that is its normal end.
    r.complete = state.complete || (!opts.datagrams && rt.reason() == StopReason::kSignal);
  } else {
    r.json["size"] = opts.datagram_size;
    r.json["received"] = state.received;
    r.json["lost"] = state.lost;
    r.json["bad"] = state.bad;
    r.json["stale"] = state.stale;
    r.json["seconds"] = state.seconds;
    r.json["latency"] = ToJson(Summarize(state.latencies_ns));
    r.complete = state.complete;
    r.ok = state.lost == 0 && state.bad == 0;
  }
  if (!error.empty()) {
    r.json["error"] = error;
    r.error = true;
  }
  return r;
}

}  // namespace peer
