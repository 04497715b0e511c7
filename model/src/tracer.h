// SPDX-License-Identifier: GPL-2.0-or-later
// Typed trace events: one recording function per kind of
// rtl8168/trace_events.def, named after it and taking its named arguments
// (d_.trace.reg_read(offset, size, value)). Each record is folded into the
// trace hash as (time, code, three argument words), exactly as the untyped
// records before it were, and handed to the host's optional trace_event
// (typed) and trace (text line) callbacks.
#pragma once

#include <array>
#include <cstdint>

#include "rtl8168/rtl8168.h"
#include "trace.h"

namespace rtl8168sim {

class Tracer {
 public:
  // `ops` and `now` belong to the device and outlive the tracer.
  Tracer(const rtl8168_host_ops& ops, const Time& now) : ops_(ops), now_(now) {}

#define RTL8168_TRACE_EVENT0(NAME, name, cat, code, w0, w1, w2, doc) \
  void name() { emit(RTL8168_TRACE_##NAME, code, {w0, w1, w2}, {}); }
#define RTL8168_TRACE_EVENT1(NAME, name, cat, code, t1, a1, doc) \
  void name(RTL8168_TRACE_CTYPE_##t1 a1) {                       \
    const Words w{a1, 0, 0};                                     \
    emit(RTL8168_TRACE_##NAME, code, w, w);                      \
  }
#define RTL8168_TRACE_EVENT2(NAME, name, cat, code, t1, a1, t2, a2, doc) \
  void name(RTL8168_TRACE_CTYPE_##t1 a1, RTL8168_TRACE_CTYPE_##t2 a2) {  \
    const Words w{a1, a2, 0};                                            \
    emit(RTL8168_TRACE_##NAME, code, w, w);                              \
  }
#define RTL8168_TRACE_EVENT3(NAME, name, cat, code, t1, a1, t2, a2, t3, a3, doc) \
  void name(RTL8168_TRACE_CTYPE_##t1 a1, RTL8168_TRACE_CTYPE_##t2 a2,            \
            RTL8168_TRACE_CTYPE_##t3 a3) {                                       \
    const Words w{a1, a2, a3};                                                   \
    emit(RTL8168_TRACE_##NAME, code, w, w);                                      \
  }
#include "rtl8168/trace_events.def"
#undef RTL8168_TRACE_EVENT0
#undef RTL8168_TRACE_EVENT1
#undef RTL8168_TRACE_EVENT2
#undef RTL8168_TRACE_EVENT3

  uint64_t hash() const { return hash_.hash(); }
  uint64_t count() const { return hash_.count(); }
  void restore(uint64_t hash, uint64_t count) { hash_.restore(hash, count); }
  void reset() { hash_.reset(); }

 private:
  using Words = std::array<uint64_t, 3>;
  // `hashed`: the words the hash mixes after `code`; `args`: what the host sees.
  // The hash is folded in line (every record, ~10 per frame); the host's
  // callbacks, optional and off on the fast path, are called out of line.
  void emit(rtl8168_trace_kind kind, uint64_t code, const Words& hashed, const Words& args) {
    hash_.record(now_, code, hashed[0], hashed[1], hashed[2]);
    if (ops_.trace_event || ops_.trace) [[unlikely]] to_host(kind, args);
  }
  void to_host(rtl8168_trace_kind kind, const Words& args);

  const rtl8168_host_ops& ops_;
  const Time& now_;
  Trace hash_;
};

}  // namespace rtl8168sim
