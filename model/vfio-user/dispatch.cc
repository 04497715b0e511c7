// SPDX-License-Identifier: GPL-2.0-or-later
#include "dispatch.h"

#include <cerrno>
#include <iostream>
#include <nlohmann/json.hpp>

namespace vfio_user {

namespace {
// Commands that may carry fds: DMA_MAP (the memory's fd) and SET_IRQS
// (eventfds). Anything else with fds is refused (and the fds closed).
bool takes_fds(uint16_t c) { return c == kDmaMap || c == kDeviceSetIrqs; }

Outcome close_with(std::string why) {
  Outcome o;
  o.close = true;
  o.log = std::move(why);
  return o;
}

Outcome reply_or_error(const Message& req, int err, Message reply) {
  Outcome o;
  if (!req.wants_reply()) return o;
  if (err)
    o.reply = make_error(req.hdr, err);
  else
    o.reply = std::move(reply);
  return o;
}

// Capabilities are a JSON object; what this server reads of it is checked
// for type and range, the rest (migration, twin_socket, future ones) is
// ignored. Returns an empty string or why they are malformed.
std::string parse_caps(const std::string& text, ClientCaps& caps) {
  const auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return "version data is not a JSON object";
  const auto c = j.find("capabilities");
  if (c == j.end()) return "";
  if (!c->is_object()) return "\"capabilities\" is not an object";
  auto number = [&](const char* name, uint64_t lo, uint64_t hi, uint64_t& out) -> std::string {
    const auto it = c->find(name);
    if (it == c->end()) return "";
    if (!it->is_number_unsigned() || it->get<uint64_t>() < lo || it->get<uint64_t>() > hi)
      return std::string("capability ") + name + " is not a number in range";
    out = it->get<uint64_t>();
    return "";
  };
  uint64_t fds = caps.max_msg_fds, xfer = caps.max_data_xfer, ignored = 0;
  for (auto e :
       {number("max_msg_fds", 0, 1024, fds), number("max_data_xfer_size", 1, 1ull << 32, xfer),
        number("pgsizes", 1, UINT64_MAX, ignored), number("max_dma_maps", 1, UINT64_MAX, ignored)})
    if (!e.empty()) return e;
  caps.max_msg_fds = uint32_t(fds);
  // Our DMA messages to the client stay within both limits.
  caps.max_data_xfer = uint32_t(std::min<uint64_t>(xfer, kMaxDataXfer));
  if (const auto w = c->find("write_multiple"); w != c->end()) {
    if (!w->is_boolean()) return "capability write_multiple is not a boolean";
    caps.write_multiple = w->get<bool>();
  }
  return "";
}
}  // namespace

Outcome Dispatcher::version(Message& req) {
  if (negotiated_) return close_with("second VERSION on a negotiated connection");
  const auto v = req.get<Version>();
  if (!v) return close_with("VERSION shorter than its fixed part");
  if (v->major != kMajor)
    return close_with("client proposes protocol major " + std::to_string(v->major));
  const auto json = req.tail(sizeof(Version));
  if (!json.empty()) {
    // The JSON string must be NUL-terminated within the message.
    if (json.back() != 0) return close_with("VERSION capabilities not NUL-terminated");
    const std::string text(reinterpret_cast<const char*>(json.data()));
    if (const std::string e = parse_caps(text, caps_); !e.empty()) return close_with(e);
  }
  nlohmann::ordered_json caps = {{"max_msg_fds", kMaxMsgFds},
                                 {"max_data_xfer_size", kMaxDataXfer},
                                 {"pgsizes", kPageSize},
                                 {"max_dma_maps", kMaxDmaMaps}};
  // Only what the client offered can be in the reply (a subset of its list).
  if (caps_.write_multiple) caps["write_multiple"] = true;
  const std::string text = nlohmann::ordered_json{{"capabilities", caps}}.dump();
  Message reply = make_reply(req.hdr);
  put(reply, Version{kMajor, std::min<uint16_t>(v->minor, kMinor)});
  put_bytes(reply, text.c_str(), text.size() + 1);
  negotiated_ = true;
  Outcome o;
  o.reply = std::move(reply);
  return o;
}

Outcome Dispatcher::handle(Message& req) {
  if (req.is_reply()) {
    // Replies only answer this server's DMA requests (the session matches
    // those while it waits); one arriving here answers nothing.
    return Outcome{};
  }
  if (!req.fds.empty() && !takes_fds(req.hdr.command) && req.hdr.command != kVersion)
    return reply_or_error(req, EINVAL, {});
  if (req.hdr.command == kVersion) {
    if (!req.fds.empty()) return close_with("VERSION with file descriptors");
    return version(req);
  }
  if (!negotiated_) return reply_or_error(req, EINVAL, {});

  Message reply = make_reply(req.hdr);
  int err = 0;
  switch (req.hdr.command) {
    case kDmaMap:
      err = dma_map(req);
      break;
    case kDmaUnmap:
      err = dma_unmap(req, reply);
      break;
    case kDeviceGetInfo:
      err = device_info(req, reply);
      break;
    case kDeviceGetRegionInfo:
      err = region_info(req, reply);
      break;
    case kDeviceGetIrqInfo:
      err = irq_info(req, reply);
      break;
    case kDeviceSetIrqs:
      err = set_irqs(req);
      break;
    case kRegionRead:
      err = region_read(req, reply);
      break;
    case kRegionWrite:
      err = region_write(req, reply);
      break;
    case kDeviceReset:
      // QEMU sends it for the machine's reset and for a guest's function or bus reset
      // (vfio_pci_reset); one line each, so a run can count them
      std::cerr << "rtl8168-vfio-user: device reset\n";
      dev_.reset();
      break;
    case kRegionWriteMulti:
      err = write_multi(req);
      break;
    case kDeviceGetRegionIoFds:  // no ioeventfd / ioregionfd sub-regions
    case kDirtyPages:            // no migration
      err = ENOTSUP;
      break;
    default:  // DMA_READ/DMA_WRITE go the other way; the rest are unknown
      err = ENOSYS;
      break;
  }
  return reply_or_error(req, err, std::move(reply));
}

int Dispatcher::dma_map(Message& req) {
  const auto m = req.get<DmaMap>();
  if (!m || m->argsz < sizeof(DmaMap)) return EINVAL;
  if (req.fds.size() > 1) return EINVAL;
  UniqueFd fd = req.fds.empty() ? UniqueFd() : std::move(req.fds[0]);
  return dev_.dma().map(*m, std::move(fd));
}

int Dispatcher::dma_unmap(const Message& req, Message& reply) {
  const auto m = req.get<DmaUnmap>();
  if (!m || m->argsz < sizeof(DmaUnmap)) return EINVAL;
  if (const int err = dev_.dma().unmap(*m)) return err;
  put(reply, *m);  // the original entry, as the protocol asks
  return 0;
}

int Dispatcher::device_info(const Message& req, Message& reply) {
  const auto m = req.get<DeviceInfo>();
  if (!m || m->argsz < sizeof(DeviceInfo)) return EINVAL;
  put(reply, DeviceInfo{sizeof(DeviceInfo), VFIO_DEVICE_FLAGS_RESET | VFIO_DEVICE_FLAGS_PCI,
                        Device::kNumRegions, Irqs::kCount});
  return 0;
}

int Dispatcher::region_info(const Message& req, Message& reply) {
  const auto m = req.get<RegionInfo>();
  if (!m || m->argsz < sizeof(RegionInfo)) return EINVAL;
  RegionInfo info;
  if (!dev_.region_info(m->index, info)) return EINVAL;
  put(reply, info);
  return 0;
}

int Dispatcher::irq_info(const Message& req, Message& reply) {
  const auto m = req.get<IrqInfo>();
  if (!m || m->argsz < sizeof(IrqInfo)) return EINVAL;
  IrqInfo info;
  if (!dev_.irqs().info(m->index, info)) return EINVAL;
  put(reply, info);
  return 0;
}

int Dispatcher::set_irqs(Message& req) {
  const auto m = req.get<IrqSet>();
  if (!m || m->argsz < sizeof(IrqSet)) return EINVAL;
  return dev_.irqs().set(*m, req.tail(sizeof(IrqSet)), req.fds);
}

int Dispatcher::region_read(const Message& req, Message& reply) {
  const auto m = req.get<RegionAccess>();
  if (!m || m->count > kMaxDataXfer) return EINVAL;
  std::vector<uint8_t> data(m->count);
  if (const int err = dev_.region_read(m->region, m->offset, m->count, data.data())) return err;
  put(reply, *m);
  put_bytes(reply, data.data(), data.size());
  return 0;
}

int Dispatcher::region_write(const Message& req, Message& reply) {
  const auto m = req.get<RegionAccess>();
  if (!m || m->count > kMaxDataXfer) return EINVAL;
  const auto data = req.tail(sizeof(RegionAccess));
  if (data.size() != m->count) return EINVAL;
  if (const int err = dev_.region_write(m->region, m->offset, m->count, data.data())) return err;
  put(reply, *m);
  return 0;
}

// Coalesced posted writes (QEMU's VFIOUserWRMulti): each applied in order;
// the first bad one stops the rest.
int Dispatcher::write_multi(const Message& req) {
  const auto cnt = req.get<uint64_t>();
  if (!cnt || *cnt == 0 || *cnt > kMultiMax) return EINVAL;
  if (req.payload.size() < sizeof(uint64_t) + *cnt * sizeof(WriteOne)) return EINVAL;
  for (uint64_t i = 0; i < *cnt; i++) {
    const auto w = req.get<WriteOne>(sizeof(uint64_t) + i * sizeof(WriteOne));
    if (!w || w->count > sizeof(w->data)) return EINVAL;
    if (const int err = dev_.region_write(w->region, w->offset, w->count, w->data)) return err;
  }
  return 0;
}

}  // namespace vfio_user
