// SPDX-License-Identifier: GPL-2.0-or-later
// Pure frame-processing functions used by the TX and RX engines: checksum
// offload, TSO segmentation, VLAN tag insertion/stripping, RX classification
// and the Ethernet CRC. No device state, no timing, no allocation beyond the
// output vectors: every function is a function of its arguments.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace rtl8168sim::packet {

// ---- CRC ------------------------------------------------------------------
// Ethernet FCS (IEEE 802.3 CRC-32, as zlib's crc32()), little-endian on the
// wire. The RX engine appends it after the frame (the driver subtracts 4).
uint32_t ethernet_fcs(std::span<const uint8_t> frame);
// Multicast hash bit index used with MAR0-7: ether_crc(6, da) >> 26
// (r8169 rtl_set_rx_mode; Linux ether_crc = bitrev32(~crc32_le)).
unsigned multicast_hash_bit(std::span<const uint8_t, 6> da);

// ---- TX offload request (v2 descriptor fields, r8169 rtl8169_tso_csum_v2) --
struct TxOffload {
  bool gtsenv4 = false;    // opts1 bit 26: TSO, IPv4
  bool gtsenv6 = false;    // opts1 bit 25: TSO, IPv6
  uint32_t mss = 0;        // opts2 28:18 when GTSENV4/6 set
  uint32_t l4_offset = 0;  // opts1 24:18 (TSO) or opts2 27:18 TCPHO (csum): transport hdr offset
  bool ipv4_cs = false;    // opts2 bit 29
  bool tcp_cs = false;     // opts2 bit 30
  bool udp_cs = false;     // opts2 bit 31
  bool ipv6_cs = false;    // opts2 bit 28 (with tcp_cs/udp_cs: L4 over IPv6)
  bool vlan = false;       // opts2 bit 17 TxVlanTag
  uint16_t vlan_tci = 0;   // host order (the descriptor carries swab16(TCI))
};

enum class TxStatus {
  ok,
  bad_mss,    // TSO with MSS 0 (the chip aborts the frame: TxErr)
  malformed,  // headers do not parse (offsets beyond the frame, wrong ethertype)
  too_long,   // a resulting frame exceeds max_frame
};

// Parsed TSO/checksum context computed once per (header) of a large send.
// Offsets are into the untagged frame as the driver built it.
struct L3L4Info {
  bool ipv6 = false;
  uint32_t l3_offset = 14;
  uint32_t l4_offset = 0;
  uint32_t header_len = 0;  // Ethernet + IP + TCP header incl. options (TSO)
  bool tcp = false, udp = false;
};

// Parse the Ethernet (+ in-band VLAN tags) / IPv4 (IHL options) / IPv6
// (hop-by-hop, routing, destination-options extension headers) / TCP or UDP
// headers of a frame as the driver built it and check them against `off`.
// With GTSENV4/6 set: TCP over that IP version, header_len = end of the TCP
// header incl. options (the TX engine splits the super-frame there: payload =
// frame[header_len..]). With TCP_CS/UDP_CS: that protocol and an IP length
// inside the frame. A non-zero off.l4_offset must match the parsed transport
// offset. Returns ok or malformed. (Added for the TX engine; the other TX
// functions call the same parser.)
TxStatus parse_tx_headers(std::span<const uint8_t> frame, const TxOffload& off, L3L4Info& info);

// Non-TSO frame: apply checksum offloads (IPv4 header csum, TCP/UDP over
// IPv4/IPv6: zero the field, compute the full sum incl. pseudo header),
// then VLAN insertion, then pad to 60 bytes. Output replaces `out` (which
// must not alias `frame`). too_long if the frame after tagging (before
// padding, without FCS) exceeds max_frame. GTSENV4/6 and mss are ignored (the
// TX engine routes TSO frames to the functions below). l4_offset 0 means "not
// given" (a real TCPHO is never 0); otherwise it must match the parsed header.
// A UDP checksum that computes to 0 is sent as 0xffff (RFC 768).
TxStatus finish_tx_frame(std::span<const uint8_t> frame, const TxOffload& off, size_t max_frame,
                         std::vector<uint8_t>& out);

// TSO: number of segments a super-frame yields (payload = frame beyond the
// headers). Returns 0 if the request is invalid (status set accordingly).
// An MSS larger than the payload yields a single segment; a zero payload
// yields one header-only segment. `header` may extend past the headers
// (e.g. the whole super-frame): only the parsed header length is used.
size_t tso_segment_count(std::span<const uint8_t> header, size_t payload_len, const TxOffload& off,
                         TxStatus& status);

// TSO: build segment `index` of `count` from the original header and this
// segment's payload bytes: IPv4 total length / ID+index / header checksum,
// IPv6 payload length, TCP seq += index*mss, FIN/PSH only on the last
// segment, CWR only on the first, TCP checksum over the pseudo header, then
// VLAN insertion and padding. Output replaces `out`. Every segment but the
// last must carry exactly mss payload bytes (malformed otherwise, as is
// index >= count); too_long if the tagged segment exceeds max_frame.
TxStatus build_tso_segment(std::span<const uint8_t> header, std::span<const uint8_t> payload,
                           size_t index, size_t count, const TxOffload& off, size_t max_frame,
                           std::vector<uint8_t>& out);

// ---- RX -------------------------------------------------------------------
struct RxClass {
  // RX descriptor opts1 bits (RTL8169 datasheet p.56 / r8169 RxProtoTCP etc.)
  bool is_tcp = false, is_udp = false;  // PID 01 / 10 (IPv4 or IPv6)
  bool is_ip = false;                   // parsed an IPv4/IPv6 header
  bool ip_csum_fail = false;            // IPF (IPv4 header checksum wrong)
  bool tcp_csum_fail = false;           // TCPF
  bool udp_csum_fail = false;           // UDPF
};
// Classify and verify checksums of a received frame (after VLAN strip; a tag
// left in place is parsed past). IPv4 options are honoured (IHL). IPv6 is
// TCP/UDP only when the next header is TCP/UDP directly. A frame whose IP
// header does not fit is not IP. Fragments, IPv6 extension headers and
// truncated datagrams / L4 headers classify as not-TCP/UDP (PID 00) with no
// L4 failure; IPF is still reported for a complete IPv4 header. A UDP
// checksum of 0 is "none" (OK) over IPv4 and a failure over IPv6.
RxClass classify_rx(std::span<const uint8_t> frame);

// If the frame carries an 802.1Q tag (ethertype 0x8100), remove it, return
// true and the TCI (host order). Otherwise leave the frame alone.
bool strip_vlan(std::vector<uint8_t>& frame, uint16_t& tci);

}  // namespace rtl8168sim::packet
