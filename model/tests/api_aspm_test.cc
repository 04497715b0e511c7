// SPDX-License-Identifier: GPL-2.0-or-later
// ASPM L1 of the 8168h's PCIe link (model/src/pcie_link.h): what the PCI
// Express capability advertises, L1 entered after the driver-programmed
// entrance latency only when the OS (Link Control) and the driver (Config5
// ASPM_en) both allow it, the exit latency paid by the chip's next DMA, the
// aspm-l1-txpoll-lost quirk (docs/HISTORY.md "ASPM L1 TX timeouts"), and
// the state blob.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include <string>
#include <vector>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

constexpr uint32_t kLnkctl = 0x70 + 0x10;   // PCIe capability at 0x70 + Link Control
constexpr uint32_t kCfg9346 = 0x50, kConfig5 = 0x56;
constexpr uint32_t kCsidr = 0x64, kCsiar = 0x68, kFlag = 0x80000000u;
constexpr uint64_t kExit = 32'000, kEntry = 16'000;  // 8168h default; 0x70f reset 0x27
const Mac kDst = {0x52, 0x54, 0x00, 0x00, 0x00, 0x02};
const Mac kUs = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};

Params chip(const char* id, bool timing = true, const Params& extra = {}) {
  return with(with(default_params(timing), {{"chip", id}}), extra);
}

// What Linux's ASPM core writes (Link Control) and what r8169's
// rtl_hw_aspm_clkreq_enable(tp, true) sets (Config5 ASPM_en).
void enable_l1(Nic& nic, bool os = true, bool driver = true) {
  rtl8168_pci_config_write(nic.host.dev(), nic.host.now(), kLnkctl, os ? 0x0002 : 0x0000, 2);
  nic.host.w8(kCfg9346, 0xc0);
  nic.host.w8(kConfig5, static_cast<uint8_t>((nic.host.r8(kConfig5) & ~1) | (driver ? 1 : 0)));
  nic.host.w8(kCfg9346, 0x00);
}

uint64_t l1_entries(Nic& nic) { return nic.host.stats().aspm_l1_entries; }

TEST(ApiAspm, The8168hAdvertisesL1AndTheOldChipsNothing) {
  for (const char* id : {"8168c", "8168evl", "8168h"}) {
    SCOPED_TRACE(id);
    rtl8168_config* cfg = rtl8168_config_new();
    char err[128];
    ASSERT_EQ(rtl8168_config_set(cfg, "chip", id, err, sizeof err), 0) << err;
    rtl8168_pci_identity id_out{};
    rtl8168_config_pci_identity(cfg, &id_out);
    rtl8168_config_free(cfg);
    if (std::string(id) != "8168h") {
      EXPECT_EQ(id_out.pcie_lnkcap_set, 0u);
      EXPECT_EQ(id_out.pcie_devcap_set, 0u);
      EXPECT_FALSE(id_out.aspm_control_writable);
      continue;
    }
    // LNKCAP: ASPM L0s+L1 (11:10 = 3), L0s exit > 4 us (7), L1 exit 32-64 us (6).
    EXPECT_EQ(id_out.pcie_lnkcap_set, 3u << 10 | 7u << 12 | 6u << 15);
    // DEVCAP: acceptable L0s 512 ns (3), L1 64 us (6).
    EXPECT_EQ(id_out.pcie_devcap_set, 3u << 6 | 6u << 9);
    EXPECT_TRUE(id_out.aspm_control_writable);
  }
}

TEST(ApiAspm, L1AfterTheEntranceLatencyOnlyWhenOsAndDriverAllowIt) {
  for (const bool os : {false, true}) {
    for (const bool driver : {false, true}) {
      SCOPED_TRACE(std::string(os ? "os" : "no-os") + (driver ? " driver" : " no-driver"));
      Nic nic(chip("8168h"), driver_8168h());
      ASSERT_UP(nic);
      enable_l1(nic, os, driver);
      nic.host.advance(kEntry - 1);
      EXPECT_EQ(l1_entries(nic), 0u);
      nic.host.advance(2);
      EXPECT_EQ(l1_entries(nic), os && driver ? 1u : 0u);
      nic.host.advance(1'000'000);  // stays in L1: one entry, not one per timer
      EXPECT_EQ(l1_entries(nic), os && driver ? 1u : 0u);
    }
  }
}

TEST(ApiAspm, OtherChipsNeverEnterL1) {
  for (const char* id : {"8168c", "8168evl"}) {
    SCOPED_TRACE(id);
    DriverConfig evl;
    evl.expect_xid = 0x2c8;
    evl.expect_phy_id2 = 0xc800;
    Nic nic(chip(id), std::string(id) == "8168evl" ? evl : DriverConfig{});
    ASSERT_UP(nic);
    const uint64_t hash = nic.host.trace_hash();
    // Config writes reach nothing on a chip without ASPM: no trace, same state.
    const std::vector<uint8_t> blob = nic.host.save();
    rtl8168_pci_config_write(nic.host.dev(), nic.host.now(), kLnkctl, 0x0003, 2);
    rtl8168_pci_config_write(nic.host.dev(), nic.host.now(), 0x70c, 0x3f000000u, 4);
    rtl8168_pci_config_write(nic.host.dev(), nic.host.now(), 0xfff, 0xff, 4);
    EXPECT_EQ(nic.host.trace_hash(), hash);
    EXPECT_EQ(nic.host.save(), blob);
    enable_l1(nic);
    nic.host.advance(1'000'000);
    EXPECT_EQ(l1_entries(nic), 0u);
    nic.drv.xmit(ipv4_udp(kDst, kUs, pattern(100)));
    ASSERT_TRUE(nic.drv.wait_tx());
    EXPECT_EQ(nic.host.stats().tx_doorbells_lost_l1, 0u);
    EXPECT_NE(nic.host.trace_hash(), hash);  // (the device did run)
  }
}

TEST(ApiAspm, HostAccessesKeepTheLinkOutOfL1) {
  Nic nic(chip("8168h"), driver_8168h());
  ASSERT_UP(nic);
  enable_l1(nic);
  for (int i = 0; i < 20; i++) {
    nic.host.advance(kEntry / 2);
    nic.host.r32(0x40);  // a TLP every 8 us
  }
  EXPECT_EQ(l1_entries(nic), 0u);
  nic.host.advance(kEntry);
  EXPECT_EQ(l1_entries(nic), 1u);
}

TEST(ApiAspm, EntranceLatencyFromConfigSpaceAndCsi) {
  Nic nic(chip("8168h"), driver_8168h());
  ASSERT_UP(nic);
  // 0x70f = 0x07: L1 code 0 = 1 us (r8169 rtl_set_aspm_entry_latency).
  rtl8168_pci_config_write(nic.host.dev(), nic.host.now(), 0x70f, 0x07, 1);
  enable_l1(nic);
  nic.host.advance(999);
  EXPECT_EQ(l1_entries(nic), 0u);
  nic.host.advance(2);
  EXPECT_EQ(l1_entries(nic), 1u);
  // CSI 0x70c bits 31:24 (the fallback without extended config access):
  // 0x3f = L1 code 7 = 64 us, counted from the end of the exit the CSI
  // command's register write started.
  nic.host.w32(kCsidr, 0x3f000000);
  nic.host.w32(kCsiar, kFlag | 0xf000 | 0x70c);  // wakes the link
  nic.host.advance(kExit + 64'000 - 1);
  EXPECT_EQ(l1_entries(nic), 1u);
  nic.host.advance(2);
  EXPECT_EQ(l1_entries(nic), 2u);
}

// Time from the doorbell to the frame on the wire.
uint64_t tx_latency(Nic& nic) {
  const size_t before = nic.host.tx.size();
  const uint64_t t0 = nic.host.now();
  nic.drv.xmit(ipv4_udp(kDst, kUs, pattern(200)));
  while (nic.host.tx.size() == before && nic.host.now() - t0 < 10'000'000) nic.host.advance(100);
  return nic.host.now() - t0;
}

TEST(ApiAspm, TheChipsNextDmaPaysTheExitLatency) {
  Nic nic(chip("8168h", true, {{"aspm-l1-txpoll-lost", "off"}}), driver_8168h());
  ASSERT_UP(nic);
  const uint64_t in_l0 = tx_latency(nic);
  enable_l1(nic);
  nic.host.advance(100'000);
  ASSERT_EQ(l1_entries(nic), 1u);
  const uint64_t from_l1 = tx_latency(nic);
  EXPECT_GE(from_l1, in_l0 + kExit - 200) << in_l0 << " " << from_l1;
  EXPECT_LE(from_l1, in_l0 + kExit + 200) << in_l0 << " " << from_l1;
  EXPECT_EQ(nic.host.stats().tx_doorbells_lost_l1, 0u);
}

TEST(ApiAspm, QuirkLosesTheDoorbellThatFindsTheLinkInL1) {
  for (const bool timing : {true, false}) {
    SCOPED_TRACE(timing ? "timing" : "functional");
    Nic nic(chip("8168h", timing), driver_8168h());
    ASSERT_UP(nic);
    enable_l1(nic);
    nic.host.advance(100'000);
    ASSERT_EQ(l1_entries(nic), 1u);
    const size_t sent = nic.host.tx.size();
    nic.drv.xmit(ipv4_udp(kDst, kUs, pattern(200)));
    nic.host.advance(5'000'000);
    EXPECT_EQ(nic.host.tx.size(), sent);  // the frame stays owned by the chip
    EXPECT_EQ(nic.host.stats().tx_doorbells_lost_l1, 1u);
    // The link went back to L1: the next doorbell is lost too, and wakes it;
    // one right after it (r8169's next xmit within the entrance latency, or
    // the register writes of its watchdog's reset path) sends the frame.
    nic.host.w8(0x38, 0x40);
    EXPECT_EQ(nic.host.stats().tx_doorbells_lost_l1, 2u);
    nic.host.w8(0x38, 0x40);
    ASSERT_TRUE(nic.drv.wait_tx());
    EXPECT_EQ(nic.host.tx.size(), sent + 1);
    // pci_disable_link_state(L1): no more L1, no more lost doorbells.
    rtl8168_pci_config_write(nic.host.dev(), nic.host.now(), kLnkctl, 0x0000, 2);
    const uint64_t entries = l1_entries(nic);
    nic.host.advance(1'000'000);
    EXPECT_EQ(l1_entries(nic), entries);
    nic.drv.xmit(ipv4_udp(kDst, kUs, pattern(200)));
    ASSERT_TRUE(nic.drv.wait_tx());
    EXPECT_EQ(nic.host.stats().tx_doorbells_lost_l1, 2u);
  }
}

TEST(ApiAspm, StateBlobCarriesTheLinkAndRefusesABadOne) {
  Nic nic(chip("8168h"), driver_8168h());
  ASSERT_UP(nic);
  enable_l1(nic);
  nic.host.advance(100'000);
  ASSERT_EQ(l1_entries(nic), 1u);
  const std::vector<uint8_t> blob = nic.host.save();

  Nic twin(chip("8168h"), driver_8168h());
  ASSERT_TRUE(twin.host.ok());
  std::string err;
  ASSERT_EQ(twin.host.load(blob, &err), 0) << err;
  EXPECT_EQ(twin.host.stats().aspm_l1_entries, 1u);
  EXPECT_EQ(twin.host.save(), blob);
  // Still in L1 after the load: its next doorbell is lost like the original's.
  twin.host.w8(0x38, 0x40);
  EXPECT_EQ(twin.host.stats().tx_doorbells_lost_l1, 1u);

  // The link's part is at the end: state (ASPM Control, entrance latency,
  // L1, exit end, last TLP) then its two counters.
  std::vector<uint8_t> bad = blob;
  const size_t ctl = bad.size() - 16 - 8 - 8 - 1 - 1 - 1;
  ASSERT_EQ(bad[ctl], 2u);
  bad[ctl] = 0x07;
  EXPECT_NE(twin.host.load(bad, &err), 0);
  EXPECT_NE(err.find("ASPM"), std::string::npos) << err;
  bad = blob;
  bad[ctl] = 0x00;  // L1 without Link Control's L1 enable
  EXPECT_NE(twin.host.load(bad, &err), 0);
  EXPECT_NE(err.find("L1"), std::string::npos) << err;
}

}  // namespace
}  // namespace rtl8168_test
