// SPDX-License-Identifier: GPL-2.0-or-later
#include "options.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <iostream>
#include <map>
#include <set>
#include <vector>

namespace po = boost::program_options;

namespace peer {
namespace {

constexpr const char* kUsage =
    "Usage: rtl8168-peer MODE [OPTIONS]\n"
    "Host traffic peer for rtl8168-sim guests (see docs/PEER.md).\n\n"
    "Modes:\n"
    "  sink      TCP: receive until EOF; bytes, SHA-256, throughput (--listen|--connect)\n"
    "  source    TCP: send --bytes N of the deterministic pattern, then wait for EOF\n"
    "  rr        TCP request/response: client (--connect) measures latency,\n"
    "            server (--listen) answers; protocol in guest-tests/programs/rtl-pattern.h\n"
    "  udp-echo  UDP: server (--listen) echoes datagrams; client (--connect) measures RTT\n"
    "  pattern   print bytes and SHA-256 of the first --bytes N of the pattern\n\n"
    "Numbers take the binary suffixes K, M and G (64M = 67108864).\n\n"
    "Exit status: 0 ok, 1 expectation not met, 2 bad arguments, 3 timeout,\n"
    "             4 network error, 5 interrupted (SIGINT/SIGTERM) before completion.\n\n";

// Options each mode accepts besides the common ones.
const std::map<Mode, std::set<std::string>>& ModeOptions() {
  static const std::map<Mode, std::set<std::string>> table = {
      {Mode::kSink,
       {"listen", "connect", "count", "expect-bytes", "expect-sha256", "expect-pattern", "timeout",
        "ready-file"}},
      {Mode::kSource, {"listen", "connect", "count", "bytes", "timeout", "ready-file"}},
      {Mode::kRr,
       {"listen", "connect", "count", "request-size", "response-size", "transactions", "timeout",
        "ready-file"}},
      {Mode::kUdpEcho,
       {"listen", "connect", "size", "datagrams", "reply-wait-ms", "timeout", "ready-file"}},
      {Mode::kPattern, {"bytes"}},
  };
  return table;
}

Mode ParseMode(const std::string& name) {
  static const std::map<std::string, Mode> modes = {{"sink", Mode::kSink},
                                                    {"source", Mode::kSource},
                                                    {"rr", Mode::kRr},
                                                    {"udp-echo", Mode::kUdpEcho},
                                                    {"pattern", Mode::kPattern}};
  auto it = modes.find(name);
  if (it == modes.end()) throw UsageError("unknown mode '" + name + "'");
  return it->second;
}

// Unsigned integer with an optional binary suffix K, M or G (KiB, MiB, GiB).
uint64_t U64(const po::variables_map& vm, const char* name) {
  const std::string text = vm[name].as<std::string>();
  uint64_t value = 0;
  size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    const uint64_t digit = static_cast<uint64_t>(text[i] - '0');
    if (value > (UINT64_MAX - digit) / 10)
      i = text.size() + 1;  // overflow: reject below
    else
      value = value * 10 + digit;
  }
  unsigned shift = 0;
  if (i + 1 == text.size()) {
    switch (text[i]) {
      case 'K':
        shift = 10;
        break;
      case 'M':
        shift = 20;
        break;
      case 'G':
        shift = 30;
        break;
      default:
        shift = 64;
    }
    ++i;
  }
  if (i == 0 || i != text.size() || shift == 64 || (shift && value > (UINT64_MAX >> shift)))
    throw UsageError("--" + std::string(name) + ": '" + text +
                     "' is not an unsigned number (optional suffix K, M or G)");
  return value << shift;
}

std::string NormalizeSha256(std::string hex) {
  std::transform(hex.begin(), hex.end(), hex.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (hex.size() != 64 || hex.find_first_not_of("0123456789abcdef") != std::string::npos)
    throw UsageError("--expect-sha256 needs 64 hexadecimal digits");
  return hex;
}

uint32_t CheckedU32(const po::variables_map& vm, const char* name, uint64_t lo, uint64_t hi) {
  const uint64_t v = U64(vm, name);
  if (v < lo || v > hi)
    throw UsageError("--" + std::string(name) + " must be in [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + "]");
  return static_cast<uint32_t>(v);
}

}  // namespace

const char* ModeName(Mode mode) {
  switch (mode) {
    case Mode::kSink:
      return "sink";
    case Mode::kSource:
      return "source";
    case Mode::kRr:
      return "rr";
    case Mode::kUdpEcho:
      return "udp-echo";
    case Mode::kPattern:
      return "pattern";
  }
  return "?";
}

std::optional<Options> ParseOptions(int argc, const char* const* argv) {
  po::options_description desc("Options");
  // clang-format off
  desc.add_options()
      ("help,h", "show this help")
      ("listen", po::value<std::string>(), "HOST:PORT to listen on (PORT 0 = any free port)")
      ("connect", po::value<std::string>(), "HOST:PORT to connect to")
      ("count", po::value<std::string>(), "TCP connections to accept/open (default 1)")
      ("bytes", po::value<std::string>(), "source/pattern: bytes to send per connection")
      ("expect-bytes", po::value<std::string>(), "sink: verdict requires exactly N bytes")
      ("expect-sha256", po::value<std::string>(), "sink: verdict requires this SHA-256")
      ("expect-pattern", po::bool_switch(), "sink: verdict requires the deterministic pattern")
      ("request-size", po::value<std::string>(), "rr client: request bytes (default 1)")
      ("response-size", po::value<std::string>(), "rr client: response bytes (default 1)")
      ("transactions", po::value<std::string>(),
       "rr: client sends N (default 1000); server requires N per connection")
      ("size", po::value<std::string>(), "udp-echo client: datagram bytes (default 64)")
      ("datagrams", po::value<std::string>(),
       "udp-echo: client sends N (default 1000); server exits after echoing N")
      ("reply-wait-ms", po::value<std::string>(),
       "udp-echo client: wait this long for each echo before counting it lost (default 1000)")
      ("timeout", po::value<double>(), "give up after SEC seconds (exit 3)")
      ("json", po::value<std::string>(), "write the JSON result to FILE instead of stdout")
      ("ready-file", po::value<std::string>(),
       "once ready, write ADDR:PORT to F (the bound address, or the remote with --connect)");
  // clang-format on
  po::options_description all;
  all.add(desc).add_options()("mode", po::value<std::string>());
  po::positional_options_description pos;
  pos.add("mode", 1);

  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  if (vm.count("help")) {
    std::cout << kUsage << desc;
    return std::nullopt;
  }
  if (!vm.count("mode")) throw UsageError("no mode given (sink, source, rr, udp-echo, pattern)");

  Options o;
  o.mode = ParseMode(vm["mode"].as<std::string>());
  const auto& allowed = ModeOptions().at(o.mode);
  for (const auto& [name, value] : vm) {
    if (name == "mode" || name == "json" || value.defaulted()) continue;
    if (name == "expect-pattern" && !value.as<bool>()) continue;
    if (!allowed.count(name))
      throw UsageError(std::string("--") + name + " is not an option of mode " + ModeName(o.mode));
  }

  if (vm.count("listen")) o.listen = vm["listen"].as<std::string>();
  if (vm.count("connect")) o.connect = vm["connect"].as<std::string>();
  if (o.mode != Mode::kPattern && o.listen.has_value() == o.connect.has_value())
    throw UsageError(std::string("mode ") + ModeName(o.mode) +
                     " needs exactly one of --listen HOST:PORT and --connect HOST:PORT");
  if (vm.count("count")) {
    o.count = U64(vm, "count");
    if (o.count == 0 || o.count > 1024) throw UsageError("--count must be in [1, 1024]");
  }
  if (vm.count("bytes")) o.bytes = U64(vm, "bytes");
  if ((o.mode == Mode::kSource || o.mode == Mode::kPattern) && !o.bytes)
    throw UsageError(std::string("mode ") + ModeName(o.mode) + " needs --bytes N");
  if (vm.count("expect-bytes")) o.expect_bytes = U64(vm, "expect-bytes");
  if (vm.count("expect-sha256"))
    o.expect_sha256 = NormalizeSha256(vm["expect-sha256"].as<std::string>());
  o.expect_pattern = vm["expect-pattern"].as<bool>();
  if (vm.count("request-size")) o.request_size = CheckedU32(vm, "request-size", 1, 64u << 20);
  if (vm.count("response-size")) o.response_size = CheckedU32(vm, "response-size", 1, 64u << 20);
  if (o.mode == Mode::kRr && o.listen && (vm.count("request-size") || vm.count("response-size")))
    throw UsageError(
        "rr server: sizes come from the client's hello; drop --request-size/"
        "--response-size");
  if (vm.count("transactions")) {
    o.transactions = U64(vm, "transactions");
    if (*o.transactions == 0 || *o.transactions > 0xffffffffu)
      throw UsageError("--transactions must be in [1, 4294967295]");
  }
  if (vm.count("size")) o.datagram_size = CheckedU32(vm, "size", 8, 65507);
  if (o.mode == Mode::kUdpEcho && o.listen && vm.count("size"))
    throw UsageError("udp-echo server: --size is a client option");
  if (vm.count("datagrams")) {
    o.datagrams = U64(vm, "datagrams");
    if (*o.datagrams == 0) throw UsageError("--datagrams must be at least 1");
  }
  if (vm.count("reply-wait-ms")) {
    o.reply_wait_ms = CheckedU32(vm, "reply-wait-ms", 1, 3600000);
    if (o.listen) throw UsageError("udp-echo server: --reply-wait-ms is a client option");
  }
  if (vm.count("timeout")) {
    o.timeout_seconds = vm["timeout"].as<double>();
    if (!(o.timeout_seconds > 0) || o.timeout_seconds > 1e6)
      throw UsageError("--timeout must be a positive number of seconds");
  }
  if (vm.count("json")) o.json_file = vm["json"].as<std::string>();
  if (vm.count("ready-file")) o.ready_file = vm["ready-file"].as<std::string>();
  return o;
}

}  // namespace peer
