// SPDX-License-Identifier: GPL-2.0-or-later
// The guest programs (guest-tests/programs, built for the host) against rtl8168-peer and
// against each other over 127.0.0.1; hostile against a fake sysfs tree.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <sstream>

#include "e2e_fixture.h"
#include "pattern.h"

namespace peer_test {
namespace {

// "RESULT k=v k=v ..." (the last line starting with RESULT) as a map.
std::map<std::string, std::string> ParseResult(const std::string& out) {
  std::map<std::string, std::string> kv;
  std::istringstream lines(out);
  std::string line, last;
  while (std::getline(lines, line))
    if (line.rfind("RESULT ", 0) == 0) last = line;
  std::istringstream words(last);
  std::string word;
  words >> word;
  while (words >> word) {
    const auto eq = word.find('=');
    if (eq != std::string::npos) kv[word.substr(0, eq)] = word.substr(eq + 1);
  }
  return kv;
}

class GuestProgramTest : public E2eTest {
 protected:
  int Traffic(std::vector<std::string> args, std::map<std::string, std::string>* result,
              const std::string& name = "traffic") {
    args.insert(args.begin(), TRAFFIC_BIN);
    std::string out;
    const int code = RunChild(args, dir_, name, &out);
    *result = ParseResult(out);
    return code;
  }
};

TEST_F(GuestProgramTest, StreamSendToPeerSinkShaMatches) {
  const uint64_t bytes = (16u << 20) + 12345;
  const std::string sha = peer::PatternSha256(bytes);
  std::string ep;
  auto sink = StartPeer(
      {"sink", "--expect-bytes", std::to_string(bytes), "--expect-sha256", sha, "--expect-pattern"},
      "sink", &ep);
  std::map<std::string, std::string> r;
  ASSERT_EQ(Traffic({"stream-send", "127.0.0.1", Port(ep), std::to_string(bytes)}, &r), 0);
  EXPECT_EQ(r["tool"], "stream-send");
  EXPECT_EQ(r["status"], "ok");
  EXPECT_EQ(r["bytes"], std::to_string(bytes));
  EXPECT_EQ(r["sha256"], sha);  // the C SHA-256 agrees with OpenSSL
  EXPECT_GT(std::stod(r["mbps"]), 0.0);
  EXPECT_GT(std::stoull(r["ns"]), 0u);
  ASSERT_EQ(sink->Wait(), 0) << sink->Stdout();
  EXPECT_EQ(Json(sink->Stdout())["connections"][0]["sha256_ok"], true);
}

TEST_F(GuestProgramTest, PeerSourceToStreamRecvClient) {
  const uint64_t bytes = (8u << 20) + 1;
  std::string ep;
  auto source = StartPeer({"source", "--bytes", std::to_string(bytes)}, "source", &ep);
  std::map<std::string, std::string> r;
  ASSERT_EQ(
      Traffic({"--expect-bytes", std::to_string(bytes), "stream-recv", "127.0.0.1", Port(ep)}, &r),
      0);
  EXPECT_EQ(r["tool"], "stream-recv");
  EXPECT_EQ(r["status"], "ok");
  EXPECT_EQ(r["bytes"], std::to_string(bytes));
  EXPECT_EQ(r["pattern"], "ok");
  EXPECT_EQ(r["sha256"], peer::PatternSha256(bytes));
  EXPECT_EQ(source->Wait(), 0);
}

TEST_F(GuestProgramTest, PeerSourceConnectsToStreamRecvServer) {
  std::string port;
  auto recv = StartReady({TRAFFIC_BIN, "stream-recv", "0"}, "recv", &port);
  std::string out;
  ASSERT_EQ(RunChild({PEER_BIN, "source", "--connect", "127.0.0.1:" + port, "--bytes", "5M"}, dir_,
                     "source", &out),
            0);
  ASSERT_EQ(recv->Wait(), 0);
  const auto r = ParseResult(recv->Stdout());
  EXPECT_EQ(r.at("bytes"), std::to_string(5u << 20));
  EXPECT_EQ(r.at("sha256"), peer::PatternSha256(5u << 20));
}

TEST_F(GuestProgramTest, StreamRecvReportsCorruptData) {
  std::string port;
  auto recv = StartReady({TRAFFIC_BIN, "stream-recv", "0"}, "recv", &port);
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(std::stoi(port)));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
  uint8_t data[100];
  rtl_pattern_fill(data, sizeof(data), 0);
  data[42] ^= 0x80;
  ASSERT_EQ(write(fd, data, sizeof(data)), 100);
  close(fd);
  ASSERT_EQ(recv->Wait(), 1);
  const auto r = ParseResult(recv->Stdout());
  EXPECT_EQ(r.at("status"), "fail");
  EXPECT_EQ(r.at("pattern"), "mismatch@42");
}

TEST_F(GuestProgramTest, RrClientToPeerServer) {
  std::string ep;
  auto server = StartPeer({"rr", "--transactions", "400"}, "rr-server", &ep);
  std::map<std::string, std::string> r;
  ASSERT_EQ(Traffic({"rr", "127.0.0.1", Port(ep), "64", "1500", "400"}, &r), 0);
  EXPECT_EQ(r["tool"], "rr");
  EXPECT_EQ(r["transactions"], "400");
  EXPECT_EQ(r["bad_responses"], "0");
  EXPECT_LE(std::stoull(r["min_ns"]), std::stoull(r["p50_ns"]));
  EXPECT_LE(std::stoull(r["p50_ns"]), std::stoull(r["p99_ns"]));
  EXPECT_LE(std::stoull(r["p99_ns"]), std::stoull(r["max_ns"]));
  EXPECT_GT(std::stod(r["mean_ns"]), 0.0);
  ASSERT_EQ(server->Wait(), 0);
  const auto s = Json(server->Stdout());
  EXPECT_EQ(s["connections"][0]["request_size"], 64);
  EXPECT_EQ(s["connections"][0]["response_size"], 1500);
}

TEST_F(GuestProgramTest, PeerRrClientToRrServer) {
  std::string port;
  auto server = StartReady({TRAFFIC_BIN, "rr-server", "0"}, "rr-server", &port);
  std::string out;
  ASSERT_EQ(RunChild({PEER_BIN, "rr", "--connect", "127.0.0.1:" + port, "--request-size", "1",
                      "--response-size", "300K", "--transactions", "200"},
                     dir_, "rr-client", &out),
            0);
  EXPECT_EQ(Json(out)["connections"][0]["bad_responses"], 0);
  ASSERT_EQ(server->Wait(), 0);
  const auto r = ParseResult(server->Stdout());
  EXPECT_EQ(r.at("status"), "ok");
  EXPECT_EQ(r.at("transactions"), "200");
}

TEST_F(GuestProgramTest, BothEndsInGuestPrograms) {  // the closed-world lab's pairing
  std::string port;
  auto recv = StartReady({TRAFFIC_BIN, "stream-recv", "0"}, "recv", &port);
  std::map<std::string, std::string> s;
  ASSERT_EQ(Traffic({"--no-sha", "stream-send", "127.0.0.1", port, "32M"}, &s), 0);
  EXPECT_EQ(s["sha256"], "-");
  ASSERT_EQ(recv->Wait(), 0);
  EXPECT_EQ(ParseResult(recv->Stdout()).at("sha256"), peer::PatternSha256(32u << 20));

  auto server = StartReady({TRAFFIC_BIN, "rr-server", "0"}, "rr-server", &port);
  std::map<std::string, std::string> r;
  ASSERT_EQ(Traffic({"rr", "127.0.0.1", port, "1", "1", "1000"}, &r), 0);
  EXPECT_EQ(r["transactions"], "1000");
  ASSERT_EQ(server->Wait(), 0);
}

TEST_F(GuestProgramTest, TrafficBadArgumentsAndErrors) {
  std::map<std::string, std::string> r;
  EXPECT_EQ(Traffic({}, &r), 2);
  EXPECT_EQ(Traffic({"stream-send", "127.0.0.1", "1"}, &r), 2);
  EXPECT_EQ(Traffic({"stream-send", "host.example", "1", "10"}, &r), 2);
  EXPECT_EQ(Traffic({"rr", "127.0.0.1", "1", "0", "1", "1"}, &r), 2);
  EXPECT_EQ(Traffic({"--bogus", "rr-server", "1"}, &r), 2);
  EXPECT_EQ(r["status"], "usage");
  EXPECT_EQ(Traffic({"--timeout", "1", "stream-recv", "0"}, &r), 3);
  EXPECT_EQ(r["status"], "timeout");
  EXPECT_EQ(Traffic({"stream-send", "127.0.0.1", std::to_string(FreePort()), "10"}, &r), 4);
  EXPECT_EQ(r["error"], "connect");
}

// hostile against a fake /sys: a 10ec:8168 device whose config and resource2 are files.
class HostileTest : public E2eTest {
 protected:
  void SetUp() override {
    E2eTest::SetUp();
    dev_ = dir_ + "/sys/bus/pci/devices/0000:00:04.0";
    std::filesystem::create_directories(dev_);
    std::filesystem::create_directories(dir_ + "/sys/bus/pci/devices/0000:00:03.0");
    std::ofstream(dir_ + "/sys/bus/pci/devices/0000:00:03.0/vendor") << "0x8086\n";
    std::ofstream(dev_ + "/vendor") << "0x10ec\n";
    std::ofstream(dev_ + "/device") << "0x8168\n";
  }
  void Reset() {
    std::string config(256, '\0');
    config[4] = 0x03;  // IO + memory decode, no bus master
    std::ofstream(dev_ + "/config", std::ios::binary) << config;
    std::string bar(4096, '\0');
    bar.replace(0, 6, Mac());
    std::ofstream(dev_ + "/resource2", std::ios::binary) << bar;
  }
  int Hostile(const std::vector<std::string>& extra, std::map<std::string, std::string>* r) {
    std::vector<std::string> argv = {HOSTILE_BIN, "--sysfs", dir_ + "/sys", "--delay-us", "0"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    std::string out;
    const int code = RunChild(argv, dir_, "hostile", &out);
    *r = ParseResult(out);
    return code;
  }
  static std::string Mac() { return std::string("\x52\x54\x00\x12\x34\x56", 6); }
  std::string dev_;
};

TEST_F(HostileTest, DeterministicRestoresCommandAndMac) {
  std::map<std::string, std::string> r;
  Reset();
  ASSERT_EQ(Hostile({"--writes", "1500"}, &r), 0);
  EXPECT_EQ(r["tool"], "hostile");
  EXPECT_EQ(r["status"], "ok");
  EXPECT_EQ(r["bdf"], "0000:00:04.0");
  EXPECT_GE(std::stoul(r["writes"]), 1500u);
  const std::string first = ReadFile(dev_ + "/resource2");
  const std::string config = ReadFile(dev_ + "/config");
  EXPECT_EQ(config[4], 0x03);  // the PCI command register is restored
  EXPECT_EQ(config[5], 0x00);
  EXPECT_EQ(first.substr(0, 6), Mac());  // MAC restored
  EXPECT_NE(first, std::string(4096, '\0'));

  Reset();
  ASSERT_EQ(Hostile({"--writes", "1500"}, &r), 0);
  EXPECT_EQ(ReadFile(dev_ + "/resource2"), first);  // same seed, same register traffic
  Reset();
  ASSERT_EQ(Hostile({"--writes", "1500", "--seed", "7"}, &r), 0);
  EXPECT_EQ(r["seed"], "0x7");
  EXPECT_NE(ReadFile(dev_ + "/resource2"), first);
}

TEST_F(HostileTest, NoDeviceOrBadArguments) {
  std::map<std::string, std::string> r;
  std::filesystem::remove(dev_ + "/device");
  EXPECT_EQ(Hostile({}, &r), 4);
  EXPECT_EQ(r["status"], "error");
  EXPECT_EQ(Hostile({"--frob"}, &r), 2);
}

}  // namespace
}  // namespace peer_test
