// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests of the peer's pieces: pattern, SHA-256 wrapper, statistics, argument parsing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "endpoint.h"
#include "options.h"
#include "pattern.h"
#include "sha256.h"
#include "stats.h"

namespace peer {
namespace {

TEST(Pattern, FirstBytesAndPeriodAreFixed) {
  // Documented in rtl-pattern.h and docs/PEER.md: a change here breaks every recorded SHA.
  const uint8_t first[8] = {0x62, 0x96, 0x21, 0xab, 0x7c, 0xfd, 0x46, 0x88};
  const auto period = PatternPeriod();
  ASSERT_EQ(period.size(), 262144u);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(period[i], first[i]) << i;
  EXPECT_EQ(rtl_pattern_byte(262144), period[0]);
  EXPECT_EQ(rtl_pattern_byte(262144 * 5 + 77), period[77]);
}

TEST(Pattern, Sha256OfOneMiB) {
  // Cross-checked with an independent Python implementation of the formula.
  EXPECT_EQ(PatternSha256(1 << 20),
            "0f897d1c63532065a9126a3e4bd5f251c8943e48d4838c70303723652dfffec1");
}

TEST(Pattern, CheckerFindsFirstMismatchAcrossChunks) {
  std::vector<uint8_t> data(600000);
  rtl_pattern_fill(data.data(), data.size(), 0);
  PatternChecker good;
  good.Feed(data.data(), 1000);
  good.Feed(data.data() + 1000, data.size() - 1000);
  EXPECT_FALSE(good.first_mismatch());

  data[300001] ^= 1;
  PatternChecker bad;
  bad.Feed(data.data(), 300000);
  bad.Feed(data.data() + 300000, data.size() - 300000);
  ASSERT_TRUE(bad.first_mismatch());
  EXPECT_EQ(*bad.first_mismatch(), 300001u);
}

TEST(Sha256, KnownVectors) {
  Sha256 empty;
  EXPECT_EQ(empty.FinalHex(), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  Sha256 abc;
  abc.Update("a", 1);
  abc.Update("bc", 2);
  EXPECT_EQ(abc.FinalHex(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Stats, NearestRankAndPopulationStddev) {
  std::vector<uint64_t> v;
  for (uint64_t i = 1; i <= 100; ++i) v.push_back(101 - i);  // unsorted input
  const LatencyStats s = Summarize(v);
  EXPECT_EQ(s.count, 100u);
  EXPECT_EQ(s.min_ns, 1u);
  EXPECT_EQ(s.max_ns, 100u);
  EXPECT_EQ(s.p50_ns, 50u);
  EXPECT_EQ(s.p90_ns, 90u);
  EXPECT_EQ(s.p99_ns, 99u);
  EXPECT_DOUBLE_EQ(s.mean_ns, 50.5);
  EXPECT_NEAR(s.stddev_ns, 28.8660700477, 1e-9);
  const LatencyStats one = Summarize({7});
  EXPECT_EQ(one.p50_ns, 7u);
  EXPECT_EQ(one.p99_ns, 7u);
  EXPECT_EQ(Summarize({}).count, 0u);
}

TEST(Endpoint, ParsesHostPort) {
  EXPECT_EQ(ParseHostPort("127.0.0.1:5001", "--listen").port, 5001);
  EXPECT_EQ(ParseHostPort("[::1]:0", "--listen").host, "::1");
  EXPECT_THROW(ParseHostPort("5001", "--listen"), UsageError);
  EXPECT_THROW(ParseHostPort("host:", "--listen"), UsageError);
  EXPECT_THROW(ParseHostPort("host:65536", "--listen"), UsageError);
  EXPECT_THROW(ParseHostPort("::1:80", "--listen"), UsageError);
  EXPECT_THROW(ParseHostPort("host:12a", "--listen"), UsageError);
}

std::optional<Options> Parse(std::vector<const char*> args) {
  args.insert(args.begin(), "rtl8168-peer");
  return ParseOptions(static_cast<int>(args.size()), args.data());
}

TEST(Options, AcceptsEachMode) {
  auto o = Parse({"sink", "--listen", "127.0.0.1:0", "--expect-bytes", "64M", "--expect-sha256",
                  "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855", "--timeout",
                  "1.5", "--count", "2"});
  ASSERT_TRUE(o);
  EXPECT_EQ(o->mode, Mode::kSink);
  EXPECT_EQ(*o->expect_bytes, 64u << 20);
  EXPECT_EQ(o->expect_sha256->substr(0, 4), "e3b0");
  EXPECT_EQ(o->count, 2u);
  EXPECT_DOUBLE_EQ(o->timeout_seconds, 1.5);
  o = Parse({"source", "--connect", "10.0.2.15:7", "--bytes", "1K"});
  ASSERT_TRUE(o);
  EXPECT_EQ(*o->bytes, 1024u);
  o = Parse({"rr", "--connect", "127.0.0.1:1", "--request-size", "64", "--response-size", "1K",
             "--transactions", "10"});
  ASSERT_TRUE(o);
  EXPECT_EQ(o->response_size, 1024u);
  o = Parse({"udp-echo", "--listen", "127.0.0.1:0"});
  ASSERT_TRUE(o);
  o = Parse({"pattern", "--bytes", "3"});
  ASSERT_TRUE(o);
}

TEST(Options, RejectsBadArguments) {
  const std::vector<std::vector<const char*>> bad = {
      {},
      {"frobnicate"},
      {"sink"},                                                         // no endpoint
      {"sink", "--listen", "127.0.0.1:0", "--connect", "127.0.0.1:1"},  // both
      {"sink", "--listen", "127.0.0.1:0", "--bytes", "5"},              // not a sink option
      {"source", "--listen", "127.0.0.1:0"},                            // --bytes missing
      {"source", "--listen", "127.0.0.1:0", "--bytes", "-1"},           // negative
      {"source", "--listen", "127.0.0.1:0", "--bytes", "12X"},          // bad suffix
      {"source", "--listen", "127.0.0.1:0", "--bytes", "99999999999999999999"},
      {"sink", "--listen", "127.0.0.1:0", "--expect-sha256", "abc"},  // short digest
      {"sink", "--listen", "127.0.0.1:0", "--timeout", "0"},
      {"sink", "--listen", "127.0.0.1:0", "--count", "0"},
      {"rr", "--listen", "127.0.0.1:0", "--request-size", "5"},  // server: from hello
      {"rr", "--connect", "127.0.0.1:1", "--request-size", "0"},
      {"udp-echo", "--connect", "127.0.0.1:1", "--size", "4"},
      {"sink", "--listen", "127.0.0.1:0", "--no-such-option"},
      {"sink", "--listen"},  // missing value
  };
  for (const auto& args : bad) {
    std::string joined;
    for (const char* a : args) joined += std::string(a) + " ";
    EXPECT_THROW(Parse(args), UsageError) << joined;
  }
}

}  // namespace
}  // namespace peer
