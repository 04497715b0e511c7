// SPDX-License-Identifier: GPL-2.0-or-later
// Timing parameters seen from the wire: PCIe read latency, the MXDMA burst
// from TxConfig (or forced by tx-mxdma), the extra read request one byte
// past a burst boundary (docs/HISTORY.md episode 3), and functional mode.
// Only relations are asserted (slower / faster / a jump), never figures.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

const Mac kDst = {0x52, 0x54, 0x00, 0x00, 0x00, 0x02};
constexpr uint64_t kReadLatency = 1000;

// Doorbell-to-wire time of one frame of `len` bytes on a fresh device.
uint64_t tx_latency(const Params& extra, size_t len, uint32_t txconfig = kTxConfigDriver) {
  Params p = with(default_params(true), {{"pcie-read-latency", std::to_string(kReadLatency)}});
  p = with(p, extra);
  DriverConfig dc;
  dc.tx_config = txconfig;
  Nic nic(p, dc);
  EXPECT_TRUE(nic.up());
  nic.drv.queue_frame(frame_to(kDst, len, 1));
  const uint64_t t0 = nic.host.now();
  nic.drv.kick();
  EXPECT_TRUE(nic.drv.wait_tx(10'000'000));
  EXPECT_EQ(nic.host.tx.size(), 1u);
  return nic.host.tx.empty() ? 0 : nic.host.tx[0].time - t0;
}

TEST(ApiTiming, ReadLatencySlowsTransmit) {
  const uint64_t fast = tx_latency({{"pcie-read-latency", "200"}}, 1514);
  const uint64_t slow = tx_latency({{"pcie-read-latency", "3000"}}, 1514);
  EXPECT_GT(slow, fast + 2800) << "descriptor fetch and data read each pay the read latency";
}

TEST(ApiTiming, SmallerTxConfigBurstIsSlower) {
  // MXDMA 7 (unlimited) vs 2 (64-byte requests: 24 round trips for 1514 bytes).
  const uint64_t unlimited = tx_latency({{"tx-mxdma", "auto"}}, 1514, 0x03000700);
  const uint64_t small = tx_latency({{"tx-mxdma", "auto"}}, 1514, 0x03000200);
  EXPECT_GT(small, unlimited + 10 * kReadLatency);
}

TEST(ApiTiming, ForcedMxdmaOverridesTxConfig) {
  const uint64_t a = tx_latency({{"tx-mxdma", "2"}}, 1514, 0x03000700);
  const uint64_t b = tx_latency({{"tx-mxdma", "2"}}, 1514, 0x03000200);
  EXPECT_EQ(a, b) << "tx-mxdma=2 must ignore the TxConfig MXDMA field";
  const uint64_t unlimited = tx_latency({{"tx-mxdma", "7"}}, 1514, 0x03000200);
  EXPECT_LT(unlimited, a);
}

TEST(ApiTiming, OneByteOverABurstCostsAReadRequest) {
  // MXDMA 6 = 1024-byte requests: 1024 bytes is one request, 1025 is two.
  const Params p = {{"tx-mxdma", "6"}};
  const uint64_t l1023 = tx_latency(p, 1023), l1024 = tx_latency(p, 1024),
                 l1025 = tx_latency(p, 1025);
  ASSERT_GT(l1024, 0u);
  EXPECT_LT(l1024 - l1023, kReadLatency / 2) << "within one request: about a byte time";
  EXPECT_GE(l1025 - l1024, kReadLatency / 2) << "one more request: another round trip";
}

TEST(ApiTiming, SlowerChipDmaPathSetsTheTransferPace) {
  // 1514 bytes over the link: (1514 + 474 TLP overhead) / 250 MB/s = 7.95 us.
  // A chip path of 100 MB/s takes 15.14 us for the same completions and so
  // sets the pace; one of 1000 MB/s is faster than the link and changes nothing.
  // (The profiles' own chip path, 150 MB/s, is slower than the link: docs/TIMING.md.)
  const uint64_t link = tx_latency({{"dma-read-rate", "0"}}, 1514);
  const uint64_t fast_chip = tx_latency({{"dma-read-rate", "1000"}}, 1514);
  const uint64_t slow_chip = tx_latency({{"dma-read-rate", "100"}}, 1514);
  EXPECT_EQ(fast_chip, link) << "a chip path faster than the link is not the limit";
  EXPECT_GT(slow_chip, link + 6000) << "15.1 us instead of 8.0 us for the data read";
  EXPECT_LT(slow_chip, link + 7500);
}

TEST(ApiTiming, FunctionalModeHasZeroLatency) {
  Nic nic(default_params(false));
  ASSERT_UP(nic);
  nic.drv.queue_frame(frame_to(kDst, 1514));
  const uint64_t t0 = nic.host.now();
  nic.drv.kick();
  ASSERT_EQ(nic.host.tx.size(), 1u);
  EXPECT_EQ(nic.host.tx[0].time, t0);
  EXPECT_EQ(nic.drv.tx_opts1(0) & kDescOwn, 0u) << "write-back done inside the doorbell";
  ASSERT_EQ(nic.host.receive(frame_to_us(1514)), 1514u);
  EXPECT_EQ(nic.drv.rx_poll().size(), 1u) << "RX delivered inside receive()";
}

// Autonegotiation resolves to the best common mode, and the wire runs at it.
void expect_wire_rate(uint16_t advertise, uint64_t ns_per_byte) {
  Nic nic(default_params(true));
  ASSERT_UP(nic);
  ASSERT_TRUE(nic.drv.mdio_write(kMiiCtrl1000, 0));  // no 1000BASE-T
  ASSERT_TRUE(nic.drv.mdio_write(kMiiAdvertise, advertise));
  const auto bmcr = nic.drv.mdio_read(kMiiBmcr);
  ASSERT_TRUE(bmcr.has_value());
  ASSERT_TRUE(nic.drv.mdio_write(kMiiBmcr, static_cast<uint16_t>(*bmcr | kBmcrAnRestart)));
  nic.host.advance(1'000);
  ASSERT_TRUE(nic.drv.wait_link(kPhyAnTime * 20));
  nic.host.w16(kIntrStatus, 0xffff);
  const size_t n = 5, len = 1514;
  for (size_t i = 0; i < n; ++i) nic.drv.queue_frame(frame_to(kDst, len, static_cast<uint8_t>(i)));
  nic.drv.kick();
  ASSERT_TRUE(nic.drv.wait_tx(1'000'000'000));
  ASSERT_EQ(nic.host.tx.size(), n);
  const uint64_t wire_ns = (len + 4 + 8 + 12) * ns_per_byte;
  for (size_t i = 1; i < n; ++i) {
    const uint64_t gap = nic.host.tx[i].time - nic.host.tx[i - 1].time;
    EXPECT_GE(gap, wire_ns) << "frame " << i << ": faster than the negotiated speed";
    EXPECT_LT(gap, 2 * wire_ns) << "frame " << i << ": much slower than the negotiated speed";
  }
}

TEST(ApiTiming, WireRateAt100Full) { expect_wire_rate(0x0101, 80); }
TEST(ApiTiming, WireRateAt10Full) { expect_wire_rate(0x0041, 800); }

}  // namespace
}  // namespace rtl8168_test
