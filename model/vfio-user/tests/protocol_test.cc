// SPDX-License-Identifier: GPL-2.0-or-later
// The protocol as QEMU's vfio-user client speaks it (hw/vfio-user/ of QEMU
// 10.1+): version negotiation, device / region / IRQ info, and the
// configuration space built from each chip profile's identity.
#include <linux/pci_regs.h>

#include <nlohmann/json.hpp>

#include "client.h"

namespace vfio_user_test {
namespace {

TEST(VfioUserVersion, NegotiatesCapabilitiesWithinWhatTheClientOffered) {
  Harness h;
  Message r = h.negotiate();
  const auto v = r.get<Version>();
  ASSERT_TRUE(v);
  EXPECT_EQ(v->major, 0);
  EXPECT_EQ(v->minor, 0);
  const auto json = r.tail(sizeof(Version));
  ASSERT_FALSE(json.empty());
  ASSERT_EQ(json.back(), 0) << "capabilities must be NUL-terminated";
  const auto j = nlohmann::json::parse(reinterpret_cast<const char*>(json.data()));
  const auto& c = j.at("capabilities");
  EXPECT_EQ(c.at("max_msg_fds"), kMaxMsgFds);
  EXPECT_EQ(c.at("max_data_xfer_size"), kMaxDataXfer);
  EXPECT_EQ(c.at("pgsizes"), 4096);
  EXPECT_EQ(c.at("max_dma_maps"), kMaxDmaMaps);
  EXPECT_EQ(c.at("write_multiple"), true);
  // QEMU's client refuses a reply with a capability it does not know or a
  // migration object the server cannot honour.
  for (const auto& [k, _] : c.items())
    EXPECT_TRUE(k == "max_msg_fds" || k == "max_data_xfer_size" || k == "pgsizes" ||
                k == "max_dma_maps" || k == "write_multiple")
        << k;
}

TEST(VfioUserVersion, WithoutCapabilitiesTheReplyOmitsWriteMultiple) {
  Harness h;
  Message m = Harness::request(kVersion);
  put(m, Version{0, 3});  // a newer minor: the reply answers with ours
  Message r = h.call_ok(std::move(m));
  EXPECT_EQ(r.get<Version>()->minor, 0);
  const auto j =
      nlohmann::json::parse(reinterpret_cast<const char*>(r.tail(sizeof(Version)).data()));
  EXPECT_FALSE(j.at("capabilities").contains("write_multiple"));
}

TEST(VfioUserVersion, CommandsBeforeVersionAreRefused) {
  Harness h;
  Message m = Harness::request(kDeviceGetInfo);
  put(m, DeviceInfo{sizeof(DeviceInfo), 0, 0, 0});
  EXPECT_EQ(h.call_err(std::move(m)), EINVAL);
  h.negotiate();  // the connection is still usable
}

TEST(VfioUserVersion, SecondVersionClosesTheConnection) {
  Harness h;
  h.negotiate();
  Message m = Harness::request(kVersion);
  put(m, Version{0, 0});
  Message r;
  EXPECT_FALSE(h.call(std::move(m), r));
  EXPECT_TRUE(h.closed_by_server());
}

TEST(VfioUserVersion, UnknownMajorClosesTheConnection) {
  Harness h;
  Message m = Harness::request(kVersion);
  put(m, Version{1, 0});
  Message r;
  EXPECT_FALSE(h.call(std::move(m), r));
}

TEST(VfioUserVersion, MalformedCapabilitiesCloseTheConnection) {
  for (const std::string& bad :
       {std::string("{\"capabilities\": 3}"), std::string("not json"),
        std::string("{\"capabilities\":{\"max_msg_fds\":-1}}"),
        std::string("{\"capabilities\":{\"max_data_xfer_size\":\"big\"}}"), std::string("[1,2]"),
        // 400k levels of nesting: the parser and the destructor are
        // iterative, no stack overflow
        "{\"capabilities\":" + std::string(400000, '[') + std::string(400000, ']') + "}"}) {
    Harness h;
    Message m = Harness::request(kVersion);
    put(m, Version{0, 0});
    put_bytes(m, bad.c_str(), bad.size() + 1);
    Message r;
    EXPECT_FALSE(h.call(std::move(m), r)) << bad.substr(0, 40);
  }
  // Not NUL-terminated.
  Harness h;
  Message m = Harness::request(kVersion);
  put(m, Version{0, 0});
  put_bytes(m, "{}", 2);
  Message r;
  EXPECT_FALSE(h.call(std::move(m), r));
}

TEST(VfioUserInfo, DeviceRegionsAndIrqsAsVfioPciNumbersThem) {
  Harness h;
  h.negotiate();
  Message m = Harness::request(kDeviceGetInfo);
  put(m, DeviceInfo{sizeof(DeviceInfo), 0, 0, 0});
  const auto di = h.call_ok(std::move(m)).get<DeviceInfo>();
  ASSERT_TRUE(di);
  EXPECT_EQ(di->flags, uint32_t(VFIO_DEVICE_FLAGS_RESET | VFIO_DEVICE_FLAGS_PCI));
  EXPECT_EQ(di->num_regions, 9u);
  EXPECT_EQ(di->num_irqs, 5u);

  const std::map<uint32_t, uint64_t> sizes = {{VFIO_PCI_BAR0_REGION_INDEX, 256},
                                              {VFIO_PCI_BAR2_REGION_INDEX, 4096},
                                              {VFIO_PCI_CONFIG_REGION_INDEX, 4096}};
  for (uint32_t i = 0; i < 9; i++) {
    Message q = Harness::request(kDeviceGetRegionInfo);
    put(q, RegionInfo{sizeof(RegionInfo), 0, i, 0, 0, 0});
    const auto ri = h.call_ok(std::move(q)).get<RegionInfo>();
    ASSERT_TRUE(ri);
    EXPECT_EQ(ri->index, i);
    const uint64_t want = sizes.count(i) ? sizes.at(i) : 0;
    EXPECT_EQ(ri->size, want) << "region " << i;
    EXPECT_EQ(ri->flags,
              want ? uint32_t(VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE) : 0u);
  }
  Message q = Harness::request(kDeviceGetRegionInfo);
  put(q, RegionInfo{sizeof(RegionInfo), 0, 9, 0, 0, 0});
  EXPECT_EQ(h.call_err(std::move(q)), EINVAL);
  Message small = Harness::request(kDeviceGetRegionInfo);
  put(small, RegionInfo{16, 0, 0, 0, 0, 0});  // argsz below the struct
  EXPECT_EQ(h.call_err(std::move(small)), EINVAL);

  const uint32_t counts[5] = {1, 1, 0, 1, 1};
  for (uint32_t i = 0; i < 5; i++) {
    Message q2 = Harness::request(kDeviceGetIrqInfo);
    put(q2, IrqInfo{sizeof(IrqInfo), 0, i, 0});
    const auto ii = h.call_ok(std::move(q2)).get<IrqInfo>();
    ASSERT_TRUE(ii);
    EXPECT_EQ(ii->count, counts[i]) << "irq index " << i;
    EXPECT_TRUE(ii->flags & VFIO_IRQ_INFO_EVENTFD);
  }
  Message q3 = Harness::request(kDeviceGetIrqInfo);
  put(q3, IrqInfo{sizeof(IrqInfo), 0, 5, 0});
  EXPECT_EQ(h.call_err(std::move(q3)), EINVAL);
}

// The configuration space of every chip carries the identity the model's
// profile table gives it, the BARs the QEMU device has, and the capability
// list [MSI-X ->] PCIe -> MSI -> PM at the profile's offsets.
class VfioUserConfig : public ::testing::TestWithParam<size_t> {};

TEST_P(VfioUserConfig, IdentityBarsAndCapabilitiesFromTheChipProfile) {
  rtl8168_chip_info chip;
  ASSERT_EQ(rtl8168_chip_at(GetParam(), &chip), 0);
  HarnessOptions o;
  o.chip = chip.id;
  Harness h(o);
  h.negotiate();
  const rtl8168_pci_identity& id = chip.pci;
  EXPECT_EQ(h.cfg32(PCI_VENDOR_ID), uint32_t(id.device_id) << 16 | id.vendor_id);
  EXPECT_EQ(h.cfg32(PCI_CLASS_REVISION), 0x02000000u | id.revision);
  EXPECT_EQ(h.cfg32(PCI_SUBSYSTEM_VENDOR_ID),
            uint32_t(id.subsystem_id) << 16 | id.subsystem_vendor_id);
  EXPECT_EQ(h.read_region(VFIO_PCI_CONFIG_REGION_INDEX, PCI_INTERRUPT_PIN, 1), 1u);
  EXPECT_EQ(h.cfg32(PCI_BASE_ADDRESS_0), uint32_t(PCI_BASE_ADDRESS_SPACE_IO));
  EXPECT_EQ(h.cfg32(PCI_BASE_ADDRESS_2), uint32_t(PCI_BASE_ADDRESS_MEM_TYPE_64));
  EXPECT_EQ(h.cfg32(PCI_BASE_ADDRESS_1), 0u);
  // BAR sizing: all-ones reads back the size mask and the type bits.
  h.write_region(VFIO_PCI_CONFIG_REGION_INDEX, PCI_BASE_ADDRESS_0, 4, 0xffffffff);
  EXPECT_EQ(h.cfg32(PCI_BASE_ADDRESS_0),
            ~uint32_t(RTL8168_IO_SIZE - 1) | PCI_BASE_ADDRESS_SPACE_IO);
  h.write_region(VFIO_PCI_CONFIG_REGION_INDEX, PCI_BASE_ADDRESS_2, 4, 0xffffffff);
  EXPECT_EQ(h.cfg32(PCI_BASE_ADDRESS_2), ~(id.mmio_size - 1) | PCI_BASE_ADDRESS_MEM_TYPE_64);
  // Read-only fields stay.
  h.write_region(VFIO_PCI_CONFIG_REGION_INDEX, PCI_VENDOR_ID, 4, 0);
  EXPECT_EQ(h.cfg32(PCI_VENDOR_ID) & 0xffff, id.vendor_id);

  EXPECT_TRUE(h.cfg32(PCI_COMMAND) >> 16 & PCI_STATUS_CAP_LIST);
  std::vector<std::pair<uint8_t, uint8_t>> caps;  // (offset, id)
  for (uint8_t off = uint8_t(h.read_region(VFIO_PCI_CONFIG_REGION_INDEX, PCI_CAPABILITY_LIST, 1));
       off && caps.size() < 8;
       off = uint8_t(h.read_region(VFIO_PCI_CONFIG_REGION_INDEX, off + 1u, 1)))
    caps.emplace_back(off, uint8_t(h.read_region(VFIO_PCI_CONFIG_REGION_INDEX, off, 1)));
  std::vector<std::pair<uint8_t, uint8_t>> want = {{id.pcie_offset, PCI_CAP_ID_EXP},
                                                   {id.msi_offset, PCI_CAP_ID_MSI},
                                                   {id.pm_offset, PCI_CAP_ID_PM}};
  if (id.msix_vectors) want.insert(want.begin(), {id.msix_offset, PCI_CAP_ID_MSIX});
  EXPECT_EQ(caps, want);
  // MSI-X (profiles with it): the table size, the table and the PBA in the
  // profile's BAR, Enable and Function Mask writable, the BAR 64-bit.
  const uint32_t bar_reg = PCI_BASE_ADDRESS_0 + 4u * id.msix_bar;
  if (id.msix_vectors) {
    const uint64_t flags = id.msix_offset + PCI_MSIX_FLAGS;
    EXPECT_EQ(h.read_region(VFIO_PCI_CONFIG_REGION_INDEX, flags, 2), id.msix_vectors - 1u);
    EXPECT_EQ(h.cfg32(id.msix_offset + PCI_MSIX_TABLE), id.msix_table_offset | id.msix_bar);
    EXPECT_EQ(h.cfg32(id.msix_offset + PCI_MSIX_PBA), id.msix_pba_offset | id.msix_bar);
    h.write_region(VFIO_PCI_CONFIG_REGION_INDEX, flags, 2, 0xffff);
    EXPECT_EQ(h.read_region(VFIO_PCI_CONFIG_REGION_INDEX, flags, 2),
              PCI_MSIX_FLAGS_ENABLE | PCI_MSIX_FLAGS_MASKALL | (id.msix_vectors - 1u));
    EXPECT_EQ(h.cfg32(bar_reg), uint32_t(PCI_BASE_ADDRESS_MEM_TYPE_64));
    h.write_region(VFIO_PCI_CONFIG_REGION_INDEX, bar_reg, 4, 0xffffffff);
    EXPECT_EQ(h.cfg32(bar_reg), ~(id.msix_bar_size - 1) | PCI_BASE_ADDRESS_MEM_TYPE_64);
  } else {
    h.write_region(VFIO_PCI_CONFIG_REGION_INDEX, PCI_BASE_ADDRESS_4, 4, 0xffffffff);
    EXPECT_EQ(h.cfg32(PCI_BASE_ADDRESS_4), 0u) << "no BAR 4";
  }
  // MSI: one vector, 64-bit; PCIe: an endpoint, the profile's latencies.
  EXPECT_EQ(h.read_region(VFIO_PCI_CONFIG_REGION_INDEX, id.msi_offset + PCI_MSI_FLAGS, 2),
            uint64_t(PCI_MSI_FLAGS_64BIT));
  EXPECT_EQ(
      h.read_region(VFIO_PCI_CONFIG_REGION_INDEX, id.pcie_offset + PCI_EXP_FLAGS, 2) >> 4 & 0xf,
      uint64_t(PCI_EXP_TYPE_ENDPOINT));
  EXPECT_EQ(h.cfg32(id.pcie_offset + PCI_EXP_DEVCAP) & id.pcie_devcap_set, id.pcie_devcap_set);
  if (id.pcie_lnkcap_set) {
    EXPECT_EQ(
        h.cfg32(id.pcie_offset + PCI_EXP_LNKCAP) &
            (PCI_EXP_LNKCAP_ASPMS | PCI_EXP_LNKCAP_L0SEL | PCI_EXP_LNKCAP_L1EL),
        id.pcie_lnkcap_set & (PCI_EXP_LNKCAP_ASPMS | PCI_EXP_LNKCAP_L0SEL | PCI_EXP_LNKCAP_L1EL));
  }
  // The regions behind the BARs are the sizes the BARs decode.
  auto region_size = [&](uint32_t index) {
    Message q = Harness::request(kDeviceGetRegionInfo);
    put(q, RegionInfo{sizeof(RegionInfo), 0, index, 0, 0, 0});
    return h.call_ok(std::move(q)).get<RegionInfo>()->size;
  };
  EXPECT_EQ(region_size(VFIO_PCI_BAR2_REGION_INDEX), id.mmio_size);
  if (id.msix_vectors)
    EXPECT_EQ(region_size(VFIO_PCI_BAR0_REGION_INDEX + id.msix_bar), id.msix_bar_size);
  else
    EXPECT_EQ(region_size(VFIO_PCI_BAR4_REGION_INDEX), 0u);
  // The whole space in one read (QEMU's vfio_pci_config_setup does this).
  Message all = Harness::request(kRegionRead);
  put(all, RegionAccess{0, VFIO_PCI_CONFIG_REGION_INDEX, 4096});
  EXPECT_EQ(h.call_ok(std::move(all)).tail(sizeof(RegionAccess)).size(), 4096u);
}

INSTANTIATE_TEST_SUITE_P(EveryChip, VfioUserConfig,
                         ::testing::Range<size_t>(0, rtl8168_chip_count()));

}  // namespace
}  // namespace vfio_user_test
