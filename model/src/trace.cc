// SPDX-License-Identifier: GPL-2.0-or-later
#include "trace.h"

#include <cstdio>
#include <iterator>

#include "rtl8168/rtl8168.h"

namespace rtl8168sim {

namespace {

// One row per kind, in enum order (rtl8168/trace_events.def).
#define RTL8168_TRACE_EVENT0(NAME, name, cat, code, w0, w1, w2, doc) \
  {#name, doc, RTL8168_TRACE_##cat, code, 0, {}, {}},
#define RTL8168_TRACE_EVENT1(NAME, name, cat, code, t1, a1, doc) \
  {#name, doc, RTL8168_TRACE_##cat, code, 1, {#a1}, {RTL8168_TRACE_##t1}},
#define RTL8168_TRACE_EVENT2(NAME, name, cat, code, t1, a1, t2, a2, doc) \
  {#name, doc, RTL8168_TRACE_##cat, code, 2, {#a1, #a2}, {RTL8168_TRACE_##t1, RTL8168_TRACE_##t2}},
#define RTL8168_TRACE_EVENT3(NAME, name, cat, code, t1, a1, t2, a2, t3, a3, doc)               \
  {#name, doc, RTL8168_TRACE_##cat, code, 3, {#a1, #a2, #a3},                                  \
   {RTL8168_TRACE_##t1, RTL8168_TRACE_##t2, RTL8168_TRACE_##t3}},
constexpr rtl8168_trace_kind_info kKinds[] = {
#include "rtl8168/trace_events.def"
};
#undef RTL8168_TRACE_EVENT0
#undef RTL8168_TRACE_EVENT1
#undef RTL8168_TRACE_EVENT2
#undef RTL8168_TRACE_EVENT3
static_assert(std::size(kKinds) == RTL8168_TRACE_KIND_COUNT);

}  // namespace

const rtl8168_trace_kind_info* trace_kind(unsigned kind) {
  return kind < std::size(kKinds) ? &kKinds[kind] : nullptr;
}

const char* trace_category_name(rtl8168_trace_category category) {
  switch (category) {
    case RTL8168_TRACE_INFO: return "info";
    case RTL8168_TRACE_GUEST_ERROR: return "guest-error";
    case RTL8168_TRACE_UNIMP: return "unimp";
    case RTL8168_TRACE_HOST_ERROR: return "host-error";
  }
  return nullptr;
}

size_t format_trace(unsigned kind, const uint64_t* args, char* buf, size_t buflen) {
  const rtl8168_trace_kind_info* k = trace_kind(kind);
  if (!k) return static_cast<size_t>(std::snprintf(buf, buflen, "unknown"));
  size_t n = static_cast<size_t>(std::snprintf(buf, buflen, "%s", k->name));
  for (unsigned i = 0; i < k->nargs; i++) {
    const bool hex = k->arg_types[i] == RTL8168_TRACE_X32 || k->arg_types[i] == RTL8168_TRACE_X64;
    const auto v = static_cast<unsigned long long>(args[i]);
    char* at = n < buflen ? buf + n : nullptr;
    const size_t room = n < buflen ? buflen - n : 0;
    n += static_cast<size_t>(
        std::snprintf(at, room, hex ? " %s=0x%llx" : " %s=%llu", k->arg_names[i], v));
  }
  return n;
}

}  // namespace rtl8168sim
