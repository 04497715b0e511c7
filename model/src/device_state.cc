// SPDX-License-Identifier: GPL-2.0-or-later
// The device's state blob (rtl8168_state_save / rtl8168_state_load).
//
// A blob is hostile input: QEMU treats a migration stream so, and so do
// we. Loading decodes it into a scratch device first; every field is checked
// against every other (cursors against the frame's descriptors, read
// lengths against the PCIe limits, FIFO reservations against the frames,
// engine phases against the pending events, the INT level against
// IntrStatus/IntrMask) and only a blob that passes is then applied to the
// live device. A refused load therefore changes nothing: no register, no
// counter, no trace record.
//
// Layout (little-endian): magic, version, chip id, now, register file, IRQ,
// PHY, TX, RX, tally, timer, side buses (ERI/EPHY/CSI) and the MAC OCP
// space for the profiles that have them, statistics field by field (the
// MAIN counters of rtl8168/stats.def in its order: adding a counter changes
// the layout), trace hash and count, TxPoll read-back deadlines, pending
// events, next event sequence number; then the fault-injection state: its
// statistics (stats.def's FAULTS counters), the PHY's link-fault state and
// the fault schedule with its counters (fault_injector.h). Then, for the
// profiles that have them, the PCIe link (ASPM L1) with its counters
// (stats.def's LINK counters), the registers above the 256-byte file
// (wide_regs.h), the extended tally's state (tally.h) and the per-queue
// interrupt registers (irq_queues.h). A field the device can recompute from
// the others is not in the blob: the components derive it on load
// (TxEngine::derive_loaded(), DescCache's slots).
#include <algorithm>
#include <cstring>
#include <iterator>

#include "device.h"

namespace rtl8168sim {

namespace {

constexpr char kMagic[8] = {'R', '8', '1', '6', '8', 'S', 'T', '\0'};
// The layout's number: a blob of any other number is refused, not
// converted (docs/ARCHITECTURE.md "State": a blob is the state of the model
// that saved it, and only the same layout is checked field by field).
constexpr uint32_t kStateVersion = 7;
constexpr uint32_t kMaxEvents = 64;  // far above what the engines keep pending (about 12)

// The counters in blob order (rtl8168/stats.def): the statistics block and
// the fault-injection part of the blob.
#define RTL8168_STAT_MAIN(name) &rtl8168_stats::name,
#define RTL8168_STAT_FAULTS(name)
#define RTL8168_STAT_LINK(name)
#define RTL8168_STAT(name, blob, fault_drop, doc) RTL8168_STAT_##blob(name)
constexpr uint64_t rtl8168_stats::*kStatsFields[] = {
#include "rtl8168/stats.def"
};
#undef RTL8168_STAT_MAIN
#undef RTL8168_STAT_FAULTS
#define RTL8168_STAT_MAIN(name)
#define RTL8168_STAT_FAULTS(name) &rtl8168_stats::name,
constexpr uint64_t rtl8168_stats::*kFaultStatsFields[] = {
#include "rtl8168/stats.def"
};
#undef RTL8168_STAT_FAULTS
#undef RTL8168_STAT_LINK
#define RTL8168_STAT_FAULTS(name)
#define RTL8168_STAT_LINK(name) &rtl8168_stats::name,
constexpr uint64_t rtl8168_stats::*kLinkStatsFields[] = {
#include "rtl8168/stats.def"
};
#undef RTL8168_STAT
#undef RTL8168_STAT_MAIN
#undef RTL8168_STAT_FAULTS
#undef RTL8168_STAT_LINK
static_assert((std::size(kStatsFields) + std::size(kFaultStatsFields) +
               std::size(kLinkStatsFields)) * sizeof(uint64_t) ==
                  sizeof(rtl8168_stats),
              "every rtl8168_stats field is in one part of the blob (stats.def)");

}  // namespace

// Everything after the magic, in blob order, for save and load alike. When
// loading, a version or chip that is not this device's fails the archive
// and says which in *why.
void Device::visit_state(Archive& a, std::string* why) {
  uint32_t version = kStateVersion;
  a.io(version);
  if (a.loading() && (!a.ok() || version != kStateVersion)) {
    if (why) {
      *why = "unsupported state version " + std::to_string(version) +
             " (this model loads version " + std::to_string(kStateVersion) +
             " only; blobs of other versions are not converted)";
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
  // Profiles with side buses only.
  if (cfg_.profile->side_buses) side.visit(a);
  // The MAC OCP space (8168g class only).
  if (cfg_.profile->mac_ocp) mac_ocp.visit(a);
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
  // Fault injection.
  for (const auto field : kFaultStatsFields) a.io(stats.*field);
  phy.visit_faults(a);
  faults.visit(a);
  // The PCIe link's power state and its counters (profiles that model ASPM
  // L1 only).
  if (cfg_.profile->pci.aspm.l1) {
    link.visit(a);
    for (const auto field : kLinkStatsFields) a.io(stats.*field);
  }
  // The registers above the 256-byte file and the extended tally's state
  // (profiles that have them only).
  if (!wide.empty()) wide.visit(a);
  if (cfg_.profile->tally_ext_ocp) tally.visit_ext(a);
  // The per-queue interrupt registers and message levels (irq_queues.h;
  // profiles that have them only).
  if (cfg_.profile->queue_irqs) irq.visit_queues(a);
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

// The pending events of one kind against what its component's state says
// (EventSpec::pending), instance by instance: each (kind, argument) pending
// at most once, none with an argument no instance has, at its exact time
// where the kind has one.
static const char* check_pending(const Device& d, const EventSpec& spec, std::span<const Event> events) {
  unsigned total = 0, matched = 0;
  for (const Event& e : events) total += e.kind == spec.kind;
  for (unsigned i = 0; i < spec.instances; i++) {
    unsigned n = 0;
    for (const Event& e : events) {
      n += e.kind == spec.kind && (!spec.instance_arg || e.arg == spec.instance_arg(d, i));
    }
    matched += n;
    const Pending rule = spec.pending(d, i);
    if ((rule == Pending::Yes && n == 0) || (rule == Pending::No && n != 0)) return spec.mismatch;
    if (n > 1) return "duplicate event of a kind the device keeps once";
  }
  if (matched != total) return spec.mismatch;  // an argument no instance has
  for (const Event& e : events) {
    if (e.kind == spec.kind && spec.due && e.time != spec.due(d)) return spec.mistimed;
  }
  return nullptr;
}

// The pending events must be exactly the ones the components' states imply:
// a blob that claims a read in flight without its completion event (or the
// reverse) would leave an engine waiting forever or completing a read that
// was never issued. None is further ahead than its kind is ever scheduled
// under this configuration (EventSpec::max_delay: parameters are bounded in
// config.cc, so every bound is finite); such an event would hold its engine
// for good (at RTL8168_NO_DEADLINE the host is even told that nothing is
// pending).
const char* Device::check_events() const {
  const std::vector<Event> events = sched_.sorted();
  for (const Event& e : events) {
    if (e.time < now_) return "pending event in the past";
    if (e.time - now_ > event_spec(e.kind).max_delay(*this)) return "pending event further ahead than its kind is scheduled";
    if (e.seq >= sched_.next_seq()) return "event sequence number from the future";
  }
  std::vector<uint64_t> seqs;
  for (const Event& e : events) seqs.push_back(e.seq);
  std::sort(seqs.begin(), seqs.end());
  if (std::adjacent_find(seqs.begin(), seqs.end()) != seqs.end()) return "duplicate event";
  for (size_t k = 0; k < static_cast<size_t>(EventKind::kCount); k++) {
    if (const char* why = check_pending(*this, event_spec(static_cast<EventKind>(k)), events)) return why;
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
  if (!why) why = regs.check_fixed_bits(*cfg_.profile);
  if (!why) why = txpoll.check(now_);
  if (!why) why = irq.check();
  if (!why) why = phy.check();
  if (!why) why = tx.check();
  if (!why) why = rx.check();
  if (!why) why = timer.check(now_);
  if (!why && cfg_.profile->side_buses) why = side.check();
  if (!why) why = faults.check();
  if (!why && link.modelled()) why = link.check(now_);
  if (!why && cfg_.profile->tally_ext_ocp &&
      (tally.ext.tx_octets_base > stats.tx_bytes || tally.ext.rx_octets_base > stats.rx_bytes))
    why = "extended tally octet base above the byte counter";
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
