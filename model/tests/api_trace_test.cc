// SPDX-License-Identifier: GPL-2.0-or-later
// Typed trace events (rtl8168/trace_events.def through the C API): the kind
// table (names, named arguments, categories, hash codes), the text format,
// and that the typed callback sees every event the hash counts, with the
// guest-error / unimp / host-error kinds where a driver misbehaves.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include <algorithm>
#include <set>
#include <string>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

const Mac kDst = {0x52, 0x54, 0x00, 0x00, 0x00, 0x02};

std::string format(unsigned kind, std::array<uint64_t, 3> args) {
  char buf[160];
  rtl8168_trace_format(kind, args.data(), buf, sizeof buf);
  return buf;
}

TEST(ApiTrace, KindTableNamesEveryKindOnce) {
  std::set<std::string> names;
  for (unsigned k = 0; k < RTL8168_TRACE_KIND_COUNT; k++) {
    const rtl8168_trace_kind_info* info = rtl8168_trace_kind_at(k);
    ASSERT_NE(info, nullptr) << k;
    ASSERT_NE(info->name, nullptr);
    EXPECT_TRUE(names.insert(info->name).second) << "duplicate kind name " << info->name;
    EXPECT_GT(std::string(info->description).size(), 0u) << info->name;
    ASSERT_LE(info->nargs, 3u) << info->name;
    for (unsigned i = 0; i < info->nargs; i++) EXPECT_NE(info->arg_names[i], nullptr);
    EXPECT_NE(rtl8168_trace_category_name(info->category), nullptr);
  }
  EXPECT_EQ(rtl8168_trace_kind_at(RTL8168_TRACE_KIND_COUNT), nullptr);
}

TEST(ApiTrace, NamedTypedArguments) {
  const rtl8168_trace_kind_info* r = rtl8168_trace_kind_at(RTL8168_TRACE_REG_READ);
  ASSERT_NE(r, nullptr);
  EXPECT_STREQ(r->name, "reg_read");
  ASSERT_EQ(r->nargs, 3u);
  EXPECT_STREQ(r->arg_names[0], "offset");
  EXPECT_STREQ(r->arg_names[1], "size");
  EXPECT_STREQ(r->arg_names[2], "value");
  EXPECT_EQ(r->arg_types[0], RTL8168_TRACE_X32);
  EXPECT_EQ(r->arg_types[1], RTL8168_TRACE_U32);
  EXPECT_EQ(r->arg_types[2], RTL8168_TRACE_X64);
  const rtl8168_trace_kind_info* d = rtl8168_trace_kind_at(RTL8168_TRACE_DMA_FAILED);
  EXPECT_STREQ(d->name, "dma_failed");
  EXPECT_STREQ(d->arg_names[0], "addr");
  EXPECT_EQ(d->arg_types[0], RTL8168_TRACE_X64);
  EXPECT_EQ(rtl8168_trace_kind_at(RTL8168_TRACE_BAD_CALL)->nargs, 0u);
}

TEST(ApiTrace, Categories) {
  auto cat = [](unsigned k) { return rtl8168_trace_kind_at(k)->category; };
  EXPECT_EQ(cat(RTL8168_TRACE_REG_READ), RTL8168_TRACE_INFO);
  EXPECT_EQ(cat(RTL8168_TRACE_TX_FRAME), RTL8168_TRACE_INFO);
  EXPECT_EQ(cat(RTL8168_TRACE_BAD_ACCESS), RTL8168_TRACE_GUEST_ERROR);
  EXPECT_EQ(cat(RTL8168_TRACE_UNASSIGNED_ACCESS), RTL8168_TRACE_GUEST_ERROR);
  EXPECT_EQ(cat(RTL8168_TRACE_DMA_FAILED), RTL8168_TRACE_GUEST_ERROR);
  EXPECT_EQ(cat(RTL8168_TRACE_RING_NO_EOR), RTL8168_TRACE_GUEST_ERROR);
  EXPECT_EQ(cat(RTL8168_TRACE_REG_READ_UNIMP), RTL8168_TRACE_UNIMP);
  EXPECT_EQ(cat(RTL8168_TRACE_REG_WRITE_UNIMP), RTL8168_TRACE_UNIMP);
  EXPECT_EQ(cat(RTL8168_TRACE_BAD_CALL), RTL8168_TRACE_HOST_ERROR);
  EXPECT_STREQ(rtl8168_trace_category_name(RTL8168_TRACE_GUEST_ERROR), "guest-error");
  EXPECT_STREQ(rtl8168_trace_category_name(RTL8168_TRACE_UNIMP), "unimp");
}

// The kinds before the typed trace kept their position as hash code; the
// kinds split from them hash as the original (trace_events.def "code").
TEST(ApiTrace, HashCodesKeepTheUntypedNumbering) {
  for (unsigned k = 0; k <= RTL8168_TRACE_TX_STOPPED; k++) {
    EXPECT_EQ(rtl8168_trace_kind_at(k)->hash_code, k) << rtl8168_trace_kind_at(k)->name;
  }
  EXPECT_EQ(RTL8168_TRACE_TX_STOPPED, 23);
  auto code = [](unsigned k) { return rtl8168_trace_kind_at(k)->hash_code; };
  EXPECT_EQ(code(RTL8168_TRACE_REG_READ_UNIMP), code(RTL8168_TRACE_REG_READ));
  EXPECT_EQ(code(RTL8168_TRACE_REG_WRITE_UNIMP), code(RTL8168_TRACE_REG_WRITE));
  EXPECT_EQ(code(RTL8168_TRACE_UNASSIGNED_ACCESS), code(RTL8168_TRACE_BAD_ACCESS));
  EXPECT_EQ(code(RTL8168_TRACE_BAD_CALL), code(RTL8168_TRACE_BAD_ACCESS));
}

TEST(ApiTrace, TextFormat) {
  EXPECT_EQ(format(RTL8168_TRACE_REG_WRITE, {0x37, 1, 0x10}),
            "reg_write offset=0x37 size=1 value=0x10");
  EXPECT_EQ(format(RTL8168_TRACE_RX_DROP, {3, 60, 0}), "rx_drop reason=3 len=60");
  EXPECT_EQ(format(RTL8168_TRACE_BAD_CALL, {}), "bad_call");
  EXPECT_EQ(format(RTL8168_TRACE_KIND_COUNT, {}), "unknown");
  // snprintf semantics: the full length comes back, the buffer is cut.
  const uint64_t args[3] = {0x37, 1, 0x10};
  char small[10];
  EXPECT_EQ(rtl8168_trace_format(RTL8168_TRACE_REG_WRITE, args, small, sizeof small), 39u);
  EXPECT_STREQ(small, "reg_write");
}

bool has(const TestHost& h, unsigned kind, std::array<uint64_t, 3> args) {
  return std::any_of(h.trace_events.begin(), h.trace_events.end(),
                     [&](const TraceRecord& r) { return r.kind == kind && r.args == args; });
}

TEST(ApiTrace, TypedEventsOfAMisbehavingDriver) {
  Nic nic;
  ASSERT_UP(nic);
  nic.host.read(0x02, 4);
  nic.host.write(0x00, 0, 8);
  nic.host.read(0x100, 4);
  nic.host.write(0x200, 0x55, 2);
  nic.host.w8(0xf0, 0x5a);  // MISC: not in the register table
  nic.host.r8(0xf0);
  rtl8168_receive(nic.host.dev(), nic.host.now(), nullptr, 60);
  const unsigned idx = nic.drv.queue_frame(frame_to(kDst, 300));
  nic.host.mem().w64(nic.drv.tx_desc_addr(Queue::kNormal, idx) + 8, Driver::kBadAddr);
  nic.drv.kick();
  ASSERT_TRUE(nic.host.advance(10'000'000));
  const TestHost& h = nic.host;
  EXPECT_TRUE(has(h, RTL8168_TRACE_BAD_ACCESS, {0x02, 4, 0}));
  EXPECT_TRUE(has(h, RTL8168_TRACE_BAD_ACCESS, {0x00, 8, 1}));
  EXPECT_TRUE(has(h, RTL8168_TRACE_UNASSIGNED_ACCESS, {0x100, 4, 0}));
  EXPECT_TRUE(has(h, RTL8168_TRACE_UNASSIGNED_ACCESS, {0x200, 2, 1}));
  EXPECT_TRUE(has(h, RTL8168_TRACE_REG_WRITE_UNIMP, {0xf0, 1, 0x5a}));
  EXPECT_TRUE(has(h, RTL8168_TRACE_REG_READ_UNIMP, {0xf0, 1, 0x5a}));
  EXPECT_TRUE(has(h, RTL8168_TRACE_BAD_CALL, {0, 0, 0}));
  EXPECT_TRUE(std::any_of(h.trace_events.begin(), h.trace_events.end(), [](const TraceRecord& r) {
    return r.kind == RTL8168_TRACE_DMA_FAILED && r.args[0] == Driver::kBadAddr && r.args[2] == 0;
  }));
  // A register of the table is not unimp.
  EXPECT_TRUE(std::none_of(h.trace_events.begin(), h.trace_events.end(), [](const TraceRecord& r) {
    return (r.kind == RTL8168_TRACE_REG_READ_UNIMP || r.kind == RTL8168_TRACE_REG_WRITE_UNIMP) &&
           r.args[0] == kIntrStatus;
  }));
}

// Every event the hash counts reaches both callbacks, typed and as text,
// and the text line is the typed event formatted.
TEST(ApiTrace, CallbacksSeeEveryCountedEvent) {
  Nic nic;
  ASSERT_UP(nic);
  nic.drv.xmit(frame_to(kDst, 400));
  ASSERT_TRUE(nic.drv.wait_tx());
  const TestHost& h = nic.host;
  ASSERT_LT(h.trace_events.size(), TestHost::kMaxTraceLines);
  EXPECT_EQ(h.trace_events.size(), rtl8168_trace_events(h.dev()));
  EXPECT_EQ(h.trace_lines, rtl8168_trace_events(h.dev()));
  ASSERT_EQ(h.trace.size(), h.trace_events.size());
  for (size_t i = 0; i < h.trace.size(); i++) {
    const TraceRecord& r = h.trace_events[i];
    EXPECT_EQ(h.trace[i], std::to_string(r.time) + " " + format(r.kind, r.args));
  }
  EXPECT_TRUE(std::any_of(h.trace_events.begin(), h.trace_events.end(),
                          [](const TraceRecord& r) { return r.kind == RTL8168_TRACE_TX_FRAME; }));
}

}  // namespace
}  // namespace rtl8168_test
