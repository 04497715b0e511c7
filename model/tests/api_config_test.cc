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
