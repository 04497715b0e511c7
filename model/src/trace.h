// SPDX-License-Identifier: GPL-2.0-or-later
// The event trace hash: every guest-visible decision is one record (time,
// kind code + three argument words) folded into a 64-bit hash (FNV-1a over
// 64-bit words: one multiply per word keeps it off the per-frame profile).
// tracer.h records typed events into it and hands them to the host.
#pragma once

#include <cstddef>
#include <cstdint>

#include "rtl8168/rtl8168.h"
#include "timing.h"

namespace rtl8168sim {

// The kinds, their arguments and the code each mixes into the hash are
// listed once in rtl8168/trace_events.def; tracer.h records them. The kind
// table and the text format (C API rtl8168_trace_kind_at / _format):
const rtl8168_trace_kind_info* trace_kind(unsigned kind);  // nullptr if unknown
const char* trace_category_name(rtl8168_trace_category category);
size_t format_trace(unsigned kind, const uint64_t* args, char* buf, size_t buflen);

class Trace {
 public:
  void record(Time now, uint64_t code, uint64_t a, uint64_t b, uint64_t c) {
    mix(now);
    mix(code);
    mix(a);
    mix(b);
    mix(c);
    count_++;
  }
  uint64_t hash() const { return hash_; }
  uint64_t count() const { return count_; }
  void restore(uint64_t hash, uint64_t count) {
    hash_ = hash;
    count_ = count;
  }
  void reset() { restore(kFnvOffset, 0); }

 private:
  static constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ull;
  static constexpr uint64_t kFnvPrime = 0x100000001b3ull;
  void mix(uint64_t v) {
    hash_ ^= v;
    hash_ *= kFnvPrime;
    hash_ ^= hash_ >> 32;
  }
  uint64_t hash_ = kFnvOffset;
  uint64_t count_ = 0;
};

}  // namespace rtl8168sim
