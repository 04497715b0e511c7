// SPDX-License-Identifier: GPL-2.0-or-later
#include "message.h"

namespace vfio_user {

const char* command_name(uint16_t command) {
  switch (command) {
    case kVersion:
      return "VERSION";
    case kDmaMap:
      return "DMA_MAP";
    case kDmaUnmap:
      return "DMA_UNMAP";
    case kDeviceGetInfo:
      return "DEVICE_GET_INFO";
    case kDeviceGetRegionInfo:
      return "DEVICE_GET_REGION_INFO";
    case kDeviceGetRegionIoFds:
      return "DEVICE_GET_REGION_IO_FDS";
    case kDeviceGetIrqInfo:
      return "DEVICE_GET_IRQ_INFO";
    case kDeviceSetIrqs:
      return "DEVICE_SET_IRQS";
    case kRegionRead:
      return "REGION_READ";
    case kRegionWrite:
      return "REGION_WRITE";
    case kDmaRead:
      return "DMA_READ";
    case kDmaWrite:
      return "DMA_WRITE";
    case kDeviceReset:
      return "DEVICE_RESET";
    case kDirtyPages:
      return "DIRTY_PAGES";
    case kRegionWriteMulti:
      return "REGION_WRITE_MULTI";
    default:
      return "unknown";
  }
}

const char* check_header(const Header& h, uint32_t max_size) {
  if (h.size < sizeof(Header)) return "message size smaller than its header";
  if (h.size > max_size) return "message larger than the negotiated maximum";
  const uint32_t type = h.flags & kTypeMask;
  if (type != kTypeRequest && type != kTypeReply) return "unknown message type";
  if (h.flags & ~(kTypeMask | kNoReply | kError)) return "unknown header flags";
  return nullptr;
}

Message make_reply(const Header& req) {
  Message m;
  m.hdr.id = req.id;
  m.hdr.command = req.command;
  m.hdr.flags = kTypeReply;
  return m;
}

Message make_error(const Header& req, int err) {
  Message m = make_reply(req);
  m.hdr.flags |= kError;
  m.hdr.error = static_cast<uint32_t>(err);
  return m;
}

std::vector<uint8_t> encode(const Message& m) {
  Header h = m.hdr;
  h.size = static_cast<uint32_t>(sizeof(Header) + m.payload.size());
  std::vector<uint8_t> out(h.size);
  std::memcpy(out.data(), &h, sizeof h);
  if (!m.payload.empty()) std::memcpy(out.data() + sizeof h, m.payload.data(), m.payload.size());
  return out;
}

}  // namespace vfio_user
