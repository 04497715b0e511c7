// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/net_ref.h"

namespace rtl8168_test {

namespace {
constexpr uint8_t kIpv4Src[4] = {10, 9, 0, 1};
constexpr uint8_t kIpv4Dst[4] = {10, 9, 0, 2};
constexpr uint8_t kIpv6Src[16] = {0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
constexpr uint8_t kIpv6Dst[16] = {0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2};

void append(Bytes& b, std::span<const uint8_t> s) { b.insert(b.end(), s.begin(), s.end()); }

Bytes tcp_header(const TcpOpts& o) {
  const size_t len = o.timestamps ? 32 : 20;
  Bytes h(len, 0);
  put_be16(h, 0, o.sport);
  put_be16(h, 2, o.dport);
  put_be32(h, 4, o.seq);
  put_be32(h, 8, o.ack);
  h[12] = static_cast<uint8_t>((len / 4) << 4);
  h[13] = o.flags;
  put_be16(h, 14, 0xffff);
  if (o.timestamps) {
    h[20] = 1;
    h[21] = 1;
    h[22] = 8;
    h[23] = 10;
    put_be32(h, 24, 0x11223344);
    put_be32(h, 28, 0x55667788);
  }
  return h;
}

uint32_t pseudo_sum(std::span<const uint8_t> frame, const Parsed& p, size_t l4len, uint8_t proto) {
  uint32_t sum = 0;
  if (p.ipv6) {
    sum = ones_sum(frame.subspan(p.l3 + 8, 32));
    Bytes tail(8, 0);
    put_be32(tail, 0, static_cast<uint32_t>(l4len));
    tail[7] = proto;
    sum = ones_sum(tail, sum);
  } else {
    sum = ones_sum(frame.subspan(p.l3 + 12, 8));
    Bytes tail(4, 0);
    tail[1] = proto;
    put_be16(tail, 2, static_cast<uint16_t>(l4len));
    sum = ones_sum(tail, sum);
  }
  return sum;
}

// Fill in correct L4 (and IPv4 header) checksums of a frame we built.
void finalize(Bytes& f) {
  Parsed p = parse(f);
  if (!p.ok) return;
  if (!p.ipv6) {
    f[p.l3 + 10] = f[p.l3 + 11] = 0;
    put_be16(f, p.l3 + 10, inet_checksum(std::span<const uint8_t>(f).subspan(p.l3, 20)));
  }
  const size_t l4len = p.ip_total - (p.l4 - p.l3);
  const size_t csum_off = p.l4 + (p.tcp ? 16 : 6);
  f[csum_off] = f[csum_off + 1] = 0;
  uint32_t sum = pseudo_sum(f, p, l4len, p.tcp ? 6 : 17);
  sum = ones_sum(std::span<const uint8_t>(f).subspan(p.l4, l4len), sum);
  uint16_t c = static_cast<uint16_t>(~fold(sum));
  if (p.udp && c == 0) c = 0xffff;
  put_be16(f, csum_off, c);
}

Bytes ipv4_packet(const Mac& dst, const Mac& src, uint8_t proto, uint16_t id,
                  std::span<const uint8_t> l4) {
  Bytes ip(20, 0);
  ip[0] = 0x45;
  put_be16(ip, 2, static_cast<uint16_t>(20 + l4.size()));
  put_be16(ip, 4, id);
  put_be16(ip, 6, 0x4000);  // DF
  ip[8] = 64;
  ip[9] = proto;
  std::copy(kIpv4Src, kIpv4Src + 4, ip.begin() + 12);
  std::copy(kIpv4Dst, kIpv4Dst + 4, ip.begin() + 16);
  append(ip, l4);
  Bytes f = eth_frame(dst, src, 0x0800, ip);
  finalize(f);
  return f;
}

Bytes ipv6_packet(const Mac& dst, const Mac& src, uint8_t proto, std::span<const uint8_t> l4) {
  Bytes ip(40, 0);
  ip[0] = 0x60;
  put_be16(ip, 4, static_cast<uint16_t>(l4.size()));
  ip[6] = proto;
  ip[7] = 64;
  std::copy(kIpv6Src, kIpv6Src + 16, ip.begin() + 8);
  std::copy(kIpv6Dst, kIpv6Dst + 16, ip.begin() + 24);
  append(ip, l4);
  Bytes f = eth_frame(dst, src, 0x86dd, ip);
  finalize(f);
  return f;
}

Bytes udp_segment(std::span<const uint8_t> payload, uint16_t sport, uint16_t dport) {
  Bytes u(8, 0);
  put_be16(u, 0, sport);
  put_be16(u, 2, dport);
  put_be16(u, 4, static_cast<uint16_t>(8 + payload.size()));
  append(u, payload);
  return u;
}
}  // namespace

uint16_t be16(std::span<const uint8_t> b, size_t off) {
  return static_cast<uint16_t>((b[off] << 8) | b[off + 1]);
}
uint32_t be32(std::span<const uint8_t> b, size_t off) {
  return (static_cast<uint32_t>(be16(b, off)) << 16) | be16(b, off + 2);
}
void put_be16(Bytes& b, size_t off, uint16_t v) {
  b[off] = static_cast<uint8_t>(v >> 8);
  b[off + 1] = static_cast<uint8_t>(v);
}
void put_be32(Bytes& b, size_t off, uint32_t v) {
  put_be16(b, off, static_cast<uint16_t>(v >> 16));
  put_be16(b, off + 2, static_cast<uint16_t>(v));
}

uint32_t ones_sum(std::span<const uint8_t> data, uint32_t sum) {
  uint64_t s = sum;
  for (size_t i = 0; i + 1 < data.size(); i += 2)
    s += static_cast<uint32_t>((data[i] << 8) | data[i + 1]);
  if (data.size() & 1) s += static_cast<uint32_t>(data.back() << 8);
  while (s >> 16) s = (s & 0xffff) + (s >> 16);
  return static_cast<uint32_t>(s);
}
uint16_t fold(uint32_t sum) {
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<uint16_t>(sum);
}
uint16_t inet_checksum(std::span<const uint8_t> data) {
  return static_cast<uint16_t>(~fold(ones_sum(data)));
}

uint32_t crc32_ieee(std::span<const uint8_t> data) {
  uint32_t crc = 0xffffffffu;
  for (uint8_t byte : data) {
    crc ^= byte;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ ((crc & 1) ? 0xedb88320u : 0);
  }
  return ~crc;
}

uint32_t ether_crc_be(std::span<const uint8_t> data) {
  uint32_t crc = 0xffffffffu;
  for (uint8_t octet : data) {
    for (int bit = 0; bit < 8; ++bit, octet = static_cast<uint8_t>(octet >> 1)) {
      const bool msb = (crc >> 31) != 0;
      crc <<= 1;
      if (msb ^ ((octet & 1) != 0)) crc ^= 0x04c11db7u;
    }
  }
  return crc;
}

unsigned mc_hash_bit(const Mac& da) { return ether_crc_be(da) >> 26; }

Bytes eth_frame(const Mac& dst, const Mac& src, uint16_t ethertype,
                std::span<const uint8_t> payload) {
  Bytes f(dst.begin(), dst.end());
  f.insert(f.end(), src.begin(), src.end());
  f.push_back(static_cast<uint8_t>(ethertype >> 8));
  f.push_back(static_cast<uint8_t>(ethertype));
  append(f, payload);
  return f;
}

Bytes pattern(size_t len, uint8_t seed) {
  Bytes b(len);
  uint32_t x = seed * 2654435761u + 1;
  for (size_t i = 0; i < len; ++i) {
    x = x * 1103515245u + 12345u;
    b[i] = static_cast<uint8_t>(x >> 16);
  }
  return b;
}

Bytes ipv4_tcp(const Mac& dst, const Mac& src, std::span<const uint8_t> payload, const TcpOpts& o) {
  Bytes l4 = tcp_header(o);
  append(l4, payload);
  return ipv4_packet(dst, src, 6, o.ip_id, l4);
}

Bytes ipv6_tcp(const Mac& dst, const Mac& src, std::span<const uint8_t> payload, const TcpOpts& o) {
  Bytes l4 = tcp_header(o);
  append(l4, payload);
  return ipv6_packet(dst, src, 6, l4);
}

Bytes ipv4_udp(const Mac& dst, const Mac& src, std::span<const uint8_t> payload, uint16_t sport,
               uint16_t dport) {
  return ipv4_packet(dst, src, 17, 0x4321, udp_segment(payload, sport, dport));
}

Bytes ipv6_udp(const Mac& dst, const Mac& src, std::span<const uint8_t> payload, uint16_t sport,
               uint16_t dport) {
  return ipv6_packet(dst, src, 17, udp_segment(payload, sport, dport));
}

Bytes vlan_insert(std::span<const uint8_t> frame, uint16_t tci) {
  Bytes f(frame.begin(), frame.begin() + 12);
  f.push_back(0x81);
  f.push_back(0x00);
  f.push_back(static_cast<uint8_t>(tci >> 8));
  f.push_back(static_cast<uint8_t>(tci));
  f.insert(f.end(), frame.begin() + 12, frame.end());
  return f;
}

Parsed parse(std::span<const uint8_t> f) {
  Parsed p;
  if (f.size() < 14) return p;
  size_t off = 12;
  uint16_t type = be16(f, off);
  if (type == 0x8100) {
    if (f.size() < 18) return p;
    p.vlan = true;
    p.tci = be16(f, 14);
    off += 4;
    type = be16(f, off);
  }
  p.l3 = off + 2;
  uint8_t proto = 0;
  if (type == 0x0800) {
    if (f.size() < p.l3 + 20 || (f[p.l3] >> 4) != 4) return p;
    const size_t ihl = (f[p.l3] & 0xfu) * 4u;
    p.ip_total = be16(f, p.l3 + 2);
    proto = f[p.l3 + 9];
    p.l4 = p.l3 + ihl;
  } else if (type == 0x86dd) {
    if (f.size() < p.l3 + 40) return p;
    p.ipv6 = true;
    p.ip_total = 40u + be16(f, p.l3 + 4);
    proto = f[p.l3 + 6];
    p.l4 = p.l3 + 40;
  } else {
    return p;
  }
  if (p.l3 + p.ip_total > f.size()) return p;
  p.tcp = proto == 6;
  p.udp = proto == 17;
  if (p.tcp) {
    if (p.l4 + 20 > f.size()) return p;
    p.payload = p.l4 + (f[p.l4 + 12] >> 4) * 4u;
  } else if (p.udp) {
    p.payload = p.l4 + 8;
  } else {
    return p;
  }
  p.ok = p.payload <= p.l3 + p.ip_total;
  return p;
}

bool ipv4_header_ok(std::span<const uint8_t> f, const Parsed& p) {
  if (p.ipv6) return false;
  const size_t ihl = (f[p.l3] & 0xfu) * 4u;
  return fold(ones_sum(f.subspan(p.l3, ihl))) == 0xffff;
}

bool l4_checksum_ok(std::span<const uint8_t> f, const Parsed& p) {
  if (!p.ok) return false;
  const size_t l4len = p.ip_total - (p.l4 - p.l3);
  if (p.udp && !p.ipv6 && be16(f, p.l4 + 6) == 0) return false;  // "no checksum"
  uint32_t sum = pseudo_sum(f, p, l4len, p.tcp ? 6 : 17);
  sum = ones_sum(f.subspan(p.l4, l4len), sum);
  return fold(sum) == 0xffff;
}

}  // namespace rtl8168_test
