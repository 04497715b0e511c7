// SPDX-License-Identifier: GPL-2.0-or-later
// Messages over a connected AF_UNIX stream socket: the header first (with
// the SCM_RIGHTS descriptors sent alongside it), checked before the body is
// read, then the body. A message must arrive whole within `timeout_ms` of
// its first byte, so a client that stops mid-message costs a bounded wait
// and a closed connection, never a hang; the size is checked against the
// maximum before anything is allocated. Used by the server's session and by
// the test client alike.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "message.h"

namespace vfio_user {

enum class RecvStatus { kOk, kEof, kFailed };

struct RecvResult {
  RecvStatus status = RecvStatus::kFailed;
  std::string error;  // what went wrong (kFailed)
};

// Blocks (up to timeout_ms for the whole message) until one message is in.
// At most max_fds descriptors are accepted with it; more is an error.
RecvResult recv_message(int sock, Message& out, uint32_t max_size, unsigned max_fds,
                        int timeout_ms);

// Sends one message with the given descriptors. False when the peer is gone
// or the socket stayed full for timeout_ms.
bool send_message(int sock, const Message& m, std::span<const int> fds, int timeout_ms);

// Whether the socket has a byte (or EOF) to read within timeout_ms.
bool wait_readable(int sock, int timeout_ms);

}  // namespace vfio_user
