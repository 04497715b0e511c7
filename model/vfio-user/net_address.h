// SPDX-License-Identifier: GPL-2.0-or-later
// The socket addresses of the netdev options: `unix:PATH`, or
// `SCHEME:HOST:PORT` with the scheme of the socket type (tcp for stream, udp
// for dgram), HOST a name or a numeric IPv4/IPv6 address (resolved once, at
// start-up). The result is a generic Asio endpoint of the family found.
#pragma once

// clang-format off
// Asio 1.74's awaitable.hpp uses std::exchange without including <utility>.
#include <utility>
#include <boost/asio.hpp>
// clang-format on
#include <string>

namespace vfio_user {

// The address as a sockaddr (family AF_UNIX, AF_INET or AF_INET6).
struct NetAddress {
  sockaddr_storage storage{};
  size_t size = 0;
  int family() const { return storage.ss_family; }
  template <typename Endpoint>
  Endpoint endpoint() const {
    return Endpoint(&storage, size);
  }
};

// scheme: "tcp" or "udp". False with a message in err.
bool parse_net_address(boost::asio::io_context& io, const std::string& addr,
                       const std::string& scheme, NetAddress& out, std::string& err);

}  // namespace vfio_user
