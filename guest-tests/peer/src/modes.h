// SPDX-License-Identifier: GPL-2.0-or-later
// One function per peer mode. Each sets up its work on the Runtime, runs it, and
// describes what happened; main() turns that into the JSON document and exit status.
#pragma once

#include <nlohmann/json.hpp>

#include "options.h"
#include "runtime.h"

namespace peer {

struct ModeResult {
  nlohmann::json json = nlohmann::json::object();
  bool complete = false;  // all the work the mode was asked to do was done
  bool ok = true;         // every expectation held (meaningful when complete)
  bool error = false;     // a connection failed (reset, refused, protocol violation)
};

ModeResult RunSink(Runtime& rt, const Options& opts);
ModeResult RunSource(Runtime& rt, const Options& opts);
ModeResult RunRr(Runtime& rt, const Options& opts);
ModeResult RunUdpEcho(Runtime& rt, const Options& opts);
ModeResult RunPattern(const Options& opts);

}  // namespace peer
