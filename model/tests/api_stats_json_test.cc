// SPDX-License-Identifier: GPL-2.0-or-later
// rtl8168_stats_json: the counters of rtl8168_get_stats as one JSON object,
// every field by name in the struct's order (what QEMU's x-stats shows).
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include <cstring>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

std::string stats_json(const rtl8168* dev) {
  std::string s(rtl8168_stats_json(dev, nullptr, 0) + 1, '\0');
  s.resize(rtl8168_stats_json(dev, s.data(), s.size()));
  return s;
}

// The object's members in order: ("tx_frames", 3), ...
std::vector<std::pair<std::string, uint64_t>> members(const std::string& json) {
  std::vector<std::pair<std::string, uint64_t>> v;
  const std::regex member("\"([a-z0-9_]+)\": ([0-9]+)");
  for (std::sregex_iterator it(json.begin(), json.end(), member), end; it != end; ++it) {
    v.emplace_back((*it)[1].str(), std::stoull((*it)[2].str()));
  }
  return v;
}

TEST(ApiStatsJson, EveryCounterByNameInStructOrder) {
  Nic nic;
  ASSERT_UP(nic);
  nic.host.receive(Bytes(10, 0xff));  // a runt
  rtl8168_reg_read(nic.host.dev(), nic.host.now(), 0x41, 4);  // unaligned: bad_access
  const rtl8168_stats st = nic.host.stats();
  ASSERT_EQ(st.rx_dropped_runt, 1u);
  ASSERT_EQ(st.bad_access, 1u);

  const std::string json = stats_json(nic.host.dev());
  ASSERT_EQ(json.front(), '{');
  ASSERT_EQ(json.back(), '}');
  const auto m = members(json);
  ASSERT_EQ(m.size() * sizeof(uint64_t), sizeof(rtl8168_stats)) << json;
  for (size_t i = 0; i < m.size(); i++) {
    uint64_t field = 0;
    std::memcpy(&field, reinterpret_cast<const char*>(&st) + i * sizeof field, sizeof field);
    EXPECT_EQ(m[i].second, field) << m[i].first;
  }
  EXPECT_EQ(m.front().first, "tx_frames");
  EXPECT_EQ(m.back().first, "rx_error_frames");  // the last line of stats.def
  EXPECT_NE(json.find("\"rx_dropped_runt\": 1, "), std::string::npos) << json;
  EXPECT_NE(json.find("\"bad_access\": 1, "), std::string::npos) << json;
}

TEST(ApiStatsJson, WithoutADeviceEveryCounterIsZero) {
  const auto m = members(stats_json(nullptr));
  ASSERT_EQ(m.size() * sizeof(uint64_t), sizeof(rtl8168_stats));
  for (const auto& [name, value] : m) EXPECT_EQ(value, 0u) << name;
}

TEST(ApiStatsJson, TruncatesLikeSnprintf) {
  const size_t n = rtl8168_stats_json(nullptr, nullptr, 0);
  char buf[8];
  std::memset(buf, 'x', sizeof buf);
  EXPECT_EQ(rtl8168_stats_json(nullptr, buf, sizeof buf), n);
  EXPECT_STREQ(buf, "{\"tx_fr");
}

}  // namespace
}  // namespace rtl8168_test
