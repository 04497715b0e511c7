// SPDX-License-Identifier: GPL-2.0-or-later
// One row of a chip profile's ring table (profile.h ChipProfile::rings):
// a descriptor queue as the DMA engines find it, the way QEMU's igb keeps
// one E1000E_RingInfo per queue. The engines take their rings from these
// rows (tx_engine.h, rx_engine.h) and DescRing reads the base from the
// row's register pair.
#pragma once

#include <cstdint>

namespace rtl8168sim {

// The rings, numbered as the ring_no_eor trace event's `queue` argument and
// TxPoll's doorbells report them (trace_events.def). Rx is RX queue 0 (the
// only RX ring of the 8168s); Rx1-Rx3 are the RTL8125's RX queues 1-3.
enum class RingId : uint32_t { Npq = 0, Hpq = 1, Rx = 2, Rx1 = 3, Rx2 = 4, Rx3 = 5 };

// The most RX rings a profile has (the RTL8125B's four RX queues, Realtek
// r8125 R8125_MAX_RX_QUEUES on the 8125B; rx_engine.h, rss.h).
inline constexpr unsigned kMaxRxQueues = 4;

enum class RingDir : uint8_t { Tx, Rx };

struct RingSpec {
  RingId id;
  const char* name;      // r8169's name for the queue ("NPQ")
  RingDir dir;
  uint16_t base_lo, base_hi;  // the register pair holding the ring's base address
  uint8_t doorbell;      // TX: the TxPoll bit that rings it; RX: 0
  uint8_t desc_size;     // bytes per descriptor
  // RX: RxConfig bit 24 switches the ring to the RTL8125's 32-byte RxDescV3
  // (rx_desc_v3.h).
  bool rx_desc_v3 = false;
};

}  // namespace rtl8168sim
