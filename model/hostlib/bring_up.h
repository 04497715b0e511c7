// SPDX-License-Identifier: GPL-2.0-or-later
// r8169's open sequence (rtl_init_one + rtl_open + phy_start; docs/R8169.md
// §A) for the model's driver-like C API clients: the bench's scripted driver
// (model/bench/sim_driver.cc) and the fuzz target's bring-up op
// (model/fuzz/fuzz_target.cc op_bring_up, whose fields the seed generator
// writes through fuzz_input.h BringUp).
//
// What is written is an OpenSpec (values); in which order is a list of Steps,
// because the callers' orders differ and each must keep the register traffic
// (and so the model's trace) it always had: kBenchOrder follows rtl_open
// (rings while Cfg9346 is unlocked, then enable, RxConfig, TxConfig, ...,
// then restart autonegotiation and wait for LinkChg), kFuzzOrder is the fuzz
// target's (MAC address under Cfg9346, rings, RxMaxSize/CPlusCmd, enable,
// TxConfig before RxConfig, poll PHYstatus). A caller leaves a step out by
// leaving it out of the list.
//
// The host is reached through a RegBus: register accesses at the host's
// `now`, the host's way of letting virtual time pass while polling, and the
// driver's guest-memory ring set-up.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "driver_regs.h"
#include "rtl8168/rtl8168.h"

namespace rtl8168_host {

class RegBus {
 public:
  virtual ~RegBus() = default;
  virtual uint64_t read(uint32_t off, unsigned size) = 0;
  virtual void write(uint32_t off, uint64_t value, unsigned size) = 0;
  // One step of virtual time between two polls (ChipCmd reset, PHYstatus).
  virtual void poll_wait() = 0;
  // The host's clock and "run the timer if it is due by t, else move to t"
  // (the LinkChg wait is bounded in virtual time, not in polls).
  virtual uint64_t now() const = 0;
  virtual void step_until(uint64_t t) = 0;
  // Step::Rings: write the descriptor rings into guest memory.
  virtual void init_rings() = 0;
  // Step::WaitLink with LinkWait::LinkChg: the LinkChg the driver just acked.
  virtual void link_acked() {}
};

enum class Step : uint8_t {
  MaskAndAck,  // IntrMask 0, IntrStatus 0xffff (rtl_irq_disable, rtl_ack_events)
  ChipReset,   // ChipCmd CmdReset, poll until it self-clears (rtl_hw_reset)
  Unlock,      // Cfg9346 unlock
  MacAddress,  // MAC4 then MAC0, 32-bit (rtl_rar_set; inside Unlock .. Lock)
  Lock,        // Cfg9346 lock
  CPlusCmd,
  IntrMitigate,
  RxMaxSize,
  TxRing,   // TxDescHigh then TxDescLow (rtl_set_rx_tx_desc_registers)
  TxHRing,  // TxHDescHigh then TxHDescLow
  RxRing,   // RxDescHigh then RxDescLow
  Rings,    // RegBus::init_rings (guest memory; no register access)
  Enable,   // ChipCmd TxEnb | RxEnb
  RxConfig,
  TxConfig,
  Multicast,  // MAR4 then MAR0
  IntrMask,
  Autoneg,   // PHYAR write of BMCR (phy_start: autonegotiation restart)
  WaitLink,  // see LinkWait
};

enum class LinkWait : uint8_t {
  PhyStatus,  // poll PHYstatus LinkStatus, link_polls times at most (RegBus::poll_wait between)
  LinkChg,    // step time until IntrStatus shows LinkChg (link_timeout), ack it, read PHYstatus
};

// A chip's ports as the model's chip list gives them (rtl8168_chip_at).
inline rtl8168_driver::ChipPorts chip_ports(const rtl8168_chip_info& c) {
  rtl8168_driver::ChipPorts p;
  p.intr_status = c.intr_status;
  p.intr_mask = c.intr_mask;
  p.intr_width = c.intr_width;
  p.doorbell = c.doorbell;
  p.doorbell_width = c.doorbell_width;
  p.doorbell_bits[0] = c.doorbell_bits[0];
  p.doorbell_bits[1] = c.doorbell_bits[1];
  p.tx_ring_base[0] = c.tx_ring_base[0];
  p.tx_ring_base[1] = c.tx_ring_base[1];
  p.queue_irqs = c.queue_irqs;
  return p;
}

struct OpenSpec {
  rtl8168_driver::ChipPorts ports{};  // the chip's interrupt registers (rtl8168_chip_info)
  unsigned reset_polls = 100;  // ChipCmd reads while CmdReset stays set
  std::array<uint8_t, 6> mac{};
  uint16_t cplus = rtl8168_driver::kRxVlan | rtl8168_driver::kRxChkSum;
  uint16_t mitigate = 0;
  uint16_t rx_max_size = 0x4000;  // rtl_set_rx_max_size: 16 KiB
  uint64_t tx_ring = 0, txh_ring = 0, rx_ring = 0;
  uint32_t rx_config = 0, tx_config = 0;
  uint32_t mar = 0xffffffffu;  // both MAR words (all ones: every multicast group)
  uint16_t irq_mask = 0;
  uint16_t bmcr = rtl8168_driver::kBmcrAnEnable | rtl8168_driver::kBmcrAnRestart |
                  rtl8168_driver::kBmcrFullDplx | rtl8168_driver::kBmcrSpeed1000;
  LinkWait link_wait = LinkWait::LinkChg;
  unsigned link_polls = 16;                     // LinkWait::PhyStatus
  uint64_t link_timeout_ns = 5'000'000'000ull;  // LinkWait::LinkChg
};

// The bench's order (model/bench/sim_driver.cc) and the fuzz target's.
inline constexpr Step kBenchOrder[] = {
    Step::MaskAndAck, Step::ChipReset, Step::Unlock,   Step::CPlusCmd,  Step::IntrMitigate,
    Step::RxMaxSize,  Step::TxRing,    Step::RxRing,   Step::Lock,      Step::Rings,
    Step::Enable,     Step::RxConfig,  Step::TxConfig, Step::Multicast, Step::IntrMask,
    Step::Autoneg,    Step::WaitLink};
inline constexpr Step kFuzzOrder[] = {
    Step::ChipReset, Step::Unlock,  Step::MacAddress, Step::Lock,     Step::IntrMitigate,
    Step::Rings,     Step::TxRing,  Step::TxHRing,    Step::RxRing,   Step::RxMaxSize,
    Step::CPlusCmd,  Step::Enable,  Step::TxConfig,   Step::RxConfig, Step::Multicast,
    Step::IntrMask,  Step::WaitLink};

// TxConfig and RxConfig as r8169 writes them: IFG 96 bit times and MXDMA;
// RxConfig `extra` bits (the 8168's RX128_INT_EN | RX_MULTI_EN), MXDMA and
// the accept bits.
constexpr uint32_t tx_config(unsigned mxdma) {
  return rtl8168_driver::kTxIfg96 | (mxdma & 7u) << rtl8168_driver::kTxDmaShift;
}
constexpr uint32_t rx_config(uint32_t extra, unsigned mxdma, uint32_t accept) {
  return extra | (mxdma & 7u) << rtl8168_driver::kRxDmaShift | accept;
}

// Runs `order` with `spec` on `bus`. Returns the link state the wait saw
// (false without a WaitLink step).
bool bring_up(RegBus& bus, const OpenSpec& spec, std::span<const Step> order);

}  // namespace rtl8168_host
