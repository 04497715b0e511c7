// SPDX-License-Identifier: GPL-2.0-or-later
#include "profile.h"

namespace rtl8168sim {
namespace {

// RTL8168c/8111c: r8169 RTL_GIGA_MAC_VER_22 (XID 0x3c4, mask 0x7c8), PHY
// RTL8211B (realtek.c), jumbo up to 6 KiB (r8169 rtl_jumbo_max), v2 TX
// descriptors, MSI, no firmware. Timing defaults: see docs/TIMING.md for
// where each value comes from.
constexpr ChipProfile k8168c{
    .id = "8168c",
    .name = "RTL8168c/8111c",
    .txconfig_reset = 0x3c400000,
    .phy_id1 = 0x001c,
    .phy_id2 = 0xc912,
    .max_frame = 6 * 1024,
    .quirks = {.lossy_txpoll = true},
    .timing =
        {
            .pcie_read_latency = 2900,
            .pcie_bandwidth = 250,
            .pcie_completion_size = 64,
            .pcie_tlp_overhead = 20,
            .pcie_mrrs = 4096,
            .tx_fifo_size = 8192,
            .rx_fifo_size = 8192,
            .phy_an_time = 500'000'000,
            .phy_reset_time = 1'000'000,
            .phyar_time = 25'600,
            .chip_reset_time = 10'000,
            .dtccr_time = 2'000,
            .txpoll_ack_time = 90,
            .timer_clock_mhz = 125,
        },
};

constexpr const ChipProfile* kProfiles[] = {&k8168c};

}  // namespace

const ChipProfile* find_profile(std::string_view id) {
  for (const ChipProfile* p : kProfiles) {
    if (p->id == id) return p;
  }
  return nullptr;
}

std::string_view profile_ids() { return "8168c"; }

}  // namespace rtl8168sim
