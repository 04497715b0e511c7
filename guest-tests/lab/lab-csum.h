/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lab-csum.h - the frame-building helpers craft-tool.c and filter-tool.c share: a big-endian
 * 16-bit store and the Internet checksum (RFC 1071: the one's-complement sum of 16-bit words,
 * an odd last byte padded with zero, folded and complemented at the end). Include it after
 * the system headers.
 */
#ifndef LAB_CSUM_H
#define LAB_CSUM_H

/* v's low 16 bits at p, network byte order */
static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 8), p[1] = (uint8_t)v; }

/* s plus the one's-complement sum of n bytes at p, not yet folded */
static uint32_t sum16(const uint8_t *p, size_t n, uint32_t s) {
  for (size_t i = 0; i + 1 < n; i += 2) s += (uint32_t)p[i] << 8 | p[i + 1];
  if (n & 1) s += (uint32_t)p[n - 1] << 8;
  return s;
}

/* the checksum field of a running sum: carries folded in, complemented */
static uint16_t fold(uint32_t s) {
  while (s >> 16) s = (s & 0xffff) + (s >> 16);
  return (uint16_t)~s;
}

#endif
