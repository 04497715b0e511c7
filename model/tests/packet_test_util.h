// SPDX-License-Identifier: GPL-2.0-or-later
// Helpers for the packet_*_test.cc unit tests of model/src/packet/. The
// checksum and CRC references here are deliberately naive (byte by byte,
// bit by bit) and share no code with the implementation under test.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace rtl8168sim::packet_test {

using Bytes = std::vector<uint8_t>;

inline uint16_t rd16(std::span<const uint8_t> b, size_t off) {
  return static_cast<uint16_t>((b[off] << 8) | b[off + 1]);
}
inline uint32_t rd32(std::span<const uint8_t> b, size_t off) {
  return (static_cast<uint32_t>(rd16(b, off)) << 16) | rd16(b, off + 2);
}
inline void wr16(Bytes& b, size_t off, uint16_t v) {
  b[off] = static_cast<uint8_t>(v >> 8);
  b[off + 1] = static_cast<uint8_t>(v);
}
inline void wr32(Bytes& b, size_t off, uint32_t v) {
  wr16(b, off, static_cast<uint16_t>(v >> 16));
  wr16(b, off + 2, static_cast<uint16_t>(v));
}

// RFC 1071, the textbook way: add big-endian 16-bit words one at a time,
// folding the carry after every addition; an odd last byte is the high byte.
inline uint16_t ref_sum(std::span<const uint8_t> d, uint16_t start = 0) {
  uint32_t s = start;
  for (size_t i = 0; i < d.size(); i += 2) {
    uint32_t w = static_cast<uint32_t>(d[i]) << 8;
    if (i + 1 < d.size()) w |= d[i + 1];
    s += w;
    s = (s & 0xffff) + (s >> 16);
  }
  return static_cast<uint16_t>(s);
}
inline uint16_t ref_checksum(std::span<const uint8_t> d) {
  return static_cast<uint16_t>(~ref_sum(d));
}

// IEEE 802.3 CRC-32, bit by bit (reflected polynomial 0xEDB88320).
inline uint32_t ref_crc32(std::span<const uint8_t> d) {
  uint32_t crc = 0xffffffffu;
  for (uint8_t byte : d) {
    crc ^= byte;
    for (int k = 0; k < 8; ++k) crc = (crc & 1) ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
  }
  return ~crc;
}

// The historical Linux ether_crc() (include/linux/etherdevice.h before
// crc32.h took over): big-endian CRC, data bits LSB first, no final xor.
inline uint32_t ref_ether_crc(std::span<const uint8_t> d) {
  uint32_t crc = 0xffffffffu;
  for (uint8_t octet : d) {
    for (int bit = 0; bit < 8; ++bit, octet = static_cast<uint8_t>(octet >> 1)) {
      const bool msb = (crc >> 31) != 0;
      crc <<= 1;
      if (msb != ((octet & 1) != 0)) crc ^= 0x04c11db7u;
    }
  }
  return crc;
}

// ---- frame construction ---------------------------------------------------
struct Spec {
  bool ipv6 = false;
  uint8_t proto = 6;  // 6 TCP, 17 UDP, anything else: raw payload
  size_t payload = 32;
  size_t ip_opts = 0;   // IPv4 options bytes (multiple of 4)
  size_t tcp_opts = 0;  // TCP options bytes (multiple of 4); 12 = NOP,NOP,TS
  uint32_t seq = 0x01020304;
  uint16_t ip_id = 0x1234;
  uint8_t tcp_flags = 0x18;  // PSH|ACK
  bool inband_vlan = false;  // 802.1Q tag in the frame itself
  uint8_t seed = 1;
};

inline size_t l3_offset(const Spec& s) { return s.inband_vlan ? 18 : 14; }
inline size_t ip_header_len(const Spec& s) { return s.ipv6 ? 40 : 20 + s.ip_opts; }
inline size_t l4_offset(const Spec& s) { return l3_offset(s) + ip_header_len(s); }
inline size_t l4_header_len(const Spec& s) {
  return s.proto == 6 ? 20 + s.tcp_opts : s.proto == 17 ? 8 : 0;
}

inline Bytes pattern(size_t n, uint8_t seed) {
  Bytes b(n);
  uint32_t x = seed * 2654435761u + 1;
  for (auto& v : b) {
    x = x * 1103515245u + 12345u;
    v = static_cast<uint8_t>(x >> 16);
  }
  return b;
}

// Pseudo header + L4 bytes, built the long way, for the reference check.
inline Bytes pseudo_and_l4(std::span<const uint8_t> f, size_t l3, bool ipv6, uint8_t proto,
                           size_t l4, size_t l4_len) {
  Bytes p;
  if (ipv6) {
    p.insert(p.end(), f.begin() + l3 + 8, f.begin() + l3 + 40);
    p.push_back(static_cast<uint8_t>(l4_len >> 24));
    p.push_back(static_cast<uint8_t>(l4_len >> 16));
    p.push_back(static_cast<uint8_t>(l4_len >> 8));
    p.push_back(static_cast<uint8_t>(l4_len));
    p.insert(p.end(), {0, 0, 0, proto});
  } else {
    p.insert(p.end(), f.begin() + l3 + 12, f.begin() + l3 + 20);
    p.push_back(0);
    p.push_back(proto);
    p.push_back(static_cast<uint8_t>(l4_len >> 8));
    p.push_back(static_cast<uint8_t>(l4_len));
  }
  p.insert(p.end(), f.begin() + l4, f.begin() + l4 + l4_len);
  return p;
}

// Fill the IPv4 header and TCP/UDP checksums by the reference method.
inline void ref_fill_checksums(Bytes& f, const Spec& s) {
  const size_t l3 = l3_offset(s), l4 = l4_offset(s);
  if (!s.ipv6) {
    wr16(f, l3 + 10, 0);
    wr16(f, l3 + 10, ref_checksum(std::span<const uint8_t>(f).subspan(l3, ip_header_len(s))));
  }
  if (s.proto != 6 && s.proto != 17) return;
  const size_t l4_len = l4_header_len(s) + s.payload;
  const size_t field = l4 + (s.proto == 6 ? 16 : 6);
  wr16(f, field, 0);
  uint16_t c = ref_checksum(pseudo_and_l4(f, l3, s.ipv6, s.proto, l4, l4_len));
  if (s.proto == 17 && c == 0) c = 0xffff;
  wr16(f, field, c);
}

// An Ethernet + IPv4/IPv6 + TCP/UDP frame with correct checksums.
inline Bytes build(const Spec& s) {
  const size_t l3 = l3_offset(s), l4 = l4_offset(s);
  const size_t l4h = l4_header_len(s);
  Bytes f(l4 + l4h + s.payload, 0);
  const uint8_t dst[6] = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};
  const uint8_t src[6] = {0x52, 0x54, 0x00, 0xab, 0xcd, 0xef};
  std::copy(dst, dst + 6, f.begin());
  std::copy(src, src + 6, f.begin() + 6);
  if (s.inband_vlan) {
    wr16(f, 12, 0x8100);
    wr16(f, 14, 0x2005);
  }
  wr16(f, l3 - 2, s.ipv6 ? 0x86dd : 0x0800);
  if (s.ipv6) {
    f[l3] = 0x60;
    wr16(f, l3 + 4, static_cast<uint16_t>(l4h + s.payload));
    f[l3 + 6] = s.proto;
    f[l3 + 7] = 64;
    const uint8_t a[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    std::copy(a, a + 16, f.begin() + l3 + 8);
    std::copy(a, a + 16, f.begin() + l3 + 24);
    f[l3 + 39] = 2;
  } else {
    f[l3] = static_cast<uint8_t>(0x40 | (ip_header_len(s) / 4));
    wr16(f, l3 + 2, static_cast<uint16_t>(ip_header_len(s) + l4h + s.payload));
    wr16(f, l3 + 4, s.ip_id);
    wr16(f, l3 + 6, 0x4000);  // DF
    f[l3 + 8] = 64;
    f[l3 + 9] = s.proto;
    wr32(f, l3 + 12, 0xc0a80001);
    wr32(f, l3 + 16, 0xc0a80002);
    for (size_t i = 0; i < s.ip_opts; ++i) f[l3 + 20 + i] = 1;  // NOP options
  }
  if (s.proto == 6) {
    wr16(f, l4, 40000);
    wr16(f, l4 + 2, 5001);
    wr32(f, l4 + 4, s.seq);
    wr32(f, l4 + 8, 0x0a0b0c0d);
    f[l4 + 12] = static_cast<uint8_t>(((20 + s.tcp_opts) / 4) << 4);
    f[l4 + 13] = s.tcp_flags;
    wr16(f, l4 + 14, 64240);
    for (size_t i = 0; i < s.tcp_opts; ++i) f[l4 + 20 + i] = 1;  // NOP
    if (s.tcp_opts >= 12) {                                      // NOP, NOP, TS(10)
      f[l4 + 22] = 8;
      f[l4 + 23] = 10;
      wr32(f, l4 + 24, 0x11223344);
      wr32(f, l4 + 28, 0x55667788);
    }
  } else if (s.proto == 17) {
    wr16(f, l4, 7000);
    wr16(f, l4 + 2, 7001);
    wr16(f, l4 + 4, static_cast<uint16_t>(8 + s.payload));
  }
  const Bytes pay = pattern(s.payload, s.seed);
  std::copy(pay.begin(), pay.end(), f.begin() + l4 + l4h);
  ref_fill_checksums(f, s);
  return f;
}

// Reference verification of a frame laid out per `s` (offsets shifted by `shift`).
inline bool ref_ipv4_ok(std::span<const uint8_t> f, size_t l3, size_t ihl) {
  return ref_sum(f.subspan(l3, ihl)) == 0xffff;
}
inline bool ref_l4_ok(std::span<const uint8_t> f, size_t l3, bool ipv6, uint8_t proto, size_t l4,
                      size_t l4_len) {
  return ref_sum(pseudo_and_l4(f, l3, ipv6, proto, l4, l4_len)) == 0xffff;
}

}  // namespace rtl8168sim::packet_test
