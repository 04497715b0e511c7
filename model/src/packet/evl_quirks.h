// SPDX-License-Identifier: GPL-2.0-or-later
// The RTL8168evl's TX defects (Quirks::evl_short_csum / evl_tso_defects),
// applied to a frame the TX engine has already built correctly
// (finish_tx_frame / build_tso_segment). Pure functions of their arguments:
// the wrong output is deterministic, and each is the plausible result of a
// checksum engine that runs over the wrong span.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "packet/packet.h"

namespace rtl8168sim::packet {

// (a) Short frame, hardware padding + L4 checksum offload. `driver_len` is
// the frame length the driver handed over (untagged, before padding); `out`
// the frame as finish_tx_frame built it. When the chip padded it (out longer
// than driver_len plus the inserted tag) and TCP_CS/UDP_CS was requested,
// the L4 checksum is recomputed the way the 8168evl does: the summed span
// and the pseudo header's length run to the end of the padded frame instead
// of the IP datagram's end. Source: r8169 rtl_quirk_packet_padto (ETH_ZLEN
// for RTL_GIGA_MAC_VER_34) with rtl8169_features_check dropping checksum
// offload for such skbs: the driver pads in software instead. Returns true
// when it changed the frame.
bool evl_short_frame_csum(size_t driver_len, const TxOffload& off, std::vector<uint8_t>& out);

// (b) TSO on the 8168evl (r8169 rtl8168evl_fix_tso, "Workaround for hw
// issues with TSO on RTL8168evl", which falls back to software GSO in
// exactly these three cases). On a segment built by build_tso_segment:
//   - IPv4 header with options (IHL > 5): the header checksum is computed
//     over the fixed 20 bytes only;
//   - TCP header with options (doff > 5): the TCP checksum skips the
//     options (summed from the fixed header straight to the payload);
//   - last SG fragment <= 6 bytes (`last_frag_len`, 0 = the super-frame is
//     one descriptor): that fragment's bytes are left out of the TCP
//     checksum of the last segment (the sum is closed before the short
//     final read is added).
// Returns a bit set of what it changed (kEvlTso*), 0 when nothing applied.
inline constexpr unsigned kEvlTsoIpOptions = 1, kEvlTsoTcpOptions = 2, kEvlTsoShortLastFrag = 4;
unsigned evl_tso_segment(const TxOffload& off, bool last_segment, uint32_t last_frag_len,
                         std::vector<uint8_t>& segment);

// Which of the three conditions hold for a TSO request (the same test as
// rtl8168evl_fix_tso, on the header the driver built).
unsigned evl_tso_conditions(std::span<const uint8_t> header, const TxOffload& off,
                            uint32_t last_frag_len);

}  // namespace rtl8168sim::packet
