// SPDX-License-Identifier: GPL-2.0-or-later
// The device's event kinds, and what each kind says about itself.
//
// A component that schedules events lists them beside their handlers, one
// EventSpec each (tx_engine.cc TxEngine::kEvents, phy.cc Phy::kEvents, ...):
// the handler, the longest delay it is ever scheduled with under the
// device's configuration, and when it must be pending. Device's dispatch,
// the state load's event checks (device_state.cc) and irq-race's choice of
// the events it may bring forward are loops over that one table
// (event_spec()), as gem5 declares each event next to its handler and igb's
// IGBIntrDelayTimer carries its own register and resolution.
//
// Adding a kind: a name at the end of EventKind (the number is saved in the
// state blob: never renumber), and one EventSpec in the component's list.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "timing.h"

namespace rtl8168sim {

class Device;

enum class EventKind : uint8_t {
  PhyarDone,        // an MDIO frame through PHYAR finished
  PhyResetDone,     // BMCR RESET / ANRESTART self-clear
  PhyAnDone,        // autonegotiation finished
  ChipResetDone,    // ChipCmd reset self-clear
  DtccrDone,        // tally dump / reset finished
  TxDmaDone,        // the TX engine's outstanding read completed
  TxWireDone,       // the frame at the head of the TX FIFO left the wire
  RxDescDone,       // the RX engine's descriptor read completed
  RxWriteDone,      // the RX engine's data + write-back completed
  MitigationTimer,  // IntrMitigate timer (arg: Irq::mitigation_timer_arg)
  ChipTimer,        // TCTR reached TimerInt
  SideBusDone,      // an ERI / EPHY / CSI access finished (arg: side_bus.h Bus)
  FaultTimer,       // a time-triggered fault is due (fault_injector.h)
  TxDescDone,       // the TX descriptor prefetcher's read completed
  RxPrefetchDone,   // the RX engine's read of the next descriptor completed
  GphyOcpDone,      // a PHY access through GPHY_OCP finished (8168g class)
  LinkListReady,    // the MCU's link list is ready again (8168g class, mac_ocp.h)
  AspmIdle,         // the link's L1 entrance timer ran out (pcie_link.h)
  kCount
};

// Whether an event must be pending, given its component's state: each
// (kind, argument) is pending at most once (the components cancel before
// they schedule again).
enum class Pending : uint8_t {
  No,   // must not be pending
  Yes,  // must be pending (once)
  May,  // may be pending (a completion that finds nothing left to do)
};
constexpr Pending pending_if(bool in_flight) { return in_flight ? Pending::Yes : Pending::No; }

struct EventSpec {
  EventKind kind;
  // Runs the event (its argument as scheduled).
  void (*run)(Device& d, uint64_t arg);
  // The longest delay the component schedules it with, under this device's
  // configuration: a loaded event further ahead was never scheduled.
  Time (*max_delay)(const Device& d);
  // When it must be pending: instance i of `instances` (one unless the kind
  // carries an argument naming what it completes, e.g. one of the side buses).
  Pending (*pending)(const Device& d, unsigned instance);
  // The refusal of a loaded blob that breaks `pending`.
  const char* mismatch;
  unsigned instances = 1;
  // The argument of instance i's event (nullptr: one instance, any argument).
  // An event of the kind with an argument no instance has is refused.
  uint64_t (*instance_arg)(const Device& d, unsigned instance) = nullptr;
  // A kind due at one exact time (nullptr: any time within max_delay).
  Time (*due)(const Device& d) = nullptr;
  const char* mistimed = nullptr;
  // The completion of an engine's work or of a moderation timer: what a
  // guest's IntrStatus access could race (irq-race brings it forward).
  bool pullable = false;
};

// Every kind's spec, indexed by kind, from the components' lists (events.cc).
using EventSpecTable = std::array<const EventSpec*, static_cast<size_t>(EventKind::kCount)>;
EventSpecTable collect_event_specs();

// The spec of `kind` (kind < EventKind::kCount). In line: every event's
// dispatch asks.
inline const EventSpec& event_spec(EventKind kind) {
  static const EventSpecTable table = collect_event_specs();
  return *table[static_cast<size_t>(kind)];
}

// The longest delay of an engine step that is a read of `bytes`, or paced
// past the entry point's work budget (Device::paced parks a step at most
// RTL8168_WORK_YIELD_NS ahead).
Time max_paced_read_delay(const Device& d, uint64_t bytes);

}  // namespace rtl8168sim
