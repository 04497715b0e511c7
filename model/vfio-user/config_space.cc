// SPDX-License-Identifier: GPL-2.0-or-later
#include "config_space.h"

#include <linux/pci_regs.h>

#include <cstring>

namespace vfio_user {

namespace {
constexpr uint8_t kBar0 = PCI_BASE_ADDRESS_0;
}  // namespace

void ConfigSpace::set8(uint32_t off, uint8_t v, uint8_t wmask, uint8_t w1c) {
  cfg_[off] = v;
  wmask_[off] = wmask;
  w1c_[off] = w1c;
}
void ConfigSpace::set16(uint32_t off, uint16_t v, uint16_t wmask, uint16_t w1c) {
  for (unsigned i = 0; i < 2; i++)
    set8(off + i, uint8_t(v >> (8 * i)), uint8_t(wmask >> (8 * i)), uint8_t(w1c >> (8 * i)));
}
void ConfigSpace::set32(uint32_t off, uint32_t v, uint32_t wmask, uint32_t w1c) {
  for (unsigned i = 0; i < 4; i++)
    set8(off + i, uint8_t(v >> (8 * i)), uint8_t(wmask >> (8 * i)), uint8_t(w1c >> (8 * i)));
}

uint16_t ConfigSpace::word(uint32_t off) const { return uint16_t(cfg_[off] | cfg_[off + 1] << 8); }
uint32_t ConfigSpace::dword(uint32_t off) const {
  return uint32_t(word(off)) | uint32_t(word(off + 2)) << 16;
}

ConfigSpace::ConfigSpace(const rtl8168_pci_identity& id, bool pme) {
  set16(PCI_VENDOR_ID, id.vendor_id);
  set16(PCI_DEVICE_ID, id.device_id);
  // Command: I/O, memory, bus master, parity, SERR#, INTx disable (QEMU's
  // pci_init_cmd_mask + INTx disable; no VGA snoop or MWI).
  set16(PCI_COMMAND, 0,
        PCI_COMMAND_IO | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER | PCI_COMMAND_PARITY |
            PCI_COMMAND_SERR | PCI_COMMAND_INTX_DISABLE);
  // Status: capability list; the error bits are write-1-to-clear.
  set16(PCI_STATUS, PCI_STATUS_CAP_LIST, 0,
        PCI_STATUS_PARITY | PCI_STATUS_SIG_TARGET_ABORT | PCI_STATUS_REC_TARGET_ABORT |
            PCI_STATUS_REC_MASTER_ABORT | PCI_STATUS_SIG_SYSTEM_ERROR | PCI_STATUS_DETECTED_PARITY);
  set8(PCI_REVISION_ID, id.revision);
  set8(PCI_CLASS_PROG, 0x00);
  set16(PCI_CLASS_DEVICE, 0x0200);  // network controller, Ethernet
  set8(PCI_CACHE_LINE_SIZE, 0, 0xff);
  set8(PCI_LATENCY_TIMER, 0, 0xff);
  // BAR0: I/O, RTL8168_IO_SIZE bytes. BAR2/3: 64-bit memory, the profile's
  // register window (4 KiB on the 8168s, 64 KiB on the RTL8125).
  set32(kBar0, PCI_BASE_ADDRESS_SPACE_IO, ~uint32_t{RTL8168_IO_SIZE - 1} & ~0x3u);
  add_mem64_bar(2, id.mmio_size);
  set16(PCI_SUBSYSTEM_VENDOR_ID, id.subsystem_vendor_id);
  set16(PCI_SUBSYSTEM_ID, id.subsystem_id);
  set8(PCI_INTERRUPT_LINE, 0, 0xff);
  set8(PCI_INTERRUPT_PIN, 1);  // INTA#

  // The list, as QEMU links the shim's: MSI-X (the shim adds it last), then
  // PCIe, MSI, PM.
  set8(PCI_CAPABILITY_LIST, id.msix_vectors ? id.msix_offset : id.pcie_offset);
  if (id.msix_vectors) {
    add_mem64_bar(id.msix_bar, id.msix_bar_size);
    add_msix(id.msix_offset, id.pcie_offset, id);
    msix_ = id.msix_offset;
  }
  add_pcie(id.pcie_offset, id.msi_offset, id);
  add_msi(id.msi_offset, id.pm_offset);
  add_pm(id.pm_offset, 0, pme);
  msi_ = id.msi_offset;

  forward_ = id.aspm_control_writable;
  // The ASPM entrance latency byte r8169 writes through config space
  // (rtl_set_aspm_entry_latency), at the model's offset and power-on value.
  if (forward_) set8(id.aspm_entry_latency_offset, id.aspm_entry_latency_reset, 0xff);
}

// A 64-bit memory BAR of `size` bytes (a power of two) in BARs bar, bar + 1.
void ConfigSpace::add_mem64_bar(unsigned bar, uint32_t size) {
  const uint32_t off = PCI_BASE_ADDRESS_0 + 4 * bar;
  set32(off, PCI_BASE_ADDRESS_SPACE_MEMORY | PCI_BASE_ADDRESS_MEM_TYPE_64, ~(size - 1) & ~0xfu);
  set32(off + 4, 0, 0xffffffffu);
}

// MSI-X as the shim's msix_init makes it: Table Size N-1 read-only, MSI-X
// Enable and Function Mask writable, the table and the PBA in the profile's
// BAR at its offsets (BIR in bits 2:0).
void ConfigSpace::add_msix(uint8_t off, uint8_t next, const rtl8168_pci_identity& id) {
  set8(off + PCI_CAP_LIST_ID, PCI_CAP_ID_MSIX);
  set8(off + PCI_CAP_LIST_NEXT, next);
  set16(off + PCI_MSIX_FLAGS, uint16_t(id.msix_vectors - 1),
        PCI_MSIX_FLAGS_ENABLE | PCI_MSIX_FLAGS_MASKALL);
  set32(off + PCI_MSIX_TABLE, id.msix_table_offset | id.msix_bar);
  set32(off + PCI_MSIX_PBA, id.msix_pba_offset | id.msix_bar);
}

// PCI PM 1.1 (the shim's rtl8168_add_pm_capability): PME# from D0/D3hot only
// with pme; PowerState writable; PME_Status write-1-to-clear.
void ConfigSpace::add_pm(uint8_t off, uint8_t next, bool pme) {
  set8(off + PCI_CAP_LIST_ID, PCI_CAP_ID_PM);
  set8(off + PCI_CAP_LIST_NEXT, next);
  set16(off + PCI_PM_PMC, uint16_t(3 | (pme ? PCI_PM_CAP_PME_D0 | PCI_PM_CAP_PME_D3hot : 0)));
  set16(off + PCI_PM_CTRL, 0, uint16_t(PCI_PM_CTRL_STATE_MASK | (pme ? PCI_PM_CTRL_PME_ENABLE : 0)),
        pme ? PCI_PM_CTRL_PME_STATUS : 0);
}

// MSI: one vector, 64-bit address, no per-vector masking (msi_init(.., 1,
// true, false) in the shim).
void ConfigSpace::add_msi(uint8_t off, uint8_t next) {
  set8(off + PCI_CAP_LIST_ID, PCI_CAP_ID_MSI);
  set8(off + PCI_CAP_LIST_NEXT, next);
  set16(off + PCI_MSI_FLAGS, PCI_MSI_FLAGS_64BIT, PCI_MSI_FLAGS_QSIZE | PCI_MSI_FLAGS_ENABLE);
  set32(off + PCI_MSI_ADDRESS_LO, 0, 0xfffffffcu);
  set32(off + PCI_MSI_ADDRESS_HI, 0, 0xffffffffu);
  set16(off + PCI_MSI_DATA_64, 0, 0xffff);
}

// PCI Express v2 endpoint as QEMU's pcie_endpoint_cap_init fills it
// (pcie_cap_init + pcie_cap_v1_fill: RBER, x1 at 2.5 GT/s, L0s support,
// DEVCAP2 extended fmt + end-end TLP prefix), then the profile's latencies
// and ASPM support (the shim's rtl8168_apply_pcie_aspm).
void ConfigSpace::add_pcie(uint8_t off, uint8_t next, const rtl8168_pci_identity& id) {
  set8(off + PCI_CAP_LIST_ID, PCI_CAP_ID_EXP);
  set8(off + PCI_CAP_LIST_NEXT, next);
  set16(off + PCI_EXP_FLAGS, 2 | (PCI_EXP_TYPE_ENDPOINT << 4));
  set32(off + PCI_EXP_DEVCAP, PCI_EXP_DEVCAP_RBER | id.pcie_devcap_set);
  set16(off + PCI_EXP_DEVCTL, PCI_EXP_DEVCTL_READRQ_512B,
        PCI_EXP_DEVCTL_CERE | PCI_EXP_DEVCTL_NFERE | PCI_EXP_DEVCTL_FERE | PCI_EXP_DEVCTL_URRE |
            PCI_EXP_DEVCTL_RELAX_EN | PCI_EXP_DEVCTL_PAYLOAD | PCI_EXP_DEVCTL_EXT_TAG |
            PCI_EXP_DEVCTL_NOSNOOP_EN | PCI_EXP_DEVCTL_READRQ);
  set16(off + PCI_EXP_DEVSTA, 0, 0,
        PCI_EXP_DEVSTA_CED | PCI_EXP_DEVSTA_NFED | PCI_EXP_DEVSTA_FED | PCI_EXP_DEVSTA_URD);
  uint32_t lnkcap = PCI_EXP_LNKCAP_SLS_2_5GB | (1u << 4) /* x1 */ | PCI_EXP_LNKCAP_ASPM_L0S;
  if (id.pcie_devcap_set || id.pcie_lnkcap_set) {
    lnkcap &= ~uint32_t(PCI_EXP_LNKCAP_ASPMS | PCI_EXP_LNKCAP_L0SEL | PCI_EXP_LNKCAP_L1EL);
    lnkcap |= id.pcie_lnkcap_set;
  }
  set32(off + PCI_EXP_LNKCAP, lnkcap);
  set16(off + PCI_EXP_LNKCTL, 0,
        uint16_t(PCI_EXP_LNKCTL_RCB | PCI_EXP_LNKCTL_CCC | PCI_EXP_LNKCTL_ES |
                 (id.aspm_control_writable ? PCI_EXP_LNKCTL_ASPMC : 0)));
  set16(off + PCI_EXP_LNKSTA, PCI_EXP_LNKSTA_CLS_2_5GB | (1 << 4) /* x1 */);
  set32(off + PCI_EXP_DEVCAP2, PCI_EXP_DEVCAP2_EE_PREFIX | 0x100000 /* extended fmt field */);
  set32(off + PCI_EXP_LNKCAP2, PCI_EXP_LNKCAP2_SLS_2_5GB);
  set16(off + PCI_EXP_LNKCTL2, PCI_EXP_LNKCTL2_TLS_2_5GT, PCI_EXP_LNKCTL2_TLS);
  set16(off + PCI_EXP_LNKSTA2, 0);
}

bool ConfigSpace::bus_master() const { return word(PCI_COMMAND) & PCI_COMMAND_MASTER; }
bool ConfigSpace::intx_disabled() const { return word(PCI_COMMAND) & PCI_COMMAND_INTX_DISABLE; }
bool ConfigSpace::msi_enabled() const { return word(msi_ + PCI_MSI_FLAGS) & PCI_MSI_FLAGS_ENABLE; }
bool ConfigSpace::msix_function_masked() const {
  return msix_ && (word(msix_ + PCI_MSIX_FLAGS) & PCI_MSIX_FLAGS_MASKALL);
}
bool ConfigSpace::msix_control_in(uint32_t off, uint32_t len) const {
  const uint32_t ctl = msix_ + PCI_MSIX_FLAGS;
  return msix_ && off < ctl + 2 && ctl < off + len;
}

void ConfigSpace::read(uint32_t off, uint8_t* out, uint32_t len) const {
  std::memcpy(out, cfg_.data() + off, len);
}

void ConfigSpace::write(uint32_t off, const uint8_t* data, uint32_t len) {
  for (uint32_t i = 0; i < len; i++) {
    const uint32_t a = off + i;
    const uint8_t v = data[i];
    cfg_[a] = uint8_t((cfg_[a] & ~wmask_[a]) | (v & wmask_[a]));
    cfg_[a] = uint8_t(cfg_[a] & ~(v & w1c_[a]));
  }
}

}  // namespace vfio_user
