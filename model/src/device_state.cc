// SPDX-License-Identifier: GPL-2.0-or-later
// The device's state blob (rtl8168_state_save / rtl8168_state_load).
//
// A blob is hostile input: QEMU treats a migration stream so, and so do
// we. Loading decodes it into a scratch device first; every field is checked
// against every other (descriptor lengths against totals, cursors against
// the frame, read lengths against the PCIe limits, FIFO accounting, engine
// phases against the pending events, the INT level against
// IntrStatus/IntrMask) and only a blob that passes is then applied to the
// live device. A refused load therefore changes nothing: no register, no
// counter, no trace record.
//
// Layout (little-endian, version 3): magic, version, chip id, now, register
// file, IRQ, PHY, TX, RX, tally, timer, side buses (ERI/EPHY/CSI; only for
// profiles that have them), statistics field by field (each by name in
// kStatsFields, so adding a counter is a visible layout change), trace hash
// and count, TxPoll read-back deadlines, pending events, next event
// sequence number; then (version 4) the fault-injection state: the
// statistics added with it, the PHY's link-fault state and the fault
// schedule with its counters (fault_injector.h). Appended at the end so the
// offsets of everything before stay what they were in version 3.
#include <algorithm>
#include <cstring>
#include <iterator>

#include "device.h"

namespace rtl8168sim {

namespace {

constexpr char kMagic[8] = {'R', '8', '1', '6', '8', 'S', 'T', '\0'};
// 2: RX FIFO entries carry their reservation. 3: chip timer, statistics
// field by field, TX error stop, validated cross-field. 4: fault injection.
// 5: the TX descriptor prefetcher and the RX engine's read of the next descriptor.
constexpr uint32_t kStateVersion = 5;
constexpr uint32_t kMaxEvents = 64;  // far above what the engines keep pending (about 12)
// The clock and the event sequence number count up from 0 at power-on (one
// per scheduled event); 2^62 is 146 years of virtual time. Later values were
// never reached, and near 2^64 the model's own sums (an event's deadline,
// TxPoll's read-back window, the next sequence number) would wrap.
constexpr uint64_t kMaxClock = uint64_t{1} << 62;
constexpr uint64_t kMaxSeq = uint64_t{1} << 62;

constexpr uint64_t rtl8168_stats::*kStatsFields[] = {
    &rtl8168_stats::tx_frames,          &rtl8168_stats::tx_bytes,
    &rtl8168_stats::tx_errors,          &rtl8168_stats::tx_dma_errors,
    &rtl8168_stats::tx_bad_descriptors, &rtl8168_stats::tx_doorbells,
    &rtl8168_stats::tx_doorbells_ignored, &rtl8168_stats::rx_frames,
    &rtl8168_stats::rx_bytes,           &rtl8168_stats::rx_dropped_filter,
    &rtl8168_stats::rx_dropped_no_desc, &rtl8168_stats::rx_dropped_disabled,
    &rtl8168_stats::rx_dropped_too_long, &rtl8168_stats::rx_dropped_dma,
    &rtl8168_stats::rx_dropped_runt,    &rtl8168_stats::msi_sent,
    &rtl8168_stats::intx_edges,         &rtl8168_stats::bad_access,
    &rtl8168_stats::ring_no_eor,        &rtl8168_stats::tx_dropped_link_down,
    &rtl8168_stats::sys_errors,         &rtl8168_stats::tx_writeback_errors,
    &rtl8168_stats::bad_calls,          &rtl8168_stats::work_yields,
};
// Version 4's tail.
constexpr uint64_t rtl8168_stats::*kFaultStatsFields[] = {
    &rtl8168_stats::faults_fired,
    &rtl8168_stats::rx_dropped_fifo_over,
};
static_assert((std::size(kStatsFields) + std::size(kFaultStatsFields)) * sizeof(uint64_t) ==
                  sizeof(rtl8168_stats),
              "every rtl8168_stats field must be listed in kStatsFields or kFaultStatsFields");

}  // namespace

// Everything after the magic, in blob order, for save and load alike. When
// loading, a version or chip that is not this device's fails the archive
// and says which in *why.
void Device::visit_state(Archive& a, std::string* why) {
  uint32_t version = kStateVersion;
  a.io(version);
  if (a.loading() && (!a.ok() || version != kStateVersion)) {
    if (why) {
      *why = "unsupported state version " + std::to_string(version) + " (expected " +
             std::to_string(kStateVersion) + ")";
    }
    a.fail();
    return;
  }
  std::vector<uint8_t> id(cfg_.profile->id.begin(), cfg_.profile->id.end());
  a.bytes(id, 64);
  if (a.loading() && std::string(id.begin(), id.end()) != cfg_.profile->id) {
    if (why) {
      *why = "state is for chip '" + std::string(id.begin(), id.end()) + "', device is '" +
             std::string(cfg_.profile->id) + "'";
    }
    a.fail();
    return;
  }
  a.io(now_);
  std::vector<uint8_t> rf(regs.raw().begin(), regs.raw().end());
  a.bytes(rf, reg::kFileSize);
  if (a.loading()) {
    if (rf.size() == reg::kFileSize) std::copy(rf.begin(), rf.end(), regs.raw().begin());
    else a.fail();
  }
  irq.visit(a);
  phy.visit(a);
  tx.visit(a);
  rx.visit(a);
  tally.visit(a);
  timer.visit(a);
  // Profiles with side buses only (the 8168c blob is unchanged).
  if (cfg_.profile->side_buses) side.visit(a);
  for (const auto field : kStatsFields) a.io(stats.*field);
  uint64_t hash = trace.hash(), count = trace.count();
  a.io(hash);
  a.io(count);
  if (a.loading()) trace.restore(hash, count);
  txpoll.visit(a);
  std::vector<Event> events = sched_.sorted();
  const uint32_t n = a.count(events.size(), kMaxEvents);
  if (a.loading()) events.assign(n, Event{});
  for (uint32_t i = 0; i < n && a.ok(); i++) {
    Event& e = events[i];
    a.io(e.time);
    a.io(e.seq);
    a.io(e.kind);
    a.io(e.arg);
    if (e.kind >= EventKind::kCount) a.fail();
  }
  uint64_t next_seq = sched_.next_seq();
  a.io(next_seq);
  if (a.loading() && a.ok()) sched_.restore(std::move(events), next_seq);
  // Version 4: fault injection.
  for (const auto field : kFaultStatsFields) a.io(stats.*field);
  phy.visit_faults(a);
  faults.visit(a);
}

std::vector<uint8_t> Device::save() const {
  std::vector<uint8_t> out;
  out.reserve(16384);
  out.insert(out.end(), kMagic, kMagic + sizeof kMagic);
  Archive a(out);
  // visit() only reads the members when writing.
  const_cast<Device*>(this)->visit_state(a, nullptr);
  return out;
}

// The longest delay after which a component schedules an event of `kind`
// under this device's configuration: the schedule_in() calls with the
// largest arguments they can take. Parameters are bounded (config.cc), so
// every bound is finite; a loaded event further ahead was never scheduled and
// would hold its engine for good (at RTL8168_NO_DEADLINE the host is even
// told that nothing is pending).
Time Device::max_event_delay(EventKind kind) const {
  const TimingParams& t = timing_;
  const Time yield = RTL8168_WORK_YIELD_NS;  // paced(): a yield resumes at most this far ahead
  switch (kind) {
    case EventKind::PhyarDone: return t.phyar_time;
    case EventKind::PhyResetDone: return t.phy_reset_time;
    // autoneg-slow may have lengthened it (even if the fault is gone since).
    case EventKind::PhyAnDone: return t.phy_an_time + FaultInjector::kMaxAutonegDelay;
    case EventKind::ChipResetDone: return t.chip_reset_time;
    case EventKind::DtccrDone: return t.dtccr_time + dma_write_time(t, 64);
    case EventKind::TxDmaDone: return std::max(dma_read_time(t, TxEngine::kMaxReadRequest), yield);
    // The largest FIFO frame (TxEngine::check) at the slowest link speed.
    case EventKind::TxWireDone: return std::max(wire_time(cfg_.profile->max_frame + 8, 10), yield);
    case EventKind::RxDescDone: return std::max(dma_read_time(t, 16), yield);
    // The largest RX FIFO frame (RxEngine::visit) and its 8-byte write-back.
    case EventKind::RxWriteDone: return dma_write_time(t, desc::kRxBufSizeMask) + dma_write_time(t, 8);
    case EventKind::MitigationTimer: return Irq::kMaxTimerDelay;
    // One full turn of the 32-bit counter (ChipTimer::next_match), rounded up.
    case EventKind::ChipTimer: {
      const uint64_t mhz = t.timer_clock_mhz ? t.timer_clock_mhz : 1;
      return ((uint64_t{1} << 32) * 1000 + mhz - 1) / mhz + 1;
    }
    case EventKind::SideBusDone: return std::max({t.eri_time, t.ephy_time, t.csi_time});
    // A fault's own time (check_events() wants exactly the schedule's next).
    case EventKind::FaultTimer: return kMaxClock;
    case EventKind::TxDescDone:
    case EventKind::RxPrefetchDone: return std::max(dma_read_time(t, 16), yield);
    case EventKind::kCount: break;
  }
  return 0;
}

// The pending events must be exactly the ones the engines' phases imply: a
// blob that claims a read in flight without its completion event (or the
// reverse) would leave an engine waiting forever or completing a read that
// was never issued.
const char* Device::check_events() const {
  const std::vector<Event> events = sched_.sorted();
  unsigned n[static_cast<size_t>(EventKind::kCount)] = {};
  for (const Event& e : events) {
    if (e.time < now_) return "pending event in the past";
    if (e.time - now_ > max_event_delay(e.kind)) return "pending event further ahead than its kind is scheduled";
    if (e.seq >= sched_.next_seq()) return "event sequence number from the future";
    n[static_cast<size_t>(e.kind)]++;
  }
  std::vector<uint64_t> seqs;
  for (const Event& e : events) seqs.push_back(e.seq);
  std::sort(seqs.begin(), seqs.end());
  if (std::adjacent_find(seqs.begin(), seqs.end()) != seqs.end()) return "duplicate event";
  auto count = [&](EventKind k) { return n[static_cast<size_t>(k)]; };
  if (count(EventKind::TxDmaDone) != (tx.read_in_flight() ? 1u : 0u))
    return "TX read in flight does not match its completion event";
  if (count(EventKind::TxDescDone) != (tx.prefetch_in_flight() ? 1u : 0u))
    return "TX descriptor prefetch does not match its completion event";
  if (count(EventKind::RxPrefetchDone) != (rx.prefetch_in_flight() ? 1u : 0u))
    return "RX descriptor prefetch does not match its completion event";
  if (count(EventKind::TxWireDone) != (tx.wire_busy() ? 1u : 0u))
    return "TX wire state does not match its event";
  if (count(EventKind::RxDescDone) != (rx.desc_fetch_in_flight() ? 1u : 0u))
    return "RX descriptor fetch does not match its event";
  if (count(EventKind::RxWriteDone) != (rx.write_in_flight() ? 1u : 0u))
    return "RX write does not match its event";
  if (count(EventKind::ChipTimer) != (regs.u32(reg::TimerInt) != 0 ? 1u : 0u))
    return "timer event does not match TimerInt";
  const bool resetting = regs.u8(reg::ChipCmd) & reg::CmdReset;
  if (count(EventKind::ChipResetDone) != (resetting ? 1u : 0u))
    return "ChipCmd reset bit does not match its completion event";
  // A command in progress has its completion pending; the driver may clear
  // the command bits meanwhile (a CounterAddrLow write), which leaves a
  // completion that does nothing.
  const bool dtccr = regs.u32(reg::CounterAddrLow) & (reg::CounterDump | reg::CounterReset);
  if (count(EventKind::DtccrDone) > 1 || (dtccr && count(EventKind::DtccrDone) == 0))
    return "tally command without its completion event";
  // A BMCR RESET write schedules its self-clear (Phy::schedule_reset_done)
  // and only that event clears the bit; without it the reset never ends and
  // the driver's soft-reset poll times out.
  if (phy.reset_in_progress() && count(EventKind::PhyResetDone) == 0)
    return "PHY reset without its completion event";
  if (count(EventKind::PhyarDone) > 1 || count(EventKind::PhyResetDone) > 1 ||
      count(EventKind::PhyAnDone) > 1 || count(EventKind::MitigationTimer) > 2)
    return "duplicate event of a kind the device keeps once";
  for (unsigned which = 0; which < 2; which++) {
    bool found = false;
    for (const Event& e : events) {
      found |= e.kind == EventKind::MitigationTimer && e.arg == irq.mitigation_timer_arg(which);
    }
    if (found != irq.mitigation_timer_armed(which)) return "mitigation timer state inconsistent";
  }
  unsigned busy_buses = 0;
  for (unsigned b = 0; b < SideBus::kBuses; b++) {
    busy_buses += side.busy(static_cast<SideBus::Bus>(b));
    unsigned pending = 0;
    for (const Event& e : events) pending += e.kind == EventKind::SideBusDone && e.arg == b;
    if (pending != (side.busy(static_cast<SideBus::Bus>(b)) ? 1u : 0u))
      return "side-bus access does not match its completion event";
  }
  if (count(EventKind::SideBusDone) != busy_buses) return "side-bus event for no bus";
  // FaultInjector::reschedule() keeps one FaultTimer at the schedule's next
  // firing, and none when nothing is due.
  const Time due = faults.next_due();
  if (count(EventKind::FaultTimer) != (due != kNever ? 1u : 0u))
    return "fault timer does not match the fault schedule";
  for (const Event& e : events) {
    if (e.kind == EventKind::FaultTimer && e.time != due) return "fault timer not at the schedule's next firing";
  }
  return nullptr;
}

bool Device::decode_state(std::span<const uint8_t> blob, std::string& err) {
  if (blob.size() < sizeof kMagic || std::memcmp(blob.data(), kMagic, sizeof kMagic) != 0) {
    err = "not an rtl8168 state blob (bad magic)";
    return false;
  }
  Archive a(blob.subspan(sizeof kMagic));
  std::string header_error;
  visit_state(a, &header_error);
  if (!a.ok() || !a.at_end()) {
    err = header_error.empty() ? "truncated or corrupt state blob" : header_error;
    return false;
  }
  // Cross-field consistency, component by component, then the events.
  const char* why = nullptr;
  if (now_ > kMaxClock) why = "clock beyond the model's range";
  if (!why && sched_.next_seq() > kMaxSeq) why = "event sequence number beyond the model's range";
  if (!why) why = regs.check_fixed_bits(cfg_.profile->txconfig_reset);
  if (!why) why = txpoll.check(now_);
  if (!why) why = irq.check();
  if (!why) why = phy.check();
  if (!why) why = tx.check();
  if (!why) why = rx.check();
  if (!why) why = timer.check(now_);
  if (!why && cfg_.profile->side_buses) why = side.check();
  if (!why) why = faults.check();
  if (!why) why = check_events();
  if (why) {
    err = std::string("inconsistent state blob: ") + why;
    return false;
  }
  return true;
}

std::string Device::load(std::span<const uint8_t> blob) {
  {
    // Decode and check on a scratch device: the live one is untouched by a
    // blob that is refused. The scratch device calls no host callback.
    Device scratch(cfg_, ops_);
    std::string err;
    if (!scratch.decode_state(blob, err)) return err;
  }
  std::string err;
  if (!decode_state(blob, err)) {
    // Cannot happen: decoding is a pure function of the blob, and the
    // scratch device just decoded it. Never run half-loaded.
    power_on_reset(now_);
    return "internal error: a checked blob failed to load (" + err + "); device reset";
  }
  outbox_.clear();
  // No trace record (the hash must continue exactly as on the saving side)
  // and never an MSI here: the host timer is re-armed and the INTx line
  // re-driven to the restored level (idempotent for a host that restored it).
  const Time next = sched_.next_time();
  armed_ = next;
  ops_.timer_arm(ops_.opaque, next);
  ops_.set_intx(ops_.opaque, irq.intx_asserted() ? 1 : 0);
  return {};
}

}  // namespace rtl8168sim
