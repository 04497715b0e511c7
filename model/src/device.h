// SPDX-License-Identifier: GPL-2.0-or-later
// The device: owns the register file, the engines, the interrupt
// controller, the PHY, the scheduler and the trace, and implements the C
// API's entry points (api.cc is a thin extern "C" wrapper around it).
//
// Every entry point first runs the events that fell due before `now` (in
// time order, each at its own time), then performs the access at `now`,
// then runs what became due at `now` and re-arms the host timer. In
// functional mode every latency is zero, so the same code path completes
// all work inside the entry point that caused it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "chip_timer.h"
#include "config.h"
#include "fault_injector.h"
#include "irq.h"
#include "mac_ocp.h"
#include "pcie_link.h"
#include "phy.h"
#include "reg_file.h"
#include "rtl8168/rtl8168.h"
#include "rx_engine.h"
#include "scheduler.h"
#include "side_bus.h"
#include "tally.h"
#include "tracer.h"
#include "tx_engine.h"
#include "tx_poll.h"
#include "tx_outbox.h"
#include "wide_regs.h"

namespace rtl8168sim {

class Device {
 public:
  // Its events: handlers, longest delays, when each is pending (events.h).
  static std::span<const EventSpec> events();
  Device(const Config& cfg, const rtl8168_host_ops& ops);
  // The clock and the event sequence number count up from 0 at power-on (one
  // per scheduled event); 2^62 is 146 years of virtual time. Later values were
  // never reached, and near 2^64 the model's own sums (an event's deadline,
  // TxPoll's read-back window, the next sequence number) would wrap. A state
  // blob beyond either is refused.
  static constexpr uint64_t kMaxClock = uint64_t{1} << 62;
  static constexpr uint64_t kMaxSeq = uint64_t{1} << 62;

  // ---- entry points (C API) ----
  void power_on_reset(Time now);
  uint64_t reg_read(Time now, uint32_t off, unsigned size);
  void reg_write(Time now, uint32_t off, uint64_t value, unsigned size);
  void timer_expired(Time now);
  bool can_receive(Time now);
  size_t receive(Time now, std::span<const uint8_t> frame);
  void set_link(Time now, bool up);
  // A write to the function's PCI configuration space, as the guest made it.
  void pci_config_write(Time now, uint32_t addr, uint32_t value, unsigned len);
  std::vector<uint8_t> save() const;
  std::string load(std::span<const uint8_t> blob);  // empty on success
  // Fault injection (fault_injector.h): add faults from a spec (empty string
  // on success, else why nothing was added), drop them all, list them.
  std::string add_faults(Time now, std::string_view spec);
  void clear_faults(Time now);
  std::string faults_json() const { return faults.to_json(); }

  // ---- services for the components ----
  Time now() const { return now_; }
  const Config& config() const { return cfg_; }
  const TimingParams& timing() const { return timing_; }
  void schedule_in(Time delay, EventKind kind, uint64_t arg = 0) {
    sched_.schedule(now_ + delay, kind, arg);
  }
  void cancel(EventKind kind) { sched_.cancel(kind); }
  void cancel(EventKind kind, uint64_t arg) { sched_.cancel(kind, arg); }
  bool pending(EventKind kind) const { return sched_.pending(kind); }
  // Work bound per entry point (rtl8168.h RTL8168_MAX_DMA_PER_CALL): the
  // delay an engine should use for its next step. Unchanged while the
  // entry point's budget lasts; once it is spent, the step is parked
  // RTL8168_WORK_YIELD_NS after the time the host called for, so the host's
  // timer continues it and every event due at that time has still run.
  // (In line: every engine step asks, and almost every one is within budget.)
  Time paced(Time delay) {
    if (work_dma_ + kDmaHeadroom < RTL8168_MAX_DMA_PER_CALL &&
        work_frames_ + kFrameHeadroom < RTL8168_MAX_FRAMES_PER_CALL) [[likely]] {
      return delay;
    }
    return paced_past_budget(delay);
  }
  // The time the host called the current entry point for (>= now()).
  Time call_time() const { return entry_now_; }
  bool dma_read(uint64_t addr, void* buf, size_t len);
  bool dma_write(uint64_t addr, const void* buf, size_t len);
  // A frame left the wire: the host's transmit() gets it when the entry
  // point has finished (tx_outbox.h). Takes the bytes; `frame` gets a spare
  // buffer back.
  void transmit(std::vector<uint8_t>& frame) {
    work_frames_++;
    outbox_.push(frame);
  }
  // One error, counted where the host and the driver see it: `counter` (a
  // field of `stats`), SYSErr also in sys_errors, the tally's TX or RX error
  // count, and the IntrStatus bits `intr` (none when 0).
  enum class TallyError { None, Tx, Rx };
  void account_error(uint64_t& counter, uint16_t intr, TallyError tally);
  // An API call the host should not have made (e.g. receive of NULL).
  void bad_call(Time now);
  void rx_ready();
  bool msi_enabled() const { return ops_.msi_enabled(ops_.opaque); }
  // Interrupt messages are TLPs: they end ASPM L1 (pcie_link.h).
  void msi_notify(unsigned vector = 0) {
    link.chip_message();
    ops_.msi_notify(ops_.opaque, vector);
  }
  void set_intx(int level) {
    link.chip_message();
    ops_.set_intx(ops_.opaque, level);
  }
  // A DMA the chip is about to start: the delay before its first TLP can go
  // (what is left of an ASPM L1 exit; 0 on a link in L0).
  Time link_wake() { return link.chip_dma(); }
  // PHY -> MAC: link state changed (PHYstatus from the PHY, LinkChg; a
  // link-up may be a wake event, wake.h).
  void on_link_change();
  // A Wake-on-LAN event the registers armed (wake.h): traced, then the
  // host's PME (its PM capability sets PME_Status).
  void wake_event(uint32_t event) {
    trace.wake(event);
    if (ops_.pme) ops_.pme(ops_.opaque);
  }
  // A register's stored value wherever it sits: the 256-byte file or, on
  // profiles with a larger window, the rows above it (a ring base, DescRing).
  uint32_t reg32(uint32_t off) const { return off < reg::kFileSize ? regs.u32(off) : wide.u32(off); }
  uint64_t reg64(uint32_t lo, uint32_t hi) const { return uint64_t{reg32(hi)} << 32 | reg32(lo); }
  // RX VLAN tag removal is on: CPlusCmd RxVlan on the 8168s, RxConfig bits
  // 22/23 on the 8125 (ChipProfile::rx_vlan_rxconfig).
  bool rx_vlan_strip() const;
  // irq-race (fault_injector.h): is a device event pending that could run
  // now, and run the earliest one at once (its completion comes early).
  bool has_pullable_event() const;
  void pull_next_event();

  RegFile regs;
  WideRegs wide;  // the registers above the file (profiles with a larger window)
  Irq irq;
  Phy phy;
  TxEngine tx;
  TxPoll txpoll;  // the doorbell register: doorbells, NPQ/HPQ read-back
  RxEngine rx;
  Tally tally;
  ChipTimer timer;
  SideBus side;  // ERI / EPHY / CSI of profiles with side_buses
  MacOcp mac_ocp;  // the MAC OCP space of profiles with mac_ocp (8168g class)
  PcieLink link;   // ASPM L1 of profiles that model it (8168h)
  rtl8168_stats stats{};
  FaultInjector faults{*this};  // the fault schedule (test-bench state)
  // Typed trace events (rtl8168/trace_events.def): trace.reg_read(off, size, v).
  Tracer trace{ops_, now_};
  uint64_t trace_hash() const { return trace.hash(); }
  uint64_t trace_count() const { return trace.count(); }

 private:
  // Marks one entry point; the outermost one (re-entry from transmit() /
  // rx_ready() nests) opens a fresh work budget.
  struct Entry {
    Entry(Device& d, Time now) : d_(d) {
      if (d_.depth_++ == 0) {
        d_.entry_now_ = now > d_.now_ ? now : d_.now_;
        d_.work_dma_ = d_.work_frames_ = 0;
        d_.yielded_ = false;
      }
    }
    ~Entry() { d_.depth_--; }
    Device& d_;
  };
  // Run every event due up to `now`, each at its own time, then move the
  // clock to `now` (never backwards). Most entry points find nothing due:
  // that case stays in line.
  void advance_to(Time now) {
    const Time to = now > now_ ? now : now_;
    if (sched_.next_time() > to) {
      now_ = to;
      return;
    }
    run_due(to);
  }
  // Head room below the public work bounds: once the budget is spent, the
  // events already due (at most one per engine stage) still run, each with a
  // bounded amount of synchronous DMA (a frame's write-backs: <= 65
  // descriptors).
  static constexpr uint64_t kDmaHeadroom = 512;
  static constexpr uint64_t kFrameHeadroom = 16;
  Time paced_past_budget(Time delay);  // paced() once the budget is spent
  void run_due(Time to);
  void finish_entry();        // hand out frames, re-arm the host timer, rx_ready
  void dispatch(const Event& e);
  void on_write_hook(Hook hook, uint32_t reg_offset, uint8_t written, uint8_t old_cmd);
  void software_reset_start();
  void software_reset_done();
  void complete_access_flag(uint32_t reg_offset);
  uint64_t live_read(uint32_t off, unsigned size) const;
  // State blob (device_state.cc): decode into *this; false with a reason
  // when the blob is malformed or inconsistent.
  bool decode_state(std::span<const uint8_t> blob, std::string& err);
  void visit_state(Archive& a, std::string* why);
  const char* check_events() const;

  Config cfg_;
  std::vector<FaultSpec> configured_faults_;  // the `faults` parameter, parsed
  TimingParams timing_;
  rtl8168_host_ops ops_;
  Scheduler sched_;
  TxOutbox outbox_;
  Time now_ = 0;
  Time armed_ = kNever;
  // Work done by the current outermost entry point.
  unsigned depth_ = 0;
  Time entry_now_ = 0;
  uint64_t work_dma_ = 0, work_frames_ = 0;
  bool yielded_ = false;
  // The register write being handled found the link in ASPM L1 (TxPoll's
  // aspm-l1-txpoll-lost quirk asks).
  bool access_woke_link_ = false;
};

}  // namespace rtl8168sim
