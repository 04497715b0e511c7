// SPDX-License-Identifier: GPL-2.0-or-later
// Internet checksum (RFC 1071) helpers. This sits in the per-frame hot path of
// the TX checksum offload / TSO and RX checksum verification, so the sum runs
// over 64-bit loads (RFC 1071 section 2(B): the ones'-complement sum is byte
// order independent, so we add native-order words and swap once at the end).
//
// Conventions: a "partial" is a 32-bit value congruent (mod 0xffff) to the
// ones'-complement sum of the data read as big-endian 16-bit words, an odd
// trailing byte being padded with a zero low byte (RFC 1071 section 4.1).
// Partials combine with add(); fold() reduces to 16 bits; the checksum
// field value is ~fold(...). A span passed to partial() must start at an
// even offset of the checksummed byte stream.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace rtl8168sim::packet::csum {

// 32-bit ones'-complement addition (end-around carry).
constexpr uint32_t add(uint32_t a, uint32_t b) {
  const uint32_t s = a + b;
  return s + (s < a ? 1u : 0u);
}

// Reduce a partial to 16 bits (not inverted).
constexpr uint16_t fold(uint32_t sum) {
  sum = (sum & 0xffffu) + (sum >> 16);
  sum = (sum & 0xffffu) + (sum >> 16);
  return static_cast<uint16_t>(sum);
}

namespace detail {
inline uint64_t load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline uint32_t load32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline uint16_t load16(const uint8_t* p) {
  uint16_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
}  // namespace detail

// Ones'-complement sum of `data` added to `sum` (see the conventions above).
inline uint32_t partial(std::span<const uint8_t> data, uint32_t sum = 0) {
  const uint8_t* p = data.data();
  size_t n = data.size();
  // Four independent 64-bit accumulators of 32-bit halves: no carry can be
  // lost for any frame below 2^32 * 8 bytes, and the adds pipeline.
  uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  constexpr uint64_t kLo = 0xffffffffu;
  while (n >= 32) {
    const uint64_t w0 = detail::load64(p), w1 = detail::load64(p + 8);
    const uint64_t w2 = detail::load64(p + 16), w3 = detail::load64(p + 24);
    a0 += (w0 & kLo) + (w0 >> 32);
    a1 += (w1 & kLo) + (w1 >> 32);
    a2 += (w2 & kLo) + (w2 >> 32);
    a3 += (w3 & kLo) + (w3 >> 32);
    p += 32;
    n -= 32;
  }
  uint64_t acc = a0 + a1 + a2 + a3;
  while (n >= 8) {
    const uint64_t w = detail::load64(p);
    acc += (w & kLo) + (w >> 32);
    p += 8;
    n -= 8;
  }
  if (n >= 4) {
    acc += detail::load32(p);
    p += 4;
    n -= 4;
  }
  if (n >= 2) {
    acc += detail::load16(p);
    p += 2;
    n -= 2;
  }
  if (n == 1) {
    // The odd byte is the high byte of a big-endian word: in native order
    // that is byte 0 of a 16-bit word.
    uint16_t last = 0;
    std::memcpy(&last, p, 1);
    acc += last;
  }
  // 64 -> 32 -> 16 bits, then into big-endian word semantics.
  acc = (acc & kLo) + (acc >> 32);
  acc = (acc & kLo) + (acc >> 32);
  uint16_t s16 = fold(static_cast<uint32_t>(acc));
  if constexpr (std::endian::native == std::endian::little) {
    s16 = static_cast<uint16_t>((s16 >> 8) | (s16 << 8));
  }
  return add(sum, s16);
}

// The value to store in a checksum field whose data (field zeroed) sums to `sum`.
constexpr uint16_t finish(uint32_t sum) { return static_cast<uint16_t>(~fold(sum)); }

// True when data including its checksum field sums to 0xffff (RFC 1071 section 1(3)).
constexpr bool verifies(uint32_t sum) { return fold(sum) == 0xffffu; }

// Convenience: checksum field value over one buffer.
inline uint16_t internet_checksum(std::span<const uint8_t> data) { return finish(partial(data)); }

// TCP/UDP pseudo header of RFC 793 / RFC 768 over IPv4: `ip` points at the
// IPv4 header (source and destination at bytes 12..19).
inline uint32_t pseudo_ipv4(const uint8_t* ip, uint8_t proto, uint32_t l4_len) {
  return add(partial(std::span<const uint8_t>(ip + 12, 8)), proto + l4_len);
}
// RFC 8200 section 8.1 pseudo header: `ip` points at the IPv6 header (source
// and destination at bytes 8..39); the upper-layer length is 32-bit.
inline uint32_t pseudo_ipv6(const uint8_t* ip, uint8_t next_header, uint32_t l4_len) {
  return add(add(partial(std::span<const uint8_t>(ip + 8, 32)), next_header), l4_len);
}

}  // namespace rtl8168sim::packet::csum
