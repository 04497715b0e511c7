// SPDX-License-Identifier: GPL-2.0-or-later
#include "tracer.h"

namespace rtl8168sim {

void Tracer::to_host(rtl8168_trace_kind kind, const Words& args) {
  if (ops_.trace_event) ops_.trace_event(ops_.opaque, now_, kind, args.data());
  if (ops_.trace) {
    char line[160];
    format_trace(kind, args.data(), line, sizeof line);
    ops_.trace(ops_.opaque, now_, line);
  }
}

}  // namespace rtl8168sim
