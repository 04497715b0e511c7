// SPDX-License-Identifier: GPL-2.0-or-later
// The chip defects the model reproduces, each a named switch: a profile
// turns on the ones its silicon has (profile.cc), a parameter of the same
// name switches each one (config.cc: lossy-txpoll, evl-short-csum,
// evl-tso-defects, aspm-l1-txpoll-lost, short-udp-hang), and the comment at each says what it
// does, which r8169 code shows it and where the model applies it. An
// emulator that is more forgiving than the chip hides driver bugs, so a
// quirk is on by default where the chip has it.
#pragma once

namespace rtl8168sim {

struct Quirks {
  // RTL8111b/8168 "TxPoll requests are lost when the Tx packets are too
  // close" (r8169 rtl_tx comment; docs/HISTORY.md §1): an NPQ doorbell that
  // arrives while the TX engine is busy is ignored, and the engine's
  // ring-empty decision comes from a descriptor read taken before the
  // current frame completed. tx_engine.cc (TxEngine::doorbell, and the
  // prefetcher's read that ends the walk).
  bool lossy_txpoll = false;
  // RTL8168evl: a frame shorter than 60 bytes that the chip pads itself
  // while it also computes an L4 checksum goes out with a wrong checksum:
  // the checksum engine runs over the padded length (pseudo header length
  // and summed span both cover the pad). r8169 avoids it by padding in
  // software on this chip and then not offloading the checksum
  // (rtl_quirk_packet_padto -> ETH_ZLEN for RTL_GIGA_MAC_VER_34,
  // rtl8169_features_check). packet/evl_quirks.cc, applied by
  // TxEngine::apply_chip_defects.
  bool evl_short_csum = false;
  // RTL8168evl: TSO output is wrong when the IPv4 header carries options,
  // when the TCP header carries options, or when the last SG fragment is
  // <= 6 bytes (r8169 rtl8168evl_fix_tso, "Workaround for hw issues with
  // TSO on RTL8168evl"). packet/evl_quirks.cc says how each goes wrong;
  // TxEngine::apply_chip_defects applies it to each segment.
  bool evl_tso_defects = false;
  // RTL8168h and ASPM L1 (docs/HISTORY.md "ASPM L1 TX timeouts"): a TxPoll
  // doorbell that reaches the chip while its link is in L1 wakes the link
  // but does not start the transmitter; the frames stay owned by the chip
  // until the driver's TX watchdog resets it. The model's hypothesis for the
  // TX timeouts r8169 saw once it left L1 enabled on this chip
  // (4b5f82f6aaef), which 90ca51e8c654 ended by disabling L1 unless the
  // platform vouches for it and 80c0576ef179 by disabling ASPM on a TX
  // timeout (kernel bugzilla 217814). Only bites where the link can enter L1
  // at all (pcie_link.h). Device::reg_write, through PcieLink::host_access.
  bool aspm_l1_txpoll_lost = false;
  // RTL8125 "network breaks under heavy UDP load" (r8169 8d520b4de3ed,
  // "r8169: work around RTL8125 UDP hw bug", confirmed by Realtek as a
  // hardware bug; kernel bugzilla 209839): the chip cannot transmit a UDP
  // frame shorter than 175 bytes that carries fewer than 8 bytes after its
  // IP header, or fewer than 47 when the destination port is PTP's 319/320
  // (packet/short_udp_quirk.h: the frames rtl8125_quirk_udp_padto pads).
  // What "breaks" means is the model's hypothesis: the TX path hangs on that
  // frame (it never leaves, its descriptors and those of the frames behind it
  // stay owned, doorbells start nothing, no interrupt) until the driver
  // restarts the transmitter (TxEnb off/on, StopReq, ChipCmd or PCI reset),
  // which r8169 does from its TX watchdog (rtl8169_tx_timeout); Windows
  // reports the same part "hung" and resets it (NDIS event 10400 in the
  // libtorrent uTP reports). Traced as tx_stopped reason 2. TxEngine::
  // frame_done_fetching, on the bytes fetched, before the chip pads.
  bool short_udp_hang = false;
};

}  // namespace rtl8168sim
