// SPDX-License-Identifier: GPL-2.0-or-later
// One connection's command handling, independent of the socket: a parsed
// request in, the reply (or none: No_reply) and whether to close out. Every
// check of a request's content is here: the negotiation that must come
// first, payload lengths against each command's fixed part, argsz, the fds a
// command may carry, region and IRQ indexes and ranges, transfer sizes.
// What fails a check gets an error reply with an errno; what makes the
// stream untrustworthy (a second VERSION, an unsupported major version,
// malformed capabilities) closes the connection with one log line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "device.h"
#include "message.h"

namespace vfio_user {

// What the client said it can take (its VERSION capabilities).
struct ClientCaps {
  uint32_t max_msg_fds = 1;               // the protocol's default
  uint32_t max_data_xfer = kMaxDataXfer;  // default 1 MiB
  bool write_multiple = false;
};

struct Outcome {
  std::optional<Message> reply;
  bool close = false;
  std::string log;  // why the connection closes (one line)
};

class Dispatcher {
 public:
  explicit Dispatcher(Device& dev) : dev_(dev) {}

  Outcome handle(Message& req);
  bool negotiated() const { return negotiated_; }
  const ClientCaps& client_caps() const { return caps_; }

 private:
  Outcome version(Message& req);
  int dma_map(Message& req);
  int dma_unmap(const Message& req, Message& reply);
  int device_info(const Message& req, Message& reply);
  int region_info(const Message& req, Message& reply);
  int irq_info(const Message& req, Message& reply);
  int set_irqs(Message& req);
  int region_read(const Message& req, Message& reply);
  int region_write(const Message& req, Message& reply);
  int write_multi(const Message& req);

  Device& dev_;
  ClientCaps caps_;
  bool negotiated_ = false;
};

}  // namespace vfio_user
