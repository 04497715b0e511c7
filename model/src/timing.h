// SPDX-License-Identifier: GPL-2.0-or-later
// Typed timing parameters (gem5 style: every latency, bandwidth and FIFO
// size is a named, documented parameter; see config.cc for the table that
// exposes them), their defaults (kPcie11x1, kEvlTiming: profile.cc says
// which chip has which) and the pure cost functions built from them.
//
// Time is integral nanoseconds of the host's virtual clock. Costs are
// rounded up to the next nanosecond.
#pragma once

#include <cstdint>

namespace rtl8168sim {

using Time = uint64_t;  // ns of virtual time
inline constexpr Time kNever = UINT64_MAX;

struct TimingParams {
  // PCIe (RTL8168c: PCIe 1.1 x1, 2.5 GT/s, 8b/10b -> 250 MB/s per direction).
  Time pcie_read_latency = 0;       // round trip of one non-posted read request, ns
  uint32_t pcie_bandwidth = 250;    // MB/s (1e6 bytes/s) of link payload per direction
  uint32_t pcie_completion_size = 64;  // bytes of data per completion / posted-write TLP
  uint32_t pcie_tlp_overhead = 20;  // bytes of framing per TLP (hdr 12 + seq 2 + LCRC 4 + STP/END 2)
  uint32_t pcie_mrrs = 4096;        // max read request size: what MXDMA=7 ("unlimited") means
  // The chip's own DMA path from the PCIe core into its FIFOs, if slower
  // than the link: MB/s of read completion data (0 = not below the link).
  // docs/TIMING.md "Deriving the DMA path" explains how it and
  // pcie_read_latency are pinned.
  uint32_t dma_read_rate = 0;
  // Descriptor prefetch (docs/TIMING.md "Descriptor prefetch and outstanding
  // reads"). TX: how many descriptors the engine reads ahead of the one it
  // works on, one 16-byte read at a time on a read tag of their own, while
  // the data read of the current frame is outstanding (0: none, every
  // descriptor is read when the walk reaches it, on the data's tag). RX:
  // 0 or 1, the next descriptor read while the current frame is written.
  uint32_t tx_desc_prefetch = 0;    // descriptors
  uint32_t rx_desc_prefetch = 0;    // descriptors (0 or 1)
  // On-chip FIFOs (store and forward: a TX frame is checksummed before it starts on the wire).
  uint32_t tx_fifo_size = 8192;     // bytes
  uint32_t rx_fifo_size = 8192;     // bytes
  // Management paths.
  Time phy_an_time = 0;             // autonegotiation restart -> link up
  Time phy_reset_time = 0;          // BMCR reset / ANRESTART self-clear
  Time phyar_time = 0;              // one MDIO frame through PHYAR (64 bits at 2.5 MHz MDC)
  Time chip_reset_time = 0;         // ChipCmd reset self-clear
  Time dtccr_time = 0;              // tally dump/reset command latency before the DMA
  Time txpoll_ack_time = 0;         // NPQ bit reads back set for this long after a doorbell
  // Side buses of chips that have them (profile.h ChipProfile::side_buses;
  // side_bus.h): one access from the command write to its completion flag.
  Time eri_time = 0;                // ERIAR: ExGMAC register access
  Time ephy_time = 0;               // EPHYAR: PCIe SerDes PHY register access
  Time csi_time = 0;                // CSIAR: configuration space access
  // The 8168g class (profile.h ChipProfile::mac_ocp): one PHY register
  // access through GPHY_OCP, command write to completion flag; the MCU's
  // link-list re-initialisation after MAC OCP 0xe8de is written
  // (LINK_LIST_RDY low meanwhile).
  Time gphy_ocp_time = 0;           // GPHY_OCP: PHY OCP register access
  Time ll_init_time = 0;            // MCU link list ready again after a 0xe8de write
  // ASPM L1 of profiles that model it (pcie_link.h): L1 -> L0, from the
  // wake to the first TLP the chip can send. The entrance latency is not a
  // parameter: the driver programs it (config space 0x70f).
  Time aspm_l1_exit_time = 0;
  // Chip timer (TCTR). A clock, not a latency: kept in functional mode.
  uint32_t timer_clock_mhz = 125;   // TCTR count rate
};

// ---- Defaults (profile.cc gives each chip its set; config.cc's parameters
// override them one by one) ----

// The PCIe link and DMA path of both parts: PCIe 1.1 x1 (docs/TIMING.md).
// The 2012 burst/MTU report was measured on an RTL8168evl, so the read
// round trip and completion rate solved from its two DMA-bound points
// (842 Mbit/s at MTU 1500, 908 at MTU 1076, burst 1024) are that chip's as
// much as the 8168c's. Descriptor prefetch depth and the RX read-ahead are
// assumptions (no register or document gives them for these parts; later
// Realtek parts program a TX fetch count, r8169 TDFNR): docs/TIMING.md
// "Descriptor prefetch and outstanding reads".
inline constexpr TimingParams kPcie11x1{
    // The link and the chip's DMA path.
    .pcie_read_latency = 2100, .pcie_bandwidth = 250, .pcie_completion_size = 64,
    .pcie_tlp_overhead = 20, .pcie_mrrs = 4096, .dma_read_rate = 150,
    // Read-ahead and the on-chip FIFOs.
    .tx_desc_prefetch = 4, .rx_desc_prefetch = 1, .tx_fifo_size = 8192, .rx_fifo_size = 8192,
    // Management paths, ChipCmd reset, tally command, TxPoll read-back, chip timer.
    .phy_an_time = 500'000'000, .phy_reset_time = 1'000'000, .phyar_time = 25'600,
    .chip_reset_time = 10'000, .dtccr_time = 2'000, .txpoll_ack_time = 90, .timer_clock_mhz = 125,
};

// The 8168evl: the same path, larger FIFOs, and its side buses.
constexpr TimingParams evl_timing() {
  TimingParams t = kPcie11x1;
  // Jumbo frames up to 9 KiB must fit the store-and-forward FIFOs.
  t.tx_fifo_size = 10 * 1024;
  t.rx_fifo_size = 10 * 1024;
  // Side-bus accesses (docs/TIMING.md): a few core-clock (125 MHz) cycles
  // on the internal bus plus the serial EPHY management frame; r8169 polls
  // ERI 100 x 100 us, EPHY and CSI 100 x 10 us, so any of these completes
  // within the driver's first sleep.
  t.eri_time = 1'000;
  t.ephy_time = 2'000;
  t.csi_time = 1'000;
  return t;
}
inline constexpr TimingParams kEvlTiming = evl_timing();

// The 8168h: PCIe 1.1 x1 like the 8168evl (RTL8111H datasheet: "PCI Express
// 1.1"), and no measured throughput point of its own, so the DMA path, the
// FIFOs (9 KiB jumbo) and the side buses are the 8168evl's (docs/TIMING.md
// "RTL8168h"). GPHY_OCP reaches the PHY over the chip's internal OCP bus,
// not a serial MDIO frame: a few core-clock cycles (assumed 1 us, well
// inside r8169's first 25 us poll sleep, r8168_phy_ocp_read). The link-list
// re-initialisation r8169 waits for in rtl_hw_init_8168g (LINK_LIST_RDY,
// polled 42 x 100 us) is assumed to take 10 us.
constexpr TimingParams h_timing() {
  TimingParams t = kEvlTiming;
  t.gphy_ocp_time = 1'000;
  t.ll_init_time = 10'000;
  // The L1 exit: the part advertises 32-64 us (Link Capabilities L1 exit
  // latency 6, profile.cc); the model takes the lower edge, since the
  // advertised value is a bound, and no measurement of the part's own exit
  // is public. The platform's side (the root port's exit, 2-4 us on recent
  // Intel root ports, LCAP EL1 = 2) is shorter and overlaps it.
  t.aspm_l1_exit_time = 32'000;
  return t;
}
inline constexpr TimingParams k8168hTiming = h_timing();

// The RTL8125B: PCI Express 2.1 x1 (5 GT/s, 8b/10b: 500 MB/s of link per
// direction; Realtek's RTL8125B product brief), everything else as the
// 8168h until measured (docs/TIMING.md "RTL8125B"): the read round trip is
// the platform's as much as the chip's and stays the measured 2.1 us; the
// 8168's internal DMA-path cap (150 MB/s, solved from an 8168evl
// measurement) is not carried over, since it would hold a 2.5 GbE part
// below 1.2 Gbit/s: no cap (0) until a measurement of this part pins one.
// The FIFOs hold the 16 KiB jumbo frame plus FCS (store and forward),
// rounded up to whole KiB: 17 KiB; the part's real FIFO sizes are not public.
constexpr TimingParams b8125_timing() {
  TimingParams t = k8168hTiming;
  t.pcie_bandwidth = 500;
  t.dma_read_rate = 0;
  t.tx_fifo_size = 17 * 1024;
  t.rx_fifo_size = 17 * 1024;
  return t;
}
inline constexpr TimingParams k8125bTiming = b8125_timing();

// Cost of moving `bytes` of payload over the link in TLPs of
// `pcie_completion_size` data bytes (data + per-TLP overhead). Completions
// split at address boundaries, so for buffers of arbitrary alignment the
// overhead is charged pro rata (the average over alignments) rather than
// per whole TLP.
inline Time link_transfer_time(const TimingParams& t, uint64_t bytes) {
  if (bytes == 0 || t.pcie_bandwidth == 0) return 0;
  const uint64_t overhead =
      (bytes * t.pcie_tlp_overhead + t.pcie_completion_size - 1) / t.pcie_completion_size;
  const uint64_t wire_bytes = bytes + overhead;
  // bandwidth is MB/s = bytes per microsecond -> ns = bytes * 1000 / MBps
  return (wire_bytes * 1000 + t.pcie_bandwidth - 1) / t.pcie_bandwidth;
}

// Completion data of `bytes` through the chip's internal DMA path (0 when it
// is not slower than the link).
inline Time internal_transfer_time(const TimingParams& t, uint64_t bytes) {
  if (bytes == 0 || t.dma_read_rate == 0) return 0;
  return (bytes * 1000 + t.dma_read_rate - 1) / t.dma_read_rate;
}

// One non-posted read request of `bytes`: round trip + completion data, at
// the slower of the link and the chip's DMA path (completions stream
// through both, so the slower one sets the pace).
inline Time dma_read_time(const TimingParams& t, uint64_t bytes) {
  const Time link = link_transfer_time(t, bytes), chip = internal_transfer_time(t, bytes);
  return t.pcie_read_latency + (chip > link ? chip : link);
}

// A posted write of `bytes` occupies the upstream link; it has no round trip.
inline Time dma_write_time(const TimingParams& t, uint64_t bytes) {
  return link_transfer_time(t, bytes);
}

// Ethernet serialization of a frame of `frame_bytes` (without FCS): preamble
// + SFD (8), FCS (4), inter-frame gap (12), at `mbps` (10/100/1000/2500:
// 2.5GBASE-T keeps the same per-frame overhead, IEEE 802.3 clause 126
// 2.5GMII; one bit time is 0.4 ns).
inline constexpr uint32_t kWireOverheadBytes = 8 + 4 + 12;
inline Time wire_time(uint64_t frame_bytes, uint32_t mbps) {
  if (mbps == 0) return 0;
  const uint64_t bits = (frame_bytes + kWireOverheadBytes) * 8;
  return (bits * 1000 + mbps - 1) / mbps;
}

}  // namespace rtl8168sim
