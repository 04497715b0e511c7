// SPDX-License-Identifier: GPL-2.0-or-later
// One vfio-user message as received or to be sent: the header, the payload
// bytes after it and the file descriptors that came with it (SCM_RIGHTS).
// Payload fields are read through Message::get(), which never reads past the
// payload: a truncated message is an error, not an out-of-bounds read.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <vector>

#include "protocol.h"
#include "unique_fd.h"

namespace vfio_user {

struct Message {
  Header hdr{};
  std::vector<uint8_t> payload;
  std::vector<UniqueFd> fds;

  // The struct T at byte `off` of the payload, or nothing when the payload
  // is too short.
  template <typename T>
  std::optional<T> get(size_t off = 0) const {
    if (off > payload.size() || payload.size() - off < sizeof(T)) return std::nullopt;
    T v;
    std::memcpy(&v, payload.data() + off, sizeof(T));
    return v;
  }
  std::span<const uint8_t> tail(size_t off) const {
    if (off >= payload.size()) return {};
    return std::span<const uint8_t>(payload).subspan(off);
  }
  bool is_reply() const { return (hdr.flags & kTypeMask) == kTypeReply; }
  bool wants_reply() const { return !(hdr.flags & kNoReply); }
};

// Why a header cannot start a message: nothing, or the reason (a log line).
const char* check_header(const Header& h, uint32_t max_size);

// A reply to `req`: the header with the reply type, the command and id echoed.
Message make_reply(const Header& req);
// An error reply (header only, the Error flag and errno).
Message make_error(const Header& req, int err);

// Append the bytes of a struct (or raw bytes) to a message's payload.
template <typename T>
void put(Message& m, const T& v) {
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  m.payload.insert(m.payload.end(), p, p + sizeof(T));
}
inline void put_bytes(Message& m, const void* data, size_t len) {
  const auto* p = static_cast<const uint8_t*>(data);
  m.payload.insert(m.payload.end(), p, p + len);
}

// The wire bytes of a message (header size field set from the payload).
std::vector<uint8_t> encode(const Message& m);

}  // namespace vfio_user
