// SPDX-License-Identifier: GPL-2.0-or-later
// The chip's PCI Express link power state: ASPM L1, for profiles whose
// capability advertises it (PciIdentity::aspm.l1, the 8168h). Other
// profiles' links never leave L0 and every call here returns at once.
//
// Who decides what (PCIe Base 5.4.1; Linux drivers/pci/pcie/aspm.c; r8169):
//   - The OS enables L1 in Link Control (ASPM Control, bit 1) of both ends of
//     the link. Linux does so by policy or by keeping what the firmware set,
//     only where both ends advertise L1 and the exit latency is within the
//     endpoint's acceptable latency; r8169 asks it to take L1 away again
//     (pci_disable_link_state(PCIE_LINK_STATE_L1)) unless rtl_aspm_is_safe.
//     The host forwards every config write (rtl8168_pci_config_write).
//   - The driver lets the chip initiate L1: Config5 ASPM_en (bit 0), set by
//     rtl_hw_aspm_clkreq_enable(tp, true) when the OS left ASPM manageable.
//   - The chip initiates L1 once the link has carried no TLP for the L1
//     entrance latency, which the driver programs in configuration byte
//     0x70f bits 5:3 (r8169 rtl_set_aspm_entry_latency: 0 = 1 us, 1 = 2 us
//     ... 6 and 7 = 64 us), natively or through CSI dword 0x70c bits 31:24
//     without extended config access. Power-on value 0x27 (16 us), the one
//     r8169 calls the default (rtl_set_def_aspm_entry_latency).
//   - Any TLP ends L1: a host access (the root port wakes the link first; on
//     hardware the access waits for it, the model cannot hold a synchronous
//     register access and does not), or the chip's own DMA or interrupt
//     message, whose first TLP waits `aspm-l1-exit-time`. Completions of the
//     chip's outstanding reads keep the link busy (no entry meanwhile).
// L0s is not modelled: the part's L0s exit latency is beyond any acceptable
// latency, so Linux never enables L0s on it (profile.cc).
#pragma once

#include <cstdint>
#include <span>

#include "events.h"
#include "state_io.h"

namespace rtl8168sim {

class Device;

class PcieLink {
 public:
  static std::span<const EventSpec> events();
  static constexpr uint8_t kEntryLatencyReset = 0x27;
  static constexpr uint16_t kEntryLatencyOffset = 0x70f;  // config space byte
  static constexpr uint16_t kCsiEntryLatencyDword = 0x70c;
  static constexpr uint8_t kLnkctlAspmL1 = 0x02;
  // The longest entrance latency (code 6 or 7).
  static constexpr Time kMaxEntryLatency = 64'000;

  // `modelled`: the profile has ASPM L1 (fixed for the device's life).
  PcieLink(Device& d, bool modelled) : d_(d), modelled_(modelled) {}
  bool modelled() const { return modelled_; }  // the profile has ASPM L1
  void power_on();                 // L0, ASPM Control 0, entrance latency 0x27
  // A configuration write as the guest made it (after the host applied it):
  // Link Control's ASPM Control and the entrance latency byte. A config
  // write is a TLP too.
  void config_write(uint32_t addr, uint32_t value, unsigned len);
  // CSI wrote the shadow dword at 0x70c (side_bus.cc): bits 31:24.
  void csi_entry_latency(uint8_t value);
  // A register access from the host reached the chip: true when it found the
  // link in L1 (and woke it). Without ASPM in the profile, nothing to do (in
  // line: every register access asks).
  bool host_access() { return modelled_ && tlp_from_host(); }
  // The chip is about to send a DMA request or write: the delay before its
  // first TLP can go (what is left of an L1 exit), 0 in L0 (and without ASPM
  // in the profile: every DMA asks).
  Time chip_dma() { return modelled_ ? tlp_from_chip() : 0; }
  // The chip sends an interrupt message (MSI write / INTx message): wakes the
  // link like a DMA; the model delivers the interrupt at once.
  void chip_message() { (void)chip_dma(); }
  bool in_l1() const { return l1_; }
  uint8_t aspm_control() const { return aspm_ctl_; }
  uint8_t entry_latency_byte() const { return entry_latency_; }
  Time entry_latency() const;      // decoded, ns
  void on_idle_timer();            // EventKind::AspmIdle

  void visit(Archive& a);
  const char* check(Time now) const;  // nullptr when the loaded state is consistent

 private:
  bool tlp_from_host();  // host_access() of a modelled link
  Time tlp_from_chip();  // chip_dma() of a modelled link
  bool l1_allowed() const;
  bool dma_outstanding() const;
  void arm();
  void wake(Time exit_time);
  Device& d_;
  const bool modelled_;
  uint8_t aspm_ctl_ = 0;                      // Link Control 1:0 as last written
  uint8_t entry_latency_ = kEntryLatencyReset;
  bool l1_ = false;
  Time exit_until_ = 0;  // an L1 exit in progress: the chip's TLPs wait until then
  Time last_tlp_ = 0;    // the link's last TLP (either direction)
};

}  // namespace rtl8168sim
