// SPDX-License-Identifier: GPL-2.0-or-later
// The RTL8168evl profile (chip=8168evl, r8169 RTL_GIGA_MAC_VER_34): identity,
// the ERI/EPHY/CSI side buses with their completion flags, the ExGMAC
// unicast filter, TXCFG_EMPTY, the integrated PHY's pages, and the two TX
// defects (each on by default, off by parameter, absent on the 8168c).
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include <algorithm>
#include <string>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

constexpr uint32_t kCsidr = 0x64, kCsiar = 0x68, kEridr = 0x70, kEriar = 0x74, kEphyar = 0x80;
constexpr uint32_t kFlag = 0x80000000u;
constexpr uint32_t kEriMask1111 = 0xfu << 12;
constexpr uint64_t kEriTime = 7'000, kEphyTime = 9'000, kCsiTime = 11'000;
const Mac kDst = {0x52, 0x54, 0x00, 0x00, 0x00, 0x02};

Params evl(const Params& extra = {}) {
  return with(with(default_params(true), {{"chip", "8168evl"},
                                          {"eri-time", std::to_string(kEriTime)},
                                          {"ephy-time", std::to_string(kEphyTime)},
                                          {"csi-time", std::to_string(kCsiTime)}}),
              extra);
}

// r8169 _rtl_eri_read / _rtl_eri_write (ERIAR_EXGMAC), polling the flag.
uint32_t eri_read(TestHost& h, uint32_t addr) {
  h.w32(kEriar, kEriMask1111 | addr);
  for (int i = 0; i < 100 && !(h.r32(kEriar) & kFlag); i++) h.advance(1'000);
  return h.r32(kEridr);
}
void eri_write(TestHost& h, uint32_t addr, uint32_t v, uint32_t mask = kEriMask1111) {
  h.w32(kEridr, v);
  h.w32(kEriar, kFlag | mask | addr);
  for (int i = 0; i < 100 && (h.r32(kEriar) & kFlag); i++) h.advance(1'000);
}

TEST(ApiEvl, IdentityComesFromTheProfile) {
  Nic nic(evl(), driver_8168evl());
  ASSERT_UP(nic);
  EXPECT_EQ((nic.host.r32(kTxConfig) >> 20) & 0xfcf, 0x2c8u);  // r8169 {0x7c8, 0x2c8} VER_34
  nic.drv.mdio_write(0x1f, 0);
  EXPECT_EQ(nic.drv.mdio_read(2), 0x001c);
  EXPECT_EQ(nic.drv.mdio_read(3), 0xc800);  // RTL_GENERIC_PHYID
  EXPECT_STREQ(rtl8168_chip_name(nic.host.dev()), "RTL8168evl/8111evl");

  rtl8168_config* cfg = rtl8168_config_new();
  rtl8168_pci_identity id{};
  char err[128];
  ASSERT_EQ(rtl8168_config_set(cfg, "chip", "8168evl", err, sizeof err), 0);
  rtl8168_config_pci_identity(cfg, &id);
  EXPECT_EQ(id.device_id, 0x8168);
  EXPECT_EQ(id.revision, 0x06);
  ASSERT_EQ(rtl8168_config_set(cfg, "chip", "8168c", err, sizeof err), 0);
  rtl8168_config_pci_identity(cfg, &id);
  EXPECT_EQ(id.revision, 0x02);
  EXPECT_EQ(id.msi_offset, 0x50);
  rtl8168_config_free(cfg);
}

TEST(ApiEvl, EriReadSetsTheFlagWhenDataIsValid) {
  Nic nic(evl(), driver_8168evl());
  ASSERT_UP(nic);
  TestHost& h = nic.host;
  // The ExGMAC copy of the station address is loaded at power-on.
  h.w32(kEriar, kEriMask1111 | 0xe0);
  EXPECT_FALSE(h.r32(kEriar) & kFlag);  // not yet
  h.advance(kEriTime - 1);
  EXPECT_FALSE(h.r32(kEriar) & kFlag);
  h.advance(1);
  EXPECT_TRUE(h.r32(kEriar) & kFlag);
  EXPECT_EQ(h.r32(kEridr), 0x12005452u);  // le32(52:54:00:12)
  EXPECT_EQ(eri_read(h, 0xe4), 0x5634u);
}

TEST(ApiEvl, EriWriteClearsTheFlagWhenDoneAndHonoursTheByteMask) {
  Nic nic(evl(), driver_8168evl());
  ASSERT_UP(nic);
  TestHost& h = nic.host;
  h.w32(kEridr, 0x11223344);
  h.w32(kEriar, kFlag | kEriMask1111 | 0x1b0);
  EXPECT_TRUE(h.r32(kEriar) & kFlag);
  h.advance(kEriTime);
  EXPECT_FALSE(h.r32(kEriar) & kFlag);
  EXPECT_EQ(eri_read(h, 0x1b0), 0x11223344u);
  eri_write(h, 0x1b0, 0xaabbccdd, 0x3u << 12);  // ERIAR_MASK_0011: low two bytes
  EXPECT_EQ(eri_read(h, 0x1b0), 0x1122ccddu);
  // Another type (ERIAR_OOB) is not modelled: reads 0, the ExGMAC word stays.
  h.w32(kEriar, (2u << 16) | kEriMask1111 | 0x1b0);
  h.advance(kEriTime);
  EXPECT_EQ(h.r32(kEridr), 0u);
  EXPECT_EQ(eri_read(h, 0x1b0), 0x1122ccddu);
}

TEST(ApiEvl, EphyAndCsiHandshakes) {
  Nic nic(evl(), driver_8168evl());
  ASSERT_UP(nic);
  TestHost& h = nic.host;
  // rtl_ephy_write / rtl_ephy_read: register 20:16, data 15:0.
  h.w32(kEphyar, kFlag | 0x19u << 16 | 0x0224);
  EXPECT_TRUE(h.r32(kEphyar) & kFlag);
  h.advance(kEphyTime);
  EXPECT_FALSE(h.r32(kEphyar) & kFlag);
  h.w32(kEphyar, 0x19u << 16);
  h.advance(kEphyTime - 1);
  EXPECT_FALSE(h.r32(kEphyar) & kFlag);
  h.advance(1);
  EXPECT_EQ(h.r32(kEphyar), kFlag | 0x19u << 16 | 0x0224);
  // rtl_csi_write / rtl_csi_read (0x070c, byte enable 0xf).
  h.w32(kCsidr, 0x27000000);
  h.w32(kCsiar, kFlag | 0xf000 | 0x70c);
  h.advance(kCsiTime);
  EXPECT_FALSE(h.r32(kCsiar) & kFlag);
  h.w32(kCsiar, 0xf000 | 0x70c);
  h.advance(kCsiTime);
  EXPECT_TRUE(h.r32(kCsiar) & kFlag);
  EXPECT_EQ(h.r32(kCsidr), 0x27000000u);
}

TEST(ApiEvl, The8168cCompletesAccessFlagsAtOnce) {
  Nic nic;
  ASSERT_UP(nic);
  nic.host.w32(kEriar, kEriMask1111 | 0xe0);
  EXPECT_TRUE(nic.host.r32(kEriar) & kFlag);
  EXPECT_FALSE(nic.host.r32(kTxConfig) & (1u << 11));  // no TXCFG_EMPTY on the 8168c
}

// r8169 rtl_rar_set: IDR always, the ERI copy only on VER_34; the 8168evl
// filters on the copy.
TEST(ApiEvl, UnicastToAChangedAddressNeedsTheExgmacCopy) {
  const Mac kNew = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};
  const Bytes to_new = ipv4_udp(kNew, kPeerMac, pattern(100));
  for (const bool evl_chip : {true, false}) {
    SCOPED_TRACE(evl_chip ? "8168evl" : "8168c");
    Nic nic(evl_chip ? evl() : default_params(true), evl_chip ? driver_8168evl() : DriverConfig{});
    ASSERT_UP(nic);
    nic.drv.write_mac(kNew);  // IDR0-5 only
    nic.host.receive(to_new);
    nic.host.advance(1'000'000);
    EXPECT_EQ(nic.drv.rx_poll().size(), evl_chip ? 0u : 1u);
    if (!evl_chip) continue;
    eri_write(nic.host, 0xe0, 0x33221102);
    eri_write(nic.host, 0xe4, 0x5544);
    nic.host.receive(to_new);
    nic.host.advance(1'000'000);
    EXPECT_EQ(nic.drv.rx_poll().size(), 1u);
  }
}

TEST(ApiEvl, TxcfgEmptyFollowsTheTxPath) {
  Nic nic(evl(), driver_8168evl());
  ASSERT_UP(nic);
  EXPECT_TRUE(nic.host.r32(kTxConfig) & (1u << 11));
  nic.drv.xmit(ipv4_udp(kDst, Mac{0x52, 0x54, 0x00, 0x12, 0x34, 0x56}, pattern(1400)));
  nic.host.advance(100);
  EXPECT_FALSE(nic.host.r32(kTxConfig) & (1u << 11));
  ASSERT_TRUE(nic.drv.wait_tx());
  nic.host.advance(100'000);
  EXPECT_TRUE(nic.host.r32(kTxConfig) & (1u << 11));
}

TEST(ApiEvl, GenericPhyReportsTheNegotiatedSpeedOnPage0xa43) {
  Nic nic(evl(), driver_8168evl());
  ASSERT_UP(nic);
  ASSERT_TRUE(nic.drv.mdio_write(0x1f, 0x0a43));
  const auto physr = nic.drv.mdio_read(0x12);
  ASSERT_TRUE(physr);
  EXPECT_EQ(*physr & 0x0630, 0x0020);  // realtek.c rtlgen_read_status: 1000 Mbit/s
  EXPECT_EQ(nic.drv.mdio_read(0x1f), 0x0a43);
  ASSERT_TRUE(nic.drv.mdio_write(0x1f, 0x0a61));
  EXPECT_EQ(nic.drv.mdio_read(0x13), 0);  // rtlgen_supports_2_5gbps: no
  ASSERT_TRUE(nic.drv.mdio_write(0x1f, 0x0005));
  ASSERT_TRUE(nic.drv.mdio_write(0x05, 0x8b80));
  EXPECT_EQ(nic.drv.mdio_read(0x05), 0x8b80);  // vendor page 5: storage
  ASSERT_TRUE(nic.drv.mdio_write(0x1f, 0));
}

// Linux 6.13+ rtlgen_read_status reads RTL_PHYSR (MII_RESV2, 0x1a) on page 0
// and decodes speed 5:4 | 10:9 and duplex bit 3; a zero there is "10/half,
// downshifted" (seen on 7.2 before the model answered it).
TEST(ApiEvl, GenericPhyReportsTheNegotiatedSpeedInPage0Physr) {
  Nic nic(evl(), driver_8168evl());
  ASSERT_UP(nic);
  ASSERT_TRUE(nic.drv.mdio_write(0x1f, 0));
  const auto physr = nic.drv.mdio_read(0x1a);
  ASSERT_TRUE(physr);
  EXPECT_EQ(*physr & 0x0630, 0x0020);  // 1000 Mbit/s
  EXPECT_TRUE(*physr & 0x0008);        // full duplex
  EXPECT_TRUE(*physr & 0x0004);        // link
  ASSERT_TRUE(nic.drv.mdio_write(0x1f, 0x0a43));
  EXPECT_EQ(nic.drv.mdio_read(0x1a), physr);  // the same word through page 0xa43
  ASSERT_TRUE(nic.drv.mdio_write(0x1f, 0));
  // Page 0 register 0x1a is status, not storage: a write does not change it.
  ASSERT_TRUE(nic.drv.mdio_write(0x1a, 0));
  EXPECT_EQ(nic.drv.mdio_read(0x1a), physr);
}

// ---- TX defects ------------------------------------------------------------

struct Sent {
  Bytes frame;
  Parsed p;
};
Sent send(Nic& nic, const std::vector<Bytes>& frags, uint32_t opts1, uint32_t opts2) {
  const size_t before = nic.host.tx.size();
  nic.drv.queue_tx(frags, opts1, opts2);
  nic.drv.kick();
  EXPECT_TRUE(nic.drv.wait_tx());
  EXPECT_EQ(nic.host.tx.size(), before + 1);
  Sent s;
  if (nic.host.tx.size() > before) s.frame = nic.host.tx[before].frame;
  s.p = parse(s.frame);
  return s;
}

TEST(ApiEvl, ShortFrameChecksumQuirk) {
  // 14 + 20 + 8 + 6 = 48 bytes: the chip pads it to 60.
  const Bytes udp = ipv4_udp(kDst, kPeerMac, pattern(6));
  ASSERT_LT(udp.size(), 60u);
  const uint32_t opts2 = kTd1Ipv4Cs | kTd1UdpCs | 34u << kTcphoShift;
  struct Case {
    const char* name;
    Params params;
    bool wrong;
  };
  const Case cases[] = {{"8168evl", evl(), true},
                        {"8168evl evl-short-csum=off", evl({{"evl-short-csum", "off"}}), false},
                        {"8168c", default_params(true), false}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Nic nic(c.params, c.params == default_params(true) ? DriverConfig{} : driver_8168evl());
    ASSERT_UP(nic);
    const Sent s = send(nic, {udp}, 0, opts2);
    ASSERT_TRUE(s.p.ok);
    EXPECT_EQ(s.frame.size(), 60u);
    EXPECT_TRUE(ipv4_header_ok(s.frame, s.p));
    EXPECT_EQ(l4_checksum_ok(s.frame, s.p), !c.wrong);
    // A frame the driver padded itself (r8169's fix) is not affected.
    Bytes padded = udp;
    padded.resize(60, 0);
    const Sent t = send(nic, {padded}, 0, opts2);
    EXPECT_TRUE(l4_checksum_ok(t.frame, t.p));
  }
  // Deterministic: the same frame gets the same wrong checksum.
  Nic a(evl(), driver_8168evl()), b(evl(), driver_8168evl());
  ASSERT_UP(a);
  ASSERT_UP(b);
  EXPECT_EQ(send(a, {udp}, 0, opts2).frame, send(b, {udp}, 0, opts2).frame);
}

std::vector<Bytes> send_tso(Nic& nic, const std::vector<Bytes>& frags, size_t l4, size_t mss) {
  const size_t before = nic.host.tx.size();
  nic.drv.queue_tx(frags, kTd1GtsEnv4 | static_cast<uint32_t>(l4) << kGttcphoShift,
                   static_cast<uint32_t>(mss) << kTd1MssShift);
  nic.drv.kick();
  EXPECT_TRUE(nic.drv.wait_tx());
  std::vector<Bytes> out;
  for (size_t i = before; i < nic.host.tx.size(); ++i) out.push_back(nic.host.tx[i].frame);
  return out;
}

// How many segments fail the IPv4 header / TCP checksum check.
std::pair<size_t, size_t> bad_segments(const std::vector<Bytes>& segs) {
  size_t ip = 0, tcp = 0;
  for (const Bytes& s : segs) {
    const Parsed p = parse(s);
    EXPECT_TRUE(p.ok);
    ip += !ipv4_header_ok(s, p);
    tcp += !l4_checksum_ok(s, p);
  }
  return {ip, tcp};
}

TEST(ApiEvl, TsoWithTcpOptionsQuirk) {
  TcpOpts ts;
  ts.timestamps = true;  // 12 option bytes, as every Linux TCP stream
  const Bytes super = ipv4_tcp(kDst, kPeerMac, pattern(4000), ts);
  const size_t hlen = 66;
  const Bytes hdr(super.begin(), super.begin() + hlen), pay(super.begin() + hlen, super.end());
  for (const bool on : {true, false}) {
    Nic nic(evl({{"evl-tso-defects", on ? "on" : "off"}}), driver_8168evl());
    ASSERT_UP(nic);
    const auto segs = send_tso(nic, {hdr, pay}, 34, 1448);
    ASSERT_EQ(segs.size(), 3u);
    const auto [ip, tcp] = bad_segments(segs);
    EXPECT_EQ(ip, 0u);
    EXPECT_EQ(tcp, on ? 3u : 0u);
  }
  Nic c;  // the 8168c has no such defect
  ASSERT_UP(c);
  EXPECT_EQ(bad_segments(send_tso(c, {hdr, pay}, 34, 1448)).second, 0u);
}

TEST(ApiEvl, TsoWithIpOptionsQuirk) {
  // Build a TCP/IPv4 super-frame with 4 bytes of IPv4 options (NOPs) by hand.
  Bytes super = ipv4_tcp(kDst, kPeerMac, pattern(3000));
  super.insert(super.begin() + 34, {1, 1, 1, 1});
  super[14] = 0x46;
  put_be16(super, 16, static_cast<uint16_t>(be16(super, 16) + 4));
  put_be16(super, 24, 0);
  put_be16(super, 24, inet_checksum(std::span<const uint8_t>(super).subspan(14, 24)));
  const size_t hlen = 14 + 24 + 20;
  const Bytes hdr(super.begin(), super.begin() + hlen), pay(super.begin() + hlen, super.end());
  for (const bool on : {true, false}) {
    Nic nic(evl({{"evl-tso-defects", on ? "on" : "off"}}), driver_8168evl());
    ASSERT_UP(nic);
    const auto segs = send_tso(nic, {hdr, pay}, 38, 1000);
    ASSERT_EQ(segs.size(), 3u);
    EXPECT_EQ(bad_segments(segs).first, on ? 3u : 0u);
  }
}

TEST(ApiEvl, TsoShortLastFragmentQuirk) {
  const Bytes super = ipv4_tcp(kDst, kPeerMac, pattern(2006));
  const size_t hlen = 54;
  const Bytes hdr(super.begin(), super.begin() + hlen);
  const Bytes body(super.begin() + hlen, super.end() - 6), tail(super.end() - 6, super.end());
  for (const bool on : {true, false}) {
    Nic nic(evl({{"evl-tso-defects", on ? "on" : "off"}}), driver_8168evl());
    ASSERT_UP(nic);
    // Last fragment 6 bytes: only the last segment is wrong.
    auto segs = send_tso(nic, {hdr, body, tail}, 34, 1460);
    ASSERT_EQ(segs.size(), 2u);
    EXPECT_TRUE(l4_checksum_ok(segs[0], parse(segs[0])));
    EXPECT_EQ(l4_checksum_ok(segs[1], parse(segs[1])), !on);
    // Last fragment 7 bytes: fine (rtl8168evl_fix_tso's bound is <= 6).
    const Bytes body7(super.begin() + hlen, super.end() - 7), tail7(super.end() - 7, super.end());
    segs = send_tso(nic, {hdr, body7, tail7}, 34, 1460);
    EXPECT_EQ(bad_segments(segs).second, 0u);
  }
}

// ---- state ------------------------------------------------------------------

TEST(ApiEvl, StateCarriesTheSideBusesAndChecksThem) {
  Nic nic(evl(), driver_8168evl());
  ASSERT_UP(nic);
  eri_write(nic.host, 0x1dc, 0x3f);
  nic.host.w32(kEriar, kEriMask1111 | 0x1dc);  // a read in flight
  const std::vector<uint8_t> blob = nic.host.save();
  TestHost other(evl(), nic.host.mem(), nic.host.now());
  std::string err;
  ASSERT_EQ(other.load(blob, &err), 0) << err;
  other.advance(kEriTime);
  EXPECT_TRUE(other.r32(kEriar) & kFlag);
  EXPECT_EQ(other.r32(kEridr), 0x3fu);
  // An 8168c device refuses the blob.
  TestHost c(default_params(true), nic.host.mem(), nic.host.now());
  EXPECT_NE(c.load(blob, &err), 0);
  // A blob whose side bus claims an access without its completion event is
  // refused. Find the busy flags: they follow the CSI shadow, whose last
  // dword is given a marker first.
  nic.host.advance(kEriTime);
  nic.host.w32(kCsidr, 0xc0ffee11);
  nic.host.w32(kCsiar, kFlag | 0xf000 | 0xffc);
  nic.host.advance(kCsiTime);
  std::vector<uint8_t> idle = nic.host.save();
  const uint8_t marker[4] = {0x11, 0xee, 0xff, 0xc0};
  const auto at = std::find_end(idle.begin(), idle.end(), marker, marker + 4);  // not CSIDR
  ASSERT_NE(at, idle.end());
  const size_t busy_eri = static_cast<size_t>(at - idle.begin()) + 4;
  ASSERT_LT(busy_eri + 3, idle.size());
  EXPECT_EQ(idle[busy_eri], 0);
  idle[busy_eri] = 1;
  TestHost t(evl(), nic.host.mem(), nic.host.now());
  EXPECT_NE(t.load(idle, &err), 0);
  EXPECT_NE(err.find("side-bus"), std::string::npos) << err;
}

}  // namespace
}  // namespace rtl8168_test
