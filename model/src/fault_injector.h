// SPDX-License-Identifier: GPL-2.0-or-later
// Deterministic fault injection (docs/FAULTS.md): a schedule of faults, each
// a trigger plus an action, parsed from a small text spec
//
//   dma-read:nth=5            rx-withhold:at=1ms,count=50     link:at=5ms,down
//   dma-write:addr=0x1000-0x1fff   spurious-irq:at=2ms,bits=0x8001
//   irq-race:after=read       tx-stop-fetch:frame=20          autoneg-slow:delay=3ms
//
// and consulted by the device at a few named hook points (Device::dma_read /
// dma_write, the IntrStatus read/ack path of irq.cc, RX descriptor fetch and
// FIFO admission in rx_engine.cc, the TX engine's descriptor fetch at a frame
// boundary, the PHY's autonegotiation start, and one scheduler event for the
// faults that fire at a virtual time). Every trigger is a function of the
// device's inputs and virtual time only: counts of occurrences seen at a hook,
// the clock, an address window. No host clock, no random numbers.
//
// A schedule is test-bench state, not chip state: a power-on / PCI function
// reset (rtl8168_reset) drops every fault and re-installs the configured
// schedule (the `faults` parameter) with its counters at zero; a ChipCmd
// software reset leaves the schedule alone (it is the driver's recovery path
// the faults exercise) but ends the TX stall of tx-stop-fetch, as it ends any
// TX engine stop.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "events.h"
#include "rtl8168/fault_classes.h"
#include "state_io.h"
#include "timing.h"

namespace rtl8168sim {

class Device;

// The classes, their spec names and keys: rtl8168/fault_classes.h. The DMA
// classes take the paths a failed host DMA takes: TxErr/RxErr with SYSErr,
// and a failed TX write-back stops the TX engine until a restart
// (tx_engine.cc stop_on_error). r8169 rtl8169_interrupt treats SYSErr as a
// PCI error (rtl8169_pcierr_interrupt -> rtl_reset_work); since 10ce0db78700
// "r8169: avoid unsolicited interrupts" only on mac_version <= VER_06.
enum class FaultClass : uint8_t {
#define RTL8168_FAULT_CLASS_ENUM(code, Name, ...) Name = code,
  RTL8168_FAULT_CLASSES(RTL8168_FAULT_CLASS_ENUM)
#undef RTL8168_FAULT_CLASS_ENUM
  kCount
};

enum class LinkAction : uint8_t { Down, Up, Flap, Speed };
enum class RaceAfter : uint8_t { Read, Ack };

// One parsed fault: the trigger fields every class shares, then the action's.
struct FaultSpec {
  static constexpr uint64_t kAll = UINT64_MAX;  // count=all
  FaultClass cls = FaultClass::DmaRead;
  Time at = 0;               // armed from this virtual time (time classes: fires then)
  bool at_relative = false;  // at=+T: T after installation (resolved by install())
  uint64_t nth = 1;          // the first matching occurrence that fires (1-based)
  uint64_t count = 1;        // firings at most (kAll: every matching occurrence)
  Time every = 0;            // time classes: period between firings (0: once)
  bool window = false;       // DMA: only transactions overlapping [lo, hi]
  uint64_t lo = 0, hi = 0;
  LinkAction link = LinkAction::Down;
  uint32_t speed = 0;  // LinkAction::Speed: 10, 100, 1000, 2500
  bool full = true;
  Time delay = 0;     // autoneg-slow
  uint16_t bits = 0;  // spurious-irq; irq-race (0: pull the next pending event)
  RaceAfter after = RaceAfter::Read;
  uint32_t len = 0;  // len=: only received frames of this many bytes match (0: any)
};

// Parsing and the canonical text. Errors name the fault, the key and the
// accepted values; nothing is allocated beyond the bounded schedule.
std::string parse_fault(std::string_view text, FaultSpec& out);
// `;`-separated faults; an empty or all-blank text is an empty schedule.
std::string parse_fault_list(std::string_view text, std::vector<FaultSpec>& out);
std::string format_fault(const FaultSpec& f);
const char* fault_class_name(FaultClass c);

class FaultInjector {
 public:
  // Its events: handlers, longest delays, when each is pending (events.h).
  static std::span<const EventSpec> events();
  static constexpr size_t kMaxFaults = 32;
  // autoneg-slow's largest delay: bounds a loaded PhyAnDone event (a delay
  // outlives the fault that added it, e.g. after clear()).
  static constexpr Time kMaxAutonegDelay = 60'000'000'000;  // 60 s
  explicit FaultInjector(Device& d) : d_(d) {}

  // ---- the schedule ----
  // Power-on: the configured schedule (already validated), counters at zero.
  void power_on(const std::vector<FaultSpec>& configured);
  // Adds one or more faults (`;`-separated); empty string on success. On an
  // error nothing is added.
  std::string add(std::string_view text);
  void clear();
  bool empty() const { return faults_.empty(); }
  // The schedule and each fault's figures, as one JSON object.
  std::string to_json() const;

  // ---- hooks (each false / 0 at once when the schedule is empty: the
  // per-frame ones test that in line) ----
  bool dma_fails(bool write, uint64_t addr, uint64_t len) {  // Device::dma_read/_write
    return !faults_.empty() && scan_dma(write, addr, len);
  }
  // RxEngine: an RX descriptor fetch completed (no frame in view: len= is
  // not a key of rx-withhold).
  bool rx_withhold() { return !faults_.empty() && scan_frame(FaultClass::RxWithhold, 0); }
  // RxEngine: a frame of `len` bytes (as received: destination MAC to the end
  // of the data, no FCS) passed the filter and has room in the FIFO; `cls` is
  // one of the classes that act on it there (rx-fifo-over, rx-bad-fcs,
  // rx-runt, rx-too-long).
  bool rx_frame(FaultClass cls, size_t len) { return !faults_.empty() && scan_frame(cls, len); }
  // TxEngine: a descriptor fetch at a frame boundary.
  bool tx_stop_fetch() { return tx_stalled_ || (!faults_.empty() && scan_tx_stop_fetch()); }
  void on_tx_halt() { tx_stalled_ = false; }  // TxEngine::halt (TxEnb off, StopReq, resets)
  Time autoneg_delay();                       // Phy: an autonegotiation starts
  // Irq: IntrStatus was read (ack false) or written (ack true): raise the
  // fault's bits, or run the next pending device event now.
  void irq_race(bool ack) {
    if (!faults_.empty()) scan_irq_race(ack);
  }
  void on_timer();        // EventKind::FaultTimer
  Time next_due() const;  // earliest time-class firing (kNever: none)

  // The state blob (device_state.cc): the schedule with its counters.
  void visit(Archive& a);
  const char* check() const;  // nullptr when the loaded schedule is consistent

 private:
  // The hooks' walks over a non-empty schedule.
  bool scan_dma(bool write, uint64_t addr, uint64_t len);
  bool scan_frame(FaultClass cls, size_t len);
  bool scan_tx_stop_fetch();
  void scan_irq_race(bool ack);

  struct Fault {
    FaultSpec spec;
    uint64_t seen = 0;  // matching occurrences at the hook (time classes: firings)
    uint64_t fired = 0;
    uint64_t base = 0;  // tx-stop-fetch: tx_frames when installed
  };
  static bool timed(FaultClass c);  // fires on the clock (fault_classes.h: kTimed)
  Time due(const Fault& f) const;
  void install(FaultSpec spec);
  // Counts one occurrence for `f`; true when the fault fires on it (the
  // caller acts, then counts the firing with fired()).
  bool occurrence(Fault& f);
  void fired(size_t index, uint64_t detail);
  void fire_timed(size_t index);
  void reschedule();

  Device& d_;
  std::vector<Fault> faults_;
  bool tx_stalled_ = false;  // tx-stop-fetch fired and the engine was not restarted since
};

}  // namespace rtl8168sim
