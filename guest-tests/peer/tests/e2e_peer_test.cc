// SPDX-License-Identifier: GPL-2.0-or-later
// rtl8168-peer against itself over 127.0.0.1: every mode, verdicts, exit codes, JSON.
#include <signal.h>

#include "e2e_fixture.h"
#include "pattern.h"

namespace peer_test {
namespace {

int RunPeer(std::vector<std::string> args, const std::string& dir, const std::string& name,
            nlohmann::json* json = nullptr, std::string* err = nullptr) {
  args.insert(args.begin(), PEER_BIN);
  std::string out;
  const int code = RunChild(args, dir, name, &out, err);
  if (json) *json = out.empty() ? nlohmann::json() : nlohmann::json::parse(out);
  return code;
}

TEST_F(E2eTest, SourceToSinkVerifiesBytesShaAndPattern) {
  const uint64_t bytes = 10 * 1000 * 1000 + 7;  // not a multiple of the period
  const std::string sha = peer::PatternSha256(bytes);
  std::string ep;
  auto sink = StartPeer(
      {"sink", "--expect-bytes", std::to_string(bytes), "--expect-sha256", sha, "--expect-pattern"},
      "sink", &ep);
  nlohmann::json src;
  EXPECT_EQ(
      RunPeer({"source", "--connect", ep, "--bytes", std::to_string(bytes)}, dir_, "source", &src),
      0);
  EXPECT_EQ(src["status"], "ok");
  EXPECT_EQ(src["sha256"], sha);
  EXPECT_EQ(src["connections"][0]["bytes"], bytes);
  ASSERT_EQ(sink->Wait(), 0) << sink->Stderr();
  const auto j = Json(sink->Stdout());
  EXPECT_EQ(j["mode"], "sink");
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["exit_code"], 0);
  EXPECT_EQ(j["bytes"], bytes);
  EXPECT_EQ(j["connections"][0]["sha256"], sha);
  EXPECT_EQ(j["connections"][0]["sha256_ok"], true);
  EXPECT_EQ(j["connections"][0]["bytes_ok"], true);
  EXPECT_EQ(j["connections"][0]["pattern_ok"], true);
  EXPECT_GT(j["connections"][0]["mbps"].get<double>(), 0.0);
}

TEST_F(E2eTest, SinkConnectsToListeningSourceSeveralConnections) {
  std::string ep;
  auto source = StartPeer({"source", "--bytes", "3M", "--count", "3"}, "source", &ep);
  const std::string json_file = dir_ + "/sink.json";
  EXPECT_EQ(RunPeer({"sink", "--connect", ep, "--count", "3", "--expect-bytes", "3M",
                     "--expect-pattern", "--json", json_file},
                    dir_, "sink"),
            0);
  ASSERT_EQ(source->Wait(), 0) << source->Stderr();
  const auto j = Json(ReadFile(json_file));
  ASSERT_EQ(j["connections"].size(), 3u);
  for (const auto& c : j["connections"]) {
    EXPECT_EQ(c["bytes"], 3u << 20);
    EXPECT_EQ(c["sha256"], peer::PatternSha256(3u << 20));
  }
  EXPECT_EQ(Json(source->Stdout())["bytes"], 9u << 20);
}

TEST_F(E2eTest, SinkReportsMismatchWithExitOne) {
  std::string ep;
  auto sink = StartPeer({"sink", "--expect-bytes", "1000", "--expect-sha256", std::string(64, '0')},
                        "sink", &ep);
  EXPECT_EQ(RunPeer({"source", "--connect", ep, "--bytes", "1000"}, dir_, "source"), 0);
  ASSERT_EQ(sink->Wait(), 1);
  const auto j = Json(sink->Stdout());
  EXPECT_EQ(j["status"], "mismatch");
  EXPECT_EQ(j["connections"][0]["bytes_ok"], true);
  EXPECT_EQ(j["connections"][0]["sha256_ok"], false);
}

TEST_F(E2eTest, RequestResponseBothRoles) {
  std::string ep;
  auto server = StartPeer({"rr", "--transactions", "500"}, "rr-server", &ep);
  nlohmann::json j;
  EXPECT_EQ(RunPeer({"rr", "--connect", ep, "--request-size", "100", "--response-size", "70000",
                     "--transactions", "500"},
                    dir_, "rr-client", &j),
            0);
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["transactions"], 500);
  const auto& lat = j["latency"];
  EXPECT_EQ(lat["count"], 500);
  EXPECT_LE(lat["min_ns"].get<uint64_t>(), lat["p50_ns"].get<uint64_t>());
  EXPECT_LE(lat["p50_ns"].get<uint64_t>(), lat["p90_ns"].get<uint64_t>());
  EXPECT_LE(lat["p90_ns"].get<uint64_t>(), lat["p99_ns"].get<uint64_t>());
  EXPECT_LE(lat["p99_ns"].get<uint64_t>(), lat["max_ns"].get<uint64_t>());
  EXPECT_GT(lat["mean_ns"].get<double>(), 0.0);
  EXPECT_EQ(j["connections"][0]["bad_responses"], 0);
  ASSERT_EQ(server->Wait(), 0) << server->Stderr();
  const auto s = Json(server->Stdout());
  EXPECT_EQ(s["role"], "server");
  EXPECT_EQ(s["connections"][0]["transactions"], 500);
  EXPECT_EQ(s["connections"][0]["request_size"], 100);
  EXPECT_EQ(s["connections"][0]["response_size"], 70000);
}

TEST_F(E2eTest, RrServerFlagsShortClient) {
  std::string ep;
  auto server = StartPeer({"rr", "--transactions", "50"}, "rr-server", &ep);
  EXPECT_EQ(RunPeer({"rr", "--connect", ep, "--transactions", "20"}, dir_, "rr-client"), 0);
  EXPECT_EQ(server->Wait(), 1);
  EXPECT_EQ(Json(server->Stdout())["status"], "mismatch");
}

TEST_F(E2eTest, UdpEchoClientAndServerStoppedBySigterm) {
  std::string ep;
  auto server = StartPeer({"udp-echo"}, "udp-server", &ep);
  nlohmann::json j;
  EXPECT_EQ(RunPeer({"udp-echo", "--connect", ep, "--datagrams", "300", "--size", "1400"}, dir_,
                    "udp-client", &j),
            0);
  EXPECT_EQ(j["received"], 300);
  EXPECT_EQ(j["lost"], 0);
  EXPECT_EQ(j["bad"], 0);
  EXPECT_EQ(j["latency"]["count"], 300);
  server->Signal(SIGTERM);
  ASSERT_EQ(server->Wait(), 0) << server->Stderr();
  const auto s = Json(server->Stdout());
  EXPECT_EQ(s["datagrams"], 300);
  EXPECT_EQ(s["bytes"], 300 * 1400);
  EXPECT_EQ(s["signal"], SIGTERM);
}

TEST_F(E2eTest, UdpEchoServerWithDatagramLimitExitsByItself) {
  std::string ep;
  auto server = StartPeer({"udp-echo", "--datagrams", "10"}, "udp-server", &ep);
  EXPECT_EQ(RunPeer({"udp-echo", "--connect", ep, "--datagrams", "10"}, dir_, "udp-client"), 0);
  ASSERT_EQ(server->Wait(), 0);
  EXPECT_EQ(Json(server->Stdout())["status"], "ok");
}

TEST_F(E2eTest, UdpEchoCountsLostDatagrams) {
  // Nothing answers on the port of a bound-then-closed socket: every datagram is lost.
  nlohmann::json j;
  EXPECT_EQ(
      RunPeer({"udp-echo", "--connect", "127.0.0.1:9", "--datagrams", "3", "--reply-wait-ms", "50"},
              dir_, "udp-client", &j),
      1);
  EXPECT_EQ(j["lost"], 3);
  EXPECT_EQ(j["status"], "mismatch");
}

TEST_F(E2eTest, TimeoutExitsThreeWithJson) {
  std::string ep;
  auto sink = std::make_unique<ChildProcess>(
      std::vector<std::string>{PEER_BIN, "sink", "--listen", "127.0.0.1:0", "--timeout", "0.3"},
      dir_, "sink");
  ASSERT_EQ(sink->Wait(), 3);
  const auto j = Json(sink->Stdout());
  EXPECT_EQ(j["status"], "timeout");
  EXPECT_EQ(j["exit_code"], 3);
}

TEST_F(E2eTest, SigintBeforeCompletionExitsFive) {
  std::string ep;
  auto sink = StartPeer({"sink"}, "sink", &ep);
  sink->Signal(SIGINT);
  ASSERT_EQ(sink->Wait(), 5);
  const auto j = Json(sink->Stdout());
  EXPECT_EQ(j["status"], "interrupted");
  EXPECT_EQ(j["signal"], SIGINT);
}

TEST_F(E2eTest, ConnectionRefusedExitsFour) {
  nlohmann::json j;
  const std::string ep = "127.0.0.1:" + std::to_string(FreePort());
  EXPECT_EQ(RunPeer({"sink", "--connect", ep}, dir_, "sink", &j), 4);
  EXPECT_EQ(j["status"], "error");
  EXPECT_NE(j["connections"][0]["error"].get<std::string>().find("refused"), std::string::npos);
}

TEST_F(E2eTest, BadArgumentsExitTwoWithAMessage) {
  const std::vector<std::vector<std::string>> bad = {
      {},
      {"nosuchmode"},
      {"sink"},
      {"sink", "--listen", "localhost"},
      {"source", "--listen", "127.0.0.1:0"},
      {"source", "--listen", "127.0.0.1:0", "--bytes", "lots"},
      {"rr", "--connect", "127.0.0.1:1", "--count", "0"},
      {"sink", "--listen", "127.0.0.1:0", "--expect-sha256", "xyz"},
      {"udp-echo", "--listen", "127.0.0.1:0", "--size", "100"},
  };
  for (const auto& args : bad) {
    std::string err;
    EXPECT_EQ(RunPeer(args, dir_, "bad", nullptr, &err), 2) << args.size();
    EXPECT_NE(err.find("rtl8168-peer:"), std::string::npos) << err;
  }
  std::string out, err;
  EXPECT_EQ(RunChild({PEER_BIN, "--help"}, dir_, "help", &out, &err), 0);
  EXPECT_NE(out.find("Usage: rtl8168-peer MODE"), std::string::npos);
}

TEST_F(E2eTest, ListenOnBusyPortExitsFour) {
  std::string ep;
  auto sink = StartPeer({"sink"}, "sink", &ep);
  std::string err;
  EXPECT_EQ(RunPeer({"sink", "--listen", ep}, dir_, "second", nullptr, &err), 4);
  EXPECT_NE(err.find("in use"), std::string::npos) << err;
}

TEST_F(E2eTest, PatternModePrintsSha) {
  nlohmann::json j;
  EXPECT_EQ(RunPeer({"pattern", "--bytes", "1M"}, dir_, "pattern", &j), 0);
  EXPECT_EQ(j["sha256"], "0f897d1c63532065a9126a3e4bd5f251c8943e48d4838c70303723652dfffec1");
}

}  // namespace
}  // namespace peer_test
