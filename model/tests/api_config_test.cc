// SPDX-License-Identifier: GPL-2.0-or-later
// Configuration through the C API: named parameters, validation, introspection.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include <cctype>
#include <cstring>
#include <set>
#include <string>

#include "harness/test_host.h"

namespace rtl8168_test {
namespace {

struct Cfg {
  Cfg() : cfg(rtl8168_config_new()) {}
  ~Cfg() { rtl8168_config_free(cfg); }
  int set(const char* name, const char* value) {
    err[0] = '\0';
    return rtl8168_config_set(cfg, name, value, err, sizeof err);
  }
  std::string get(const char* name) {
    char buf[128] = {};
    EXPECT_EQ(rtl8168_config_get(cfg, name, buf, sizeof buf), 0) << name;
    return buf;
  }
  rtl8168_config* cfg;
  char err[256] = {};
};

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

TEST(ApiConfig, IntrospectionListsEveryDocumentedParameter) {
  const size_t n = rtl8168_param_count();
  ASSERT_GT(n, 0u);
  std::set<std::string> names;
  for (size_t i = 0; i < n; ++i) {
    const rtl8168_param_info* p = rtl8168_param_at(i);
    ASSERT_NE(p, nullptr) << i;
    ASSERT_NE(p->name, nullptr);
    ASSERT_NE(p->unit, nullptr);
    ASSERT_NE(p->description, nullptr);
    EXPECT_GT(strlen(p->name), 0u);
    EXPECT_GT(strlen(p->description), 0u) << p->name;
    EXPECT_TRUE(names.insert(p->name).second) << "duplicate parameter " << p->name;
  }
  for (const char* want :
       {"chip", "mac", "timing", "lossy-txpoll", "pcie-read-latency", "pcie-bandwidth",
        "pcie-completion-size", "pcie-tlp-overhead", "pcie-mrrs", "tx-fifo-size", "rx-fifo-size",
        "tx-mxdma", "phy-an-time", "phy-reset-time", "phyar-time", "chip-reset-time",
        "dtccr-time", "dma-read-rate"}) {
    EXPECT_EQ(names.count(want), 1u) << "parameter missing from introspection: " << want;
  }
}

TEST(ApiConfig, SetThenGetRoundTrips) {
  Cfg c;
  ASSERT_EQ(c.set("chip", "8168c"), 0) << c.err;
  ASSERT_EQ(c.set("pcie-read-latency", "1234"), 0) << c.err;
  EXPECT_EQ(c.get("pcie-read-latency"), "1234");
  ASSERT_EQ(c.set("mac", "02:00:00:AA:bb:0c"), 0) << c.err;
  EXPECT_EQ(lower(c.get("mac")), "02:00:00:aa:bb:0c");
  ASSERT_EQ(c.set("timing", "off"), 0) << c.err;
  EXPECT_EQ(c.get("timing"), "off");
  ASSERT_EQ(c.set("lossy-txpoll", "off"), 0) << c.err;
  EXPECT_EQ(c.get("lossy-txpoll"), "off");
  EXPECT_NE(c.set("rx-mxdma", "7"), 0) << "rx-mxdma had no effect and was removed";
  ASSERT_EQ(c.set("timer-clock", "33"), 0) << c.err;
  EXPECT_EQ(c.get("timer-clock"), "33");
  EXPECT_NE(c.set("timer-clock", "0"), 0);
  for (const char* v : {"auto", "0", "3", "7"}) {
    EXPECT_EQ(c.set("tx-mxdma", v), 0) << v << ": " << c.err;
    EXPECT_EQ(c.get("tx-mxdma"), v);
  }
}

TEST(ApiConfig, ChipLoadsProfileDefaults) {
  // "Setting chip first loads that profile's defaults for every parameter":
  // an earlier override is replaced by the profile value.
  Cfg c;
  ASSERT_EQ(c.set("chip", "8168c"), 0) << c.err;
  const std::string def = c.get("phy-an-time");
  ASSERT_EQ(c.set("phy-an-time", "12345"), 0) << c.err;
  ASSERT_EQ(c.get("phy-an-time"), "12345");
  ASSERT_EQ(c.set("chip", "8168c"), 0) << c.err;
  EXPECT_EQ(c.get("phy-an-time"), def);
  EXPECT_EQ(c.get("lossy-txpoll"), "on") << "lossy-txpoll is on by default for this profile";
}

// Each parameter's kind and range are what its setter accepts: a host that
// types its options from the table (QEMU's properties) then never offers a
// value the model refuses, nor refuses one it takes.
TEST(ApiConfig, TypeAndRangeMatchWhatTheParameterAccepts) {
  Cfg c;
  size_t uints = 0, bools = 0;
  for (size_t i = 0; i < rtl8168_param_count(); ++i) {
    const rtl8168_param_info* p = rtl8168_param_at(i);
    SCOPED_TRACE(p->name);
    switch (p->type) {
      case RTL8168_PARAM_UINT:
        ++uints;
        EXPECT_LE(p->min, p->max);
        EXPECT_GT(strlen(p->unit), 0u);
        EXPECT_EQ(c.set(p->name, std::to_string(p->min).c_str()), 0) << c.err;
        EXPECT_EQ(c.get(p->name), std::to_string(p->min));
        EXPECT_EQ(c.set(p->name, std::to_string(p->max).c_str()), 0) << c.err;
        EXPECT_EQ(c.get(p->name), std::to_string(p->max));
        EXPECT_EQ(c.set(p->name, std::to_string(p->max + 1).c_str()), -1);
        if (p->min > 0) {
          EXPECT_EQ(c.set(p->name, std::to_string(p->min - 1).c_str()), -1);
        }
        EXPECT_EQ(c.set(p->name, "on"), -1);
        break;
      case RTL8168_PARAM_BOOL:
        ++bools;
        EXPECT_STREQ(p->unit, "bool");
        EXPECT_EQ(p->min, 0u);
        EXPECT_EQ(p->max, 0u);
        EXPECT_EQ(c.set(p->name, "on"), 0) << c.err;
        EXPECT_EQ(c.get(p->name), "on");
        EXPECT_EQ(c.set(p->name, "off"), 0) << c.err;
        EXPECT_EQ(c.get(p->name), "off");
        EXPECT_EQ(c.set(p->name, "2"), -1);
        break;
      case RTL8168_PARAM_TEXT:
        EXPECT_STREQ(p->unit, "");
        EXPECT_EQ(p->min, 0u);
        EXPECT_EQ(p->max, 0u);
        break;
      default:
        ADD_FAILURE() << "unknown type " << p->type;
    }
  }
  EXPECT_GT(uints, 0u);
  EXPECT_GT(bools, 0u);
  EXPECT_EQ(rtl8168_param_at(0)->type, RTL8168_PARAM_TEXT) << "chip";
}

// rtl8168_config_new_any_order: what was set explicitly survives a later
// chip, the rest follows the chip; rtl8168_config_new's chip loads every default.
TEST(ApiConfig, AnyOrderKeepsExplicitValuesOverALaterChip) {
  Cfg plain;
  Cfg any;
  rtl8168_config_free(any.cfg);
  any.cfg = rtl8168_config_new_any_order();
  ASSERT_NE(any.cfg, nullptr);
  for (Cfg* c : {&plain, &any}) {
    ASSERT_EQ(c->set("tx-fifo-size", "4096"), 0) << c->err;
    ASSERT_EQ(c->set("lossy-txpoll", "on"), 0) << c->err;
    ASSERT_EQ(c->set("faults", "link:at=5ms,down"), 0) << c->err;
    ASSERT_EQ(c->set("chip", "8168evl"), 0) << c->err;
    EXPECT_EQ(c->get("chip"), "8168evl");
    EXPECT_EQ(c->get("evl-short-csum"), "on") << "not set: the chip's default";
    EXPECT_EQ(c->get("faults"), "link:down,at=5000000,count=1") << "the chip keeps it (canonical text)";
  }
  EXPECT_EQ(any.get("tx-fifo-size"), "4096");
  EXPECT_EQ(any.get("lossy-txpoll"), "on");
  Cfg evl;
  ASSERT_EQ(evl.set("chip", "8168evl"), 0);
  EXPECT_EQ(plain.get("tx-fifo-size"), evl.get("tx-fifo-size"));
  EXPECT_EQ(plain.get("lossy-txpoll"), evl.get("lossy-txpoll"));
  EXPECT_NE(evl.get("tx-fifo-size"), "4096") << "the test must tell the two apart";

  // A refused value is not recorded; a second chip keeps the explicit ones too.
  EXPECT_EQ(any.set("rx-fifo-size", "1"), -1);
  ASSERT_EQ(any.set("chip", "8168c"), 0) << any.err;
  EXPECT_EQ(any.get("tx-fifo-size"), "4096");
  EXPECT_EQ(any.get("evl-short-csum"), "off");
  Cfg c8168;
  ASSERT_EQ(c8168.set("chip", "8168c"), 0);
  EXPECT_EQ(any.get("rx-fifo-size"), c8168.get("rx-fifo-size"));
}

TEST(ApiConfig, RejectsUnknownNamesAndBadValuesWithMessage) {
  Cfg c;
  ASSERT_EQ(c.set("chip", "8168c"), 0) << c.err;
  struct Bad {
    const char* name;
    const char* value;
  };
  for (const Bad& b : {Bad{"no-such-parameter", "1"}, Bad{"chip", "8139"}, Bad{"timing", "maybe"},
                       Bad{"lossy-txpoll", "2"}, Bad{"tx-mxdma", "8"}, Bad{"tx-mxdma", "-1"},
                       Bad{"pcie-read-latency", "abc"}, Bad{"pcie-read-latency", ""},
                       Bad{"pcie-read-latency", "12ns"}, Bad{"mac", "52:54:00:12:34"},
                       Bad{"mac", "zz:54:00:12:34:56"}, Bad{"mac", "52:54:00:12:34:56:78"}}) {
    EXPECT_EQ(c.set(b.name, b.value), -1) << b.name << "=" << b.value;
    EXPECT_GT(strlen(c.err), 0u) << "no error message for " << b.name << "=" << b.value;
    if (strcmp(b.name, "no-such-parameter") != 0) {
      EXPECT_NE(std::string(c.err).find(b.name), std::string::npos)
          << "message should name the parameter: " << c.err;
    }
  }
  char buf[32];
  EXPECT_EQ(rtl8168_config_get(c.cfg, "no-such-parameter", buf, sizeof buf), -1);
}

TEST(ApiConfig, ErrorMessageIsTruncatedAndTerminated) {
  rtl8168_config* cfg = rtl8168_config_new();
  char err[8];
  memset(err, 'x', sizeof err);
  EXPECT_EQ(rtl8168_config_set(cfg, "no-such-parameter", "1", err, 4), -1);
  EXPECT_LT(strnlen(err, 4), 4u) << "must be NUL-terminated within errlen";
  EXPECT_EQ(err[4], 'x') << "wrote beyond errlen";
  EXPECT_EQ(rtl8168_config_set(cfg, "no-such-parameter", "1", nullptr, 0), -1);
  rtl8168_config_free(cfg);
}

TEST(ApiConfig, CreateReportsChipName) {
  TestHost h(default_params(false));
  ASSERT_TRUE(h.ok()) << h.create_error();
  EXPECT_STREQ(rtl8168_chip_name(h.dev()), "RTL8168c/8111c");
}

TEST(ApiConfig, MacParameterReachesIdRegisters) {
  TestHost h(with(default_params(false), {{"mac", "02:11:22:33:44:55"}}));
  ASSERT_TRUE(h.ok());
  const uint8_t want[6] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};
  for (unsigned i = 0; i < 6; ++i) EXPECT_EQ(h.r8(i), want[i]) << "MAC" << i;
}

TEST(ApiConfig, CreateRejectsMissingRequiredCallbacks) {
  rtl8168_config* cfg = rtl8168_config_new();
  char err[256] = {};
  ASSERT_EQ(rtl8168_config_set(cfg, "chip", "8168c", err, sizeof err), 0) << err;
  auto noop_dma_r = [](void*, uint64_t, void*, size_t) { return 0; };
  auto noop_dma_w = [](void*, uint64_t, const void*, size_t) { return 0; };
  rtl8168_host_ops full = {};
  full.dma_read = noop_dma_r;
  full.dma_write = noop_dma_w;
  full.msi_enabled = [](void*) { return false; };
  full.msi_notify = [](void*, unsigned) {};
  full.set_intx = [](void*, int) {};
  full.transmit = [](void*, const uint8_t*, size_t) {};
  full.timer_arm = [](void*, uint64_t) {};
  rtl8168* ok = rtl8168_create(cfg, &full, err, sizeof err);
  EXPECT_NE(ok, nullptr) << err;
  if (ok) rtl8168_destroy(ok);
  for (int which = 0; which < 7; ++which) {
    rtl8168_host_ops ops = full;
    switch (which) {
      case 0:
        ops.dma_read = nullptr;
        break;
      case 1:
        ops.dma_write = nullptr;
        break;
      case 2:
        ops.msi_enabled = nullptr;
        break;
      case 3:
        ops.msi_notify = nullptr;
        break;
      case 4:
        ops.set_intx = nullptr;
        break;
      case 5:
        ops.transmit = nullptr;
        break;
      default:
        ops.timer_arm = nullptr;
        break;
    }
    err[0] = '\0';
    rtl8168* dev = rtl8168_create(cfg, &ops, err, sizeof err);
    EXPECT_EQ(dev, nullptr) << "required callback " << which << " missing";
    EXPECT_GT(strlen(err), 0u) << which;
    if (dev) rtl8168_destroy(dev);
  }
  rtl8168_config_free(cfg);
}

}  // namespace
}  // namespace rtl8168_test
