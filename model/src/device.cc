// SPDX-License-Identifier: GPL-2.0-or-later
#include "device.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "wake.h"

namespace rtl8168sim {

namespace {
constexpr uint32_t kEventBudget = 1u << 20;  // events per entry point (a last-resort bound)
}  // namespace

Time Device::paced_past_budget(Time delay) {
  if (!yielded_) {
    yielded_ = true;
    stats.work_yields++;
    trace.work_yield(work_dma_, work_frames_);
  }
  const Time resume = entry_now_ + RTL8168_WORK_YIELD_NS;
  return std::max(delay, resume > now_ ? resume - now_ : 0);
}

void Device::account_error(uint64_t& counter, uint16_t intr, TallyError t) {
  counter++;
  if (intr & reg::SYSErr) stats.sys_errors++;
  if (t == TallyError::Tx) tally.counters.tx_errors++;
  if (t == TallyError::Rx) tally.counters.rx_errors++;
  if (intr) irq.raise(intr);
}

void Device::bad_call(Time now) {
  Entry entry(*this, now);
  advance_to(now);
  stats.bad_calls++;
  trace.bad_call();
  finish_entry();
}

Device::Device(const Config& cfg, const rtl8168_host_ops& ops)
    : regs(*cfg.profile->regs), wide(cfg.profile->wide_regs), irq(*this), phy(*this), tx(*this, *cfg.profile), txpoll(*this),
      rx(*this, *cfg.profile), tally(*this), timer(*this), side(*this), mac_ocp(*this), link(*this, cfg.profile->pci.aspm.l1), cfg_(cfg), timing_(cfg.effective_timing()), ops_(ops) {
  // Validated when the parameter was set (config.cc); a schedule that does
  // not parse here installs nothing.
  if (!parse_fault_list(cfg_.faults, configured_faults_).empty()) configured_faults_.clear();
}

void Device::power_on_reset(Time now) {
  Entry entry(*this, now);
  now_ = std::max(now, now_);
  sched_.clear();
  outbox_.clear();
  regs.reset();
  for (int i = 0; i < 6; i++) regs.set8(reg::MAC0 + i, cfg_.mac[i]);
  regs.set32(reg::TxConfig, cfg_.profile->txconfig_reset);
  wide.power_on(cfg_.mac);
  irq.reset();
  tx.reset();
  rx.reset();
  timer.reset();
  side.power_on(cfg_.mac);
  mac_ocp.power_on();
  link.power_on();
  // Counters last: halting the engines counts what they drop (frames in the
  // RX FIFO), and a reset device starts from zero.
  stats = rtl8168_stats{};
  tally.counters = TallyCounters{};
  tally.ext = TallyExt{};
  trace.reset();
  // The fault schedule is test-bench state: a power-on drops what was added
  // and re-installs the configured one, before the PHY's first
  // autonegotiation (which autoneg-slow may delay).
  faults.power_on(configured_faults_);
  txpoll.reset();
  phy.power_on();
  trace.power_on_reset(cfg_.profile->txconfig_reset);
  // What became due at `now` runs before the call returns, as after any
  // entry point (functional mode: autonegotiation completes here).
  advance_to(now_);
  armed_ = kNever - 1;  // force a re-arm
  finish_entry();
}

// advance_to() with an event due by `now` (>= now_: the host's clock never
// goes backwards; advance_to() is robust anyway).
void Device::run_due(Time now) {
  uint32_t budget = kEventBudget;
  while (!sched_.empty() && sched_.next_time() <= now && budget-- > 0) {
    const Event e = sched_.pop();
    now_ = std::max(now_, e.time);
    dispatch(e);
  }
  now_ = now;
}

void Device::finish_entry() {
  // Frames first: transmit() may re-enter the device (a back end answering
  // synchronously), which must find every event due at `now` done.
  if (!outbox_.empty()) {
    outbox_.drain([this](const uint8_t* f, size_t len) { ops_.transmit(ops_.opaque, f, len); });
  }
  const Time next = sched_.next_time();
  if (next != armed_) {
    armed_ = next;
    ops_.timer_arm(ops_.opaque, next);
  }
  if (rx.take_ready_signal() && ops_.rx_ready) ops_.rx_ready(ops_.opaque);
}

void Device::dispatch(const Event& e) {
  if (e.kind < EventKind::kCount) event_spec(e.kind).run(*this, e.arg);
}

// The events irq-race may bring forward (EventSpec::pullable): completions of
// the engines' work and the mitigation timers, i.e. what raises
// RxOK/TxOK/TxDescUnavail.
static bool pullable(EventKind k) { return k < EventKind::kCount && event_spec(k).pullable; }

bool Device::has_pullable_event() const {
  for (const Event& e : sched_.sorted()) {
    if (pullable(e.kind)) return true;
  }
  return false;
}

void Device::pull_next_event() {
  for (const Event& e : sched_.sorted()) {
    if (!pullable(e.kind)) continue;
    sched_.cancel(e.kind, e.arg);  // each (kind, arg) is pending at most once
    dispatch(Event{now_, e.seq, e.kind, e.arg});
    return;
  }
}

std::string Device::add_faults(Time now, std::string_view spec) {
  Entry entry(*this, now);
  advance_to(now);
  std::string err = faults.add(spec);
  advance_to(now_);  // a fault due now fires before the call returns
  finish_entry();
  return err;
}

void Device::clear_faults(Time now) {
  Entry entry(*this, now);
  advance_to(now);
  faults.clear();
  finish_entry();
}

// Natural alignment, 1/2/4 bytes, inside the 256-byte file (64-bit compare:
// no wrap-around for hostile offsets).
static bool access_ok(uint32_t off, unsigned size) {
  return (size == 1 || size == 2 || size == 4) && off % size == 0 &&
         static_cast<uint64_t>(off) + size <= reg::kFileSize;
}

// Inside BAR2 but above the register file: the profile's rows there
// (wide_regs.h), or nothing (reads 0).
static bool above_file(uint32_t off, unsigned size, uint32_t bar_size) {
  return (size == 1 || size == 2 || size == 4) && off % size == 0 && off >= reg::kFileSize &&
         static_cast<uint64_t>(off) + size <= bar_size;
}

// Registers whose value is computed at read time: TxPoll's NPQ/HPQ read-back
// (tx_poll.h), TCTR is the live count. Byte-wise overlay, so any access width
// sees the same bytes.
uint64_t Device::live_read(uint32_t off, unsigned size) const {
  uint64_t v = regs.read(off, size);
  // Whether the access covers any byte of [reg_off, reg_off + width): the
  // live values below are computed only then (most reads, IntrStatus
  // among them, cover none).
  auto covers = [off, size](uint32_t reg_off, unsigned width) {
    return reg_off < off + size && off < reg_off + width;
  };
  auto overlay = [&](uint32_t reg_off, unsigned width, uint64_t value) {
    for (unsigned i = 0; i < width; i++) {
      const uint32_t at = reg_off + i;
      if (at < off || at >= off + size) continue;
      const unsigned shift = 8 * (at - off);
      v = (v & ~(uint64_t{0xff} << shift)) | ((value >> (8 * i)) & 0xff) << shift;
    }
  };
  const ChipProfile& p = *cfg_.profile;
  if (covers(p.txpoll.offset, 1)) overlay(p.txpoll.offset, 1, txpoll.read());
  if (covers(reg::TCTR, 4)) overlay(reg::TCTR, 4, timer.count());
  if (p.txcfg_empty && covers(reg::TxConfig + 1, 1)) {
    // TXCFG_EMPTY (TxConfig bit 11, r8169 rtl_txcfg_empty_cond): the TX
    // path holds nothing (no fetch, FIFO drained, wire idle).
    const bool empty = !tx.busy() && !tx.wire_busy();
    const uint8_t b1 = regs.u8(reg::TxConfig + 1);
    overlay(reg::TxConfig + 1, 1,
            empty ? (b1 | reg::TxCfgEmptyByte1) : (b1 & ~reg::TxCfgEmptyByte1));
  }
  if (cfg_.profile->mac_ocp && covers(reg::MCU, 1)) {
    // MCU (8168g class): TX_EMPTY / RX_EMPTY while the TX path and the RX
    // FIFO hold nothing (r8169 rtl_rxtx_empty_cond, polled by
    // rtl_hw_init_8168g and rtl_wait_txrx_fifo_empty), LINK_LIST_RDY unless
    // the MCU re-initialises its link list (mac_ocp.h).
    const bool tx_empty = !tx.busy() && !tx.wire_busy();
    const uint8_t mcu = static_cast<uint8_t>(
        (regs.u8(reg::MCU) & ~(reg::McuTxEmpty | reg::McuRxEmpty | reg::McuLinkListRdy)) |
        (tx_empty ? reg::McuTxEmpty : 0) | (rx.fifo_empty() ? reg::McuRxEmpty : 0) |
        (mac_ocp.link_list_ready() ? reg::McuLinkListRdy : 0));
    overlay(reg::MCU, 1, mcu);
  }
  if (p.mitigate_fifo_status && covers(reg::IntrMitigate, 2)) {
    // IntrMitigate of the 8125: bits 0, 1 and 8 once the TX path and the
    // RX FIFO hold nothing (r8169 rtl_rxtx_empty_cond_2, polled after
    // StopReq by rtl_wait_txrx_fifo_empty). Which bit is which FIFO is not
    // public: the model sets the three together.
    const bool empty = !tx.busy() && !tx.wire_busy() && rx.fifo_empty();
    overlay(reg::IntrMitigate, 2, empty ? reg::kFifoEmpty8125 : 0);
  }
  return v;
}

bool Device::rx_vlan_strip() const {
  if (cfg_.profile->rx_vlan_rxconfig) {
    // r8169 sets and clears both bits together; which of them governs a
    // single 802.1Q tag is not public, so either one removes it.
    return regs.u32(reg::RxConfig) & (reg::RxVlanInner8125 | reg::RxVlanOuter8125);
  }
  return regs.u16(reg::CPlusCmd) & reg::RxVlan;
}

uint64_t Device::reg_read(Time now, uint32_t off, unsigned size) {
  Entry entry(*this, now);
  advance_to(now);
  link.host_access();
  // An access inside the file (a driver's every access) is told apart first.
  if (!access_ok(off, size) && above_file(off, size, cfg_.profile->pci.mmio_size)) {
    if (!wide.implemented(off, size)) {
      trace.unassigned_access(off, size, 0);
      finish_entry();
      return 0;
    }
    const uint64_t v = wide.read(off, size);
    trace.reg_read(off, size, v);
    finish_entry();
    return v;
  }
  if (!access_ok(off, size)) {
    stats.bad_access++;
    trace.bad_access(off, size, 0);
    finish_entry();
    return size >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * std::min(size, 7u))) - 1;
  }
  const uint64_t v = live_read(off, size);
  if (regs.implemented(off, size)) {
    trace.reg_read(off, size, v);
  } else {
    trace.reg_read_unimp(off, size, v);
  }
  const IrqRegs& ir = cfg_.profile->irq;
  if (!faults.empty() && off < uint32_t{ir.status} + ir.width && off + size > ir.status) {
    irq.on_status_read();  // the value read is the one before (irq-race)
    advance_to(now_);
  }
  finish_entry();
  return v;
}

void Device::reg_write(Time now, uint32_t off, uint64_t value, unsigned size) {
  Entry entry(*this, now);
  advance_to(now);
  access_woke_link_ = link.host_access();
  if (!access_ok(off, size) && above_file(off, size, cfg_.profile->pci.mmio_size)) {
    if (!wide.implemented(off, size)) {
      trace.unassigned_access(off, size, 1);
    } else {
      value &= size == 4 ? 0xffffffffull : (1ull << (8 * size)) - 1;
      trace.reg_write(off, size, value);
      wide.write(off, size, value);
    }
    access_woke_link_ = false;
    finish_entry();
    return;
  }
  if (!access_ok(off, size)) {
    stats.bad_access++;
    trace.bad_access(off, size, 1);
    finish_entry();
    return;
  }
  value &= size == 4 ? 0xffffffffull : (1ull << (8 * size)) - 1;
  if (regs.implemented(off, size)) {
    trace.reg_write(off, size, value);
  } else {
    trace.reg_write_unimp(off, size, value);
  }
  const uint8_t old_cmd = regs.u8(reg::ChipCmd);
  const RegFile::Touched touched = regs.write(off, size, value);
  for (unsigned i = 0; i < touched.count; i++) {
    const uint32_t r = touched.offsets[i];
    // The byte written at the register's first offset: TxPoll stores
    // nothing, so its hook needs the value as written.
    const auto first_byte = static_cast<uint8_t>(r >= off ? value >> (8 * (r - off)) : 0);
    on_write_hook(regs.hook_of(r), r, first_byte, old_cmd);
  }
  access_woke_link_ = false;
  advance_to(now_);
  finish_entry();
}

void Device::pci_config_write(Time now, uint32_t addr, uint32_t value, unsigned len) {
  if (!link.modelled()) return;  // nothing behind config space but the link's ASPM
  Entry entry(*this, now);
  advance_to(now);
  link.config_write(addr, value, len);
  advance_to(now_);
  finish_entry();
}

// Side effects of guest writes, one case per hooked register (reg_file.cc's
// table names the hook of each).
void Device::on_write_hook(Hook hook, uint32_t r, uint8_t written, uint8_t old_cmd) {
  switch (hook) {
    case Hook::TxPoll: txpoll.on_write(written, access_woke_link_); break;
    case Hook::ChipCmd: {
      uint8_t cmd = regs.u8(reg::ChipCmd);
      if ((old_cmd & reg::CmdReset) && !(cmd & reg::CmdReset)) {
        // CmdReset self-clears when the reset is done (r8169 rtl_chipcmd_cond
        // polls for it); a write of 0 cannot cut a reset short.
        cmd |= reg::CmdReset;
        regs.set8(reg::ChipCmd, cmd);
      }
      if ((cmd & reg::CmdReset) && !(old_cmd & reg::CmdReset)) {
        software_reset_start();
      } else {
        if ((old_cmd & reg::CmdTxEnb) && !(cmd & reg::CmdTxEnb)) tx.halt();
        if (!(old_cmd & reg::CmdStopReq) && (cmd & reg::CmdStopReq)) tx.halt();
        if ((old_cmd & reg::CmdRxEnb) && !(cmd & reg::CmdRxEnb)) rx.halt();
      }
      break;
    }
    case Hook::IntrMask: irq.update(); break;
    case Hook::IntrStatus: irq.on_status_ack(); break;
    case Hook::Phyar: phy.on_phyar_write(); break;
    case Hook::CounterAddrLow: tally.on_command_write(); break;
    case Hook::Csiar:
    case Hook::Eriar:
    case Hook::Ephyar:
    case Hook::Ocpar:
    case Hook::GphyOcp: complete_access_flag(r); break;
    case Hook::MacOcp: mac_ocp.on_ocpdr_write(); break;
    case Hook::GphyOcpPhy: phy.on_gphy_ocp_write(); break;
    case Hook::IntrMitigate: irq.on_mitigate_write(); break;
    case Hook::TimerCount: timer.on_count_write(); break;
    case Hook::TimerCompare: timer.on_compare_write(); break;
    default: break;
  }
}

// CSI/ERI/EPHY/OCP/GPHY_OCP. A profile with side buses (the 8168evl) has
// real ERI/EPHY/CSI spaces behind the first three (side_bus.h: timed
// handshake). Otherwise, and for OCP/GPHY_OCP (r8169 uses them from VER_40
// on, not on the 8168c or 8168evl), the access completes at once
// (docs/R8169.md §2 "S only"): a write clears the flag, a read sets it
// (data reads back as stored).
void Device::complete_access_flag(uint32_t r) {
  if (cfg_.profile->side_buses && (r == reg::ERIAR || r == reg::EPHYAR || r == reg::CSIAR)) {
    side.on_command(r == reg::ERIAR ? SideBus::Eri : r == reg::EPHYAR ? SideBus::Ephy : SideBus::Csi);
    return;
  }
  const uint32_t v = regs.u32(r);
  regs.set32(r, v & reg::kAccessFlag ? v & ~reg::kAccessFlag : v | reg::kAccessFlag);
}

void Device::software_reset_start() {
  // ChipCmd reset: stops both engines and zeroes the ring positions; the MAC
  // address and other registers survive (r8169 rtl_hw_reset / rtl_chipcmd_cond).
  trace.chip_reset(0);
  tx.reset();
  rx.reset();
  cancel(EventKind::ChipResetDone);
  schedule_in(timing_.chip_reset_time, EventKind::ChipResetDone);
}

std::span<const EventSpec> Device::events() {
  static constexpr EventSpec kEvents[] = {
      {.kind = EventKind::ChipResetDone,
       .run = [](Device& d, uint64_t) { d.software_reset_done(); },
       .max_delay = [](const Device& d) -> Time { return d.timing().chip_reset_time; },
       // Set by a ChipCmd write (software_reset_start), cleared only here.
       .pending = [](const Device& d, unsigned) { return pending_if(d.regs.u8(reg::ChipCmd) & reg::CmdReset); },
       .mismatch = "ChipCmd reset bit does not match its completion event"},
  };
  return kEvents;
}

void Device::software_reset_done() {
  const uint8_t cmd = regs.u8(reg::ChipCmd);
  regs.set8(reg::ChipCmd, static_cast<uint8_t>((cmd & ~(reg::CmdReset | reg::CmdRxEnb | reg::CmdTxEnb |
                                                        reg::CmdStopReq)) | reg::RxBufEmpty));
  tx.reset();
  rx.reset();
  trace.chip_reset(1);
}

void Device::on_link_change() {
  if (cfg_.profile->phystatus_width == 2) {
    regs.set16(reg::PHYstatus, phy.mac_status());
  } else {
    regs.set8(reg::PHYstatus, static_cast<uint8_t>(phy.mac_status()));
  }
  trace.link_change(phy.link_up(), phy.speed_mbps());
  irq.raise(reg::LinkChg);
  if (phy.link_up()) wake::on_link_up(*this);
}

void Device::timer_expired(Time now) {
  Entry entry(*this, now);
  advance_to(now);
  finish_entry();
}

bool Device::can_receive(Time now) {
  Entry entry(*this, now);
  advance_to(now);
  finish_entry();
  return rx.can_receive();
}

size_t Device::receive(Time now, std::span<const uint8_t> frame) {
  Entry entry(*this, now);
  advance_to(now);
  // The wake detector sees the frame whether the receiver takes it or not.
  wake::on_frame(*this, frame);
  const bool taken = rx.receive(frame);
  advance_to(now_);
  finish_entry();
  return taken ? frame.size() : 0;
}

void Device::set_link(Time now, bool up) {
  Entry entry(*this, now);
  advance_to(now);
  phy.set_host_link(up);
  advance_to(now_);
  finish_entry();
}

bool Device::dma_read(uint64_t addr, void* buf, size_t len) {
  if (len == 0) return true;
  work_dma_++;
  if (faults.dma_fails(false, addr, len)) {  // injected (fault_fired traced): the host is not asked
    std::memset(buf, 0, len);
    return false;
  }
  if (addr + len < addr || ops_.dma_read(ops_.opaque, addr, buf, len) != 0) {
    trace.dma_failed(addr, len, 0);
    std::memset(buf, 0, len);
    return false;
  }
  return true;
}

bool Device::dma_write(uint64_t addr, const void* buf, size_t len) {
  if (len == 0) return true;
  work_dma_++;
  if (faults.dma_fails(true, addr, len)) return false;  // injected: guest memory untouched
  if (addr + len < addr || ops_.dma_write(ops_.opaque, addr, buf, len) != 0) {
    trace.dma_failed(addr, len, 1);
    return false;
  }
  return true;
}

}  // namespace rtl8168sim
