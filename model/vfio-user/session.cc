// SPDX-License-Identifier: GPL-2.0-or-later
#include "session.h"

#include <cstring>
#include <iostream>

#include "transport.h"

namespace vfio_user {

Session::Session(boost::asio::io_context& io, int fd, Device& dev, SessionLimits limits,
                 OnClose on_close)
    : sock_(io, fd), dev_(dev), dispatch_(dev), limits_(limits), on_close_(std::move(on_close)) {
  dev_.dma().set_messages(this);
}

Session::~Session() { dev_.dma().set_messages(nullptr); }

void Session::start() { arm(); }

void Session::arm() {
  if (closed_) return;
  sock_.async_wait(boost::asio::posix::stream_descriptor::wait_read,
                   [this](const boost::system::error_code& ec) {
                     if (ec == boost::asio::error::operation_aborted || closed_) return;
                     if (ec) {
                       close(ec.message());
                       return;
                     }
                     on_readable();
                   });
}

void Session::on_readable() {
  Message m;
  const RecvResult r =
      recv_message(sock_.native_handle(), m, kMaxMessage, kMaxMsgFds, limits_.message_timeout_ms);
  if (r.status == RecvStatus::kEof) return close("client closed the connection");
  if (r.status == RecvStatus::kFailed) return close(r.error);
  process(m);
  // Requests that came in while a DMA reply was awaited, in arrival order.
  while (!held_.empty() && !closed_ && !broken_) {
    Message h = std::move(held_.front());
    held_.pop_front();
    process(h);
  }
  if (broken_) return close(broken_why_);
  arm();
}

void Session::process(Message& m) {
  Outcome o = dispatch_.handle(m);
  if (o.reply && !broken_) {
    if (!send_message(sock_.native_handle(), *o.reply, {}, limits_.message_timeout_ms)) {
      broken_ = true;
      broken_why_ = "cannot send a reply (client gone or not reading)";
    }
  }
  if (o.close && !broken_) {
    broken_ = true;
    broken_why_ = o.log;
  }
}

void Session::close(const std::string& why) {
  if (closed_) return;
  closed_ = true;
  boost::system::error_code ec;
  sock_.cancel(ec);
  sock_.close(ec);
  held_.clear();
  dev_.client_gone();
  if (on_close_) on_close_(why);
}

int Session::dma_request(uint16_t cmd, uint64_t addr, const void* data, size_t len,
                         Message& reply) {
  if (closed_ || broken_) return -1;
  Message req;
  req.hdr.id = next_id_++;
  req.hdr.command = cmd;
  req.hdr.flags = kTypeRequest;
  put(req, DmaAccess{addr, len});
  if (data) put_bytes(req, data, len);
  const int sock = sock_.native_handle();
  if (!send_message(sock, req, {}, limits_.dma_timeout_ms)) {
    broken_ = true;
    broken_why_ = "cannot send a DMA request";
    return -1;
  }
  for (;;) {
    if (!wait_readable(sock, limits_.dma_timeout_ms)) {
      std::cerr << "rtl8168-vfio-user: no reply to " << command_name(cmd) << " of " << len
                << " bytes at 0x" << std::hex << addr << std::dec << " within "
                << limits_.dma_timeout_ms << " ms: the DMA fails\n";
      return -1;
    }
    Message m;
    const RecvResult r = recv_message(sock, m, kMaxMessage, kMaxMsgFds, limits_.message_timeout_ms);
    if (r.status != RecvStatus::kOk) {
      broken_ = true;
      broken_why_ = r.status == RecvStatus::kEof ? "client closed the connection" : r.error;
      return -1;
    }
    if (!m.is_reply()) {
      if (held_.size() >= limits_.max_held) {
        broken_ = true;
        broken_why_ = "too many requests while a DMA reply was awaited";
        return -1;
      }
      held_.push_back(std::move(m));
      continue;
    }
    if (m.hdr.id != req.hdr.id || m.hdr.command != cmd) continue;  // a stale reply
    if (m.hdr.flags & kError) return -1;
    reply = std::move(m);
    return 0;
  }
}

// Chunks of at most the client's max_data_xfer_size.
int Session::dma_read(uint64_t addr, void* buf, size_t len) {
  auto* out = static_cast<uint8_t*>(buf);
  const size_t chunk = dispatch_.client_caps().max_data_xfer;
  while (len > 0) {
    const size_t n = std::min(len, chunk);
    Message reply;
    if (dma_request(kDmaRead, addr, nullptr, n, reply) != 0) return -1;
    const auto a = reply.get<DmaAccess>();
    const auto data = reply.tail(sizeof(DmaAccess));
    if (!a || a->address != addr || a->count != n || data.size() != n) return -1;
    std::memcpy(out, data.data(), n);
    addr += n;
    out += n;
    len -= n;
  }
  return 0;
}

int Session::dma_write(uint64_t addr, const void* buf, size_t len) {
  const auto* in = static_cast<const uint8_t*>(buf);
  const size_t chunk = dispatch_.client_caps().max_data_xfer;
  while (len > 0) {
    const size_t n = std::min(len, chunk);
    Message reply;
    if (dma_request(kDmaWrite, addr, in, n, reply) != 0) return -1;
    addr += n;
    in += n;
    len -= n;
  }
  return 0;
}

}  // namespace vfio_user
