// SPDX-License-Identifier: GPL-2.0-or-later
#include "endpoint.h"

#include <boost/asio/io_context.hpp>
#include <boost/system/system_error.hpp>

#include "options.h"

namespace peer {
namespace {

template <class Protocol>
typename Protocol::endpoint Resolve(boost::asio::io_context& io, const HostPort& hp) {
  typename Protocol::resolver resolver(io);
  boost::system::error_code ec;
  auto results =
      resolver.resolve(hp.host, std::to_string(hp.port), Protocol::resolver::numeric_service, ec);
  if (ec || results.empty())
    throw UsageError("cannot resolve '" + hp.host +
                     "': " + (ec ? ec.message() : std::string("no address")));
  return results.begin()->endpoint();
}

}  // namespace

HostPort ParseHostPort(const std::string& text, const std::string& what) {
  const auto bad = [&](const std::string& why) {
    return UsageError(what + " '" + text + "': " + why + " (expected HOST:PORT)");
  };
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) throw bad("missing host or port");
  HostPort hp;
  hp.host = text.substr(0, colon);
  if (hp.host.front() == '[') {
    if (hp.host.size() < 3 || hp.host.back() != ']') throw bad("unbalanced brackets");
    hp.host = hp.host.substr(1, hp.host.size() - 2);
  } else if (hp.host.find(':') != std::string::npos) {
    throw bad("write IPv6 addresses as [ADDR]:PORT");
  }
  const std::string port = text.substr(colon + 1);
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos)
    throw bad("port is not a number");
  const unsigned long value = std::stoul(port);
  if (value > 65535) throw bad("port out of range");
  hp.port = static_cast<uint16_t>(value);
  return hp;
}

boost::asio::ip::tcp::endpoint ResolveTcp(boost::asio::io_context& io, const HostPort& hp) {
  return Resolve<boost::asio::ip::tcp>(io, hp);
}

boost::asio::ip::udp::endpoint ResolveUdp(boost::asio::io_context& io, const HostPort& hp) {
  return Resolve<boost::asio::ip::udp>(io, hp);
}

}  // namespace peer
