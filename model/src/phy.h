// SPDX-License-Identifier: GPL-2.0-or-later
// The internal PHY at MII address 0, as the chip profile says
// (ChipProfile::phy_model): an RTL8211B (ID 0x001cc912, bound by Linux
// realtek.c "RTL8211B"), or the 8168e/evl integrated PHY (ID 0x001cc800,
// realtek.c "Generic FE-GE Realtek PHY"). Registers are banked by page
// (register 0x1f selects the page; r8169_phy_config.c writes pages 1-7).
// BMCR RESET/ANRESTART self-clear after phy-reset-time; autonegotiation
// brings the link up after phy-an-time at the best common mode (the link
// partner advertises everything up to 1000/full); BMSR's link bit is
// latched low (IEEE 802.3 22.2.4.2.13). Every link transition raises
// LinkChg through the MAC (docs/R8169.md §6).
#pragma once

#include <array>
#include <cstdint>
#include <map>

#include "events.h"
#include "state_io.h"

namespace rtl8168sim {

class Device;

namespace mii {
inline constexpr unsigned BMCR = 0x00, BMSR = 0x01, PHYSID1 = 0x02, PHYSID2 = 0x03,
                          ADVERTISE = 0x04, LPA = 0x05, EXPANSION = 0x06, CTRL1000 = 0x09,
                          STAT1000 = 0x0a, ESTATUS = 0x0f, PAGE_SELECT = 0x1f;
inline constexpr uint16_t BMCR_RESET = 0x8000, BMCR_ANENABLE = 0x1000, BMCR_PDOWN = 0x0800,
                          BMCR_ANRESTART = 0x0200, BMCR_FULLDPLX = 0x0100,
                          BMCR_SPEED100 = 0x2000, BMCR_SPEED1000 = 0x0040;
inline constexpr uint16_t BMSR_LSTATUS = 0x0004, BMSR_ANEGCOMPLETE = 0x0020;
inline constexpr uint16_t LPA_PAUSE_CAP = 0x0400;
// ADVERTISE (reg 4) and CTRL1000 (reg 9) ability bits (linux/mii.h names).
inline constexpr uint16_t ADVERTISE_10HALF = 0x0020, ADVERTISE_10FULL = 0x0040,
                          ADVERTISE_100HALF = 0x0080, ADVERTISE_100FULL = 0x0100;
inline constexpr uint16_t ADVERTISE_1000HALF = 0x0100, ADVERTISE_1000FULL = 0x0200;
// What the emulated link partner advertises: ACK | pause | 100/10 full/half.
inline constexpr uint16_t kPartnerLpa = 0x45e1;
// MMD access over C22 (IEEE 802.3 Annex 22D): control and data registers.
inline constexpr unsigned MMD_CTRL = 0x0d, MMD_DATA = 0x0e;
}  // namespace mii

// The 2.5G PHY's vendor registers (PhyModel::Rtl8125Internal), as OCP
// addresses: realtek.c reads them as page 0xa61/0xa5d registers (6.1, 6.12)
// or as MDIO_MMD_VEND2 registers of the same number (7.2 RTL_MDIO_*, which
// r8169's read_c45 turns into the same OCP access).
namespace phy2g5 {
// RTL_MDIO_PMA_SPEED (page 0xa61 register 0x13): abilities, bit 13
// MDIO_PMA_SPEED_2_5G (realtek.c rtlgen_supports_2_5gbps, rtl822x_get_features).
inline constexpr uint16_t kPmaSpeed = 0xa616, kPmaSpeed2g5 = 0x2000;
// RTL_MDIO_AN_10GBT_CTRL (page 0xa5d register 0x12): bit 7 advertises
// 2500BASE-T (rtl822x_config_aneg, MDIO_AN_10GBT_CTRL_ADV2_5G).
inline constexpr uint16_t kAn10gbtCtrl = 0xa5d4, kAdv2g5 = 0x0080;
// RTL_MDIO_AN_10GBT_STAT (page 0xa5d register 0x13): bit 5 the partner's
// 2500BASE-T (rtl822x_read_status, MDIO_AN_10GBT_STAT_LP2_5G).
inline constexpr uint16_t kAn10gbtStat = 0xa5d6, kLp2g5 = 0x0020;
}  // namespace phy2g5

class Phy {
 public:
  // Its events: handlers, longest delays, when each is pending (events.h).
  static std::span<const EventSpec> events();
  static constexpr unsigned kPages = 8;
  explicit Phy(Device& d) : d_(d) {}

  void power_on();              // defaults + autonegotiation from power-on
  uint16_t mdio_read(unsigned reg);
  void mdio_write(unsigned reg, uint16_t value);
  void on_reset_done();
  void on_an_done(uint64_t gen);
  void set_host_link(bool up);
  // Link faults (fault_injector.h). The carrier is up while both the host
  // (QEMU set_link) and the fault schedule say so.
  void set_fault_carrier(bool up);
  bool fault_carrier() const { return !fault_down_; }
  // The link partner now advertises only `mbps` at that duplex (a switch
  // port reconfigured): the link drops and autonegotiation resolves anew.
  void set_partner(uint32_t mbps, bool full);
  void on_phyar_write();        // PHYAR written: an MDIO frame starts
  void on_phyar_done();         // ... and completes (read data / write applied)
  // GPHY_OCP (8168g class; r8168_phy_ocp_read/write): a write of the port
  // starts one access of gphy-ocp-time; bit 31 set = write (cleared when
  // done), clear = read (set when bits 15:0 hold the data). The OCP address
  // is regs.h ocp_addr().
  void on_gphy_ocp_write();
  void on_gphy_ocp_done();
  // The 8168g PHY's OCP space (PhyModel::Rtl8168gInternal): C22 register r
  // at kOcpC22 + 2r, vendor registers as storage in [kOcpBase, kOcpEnd),
  // the indirect parameter space behind kOcpParamAddr/kOcpParamData
  // (r8168g_phy_param), nothing elsewhere (reads 0, writes dropped).
  static constexpr uint16_t kOcpC22 = 0xa400;
  static constexpr uint16_t kOcpBase = 0xa000, kOcpEnd = 0xe000;
  static constexpr uint16_t kOcpParamAddr = 0xa436, kOcpParamData = 0xa438;
  static constexpr unsigned kMaxParams = 1024;  // model bound on distinct parameters
  // Page 0xc42 register 0x13, rg_saw_cnt (rtl_hw_start_8168h_1): the model's
  // reset value, 16000 counts of the PHY's 16 MHz saw-tooth per ms.
  static constexpr uint16_t kOcpSawCnt = 0xc426, kSawCntReset = 16000;
  static constexpr uint16_t kOcpPatchRequest = 0xb820, kPatchRequestBit = 0x0010;
  static constexpr uint16_t kOcpPatchReady = 0xb800, kPatchReadyBit = 0x0040;
  uint16_t ocp_read(uint16_t addr);
  void ocp_write(uint16_t addr, uint16_t value);
  uint16_t mac_status() const;  // PHYstatus as the MAC reports this PHY's state

  bool link_up() const { return link_; }
  // BMCR RESET is set: a software reset is in progress, and its PhyResetDone
  // event must be pending (schedule_reset_done()).
  bool reset_in_progress() const { return regs_[0][mii::BMCR] & mii::BMCR_RESET; }
  uint32_t speed_mbps() const { return link_ ? speed_ : 0; }
  bool full_duplex() const { return full_; }
  unsigned page() const { return page_; }

  // The component's state in the blob, for save and load alike (state_io.h).
  void visit(Archive& a);
  // The link-fault state (carrier, partner abilities), in the blob's fault-injection part.
  void visit_faults(Archive& a);
  const char* check() const;  // nullptr when the loaded state is consistent

 private:
  // Partner abilities (bit per mode), kPartnerAll by default: every mode,
  // 2500BASE-T full duplex included (only a 2.5G PHY advertises it, so the
  // 8168s never resolve it); set_partner() keeps exactly one.
  enum : uint8_t { k10H = 1, k10F = 2, k100H = 4, k100F = 8, k1000H = 16, k1000F = 32, kPartnerAll = 63,
                   k2500F = 64 };
  bool partner_has(uint8_t mode) const { return partner_ == kPartnerAll || (partner_ & mode); }
  bool multigig() const;            // PhyModel::Rtl8125Internal
  bool carrier() const { return host_link_ && !fault_down_; }
  uint16_t partner_lpa() const;
  void load_defaults();
  void restart_an();
  void schedule_reset_done();
  void set_link(bool up, uint32_t mbps, bool full);
  uint16_t& r0(unsigned reg) { return regs_[0][reg]; }
  bool generic() const;             // PhyModel::Rtl8168eInternal or Rtl8168gInternal
  bool ocp_model() const;           // PhyModel::Rtl8168gInternal
  uint16_t c22_read(unsigned reg);  // page 0 register with its semantics (no trace)
  void c22_write(unsigned reg, uint16_t value);
  uint16_t* ocp_word(uint16_t addr);
  uint16_t* bank(unsigned reg);     // storage of `reg` on the selected page, or nullptr
  uint16_t physr() const;           // the generic PHY's live status word
  bool is_physr(unsigned reg) const;  // does (page_, reg) read PHYSR?

  Device& d_;
  std::array<std::array<uint16_t, 32>, kPages> regs_{};
  unsigned page_ = 0;           // RTL8211B: 0..7; generic PHY: the 16-bit value written
  bool host_link_ = true;
  bool link_ = false;
  bool latched_link_ = false;  // BMSR.LSTATUS as the next read reports it
  uint32_t speed_ = 0;
  bool full_ = false;
  uint64_t an_gen_ = 0;        // identifies the autonegotiation in flight
  bool fault_down_ = false;    // a link fault holds the carrier down
  uint8_t partner_ = kPartnerAll;
  // Rtl8168gInternal only (saved in the blob for that model only).
  std::array<uint16_t, (kOcpEnd - kOcpBase) / 2> ocp_{};
  uint16_t param_addr_ = 0;
  std::map<uint16_t, uint16_t> params_;  // ordered: the blob and any walk are deterministic
};

}  // namespace rtl8168sim
