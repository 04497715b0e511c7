// SPDX-License-Identifier: GPL-2.0-or-later
// chips: every chip profile the model knows (rtl8168_chip_at), as text or
// JSON. The one source of chip identity for everything outside the model:
// the qtest's and the scenarios' expected XID/PHY ID, scripts/fuzz, the
// CMake lists of per-chip tests (docs/ARCHITECTURE.md "Adding a chip").
#include <rtl8168/rtl8168.h>

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli.h"
#include "commands.h"

namespace po = boost::program_options;

namespace bench {

namespace {
std::string hex(uint32_t v, int digits) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%0*x", digits, v);
  return b;
}
}  // namespace

int cmd_chips(int argc, char** argv) {
  po::options_description opts("rtl8168-bench chips: the chip profiles the model knows\nOptions");
  opts.add_options()("help,h", "this text")("json", "a JSON array, one object per chip")(
      "ids", "the chip ids only, one per line");
  po::variables_map vm;
  if (const int rc = parse_cli("chips", argc, argv, opts, vm); rc >= 0) return rc;
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  rtl8168_chip_info c;
  for (size_t i = 0; rtl8168_chip_at(i, &c) == 0; i++) {
    if (vm.count("ids")) {
      std::cout << c.id << "\n";
      continue;
    }
    nlohmann::ordered_json paths = nlohmann::ordered_json::array();
    if (c.phy_paths & RTL8168_PHY_PATH_PHYAR) paths.push_back("PHYAR");
    if (c.phy_paths & RTL8168_PHY_PATH_GPHY_OCP) paths.push_back("GPHY_OCP");
    nlohmann::ordered_json j = {
        {"id", c.id},
        {"name", c.name},
        {"r8169_version", c.r8169_version},
        {"firmware", c.firmware},
        {"xid", hex(c.xid, 3)},
        {"txconfig_reset", hex(c.txconfig_reset, 8)},
        {"phy_id", hex(c.phy_id, 8)},
        {"phy_paths", paths},
        {"mac_ocp", c.mac_ocp},
        {"side_buses", c.side_buses},
        {"reg_window", c.reg_window},
        {"max_frame", c.max_frame},
        {"tx_queues", c.tx_queues},
        {"rx_queues", c.rx_queues},
        {"link_mbps", c.link_mbps},
        {"intr_status", hex(c.intr_status, 2)},
        {"intr_mask", hex(c.intr_mask, 2)},
        {"intr_width", c.intr_width},
        {"pci",
         {{"vendor_id", hex(c.pci.vendor_id, 4)},
          {"device_id", hex(c.pci.device_id, 4)},
          {"subsystem_vendor_id", hex(c.pci.subsystem_vendor_id, 4)},
          {"subsystem_id", hex(c.pci.subsystem_id, 4)},
          {"revision", hex(c.pci.revision, 2)}}}};
    if (vm.count("json")) {
      all.push_back(j);
    } else {
      std::cout << c.id << ": " << c.name << ", " << c.r8169_version << ", XID " << hex(c.xid, 3)
                << ", PHY " << hex(c.phy_id, 8) << ", PCI rev " << hex(c.pci.revision, 2)
                << (*c.firmware ? std::string(", firmware ") + c.firmware : std::string()) << "\n";
    }
  }
  if (vm.count("json")) std::cout << all.dump(2) << "\n";
  return 0;
}

}  // namespace bench
