// SPDX-License-Identifier: GPL-2.0-or-later
// "HOST:PORT" / "[V6ADDR]:PORT" parsing and name resolution.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ip/udp.hpp>
#include <string>

namespace peer {

struct HostPort {
  std::string host;
  uint16_t port = 0;
};

// Throws UsageError on a malformed value; `what` names the option in the message.
HostPort ParseHostPort(const std::string& text, const std::string& what);

// Resolve to the first address (numeric hosts need no DNS); throws UsageError.
boost::asio::ip::tcp::endpoint ResolveTcp(boost::asio::io_context& io, const HostPort& hp);
boost::asio::ip::udp::endpoint ResolveUdp(boost::asio::io_context& io, const HostPort& hp);

template <class Endpoint>
std::string ToString(const Endpoint& ep) {
  const auto addr = ep.address();
  return (addr.is_v6() ? "[" + addr.to_string() + "]" : addr.to_string()) + ":" +
         std::to_string(ep.port());
}

}  // namespace peer
