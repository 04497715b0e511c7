// SPDX-License-Identifier: GPL-2.0-or-later
#include "transport.h"

#include <poll.h>
#include <sys/socket.h>
#include <time.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace vfio_user {

namespace {
// The socket's own time for the per-message deadline (the server's I/O
// timeouts only; nothing the model sees).
int64_t mono_ms() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

bool wait_for(int sock, short events, int64_t deadline) {
  for (;;) {
    const int64_t left = deadline - mono_ms();
    if (left <= 0) return false;
    pollfd p{sock, events, 0};
    const int rc = poll(&p, 1, int(left));
    if (rc > 0) return true;
    if (rc < 0 && errno != EINTR) return false;
  }
}

// Reads exactly len bytes; descriptors arriving with them go to fds.
RecvResult read_exact(int sock, uint8_t* buf, size_t len, std::vector<UniqueFd>* fds,
                      unsigned max_fds, int64_t deadline, bool first) {
  size_t got = 0;
  while (got < len) {
    iovec iov{buf + got, len - got};
    alignas(cmsghdr) char ctrl[CMSG_SPACE(sizeof(int) * 16)];
    msghdr mh{};
    mh.msg_iov = &iov;
    mh.msg_iovlen = 1;
    if (fds) {
      mh.msg_control = ctrl;
      mh.msg_controllen = sizeof ctrl;
    }
    const ssize_t n = recvmsg(sock, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    if (n > 0 && fds) {
      for (cmsghdr* c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        const size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < k; i++) {
          int fd;
          std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
          fds->emplace_back(fd);  // owned at once, so an error below closes it
        }
      }
      if (mh.msg_flags & MSG_CTRUNC)
        return {RecvStatus::kFailed, "more file descriptors than the socket buffer takes"};
      if (fds->size() > max_fds)
        return {RecvStatus::kFailed, "more file descriptors than max_msg_fds"};
    }
    if (n > 0) {
      got += size_t(n);
      continue;
    }
    if (n == 0) {
      if (first && got == 0) return {RecvStatus::kEof, ""};
      return {RecvStatus::kFailed, "connection closed mid-message"};
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) return {RecvStatus::kFailed, std::strerror(errno)};
    if (!wait_for(sock, POLLIN, deadline)) {
      if (first && got == 0) return {RecvStatus::kFailed, "no message within the timeout"};
      return {RecvStatus::kFailed, "truncated message (timed out waiting for the rest)"};
    }
  }
  return {RecvStatus::kOk, ""};
}
}  // namespace

bool wait_readable(int sock, int timeout_ms) {
  return wait_for(sock, POLLIN, mono_ms() + timeout_ms);
}

RecvResult recv_message(int sock, Message& out, uint32_t max_size, unsigned max_fds,
                        int timeout_ms) {
  const int64_t deadline = mono_ms() + timeout_ms;
  out = Message{};
  Header h;
  RecvResult r =
      read_exact(sock, reinterpret_cast<uint8_t*>(&h), sizeof h, &out.fds, max_fds, deadline, true);
  if (r.status != RecvStatus::kOk) return r;
  if (const char* why = check_header(h, max_size)) return {RecvStatus::kFailed, why};
  out.hdr = h;
  out.payload.resize(h.size - sizeof(Header));
  if (!out.payload.empty()) {
    // Descriptors belong with the header; any arriving with the body are
    // collected (and counted against max_fds) so they are closed, not leaked.
    r = read_exact(sock, out.payload.data(), out.payload.size(), &out.fds, max_fds, deadline,
                   false);
    if (r.status != RecvStatus::kOk) return r;
  }
  return r;
}

bool send_message(int sock, const Message& m, std::span<const int> fds, int timeout_ms) {
  const int64_t deadline = mono_ms() + timeout_ms;
  const std::vector<uint8_t> bytes = encode(m);
  size_t sent = 0;
  bool fds_sent = fds.empty();
  while (sent < bytes.size()) {
    iovec iov{const_cast<uint8_t*>(bytes.data()) + sent, bytes.size() - sent};
    msghdr mh{};
    mh.msg_iov = &iov;
    mh.msg_iovlen = 1;
    std::vector<char> ctrl;
    if (!fds_sent) {
      ctrl.resize(CMSG_SPACE(sizeof(int) * fds.size()));
      mh.msg_control = ctrl.data();
      mh.msg_controllen = ctrl.size();
      cmsghdr* c = CMSG_FIRSTHDR(&mh);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
      std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
    }
    const ssize_t n = sendmsg(sock, &mh, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n > 0) {
      sent += size_t(n);
      fds_sent = true;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (!wait_for(sock, POLLOUT, deadline)) return false;
      continue;
    }
    return false;
  }
  return true;
}

}  // namespace vfio_user
