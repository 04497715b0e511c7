// SPDX-License-Identifier: GPL-2.0-or-later
// The datagram socket backend: QEMU's -netdev dgram framing (net/dgram.c:
// one Ethernet frame per datagram, no length prefix), so the device can be
// wired to another QEMU's `-netdev dgram,local.type=inet,...,remote.type=
// inet,...` (UDP) or `local.type=unix,local.path=...,remote.type=unix,
// remote.path=...` (Unix datagram sockets). The local address is bound at
// start-up (a Unix path must not exist; it is removed on the way out), frames
// go to the remote address; there is no connection, so the link is up from
// the start. Frames for a socket that cannot take them yet are queued up to
// kMaxSendQueue, then dropped; a send the socket refuses (no one bound at
// the remote path, an ICMP error) drops its frame; empty datagrams and ones
// longer than kMaxFrame are dropped: each counted (NetBackend::dropped).
#pragma once

#include <memory>
#include <string>

#include "net_backend.h"

namespace vfio_user {

// spec: "dgram,local=ADDR,remote=ADDR" (either order), ADDR unix:PATH or
// udp:HOST:PORT, both of one family. nullptr with err (also when the local
// address cannot be bound).
std::unique_ptr<NetBackend> make_dgram_backend(boost::asio::io_context& io, const std::string& spec,
                                               std::string& err);

}  // namespace vfio_user
