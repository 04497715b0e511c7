// SPDX-License-Identifier: GPL-2.0-or-later
#include "net_address.h"

#include <sys/un.h>

#include <cstddef>
#include <cstring>

namespace vfio_user {

namespace asio = boost::asio;

namespace {
template <typename Protocol>
bool resolve(asio::io_context& io, const std::string& host, const std::string& port,
             NetAddress& out, std::string& err) {
  boost::system::error_code ec;
  typename Protocol::resolver res(io);
  const auto r = res.resolve(host, port, ec);
  if (ec || r.empty()) {
    err = "cannot resolve '" + host + ":" + port + "': " + ec.message();
    return false;
  }
  const auto ep = r.begin()->endpoint();
  std::memcpy(&out.storage, ep.data(), ep.size());
  out.size = ep.size();
  return true;
}
}  // namespace

bool parse_net_address(asio::io_context& io, const std::string& addr, const std::string& scheme,
                       NetAddress& out, std::string& err) {
  if (addr.rfind("unix:", 0) == 0) {
    const std::string path = addr.substr(5);
    sockaddr_un un{};
    if (path.empty() || path.size() >= sizeof un.sun_path) {
      err = "unix socket path empty or too long: '" + path + "'";
      return false;
    }
    un.sun_family = AF_UNIX;
    std::memcpy(un.sun_path, path.data(), path.size());
    std::memcpy(&out.storage, &un, sizeof un);
    out.size = offsetof(sockaddr_un, sun_path) + path.size();  // SUN_LEN
    return true;
  }
  if (addr.rfind(scheme + ":", 0) == 0) {
    const std::string hp = addr.substr(scheme.size() + 1);
    const auto colon = hp.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == hp.size()) {
      err = "expected " + scheme + ":HOST:PORT, got '" + addr + "'";
      return false;
    }
    std::string host = hp.substr(0, colon);
    const std::string port = hp.substr(colon + 1);
    if (host.size() > 2 && host.front() == '[' && host.back() == ']')
      host = host.substr(1, host.size() - 2);  // [IPv6]
    return scheme == "udp" ? resolve<asio::ip::udp>(io, host, port, out, err)
                           : resolve<asio::ip::tcp>(io, host, port, out, err);
  }
  err = "address must be unix:PATH or " + scheme + ":HOST:PORT, got '" + addr + "'";
  return false;
}

}  // namespace vfio_user
