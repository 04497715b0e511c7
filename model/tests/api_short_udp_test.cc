// SPDX-License-Identifier: GPL-2.0-or-later
// The RTL8125's short-UDP TX hang (quirks.h short_udp_hang, on for the 8125b
// profile): which frames trip it (packet/short_udp_quirk.h: the ones r8169's
// rtl8125_quirk_udp_padto pads), what it does (the TX path stops, the
// frames stay owned, doorbells start nothing, no interrupt, traced as
// tx_stopped reason 2) and what ends it (the driver's reset, as r8169's TX
// watchdog does). A frame padded the way the fixed driver pads it, a short
// UDP frame to another port, the quirk switched off and the other profiles
// all transmit.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include <cstdint>
#include <vector>

#include "harness/net_ref.h"
#include "harness/nic.h"
#include "packet/short_udp_quirk.h"

namespace rtl8168_test {
namespace {

using rtl8168sim::packet::ShortUdp;
using rtl8168sim::packet::short_udp_trigger;

const Mac kDst = {0x52, 0x54, 0x00, 0x00, 0x00, 0x02};
const Mac kUs = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};
constexpr uint64_t kShortUdpHang = 2;  // tx_stopped reason (tx_engine.cc)
constexpr uint64_t kDoorbellStopped = 3;

Params b(bool timing = true, const Params& extra = {}) {
  return with(with(default_params(timing), {{"chip", "8125b"}}), extra);
}

// A PTP event message too short for the chip: 20 bytes of UDP payload to
// port 319, 28 bytes after the IPv4 header (< 47), a 62-byte frame.
Bytes short_ptp(uint16_t dport = 319) { return ipv4_udp(kDst, kUs, pattern(20), 5000, dport); }

// What the fixed r8169 sends instead: the same skb padded to 47 bytes of
// transport data (__skb_put_padto: the IP length is unchanged).
Bytes padded(Bytes f, size_t transport) {
  const size_t l4 = 14 + 20;
  f.resize(l4 + transport, 0);
  return f;
}

size_t count_trace(const TestHost& h, unsigned kind, uint64_t arg0) {
  size_t n = 0;
  for (const TraceRecord& r : h.trace_events) n += r.kind == kind && r.args[0] == arg0;
  return n;
}

void driver_reset(Driver& drv) {
  ASSERT_TRUE(drv.cleanup());
  drv.hw_start();
}

// ---- the trigger, on bytes --------------------------------------------------

TEST(ShortUdpTrigger, FramesTheWorkaroundPads) {
  EXPECT_EQ(short_udp_trigger(short_ptp(319)), ShortUdp::short_ptp);
  EXPECT_EQ(short_udp_trigger(short_ptp(320)), ShortUdp::short_ptp);
  EXPECT_EQ(short_udp_trigger(padded(short_ptp(), 46)), ShortUdp::short_ptp);
  EXPECT_EQ(short_udp_trigger(vlan_insert(short_ptp(), 7)), ShortUdp::short_ptp);
  EXPECT_EQ(short_udp_trigger(ipv6_udp(kDst, kUs, pattern(10), 5000, 320)), ShortUdp::short_ptp);
  // Fewer than 8 bytes after the IP header, whatever the port.
  Bytes cut = ipv4_udp(kDst, kUs, {}, 5000, 7001);
  cut.resize(14 + 20 + 3);
  EXPECT_EQ(short_udp_trigger(cut), ShortUdp::truncated_header);
  Bytes cut6 = ipv6_udp(kDst, kUs, {}, 5000, 7001);
  cut6.resize(14 + 40 + 7);
  EXPECT_EQ(short_udp_trigger(cut6), ShortUdp::truncated_header);
}

TEST(ShortUdpTrigger, FramesItLeavesAlone) {
  // Padded to RTL_MIN_PATCH_LEN bytes of transport data: the fixed driver's frame.
  EXPECT_EQ(short_udp_trigger(padded(short_ptp(), 47)), ShortUdp::none);
  // Long enough PTP (a 44-byte PTPv2 Sync: 52 bytes of transport data).
  EXPECT_EQ(short_udp_trigger(ipv4_udp(kDst, kUs, pattern(44), 319, 319)), ShortUdp::none);
  // Short UDP to another port, PTP as the source port only, TCP, ARP.
  EXPECT_EQ(short_udp_trigger(ipv4_udp(kDst, kUs, pattern(4), 5000, 7001)), ShortUdp::none);
  EXPECT_EQ(short_udp_trigger(ipv4_udp(kDst, kUs, pattern(20), 319, 7001)), ShortUdp::none);
  EXPECT_EQ(short_udp_trigger(ipv4_tcp(kDst, kUs, {})), ShortUdp::none);
  EXPECT_EQ(short_udp_trigger(eth_frame(kDst, kUs, 0x0806, pattern(28))), ShortUdp::none);
  // Too short for an IP header, or empty: nothing to parse.
  Bytes stub = short_ptp();
  stub.resize(20);
  EXPECT_EQ(short_udp_trigger(stub), ShortUdp::none);
  EXPECT_EQ(short_udp_trigger({}), ShortUdp::none);
  // A long PTP frame; an IPv6 UDP datagram behind an extension header (the
  // next header is hop-by-hop, not UDP, as rtl_skb_is_udp reads it).
  EXPECT_EQ(short_udp_trigger(ipv4_udp(kDst, kUs, pattern(200), 5000, 319)), ShortUdp::none);
  Bytes ext = ipv6_udp(kDst, kUs, pattern(2), 5000, 319);
  ext[14 + 6] = 0;  // next header: hop-by-hop options
  EXPECT_EQ(short_udp_trigger(ext), ShortUdp::none);
}

// ---- the consequence, through the C API ---------------------------------------

TEST(ApiShortUdp, ShortPtpFrameHangsTheTxPathUntilTheDriverResets) {
  for (const bool timing : {true, false}) {
    SCOPED_TRACE(timing ? "timing" : "functional");
    Nic nic(b(timing), driver_8125b());
    ASSERT_UP(nic);
    nic.drv.xmit(ipv4_udp(kDst, kUs, pattern(100)));
    ASSERT_TRUE(nic.drv.wait_tx());
    ASSERT_EQ(nic.host.tx.size(), 1u);
    const rtl8168_stats before = nic.host.stats();
    const size_t msis = nic.host.msi_times.size();

    const unsigned idx = nic.drv.xmit(short_ptp());
    nic.host.advance(10'000'000);
    EXPECT_EQ(nic.host.tx.size(), 1u) << "the short PTP frame never leaves";
    EXPECT_TRUE(nic.drv.tx_opts1(idx) & kDescOwn) << "its descriptor stays owned";
    ASSERT_EQ(count_trace(nic.host, RTL8168_TRACE_TX_STOPPED, kShortUdpHang), 1u);
    for (const TraceRecord& r : nic.host.trace_events) {
      if (r.kind == RTL8168_TRACE_TX_STOPPED) {
        EXPECT_EQ(r.args[1], idx);
      }
    }
    // A hung chip reports nothing, and a doorbell does not wake it.
    EXPECT_EQ(nic.host.msi_times.size(), msis);
    const unsigned next = nic.drv.xmit(ipv4_udp(kDst, kUs, pattern(100), 7000, 7002));
    nic.host.advance(10'000'000);
    EXPECT_EQ(nic.host.tx.size(), 1u);
    EXPECT_TRUE(nic.drv.tx_opts1(next) & kDescOwn);
    EXPECT_GE(count_trace(nic.host, RTL8168_TRACE_DOORBELL, 0), 1u);
    bool stopped_doorbell = false;
    for (const TraceRecord& r : nic.host.trace_events) {
      stopped_doorbell |= r.kind == RTL8168_TRACE_DOORBELL && r.args[1] == kDoorbellStopped;
    }
    EXPECT_TRUE(stopped_doorbell);
    const rtl8168_stats during = nic.host.stats();
    EXPECT_EQ(during.tx_frames, before.tx_frames);
    EXPECT_EQ(during.tx_errors, before.tx_errors);
    EXPECT_EQ(during.sys_errors, before.sys_errors);

    // rtl8169_tx_timeout -> rtl_reset_work: the driver drops the ring and
    // resets the chip, which transmits again.
    driver_reset(nic.drv);
    nic.drv.xmit(ipv4_udp(kDst, kUs, pattern(100), 7000, 7003));
    ASSERT_TRUE(nic.drv.wait_tx());
    EXPECT_EQ(nic.host.tx.size(), 2u);
    EXPECT_EQ(count_trace(nic.host, RTL8168_TRACE_TX_STOPPED, kShortUdpHang), 1u);
  }
}

TEST(ApiShortUdp, FramesQueuedBehindTheHangStayOwned) {
  Nic nic(b(true), driver_8125b());
  ASSERT_UP(nic);
  const unsigned a = nic.drv.queue_frame(ipv4_udp(kDst, kUs, pattern(300)));
  const unsigned p = nic.drv.queue_frame(short_ptp(320));
  const unsigned c = nic.drv.queue_frame(ipv4_udp(kDst, kUs, pattern(300), 7000, 7004));
  nic.drv.kick();
  nic.host.advance(10'000'000);
  EXPECT_LE(nic.host.tx.size(), 1u);
  EXPECT_EQ(nic.host.tx.size(), (nic.drv.tx_opts1(a) & kDescOwn) ? 0u : 1u);
  EXPECT_TRUE(nic.drv.tx_opts1(p) & kDescOwn);
  EXPECT_TRUE(nic.drv.tx_opts1(c) & kDescOwn);
  EXPECT_EQ(count_trace(nic.host, RTL8168_TRACE_TX_STOPPED, kShortUdpHang), 1u);
  // TxEnb off/on restarts the transmitter at the oldest owned descriptor:
  // the same short frame hangs it again (r8169 clears its ring first).
  nic.host.w8(kChipCmd, kCmdRxEnb);
  nic.host.w8(kChipCmd, kCmdRxEnb | kCmdTxEnb);
  nic.drv.kick();
  nic.host.advance(10'000'000);
  EXPECT_TRUE(nic.drv.tx_opts1(c) & kDescOwn);
  EXPECT_EQ(count_trace(nic.host, RTL8168_TRACE_TX_STOPPED, kShortUdpHang), 2u);
}

TEST(ApiShortUdp, PaddedAndOtherFramesLeave) {
  Nic nic(b(true), driver_8125b());
  ASSERT_UP(nic);
  const std::vector<Bytes> frames = {
      padded(short_ptp(), 47),                            // the fixed driver's frame
      ipv4_udp(kDst, kUs, pattern(4), 5000, 7001),        // short, another port: the chip pads
      ipv4_udp(kDst, kUs, pattern(44), 319, 319),         // a full PTPv2 Sync
      ipv4_udp(kDst, kUs, pattern(20), 319, 7001),        // PTP as the source port
      ipv6_udp(kDst, kUs, pattern(39), 5000, 320),        // 47 bytes after the IPv6 header
  };
  for (const Bytes& f : frames) {
    nic.drv.xmit(f);
    ASSERT_TRUE(nic.drv.wait_tx()) << nic.host.trace_tail();
  }
  EXPECT_EQ(nic.host.tx.size(), frames.size());
  EXPECT_EQ(count_trace(nic.host, RTL8168_TRACE_TX_STOPPED, kShortUdpHang), 0u);
}

TEST(ApiShortUdp, ParameterSwitchesItOff) {
  Nic nic(b(true, {{"short-udp-hang", "off"}}), driver_8125b());
  ASSERT_UP(nic);
  nic.drv.xmit(short_ptp());
  ASSERT_TRUE(nic.drv.wait_tx());
  EXPECT_EQ(nic.host.tx.size(), 1u);
  EXPECT_EQ(count_trace(nic.host, RTL8168_TRACE_TX_STOPPED, kShortUdpHang), 0u);
}

TEST(ApiShortUdp, OnlyThe8125bHasItByDefault) {
  for (const char* id : {"8168c", "8168evl", "8168h", "8125b"}) {
    SCOPED_TRACE(id);
    rtl8168_config* cfg = rtl8168_config_new();
    char err[256] = "", buf[64] = "";
    ASSERT_EQ(rtl8168_config_set(cfg, "chip", id, err, sizeof err), 0) << err;
    ASSERT_EQ(rtl8168_config_get(cfg, "short-udp-hang", buf, sizeof buf), 0);
    EXPECT_STREQ(buf, std::string(id) == "8125b" ? "on" : "off");
    rtl8168_config_free(cfg);
  }
  // An 8168 sends the frame the 8125 hangs on.
  Nic nic(with(default_params(true), {{"chip", "8168c"}}));
  ASSERT_UP(nic);
  nic.drv.xmit(short_ptp());
  ASSERT_TRUE(nic.drv.wait_tx());
  EXPECT_EQ(nic.host.tx.size(), 1u);
}

TEST(ApiShortUdp, HungStateSurvivesSaveAndLoad) {
  Nic nic(b(true), driver_8125b());
  ASSERT_UP(nic);
  nic.drv.xmit(short_ptp());
  nic.host.advance(1'000'000);
  ASSERT_EQ(count_trace(nic.host, RTL8168_TRACE_TX_STOPPED, kShortUdpHang), 1u);
  const std::vector<uint8_t> blob = nic.host.save();
  TestHost other(b(true), nic.host.mem(), nic.host.now());
  std::string err;
  ASSERT_EQ(other.load(blob, &err), 0) << err;
  // Still hung: a doorbell starts nothing (outcome 3: stopped until restarted).
  other.write(0x90, 1, 2);
  other.advance(1'000'000);
  EXPECT_TRUE(other.tx.empty());
  bool stopped_doorbell = false;
  for (const TraceRecord& r : other.trace_events) {
    stopped_doorbell |= r.kind == RTL8168_TRACE_DOORBELL && r.args[1] == kDoorbellStopped;
  }
  EXPECT_TRUE(stopped_doorbell);
}

}  // namespace
}  // namespace rtl8168_test
