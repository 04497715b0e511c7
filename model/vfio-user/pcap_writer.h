// SPDX-License-Identifier: GPL-2.0-or-later
// A capture of the device's wire (libpcap's savefile writer, Ethernet link
// type): every frame the device sent and every frame offered to it, stamped
// with the server's clock (the model's `now`).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace vfio_user {

class PcapWriter {
 public:
  // nullptr with a message in err when the file cannot be written.
  static std::unique_ptr<PcapWriter> open(const std::string& path, std::string& err);
  ~PcapWriter();
  void frame(uint64_t now_ns, const uint8_t* data, size_t len);

 private:
  PcapWriter() = default;
  struct Impl;
  Impl* impl_ = nullptr;
};

}  // namespace vfio_user
