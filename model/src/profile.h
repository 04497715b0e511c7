// SPDX-License-Identifier: GPL-2.0-or-later
// Chip profiles: identity, reset values, limits and default quirks/timing.
// Later chips (8168b XID 0x380, 8168evl XID 0x2c8) are new table entries,
// not forks of the engines.
#pragma once

#include <cstdint>
#include <string_view>

#include "timing.h"

namespace rtl8168sim {

struct Quirks {
  // RTL8111b/8168 "TxPoll requests are lost when the Tx packets are too
  // close" (r8169 rtl_tx comment; HISTORY.md §1): an NPQ doorbell that
  // arrives while the TX engine is busy is ignored, and the engine's
  // ring-empty decision comes from a descriptor read taken before the
  // current frame completed.
  bool lossy_txpoll = false;
};

struct ChipProfile {
  std::string_view id;            // "8168c": the value of the `chip` parameter
  std::string_view name;          // r8169 rtl_chip_infos name
  uint32_t txconfig_reset;        // carries the XID (read-only bits)
  uint16_t phy_id1, phy_id2;      // MII registers 2/3
  uint32_t max_frame;             // largest frame the TX engine sends (jumbo limit)
  Quirks quirks;                  // defaults, each switchable
  TimingParams timing;            // defaults
};

// nullptr when unknown.
const ChipProfile* find_profile(std::string_view id);
// Comma-separated list of known ids, for error messages.
std::string_view profile_ids();

}  // namespace rtl8168sim
