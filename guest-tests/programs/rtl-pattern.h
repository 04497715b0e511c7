/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtl-pattern.h - the one definition of the project's deterministic test data and of
 * the request/response (rr) wire protocol. Shared by the static guest programs
 * (guest-tests/programs, C11) and the host peer (guest-tests/peer/, C++20).
 *
 * Stream pattern: byte i of every stream is
 *     x = (uint32_t)(i mod 262144) + 0x8168c0de
 *     x ^= x >> 16; x *= 0x85ebca6b; x ^= x >> 13; x *= 0xc2b2ae35; x ^= x >> 16
 *     byte = x & 0xff                       (the murmur3 32-bit finaliser)
 * The period is 256 KiB (RTL_PATTERN_PERIOD) on purpose: a sender fills one static
 * 256 KiB buffer once and then only calls write() on it (cheap per byte, which matters
 * under -icount, see docs/FACTS "sender cost"), and a receiver verifies with memcmp()
 * against the same buffer. Bytes 0..7 are 62 96 21 ab 7c fd 46 88 (checked by the tests).
 *
 * rr protocol (TCP, like netperf TCP_RR): the client first sends a 16-byte hello of four
 * big-endian uint32 words {RTL_RR_MAGIC, request size, response size, transactions};
 * then, per transaction, REQ bytes client->server and RESP bytes server->client (both
 * are the first REQ/RESP bytes of the pattern). The client closes after the last
 * transaction; the server serves until EOF.
 */
#ifndef RTL_PATTERN_H
#define RTL_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#define RTL_PATTERN_PERIOD 262144u /* 256 KiB; a power of two */
#define RTL_PATTERN_SEED 0x8168c0deu

#define RTL_RR_MAGIC 0x52545252u /* "RTRR" */
#define RTL_RR_HELLO_SIZE 16u
#define RTL_RR_MAX_SIZE (64u << 20) /* largest request or response accepted: 64 MiB */

static inline uint8_t rtl_pattern_byte(uint64_t i) {
  uint32_t x = (uint32_t)(i & (RTL_PATTERN_PERIOD - 1u)) + RTL_PATTERN_SEED;
  x ^= x >> 16;
  x *= 0x85ebca6bu;
  x ^= x >> 13;
  x *= 0xc2b2ae35u;
  x ^= x >> 16;
  return (uint8_t)(x & 0xffu);
}

/* Fill buf[0..len) with the pattern bytes of stream offsets [offset, offset + len). */
static inline void rtl_pattern_fill(uint8_t *buf, size_t len, uint64_t offset) {
  size_t k;
  for (k = 0; k < len; k++) buf[k] = rtl_pattern_byte(offset + k);
}

static inline void rtl_put_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

static inline uint32_t rtl_get_be32(const uint8_t *p) {
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

#endif /* RTL_PATTERN_H */
