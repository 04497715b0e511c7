// SPDX-License-Identifier: GPL-2.0-or-later
#include "pcap_writer.h"

#include <pcap/pcap.h>

namespace vfio_user {

struct PcapWriter::Impl {
  pcap_t* dead = nullptr;
  pcap_dumper_t* dump = nullptr;
};

std::unique_ptr<PcapWriter> PcapWriter::open(const std::string& path, std::string& err) {
  std::unique_ptr<PcapWriter> w(new PcapWriter());
  w->impl_ = new Impl;
  w->impl_->dead = pcap_open_dead(DLT_EN10MB, 65535);
  if (!w->impl_->dead) {
    err = "pcap: cannot create a capture handle";
    return nullptr;
  }
  w->impl_->dump = pcap_dump_open(w->impl_->dead, path.c_str());
  if (!w->impl_->dump) {
    err = std::string("pcap: ") + pcap_geterr(w->impl_->dead);
    return nullptr;
  }
  return w;
}

PcapWriter::~PcapWriter() {
  if (!impl_) return;
  if (impl_->dump) pcap_dump_close(impl_->dump);
  if (impl_->dead) pcap_close(impl_->dead);
  delete impl_;
}

void PcapWriter::frame(uint64_t now_ns, const uint8_t* data, size_t len) {
  pcap_pkthdr h{};
  h.ts.tv_sec = time_t(now_ns / 1000000000u);
  h.ts.tv_usec = suseconds_t(now_ns % 1000000000u / 1000u);
  h.caplen = h.len = uint32_t(len);
  pcap_dump(reinterpret_cast<u_char*>(impl_->dump), &h, data);
  pcap_dump_flush(impl_->dump);
}

}  // namespace vfio_user
