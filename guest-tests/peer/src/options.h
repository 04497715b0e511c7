// SPDX-License-Identifier: GPL-2.0-or-later
// Command line of rtl8168-peer: one mode (subcommand) plus options, parsed with
// Boost.Program_options and checked per mode. Bad arguments throw UsageError.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace peer {

enum class Mode { kSink, kSource, kRr, kUdpEcho, kPattern };

const char* ModeName(Mode mode);

struct Options {
  Mode mode = Mode::kSink;
  std::optional<std::string> listen;   // "HOST:PORT" to listen on (server side)
  std::optional<std::string> connect;  // "HOST:PORT" to connect to (client side)
  uint64_t count = 1;                  // TCP connections to accept or open
  std::optional<uint64_t> bytes;       // source: bytes per connection; pattern: length
  std::optional<uint64_t> expect_bytes;
  std::optional<std::string> expect_sha256;  // lower-case hex, 64 digits
  bool expect_pattern = false;               // sink: the stream must be the pattern
  uint32_t request_size = 1;                 // rr client
  uint32_t response_size = 1;                // rr client
  std::optional<uint64_t> transactions;      // rr: per connection (client sends, server checks)
  uint32_t datagram_size = 64;               // udp-echo client
  std::optional<uint64_t> datagrams;         // udp-echo: client sends / server echoes N
  uint32_t reply_wait_ms = 1000;             // udp-echo client: wait per echo before "lost"
  double timeout_seconds = 0;                // 0 = no timeout
  std::string json_file;                     // empty = stdout
  std::string ready_file;                    // empty = none
};

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Returns std::nullopt when --help was given (the help text is then on stdout).
std::optional<Options> ParseOptions(int argc, const char* const* argv);

}  // namespace peer
