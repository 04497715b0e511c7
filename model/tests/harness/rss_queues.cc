// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/rss_queues.h"

#include <algorithm>

namespace rtl8168_test {

Bytes v4_frame(const V4Vector& v, bool udp) {
  TcpOpts o;
  o.sport = v.sport;
  o.dport = v.dport;
  Bytes f = udp ? ipv4_udp(kRssUs, kRssPeer, pattern(64), v.sport, v.dport)
                : ipv4_tcp(kRssUs, kRssPeer, pattern(64), o);
  std::copy(v.src.begin(), v.src.end(), f.begin() + 26);
  std::copy(v.dst.begin(), v.dst.end(), f.begin() + 30);
  return f;
}

Bytes v6_frame(const V6Vector& v) {
  TcpOpts o;
  o.sport = v.sport;
  o.dport = v.dport;
  Bytes f = ipv6_tcp(kRssUs, kRssPeer, pattern(64), o);
  std::copy(v.src.begin(), v.src.end(), f.begin() + 22);
  std::copy(v.dst.begin(), v.dst.end(), f.begin() + 38);
  return f;
}

Params chip_8125b(bool timing) { return with(default_params(timing), {{"chip", "8125b"}}); }

void arm_queues(Nic& nic) {
  for (unsigned q = 1; q < 4; q++) {
    for (unsigned s = 0; s < kQueueSlots; s++) {
      const uint64_t buf = kQueueBufs + ((q - 1) * kQueueSlots + s) * 0x800;
      nic.host.mem().w32(q_desc(q, s), kDescOwn | (s == kQueueSlots - 1 ? kRingEnd : 0) | 0x800);
      nic.host.mem().w32(q_desc(q, s) + 4, 0);
      nic.host.mem().w64(q_desc(q, s) + 8, buf);
    }
    const uint64_t base = q_desc(q, 0);
    nic.host.w32(kRdsarQ1 + 8 * (q - 1), static_cast<uint32_t>(base));
    nic.host.w32(kRdsarQ1 + 8 * (q - 1) + 4, static_cast<uint32_t>(base >> 32));
  }
}

void program_rss(Nic& nic, const std::array<uint8_t, 128>& table, uint32_t ctrl) {
  nic.host.w32(kRssCtrl8125, ctrl);
  for (unsigned i = 0; i < 128; i += 4) {
    nic.host.w32(kRssIndir8125 + i, static_cast<uint32_t>(table[i] | table[i + 1] << 8 |
                                                          table[i + 2] << 16 | table[i + 3] << 24));
  }
  for (unsigned i = 0; i < 40; i += 4) {
    nic.host.w32(kRssKey8125 + i, static_cast<uint32_t>(kMsKey[i] | kMsKey[i + 1] << 8 |
                                                        kMsKey[i + 2] << 16 | kMsKey[i + 3] << 24));
  }
}

std::array<uint8_t, 128> default_table() {
  std::array<uint8_t, 128> t{};
  for (unsigned i = 0; i < 128; i++) t[i] = static_cast<uint8_t>(i % 4);
  return t;
}

unsigned done_on(Nic& nic, unsigned q) {
  unsigned n = 0;
  for (unsigned s = 0; s < kQueueSlots; s++) n += !(nic.host.mem().r32(q_desc(q, s)) & kDescOwn);
  return n;
}

}  // namespace rtl8168_test
