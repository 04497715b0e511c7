// SPDX-License-Identifier: GPL-2.0-or-later
// User-mode networking through libslirp, like QEMU's -netdev user: the
// guest's 10.0.2.0/24 with the gateway 10.0.2.2 (DHCP, DNS relay, NAT to
// the host's sockets) and host forwards `hostfwd=tcp|udp:[HOSTADDR]:PORT-
// [GUESTADDR]:PORT`. libslirp's sockets are polled from the event loop
// every few milliseconds and whenever it asks (notify); its timers are Asio
// timers on the host's monotonic clock.
#pragma once

#include <memory>
#include <string>

#include "net_backend.h"

namespace vfio_user {

// spec: "user" or "user,hostfwd=...[,hostfwd=...]". nullptr with err.
std::unique_ptr<NetBackend> make_slirp_backend(boost::asio::io_context& io, const std::string& spec,
                                               std::string& err);

}  // namespace vfio_user
