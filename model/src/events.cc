// SPDX-License-Identifier: GPL-2.0-or-later
#include "events.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>

#include "device.h"

namespace rtl8168sim {

namespace {
constexpr size_t kKinds = static_cast<size_t>(EventKind::kCount);
}  // namespace

// Each kind listed exactly once (checked here, on the first event of any
// device: a kind without its spec stops every test at once).
EventSpecTable collect_event_specs() {
  EventSpecTable table{};
  for (const std::span<const EventSpec> list :
       {Phy::events(), Device::events(), Tally::events(), TxEngine::events(), RxEngine::events(),
        Irq::events(), ChipTimer::events(), SideBus::events(), FaultInjector::events(),
        MacOcp::events(), PcieLink::events()}) {
    for (const EventSpec& spec : list) {
      const auto k = static_cast<size_t>(spec.kind);
      if (k >= kKinds || table[k]) {
        std::fprintf(stderr, "rtl8168: event kind %zu listed twice or out of range\n", k);
        std::abort();
      }
      table[k] = &spec;
    }
  }
  for (size_t k = 0; k < kKinds; k++) {
    if (!table[k]) {
      std::fprintf(stderr, "rtl8168: event kind %zu has no EventSpec\n", k);
      std::abort();
    }
  }
  return table;
}

// A read may first wait for the link to leave ASPM L1 (Device::link_wake).
Time max_paced_read_delay(const Device& d, uint64_t bytes) {
  return std::max<Time>(d.timing().aspm_l1_exit_time + dma_read_time(d.timing(), bytes),
                        RTL8168_WORK_YIELD_NS);
}

}  // namespace rtl8168sim
