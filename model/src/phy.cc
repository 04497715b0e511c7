// SPDX-License-Identifier: GPL-2.0-or-later
#include "phy.h"

#include "device.h"

namespace rtl8168sim {

using namespace mii;

void Phy::load_defaults() {
  for (auto& page : regs_) page.fill(0);
  // docs/R8169.md §6: minimal RTL8211B register values.
  r0(BMCR) = 0x1140;
  r0(BMSR) = 0x7949;
  r0(PHYSID1) = d_.config().profile->phy_id1;
  r0(PHYSID2) = d_.config().profile->phy_id2;
  r0(ADVERTISE) = 0x01e1;
  r0(CTRL1000) = 0x0300;
  r0(ESTATUS) = 0x3000;
  page_ = 0;
}

void Phy::power_on() {
  // The 8168g PHY's vendor registers and parameters: power-on values (a
  // BMCR soft reset reloads the C22 registers only, load_defaults).
  ocp_.fill(0);
  if (ocp_model()) *ocp_word(kOcpSawCnt) = kSawCntReset;
  if (multigig()) {
    // 2500BASE-T able and advertised (the power-on advertisement of a
    // PHY that autonegotiates its best mode; rtl822x_config_aneg rewrites
    // it from phylib's advertising mask).
    *ocp_word(phy2g5::kPmaSpeed) = phy2g5::kPmaSpeed2g5;
    *ocp_word(phy2g5::kAn10gbtCtrl) = phy2g5::kAdv2g5;
  }
  param_addr_ = 0;
  params_.clear();
  fault_down_ = false;  // the fault schedule restarts with the power-on (fault_injector.h)
  partner_ = kPartnerAll;
  load_defaults();
  link_ = false;
  latched_link_ = false;
  speed_ = 0;
  full_ = false;
  restart_an();
}

void Phy::restart_an() {
  an_gen_++;
  if (link_) set_link(false, 0, false);
  r0(BMSR) &= static_cast<uint16_t>(~BMSR_ANEGCOMPLETE);
  r0(LPA) = 0;
  r0(STAT1000) = 0;
  if (multigig()) *ocp_word(phy2g5::kAn10gbtStat) = 0;
  d_.cancel(EventKind::PhyAnDone);  // superseded (it would be ignored by its generation)
  if (!carrier() || (r0(BMCR) & BMCR_PDOWN)) return;
  // autoneg-slow: a partner that takes longer to answer.
  d_.schedule_in(d_.timing().phy_an_time + d_.faults.autoneg_delay(), EventKind::PhyAnDone, an_gen_);
}

void Phy::on_an_done(uint64_t gen) {
  if (gen != an_gen_ || !carrier() || (r0(BMCR) & BMCR_PDOWN)) return;
  const uint16_t bmcr = r0(BMCR);
  if (!(bmcr & BMCR_ANENABLE)) {
    // Forced mode (BMCR speed bits, IEEE 802.3 22.2.4.1.3).
    // 2500BASE-T has no forced mode (IEEE 802.3 clause 126 requires
    // autonegotiation; phylib forces only through BMCR's 10/100/1000 bits).
    const uint32_t mbps = (bmcr & BMCR_SPEED1000) ? 1000 : (bmcr & BMCR_SPEED100) ? 100 : 10;
    set_link(true, mbps, (bmcr & BMCR_FULLDPLX) != 0);
    return;
  }
  // Resolve against the partner's abilities (10/100/1000 half and full
  // unless a link fault changed them): the best common mode (IEEE 802.3
  // Annex 28B.3 priority).
  // 2500BASE-T first (IEEE 802.3 Annex 28B.3 as extended by clause 126:
  // 2.5GBASE-T ranks above 1000BASE-T), on a 2.5G PHY only.
  const uint16_t adv = r0(ADVERTISE), ctrl1000 = r0(CTRL1000);
  const bool adv2g5 = multigig() && (*ocp_word(phy2g5::kAn10gbtCtrl) & phy2g5::kAdv2g5);
  uint32_t mbps = 0;
  bool full = false;
  if (adv2g5 && partner_has(k2500F)) mbps = 2500, full = true;
  else if ((ctrl1000 & ADVERTISE_1000FULL) && partner_has(k1000F)) mbps = 1000, full = true;
  else if ((ctrl1000 & ADVERTISE_1000HALF) && partner_has(k1000H)) mbps = 1000, full = false;
  else if ((adv & ADVERTISE_100FULL) && partner_has(k100F)) mbps = 100, full = true;
  else if ((adv & ADVERTISE_100HALF) && partner_has(k100H)) mbps = 100, full = false;
  else if ((adv & ADVERTISE_10FULL) && partner_has(k10F)) mbps = 10, full = true;
  else if ((adv & ADVERTISE_10HALF) && partner_has(k10H)) mbps = 10, full = false;
  if (mbps == 0) return;  // nothing in common: no link
  r0(BMSR) |= BMSR_ANEGCOMPLETE;
  r0(LPA) = partner_lpa();
  // Local + remote receiver OK, and the partner's 1000BASE-T abilities
  // (STAT1000 LPA_1000FULL 0x0800, LPA_1000HALF 0x0400).
  r0(STAT1000) = static_cast<uint16_t>(0x3000 | (partner_has(k1000F) ? 0x0800 : 0) |
                                       (partner_has(k1000H) ? 0x0400 : 0));
  // The partner's multi-gigabit page (MDIO_AN_10GBT_STAT: LP2_5G).
  if (multigig() && partner_has(k2500F)) *ocp_word(phy2g5::kAn10gbtStat) = phy2g5::kLp2g5;
  set_link(true, mbps, full);
}

// The partner's base page: ACK | pause | its 10/100 abilities | CSMA
// (kPartnerLpa when it has them all).
uint16_t Phy::partner_lpa() const {
  uint16_t lpa = kPartnerLpa & ~(ADVERTISE_10HALF | ADVERTISE_10FULL | ADVERTISE_100HALF | ADVERTISE_100FULL);
  if (partner_has(k10H)) lpa |= ADVERTISE_10HALF;
  if (partner_has(k10F)) lpa |= ADVERTISE_10FULL;
  if (partner_has(k100H)) lpa |= ADVERTISE_100HALF;
  if (partner_has(k100F)) lpa |= ADVERTISE_100FULL;
  return lpa;
}

void Phy::set_link(bool up, uint32_t mbps, bool full) {
  if (up == link_ && mbps == speed_) return;
  link_ = up;
  speed_ = up ? mbps : 0;
  full_ = up && full;
  if (up) {
    r0(BMSR) |= BMSR_LSTATUS;
  } else {
    r0(BMSR) &= static_cast<uint16_t>(~BMSR_LSTATUS);
    latched_link_ = false;  // latched low until read
  }
  d_.on_link_change();
}

// PHYstatus (0x6c) as the MAC composes it from the PHY's resolution; flow
// control is on because the partner advertises pause (kPartnerLpa). 2500
// Mbit/s is the 8125's bit 10 (regs.h _2500bpsF), no low-byte speed bit.
uint16_t Phy::mac_status() const {
  if (!link_) return 0;
  uint16_t st = reg::LinkStatus | (full_ ? reg::FullDup : 0);
  st |= speed_ == 2500   ? reg::_2500bpsF
        : speed_ == 1000 ? reg::_1000bpsF
        : speed_ == 100  ? reg::_100bps
                         : reg::_10bps;
  if (kPartnerLpa & LPA_PAUSE_CAP) st |= reg::TxFlowCtrl | reg::RxFlowCtrl;
  return st;
}

// PHYAR (r8169 r8169_mdio_read/write): a write starts one MDIO frame of
// phyar-time; bit 31 set = write (cleared when done), clear = read (set when
// the data is valid in bits 15:0). Register address in bits 20:16.
void Phy::on_phyar_write() {
  d_.cancel(EventKind::PhyarDone);
  d_.schedule_in(d_.timing().phyar_time, EventKind::PhyarDone);
}

void Phy::on_phyar_done() {
  const uint32_t v = d_.regs.u32(reg::PHYAR);
  const unsigned r = (v & reg::kPhyarRegMask) >> reg::kPhyarRegShift;
  if (v & reg::kAccessFlag) {
    mdio_write(r, static_cast<uint16_t>(v));
    d_.regs.set32(reg::PHYAR, v & ~reg::kAccessFlag);
  } else {
    const uint16_t data = mdio_read(r);
    d_.regs.set32(reg::PHYAR, reg::kAccessFlag | (v & reg::kPhyarRegMask) | data);
  }
}

bool Phy::generic() const { return d_.config().profile->phy_model != PhyModel::Rtl8211b; }
bool Phy::ocp_model() const {
  const PhyModel m = d_.config().profile->phy_model;
  return m == PhyModel::Rtl8168gInternal || m == PhyModel::Rtl8125Internal;
}
bool Phy::multigig() const { return d_.config().profile->phy_model == PhyModel::Rtl8125Internal; }

// RTL8211B: page_ is 0..7 (the select value modulo 8). Generic PHY: pages
// 0..7 are banked (r8169_phy_config.c rtl8168e_2_hw_phy_config uses 0-3, 5
// and 7); any other page has no storage (reads 0, writes are dropped)
// except the live PHYSR below.
uint16_t* Phy::bank(unsigned reg) {
  if (page_ >= kPages) return nullptr;
  return &regs_[page_][reg];
}

// The generic PHY's live status word (PHYSR), in the layout realtek.c
// rtlgen_decode_physr reads: link (bit 2), full duplex (bit 3), speed in bits
// 5:4 (0x00 10, 0x10 100, 0x20 1000 Mbit/s; bits 10:9 stay 0, no multi-gig).
// Kernels before 6.13 read it at page 0xa43 register 0x12 (RTLGEN_SPEED_MASK
// 0x0630); 6.13 and later ("net: phy: realtek: read duplex and gbit master
// from PHYSR register") read RTL_PHYSR = MII_RESV2 (0x1a) on page 0, which on
// the 8168g-class PHYs is page 0xa43's register 0x1a (r8169 r8168g_mdio_read
// maps page 0 registers to OCP 0xa400 + 2 * reg). Both views answer here: the
// generic driver reads them on every link change to catch a downshift, and a
// stale value makes it report "Downshift ... to 10Mbps". The 8168evl PHY's own
// register map there is not public, so the model answers the layout the driver
// expects with the speed it negotiated (master bit 11 clear: slave).
bool Phy::is_physr(unsigned reg) const {
  if (!generic()) return false;
  if (page_ == 0xa43) return reg == 0x12 || reg == 0x1a;
  return page_ == 0 && reg == 0x1a;
}

uint16_t Phy::physr() const {
  if (!link_) return 0;
  // 2500: speed bits 10:9 = 01 and 5:4 = 01 (RTL_PHYSR_SPEEDH/L, 0x0210).
  const uint16_t speed = speed_ == 2500 ? 0x0210 : speed_ == 1000 ? 0x0020 : speed_ == 100 ? 0x0010 : 0x0000;
  return static_cast<uint16_t>(speed | (full_ ? 0x0008 : 0) | 0x0004);
}

uint16_t Phy::mdio_read(unsigned reg) {
  reg &= 0x1f;
  if (reg == PAGE_SELECT) return static_cast<uint16_t>(page_);
  uint16_t v = 0;
  if (ocp_model()) {
    // The 8168g PHY's pages are views of its OCP space (r8168g_mdio_read).
    v = page_ != 0 && reg >= 0x10 ? ocp_read(static_cast<uint16_t>((page_ << 4) + 2 * (reg - 0x10)))
                                  : c22_read(reg);
  } else {
    if (is_physr(reg)) {
      v = physr();
    } else if (const uint16_t* p = bank(reg)) {
      v = *p;
    }
    if (page_ == 0 && reg == BMSR) {
      // Latched-low link status: report the latch, then re-arm it from the
      // current state.
      v = static_cast<uint16_t>((v & ~BMSR_LSTATUS) | (latched_link_ ? BMSR_LSTATUS : 0));
      latched_link_ = link_;
    }
  }
  d_.trace.phy_read(page_, reg, v);
  return v;
}

void Phy::mdio_write(unsigned reg, uint16_t value) {
  reg &= 0x1f;
  d_.trace.phy_write(page_, reg, value);
  if (reg == PAGE_SELECT) {
    page_ = generic() ? value : value % kPages;
    return;
  }
  if (ocp_model()) {
    if (page_ != 0 && reg >= 0x10) {
      ocp_write(static_cast<uint16_t>((page_ << 4) + 2 * (reg - 0x10)), value);
    } else {
      c22_write(reg, value);
    }
    return;
  }
  if (page_ != 0) {
    if (uint16_t* p = bank(reg)) *p = value;  // vendor pages: storage only
    return;
  }
  c22_write(reg, value);
}

// A page-0 (C22) register with its semantics: PHYSR live on the generic
// PHYs, BMSR's latched-low link bit. On the 2.5G PHY the MMD registers
// 13/14 read 0 (realtek.c rtlgen_supports_mmd: "On internal PHY's MMD reads
// over C22 always return 0"; 6.12 and 7.2 bind "Realtek Internal NBASE-T
// PHY" on that, the RTL8221B driver otherwise).
uint16_t Phy::c22_read(unsigned reg) {
  if (multigig() && (reg == MMD_CTRL || reg == MMD_DATA)) return 0;
  uint16_t v = generic() && reg == 0x1a ? physr() : r0(reg);
  if (reg == BMSR) {
    v = static_cast<uint16_t>((v & ~BMSR_LSTATUS) | (latched_link_ ? BMSR_LSTATUS : 0));
    latched_link_ = link_;
  }
  return v;
}

void Phy::c22_write(unsigned reg, uint16_t value) {
  switch (reg) {
    case BMSR:
    case PHYSID1:
    case PHYSID2:
    case LPA:
    case EXPANSION:
    case STAT1000:
    case ESTATUS:
      return;  // read-only
    case MMD_CTRL:
    case MMD_DATA:
      if (multigig()) return;  // no MMD behind them (c22_read)
      r0(reg) = value;
      return;
    case BMCR: {
      const uint16_t old = r0(BMCR);
      r0(BMCR) = value;
      if (value & BMCR_RESET) {
        schedule_reset_done();
        if (link_) set_link(false, 0, false);
        an_gen_++;
        return;
      }
      const bool pdown = value & BMCR_PDOWN;
      if (pdown) {
        an_gen_++;
        if (link_) set_link(false, 0, false);
        return;
      }
      const bool resumed = (old & BMCR_PDOWN) != 0;
      if ((value & BMCR_ANRESTART) || resumed || ((old ^ value) & BMCR_ANENABLE) ||
          (!(value & BMCR_ANENABLE) && ((old ^ value) & (BMCR_SPEED100 | BMCR_SPEED1000 | BMCR_FULLDPLX)))) {
        if (value & BMCR_ANRESTART) schedule_reset_done();
        restart_an();
      }
      return;
    }
    default:
      r0(reg) = value;
  }
}

uint16_t* Phy::ocp_word(uint16_t addr) {
  if (addr < kOcpBase || addr >= kOcpEnd) return nullptr;
  return &ocp_[(addr - kOcpBase) / 2];
}

uint16_t Phy::ocp_read(uint16_t addr) {
  addr &= 0xfffe;
  if (addr == kOcpParamData) {
    const auto it = params_.find(param_addr_);
    return it == params_.end() ? 0 : it->second;
  }
  if (addr == kOcpParamAddr) return param_addr_;
  if (addr >= kOcpC22 && addr < kOcpC22 + 64) return c22_read((addr - kOcpC22) / 2);
  const uint16_t* w = ocp_word(addr);
  return w ? *w : 0;
}

void Phy::ocp_write(uint16_t addr, uint16_t value) {
  addr &= 0xfffe;
  if (addr == kOcpParamAddr) {
    param_addr_ = value;
    return;
  }
  if (addr == kOcpParamData) {
    // A new parameter beyond the bound is dropped (the real PHY's
    // parameter RAM is fixed; its size is not public).
    if (params_.size() < kMaxParams || params_.count(param_addr_)) params_[param_addr_] = value;
    return;
  }
  if (addr >= kOcpC22 && addr < kOcpC22 + 64) {
    // C22 register 0x1f (page select) is r8169's own state on this PHY
    // (r8168g_mdio_write keeps ocp_base): stored, no effect.
    c22_write((addr - kOcpC22) / 2, value);
    return;
  }
  uint16_t* w = ocp_word(addr);
  if (!w) return;
  *w = value;
  // PHY patch handshake (the firmware's PHY part, docs/R8168H.md): patch
  // ready (0xb800 bit 6) follows the patch request (0xb820 bit 4).
  if (addr == kOcpPatchRequest) {
    uint16_t& ready = *ocp_word(kOcpPatchReady);
    ready = static_cast<uint16_t>(value & kPatchRequestBit ? ready | kPatchReadyBit : ready & ~kPatchReadyBit);
  }
}

// GPHY_OCP: the access completes gphy-ocp-time after the command write; a
// new command replaces one in flight.
void Phy::on_gphy_ocp_write() {
  d_.cancel(EventKind::GphyOcpDone);
  d_.schedule_in(d_.timing().gphy_ocp_time, EventKind::GphyOcpDone);
}

void Phy::on_gphy_ocp_done() {
  const uint32_t v = d_.regs.u32(reg::GPHY_OCP);
  const uint16_t addr = reg::ocp_addr(v);
  if (v & reg::kAccessFlag) {
    ocp_write(addr, static_cast<uint16_t>(v));
    d_.regs.set32(reg::GPHY_OCP, v & ~reg::kAccessFlag);
    d_.trace.phy_ocp(1, addr, static_cast<uint16_t>(v));
  } else {
    const uint16_t data = ocp_read(addr);
    d_.regs.set32(reg::GPHY_OCP, reg::kAccessFlag | (v & 0x7fff0000u) | data);
    d_.trace.phy_ocp(0, addr, data);
  }
}

// The self-clear of RESET/ANRESTART completes phy-reset-time after the first
// write that requested it; repeated writes meanwhile do not queue more.
void Phy::schedule_reset_done() {
  if (!d_.pending(EventKind::PhyResetDone)) {
    d_.schedule_in(d_.timing().phy_reset_time, EventKind::PhyResetDone);
  }
}

void Phy::on_reset_done() {
  const uint16_t bmcr = r0(BMCR);
  if (bmcr & BMCR_RESET) {
    // Software reset: registers to defaults (page 0 and vendor pages), AN restarts.
    const bool host = host_link_;
    load_defaults();
    host_link_ = host;
    restart_an();
    return;
  }
  r0(BMCR) = static_cast<uint16_t>(bmcr & ~BMCR_ANRESTART);
}

void Phy::set_host_link(bool up) {
  if (up == host_link_) return;
  host_link_ = up;
  if (!up) {
    an_gen_++;
    if (link_) set_link(false, 0, false);
    return;
  }
  if (carrier()) restart_an();
}

// Carrier lost / back, as a cable pull would: down at once (LinkChg), up
// after a fresh autonegotiation.
void Phy::set_fault_carrier(bool up) {
  if (up == !fault_down_) return;
  fault_down_ = !up;
  if (!up) {
    an_gen_++;
    if (link_) set_link(false, 0, false);
    return;
  }
  if (carrier()) restart_an();
}

void Phy::set_partner(uint32_t mbps, bool full) {
  const uint8_t mode = mbps == 2500 ? k2500F
                       : mbps == 1000 ? (full ? k1000F : k1000H)
                       : mbps == 100 ? (full ? k100F : k100H)
                                     : (full ? k10F : k10H);
  partner_ = mode;
  // A speed change is a link drop and a new negotiation (the partner
  // restarts autonegotiation when its abilities change).
  an_gen_++;
  if (link_) set_link(false, 0, false);
  if (carrier() && !(r0(BMCR) & (BMCR_PDOWN | BMCR_RESET))) restart_an();
}


void Phy::visit(Archive& a) {
  for (auto& page : regs_) a.io_array(page);
  if (generic()) {
    a.io_as<uint16_t>(page_);
  } else {
    a.io_as<uint8_t>(page_);
  }
  a.io(host_link_);
  a.io(link_);
  a.io(latched_link_);
  a.io(speed_);
  a.io(full_);
  a.io(an_gen_);
  if (ocp_model()) {
    a.io_array(ocp_);
    a.io(param_addr_);
    const uint32_t n = a.count(params_.size(), kMaxParams);
    if (a.loading()) {
      params_.clear();
      for (uint32_t i = 0; i < n && a.ok(); i++) {
        uint16_t k = 0, v = 0;
        a.io(k);
        a.io(v);
        params_[k] = v;
      }
    } else {
      for (const auto& [key, value] : params_) {
        uint16_t k = key, v = value;
        a.io(k);
        a.io(v);
      }
    }
  }
}

void Phy::visit_faults(Archive& a) {
  a.io(fault_down_);
  a.io(partner_);
}

const char* Phy::check() const {
  if (!generic() && page_ >= kPages) return "PHY page out of range";
  if (page_ > 0xffff) return "PHY page out of range";
  if (link_ && speed_ != 10 && speed_ != 100 && speed_ != 1000 && !(speed_ == 2500 && multigig()))
    return "PHY link speed invalid";
  if (!link_ && (speed_ != 0 || full_)) return "PHY link down with a speed";
  if (link_ && !carrier()) return "PHY link up without carrier";
  // set_partner() keeps exactly one mode, power_on() all of them.
  if (partner_ != kPartnerAll && (partner_ == 0 || (partner_ & (partner_ - 1)) != 0))
    return "PHY link partner abilities invalid";
  // BMSR.LSTATUS latches low: a link loss clears the latch and a read
  // re-arms it to the current link (set_link, read), so it is never up
  // while the link is down.
  if (latched_link_ && !link_) return "PHY link status latched up while the link is down";
  // PHYstatus is written only by Device::on_link_change() (and zeroed with
  // the link down at power-on): it is always the MAC's view of the PHY.
  const uint16_t phystatus = d_.config().profile->phystatus_width == 2 ? d_.regs.u16(reg::PHYstatus)
                                                                       : d_.regs.u8(reg::PHYstatus);
  if (phystatus != mac_status()) return "PHYstatus disagrees with the PHY's link";
  return nullptr;
}

std::span<const EventSpec> Phy::events() {
  static constexpr EventSpec kEvents[] = {
      {.kind = EventKind::PhyarDone,
       .run = [](Device& d, uint64_t) { d.phy.on_phyar_done(); },
       .max_delay = [](const Device& d) -> Time { return d.timing().phyar_time; },
       .pending = [](const Device&, unsigned) { return Pending::May; },
       .mismatch = "PHYAR access without its completion event"},
      // A BMCR RESET write schedules its self-clear (schedule_reset_done)
      // and only that event clears the bit; without it the reset never ends
      // and the driver's soft-reset poll times out.
      {.kind = EventKind::GphyOcpDone,
       .run = [](Device& d, uint64_t) { d.phy.on_gphy_ocp_done(); },
       .max_delay = [](const Device& d) -> Time { return d.timing().gphy_ocp_time; },
       .pending = [](const Device&, unsigned) { return Pending::May; },
       .mismatch = "GPHY_OCP access without its completion event"},
      {.kind = EventKind::PhyResetDone,
       .run = [](Device& d, uint64_t) { d.phy.on_reset_done(); },
       .max_delay = [](const Device& d) -> Time { return d.timing().phy_reset_time; },
       .pending = [](const Device& d, unsigned) {
         return d.phy.reset_in_progress() ? Pending::Yes : Pending::May;
       },
       .mismatch = "PHY reset without its completion event"},
      // autoneg-slow may have lengthened it (even if the fault is gone since).
      {.kind = EventKind::PhyAnDone,
       .run = [](Device& d, uint64_t arg) { d.phy.on_an_done(arg); },
       .max_delay = [](const Device& d) -> Time {
         return d.timing().phy_an_time + FaultInjector::kMaxAutonegDelay;
       },
       .pending = [](const Device&, unsigned) { return Pending::May; },
       .mismatch = "autonegotiation without its completion event"},
  };
  return kEvents;
}

}  // namespace rtl8168sim
