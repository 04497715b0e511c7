// SPDX-License-Identifier: GPL-2.0-or-later
// The function's PCI configuration space (4 KiB, PCI Express), built from the
// chip profile's identity (rtl8168_config_pci_identity, the description the
// QEMU shim builds its function from): IDs, revision, class, the I/O BAR0,
// the 64-bit memory BAR2 of the profile's size, the 64-bit MSI-X BAR of the
// profiles with MSI-X, INTA#, and the capability list the shim gets from
// QEMU's helpers in the same order ([MSI-X ->] PCI Express -> MSI -> PM:
// QEMU's pci_add_capability links each new one at the head). Every byte has a
// write mask and a write-1-to-clear mask like QEMU's PCIDevice, so BAR sizing,
// the command register and the capabilities' control fields behave as on
// the bus.
#pragma once

#include <rtl8168/rtl8168.h>

#include <array>
#include <cstdint>

namespace vfio_user {

inline constexpr uint32_t kConfigSize = 4096;

class ConfigSpace {
 public:
  // pme: advertise PME# from D0 and D3hot (the shim's x-pme=on).
  ConfigSpace(const rtl8168_pci_identity& id, bool pme);

  // Bytes [off, off+len) (the caller checked the range).
  void read(uint32_t off, uint8_t* out, uint32_t len) const;
  // Apply a write through the masks (the caller checked the range).
  void write(uint32_t off, const uint8_t* data, uint32_t len);

  bool bus_master() const;
  bool intx_disabled() const;
  bool msi_enabled() const;
  // MSI-X Message Control's Function Mask (false without MSI-X).
  bool msix_function_masked() const;
  // Whether [off, off+len) touches MSI-X Message Control.
  bool msix_control_in(uint32_t off, uint32_t len) const;
  // Whether config writes go to the model too (profiles that model ASPM L1).
  bool forward_to_model() const { return forward_; }

  uint8_t byte(uint32_t off) const { return cfg_[off]; }
  uint16_t word(uint32_t off) const;
  uint32_t dword(uint32_t off) const;

 private:
  void set8(uint32_t off, uint8_t v, uint8_t wmask = 0, uint8_t w1c = 0);
  void set16(uint32_t off, uint16_t v, uint16_t wmask = 0, uint16_t w1c = 0);
  void set32(uint32_t off, uint32_t v, uint32_t wmask = 0, uint32_t w1c = 0);
  void add_pm(uint8_t off, uint8_t next, bool pme);
  void add_msi(uint8_t off, uint8_t next);
  void add_pcie(uint8_t off, uint8_t next, const rtl8168_pci_identity& id);
  void add_msix(uint8_t off, uint8_t next, const rtl8168_pci_identity& id);
  void add_mem64_bar(unsigned bar, uint32_t size);

  std::array<uint8_t, kConfigSize> cfg_{}, wmask_{}, w1c_{};
  uint8_t msi_ = 0, msix_ = 0;
  bool forward_ = false;
};

}  // namespace vfio_user
