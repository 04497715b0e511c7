// SPDX-License-Identifier: GPL-2.0-or-later
#include "bring_up.h"

namespace rtl8168_host {

using namespace rtl8168_driver;

namespace {

void write_ring(RegBus& bus, uint32_t low, uint32_t high, uint64_t base) {
  bus.write(high, static_cast<uint32_t>(base >> 32), 4);
  bus.write(low, static_cast<uint32_t>(base), 4);
}

bool wait_link(RegBus& bus, const OpenSpec& s) {
  if (s.link_wait == LinkWait::PhyStatus) {
    for (unsigned i = 0; i < s.link_polls; i++) {
      if (bus.read(kPHYstatus, 1) & kLinkStatus) return true;
      bus.poll_wait();
    }
    return false;
  }
  // phy_start -> the PHY's link-up interrupt (LinkChg): ack it, then read
  // the link from PHYstatus as rtl8169_link_change does.
  const uint64_t until = bus.now() + s.link_timeout_ns;
  while (bus.now() < until) {
    bus.step_until(until);
    const ChipPorts& p = s.ports;
    if (bus.read(p.intr_status, p.intr_width) & kLinkChg) {
      bus.write(p.intr_status, kLinkChg, p.intr_width);
      bus.link_acked();
      return (bus.read(kPHYstatus, 1) & kLinkStatus) != 0;
    }
  }
  return false;
}

}  // namespace

bool bring_up(RegBus& bus, const OpenSpec& s, std::span<const Step> order) {
  bool link = false;
  for (const Step step : order) {
    switch (step) {
      case Step::MaskAndAck:
        bus.write(s.ports.intr_mask, 0, s.ports.intr_width);
        bus.write(s.ports.intr_status, s.ports.intr_width == 4 ? 0xffffffffu : 0xffffu, s.ports.intr_width);
        break;
      case Step::ChipReset:
        bus.write(kChipCmd, kCmdReset, 1);
        for (unsigned i = 0; i < s.reset_polls && (bus.read(kChipCmd, 1) & kCmdReset); i++) {
          bus.poll_wait();
        }
        break;
      case Step::Unlock:
        bus.write(kCfg9346, kCfg9346Unlock, 1);
        break;
      case Step::MacAddress:
        bus.write(kMAC4, static_cast<uint32_t>(s.mac[4] | s.mac[5] << 8), 4);
        bus.write(kMAC0,
                  static_cast<uint32_t>(s.mac[0] | s.mac[1] << 8 | s.mac[2] << 16) |
                      static_cast<uint32_t>(s.mac[3]) << 24,
                  4);
        break;
      case Step::Lock:
        bus.write(kCfg9346, kCfg9346Lock, 1);
        break;
      case Step::CPlusCmd:
        bus.write(kCPlusCmd, s.cplus, 2);
        break;
      case Step::IntrMitigate:
        bus.write(kIntrMitigate, s.mitigate, 2);
        break;
      case Step::RxMaxSize:
        bus.write(kRxMaxSize, s.rx_max_size, 2);
        break;
      case Step::TxRing:
        write_ring(bus, s.ports.tx_ring_base[0], s.ports.tx_ring_base[0] + 4, s.tx_ring);
        break;
      case Step::TxHRing:
        write_ring(bus, s.ports.tx_ring_base[1], s.ports.tx_ring_base[1] + 4, s.txh_ring);
        break;
      case Step::RxRing:
        write_ring(bus, kRxDescLow, kRxDescHigh, s.rx_ring);
        break;
      case Step::Rings:
        bus.init_rings();
        break;
      case Step::Enable:
        bus.write(kChipCmd, kCmdTxEnb | kCmdRxEnb, 1);
        break;
      case Step::RxConfig:
        bus.write(kRxConfig, s.rx_config, 4);
        break;
      case Step::TxConfig:
        bus.write(kTxConfig, s.tx_config, 4);
        break;
      case Step::Multicast:
        bus.write(kMAR4, s.mar, 4);
        bus.write(kMAR0, s.mar, 4);
        break;
      case Step::IntrMask:
        bus.write(s.ports.intr_mask, s.irq_mask, s.ports.intr_width);
        break;
      case Step::Autoneg:
        bus.write(kPHYAR, kPhyarFlag | kMiiBmcr << kPhyarRegShift | s.bmcr, 4);
        break;
      case Step::WaitLink:
        link = wait_link(bus, s);
        break;
    }
  }
  return link;
}

}  // namespace rtl8168_host
