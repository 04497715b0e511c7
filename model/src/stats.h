// SPDX-License-Identifier: GPL-2.0-or-later
// The model's counters (rtl8168_stats, each defined once in
// rtl8168/stats.def) as text for the host.
#pragma once

#include <string>

#include "rtl8168/rtl8168.h"

namespace rtl8168sim {

// {"tx_frames": 12, "tx_bytes": 780, ...}: every counter of stats.def by
// name, in its order (rtl8168_stats_json; QEMU's x-stats).
std::string stats_json(const rtl8168_stats& s);

}  // namespace rtl8168sim
