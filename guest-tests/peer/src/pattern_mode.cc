// SPDX-License-Identifier: GPL-2.0-or-later
// pattern: what a correct receiver of --bytes N should report (no network).
#include "modes.h"
#include "pattern.h"

namespace peer {

ModeResult RunPattern(const Options& opts) {
  ModeResult r;
  const uint64_t bytes = opts.bytes.value_or(0);
  r.json["bytes"] = bytes;
  r.json["sha256"] = PatternSha256(bytes);
  r.json["period"] = RTL_PATTERN_PERIOD;
  r.complete = true;
  return r;
}

}  // namespace peer
