// SPDX-License-Identifier: GPL-2.0-or-later
#include "frames.h"

#include <algorithm>

namespace bench {

std::vector<uint8_t> tcp_ipv4_header(const std::array<uint8_t, 6>& dst,
                                     const std::array<uint8_t, 6>& src, uint32_t payload_len,
                                     uint32_t seq) {
  std::vector<uint8_t> h(kTcpHeaderBytes, 0);
  std::copy(dst.begin(), dst.end(), h.begin());
  std::copy(src.begin(), src.end(), h.begin() + 6);
  h[12] = 0x08;  // IPv4
  uint8_t* ip = h.data() + 14;
  const uint32_t tot = 20 + 32 + payload_len;
  ip[0] = 0x45;
  ip[2] = static_cast<uint8_t>(tot >> 8);
  ip[3] = static_cast<uint8_t>(tot);
  ip[6] = 0x40;  // DF
  ip[8] = 64;
  ip[9] = 6;
  ip[12] = 10, ip[13] = 9, ip[14] = 0, ip[15] = 1;
  ip[16] = 10, ip[17] = 9, ip[18] = 0, ip[19] = 2;
  uint8_t* tcp = ip + 20;
  tcp[0] = 0x30, tcp[1] = 0x39;  // 12345
  tcp[2] = 0x00, tcp[3] = 0x50;  // 80
  for (int i = 0; i < 4; i++) tcp[4 + i] = static_cast<uint8_t>(seq >> (24 - 8 * i));
  tcp[12] = 8 << 4;  // data offset: 32 bytes
  tcp[13] = 0x18;    // PSH | ACK
  tcp[14] = 0xff, tcp[15] = 0xff;
  uint8_t* opt = tcp + 20;
  opt[0] = 1, opt[1] = 1, opt[2] = 8, opt[3] = 10;  // NOP NOP TS len 10
  return h;
}

std::vector<uint8_t> tcp_frame(const std::array<uint8_t, 6>& dst, const std::array<uint8_t, 6>& src,
                               uint32_t len, uint32_t seq) {
  const uint32_t payload = len > kTcpHeaderBytes ? len - kTcpHeaderBytes : 0;
  std::vector<uint8_t> f = tcp_ipv4_header(dst, src, payload, seq);
  f.resize(kTcpHeaderBytes + payload, 0);
  return f;
}

}  // namespace bench
