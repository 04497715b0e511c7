// SPDX-License-Identifier: GPL-2.0-or-later
#include "stats.h"

namespace rtl8168sim {

std::string stats_json(const rtl8168_stats& s) {
  std::string out = "{";
#define RTL8168_STAT(name, blob, fault_drop, doc) \
  out += std::string(out.size() > 1 ? ", " : "") + "\"" #name "\": " + std::to_string(s.name);
#include "rtl8168/stats.def"
#undef RTL8168_STAT
  return out + "}";
}

}  // namespace rtl8168sim
