// SPDX-License-Identifier: GPL-2.0-or-later
// The bench's device: the model, configured from the command line's
// --param/--faults pairs, as the primary device of a host of the host
// library (model/hostlib/host.h) whose guest RAM the scripted driver
// (sim_driver.h) lays its rings and buffers out in.
#pragma once

#include "commands.h"
#include "host.h"

namespace bench {

// Creates the model with `params` on h's primary port (h.port). Throws
// std::invalid_argument with the model's message when it refuses a
// parameter or the configuration. RTL8168_BENCH_TRACE=1: the model's trace
// lines on stderr ("%14llu %s": virtual time in ns, the line).
void open_device(rtl8168_host::Host& h, const ParamList& params);

}  // namespace bench
