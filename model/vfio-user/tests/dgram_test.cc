// SPDX-License-Identifier: GPL-2.0-or-later
// The dgram netdev (QEMU's -netdev dgram framing: one frame per datagram,
// nothing else) over Unix datagram sockets and UDP: frames both ways between
// the device and a test socket with the capture read back, the link up from
// the start, drops counted (no peer, a peer that does not read, malformed
// datagrams), and bad specs refused.
#include <netinet/in.h>
#include <pcap/pcap.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

#include "../../tests/harness/regs.h"
#include "client.h"

namespace vfio_user_test {
namespace {

namespace fs = std::filesystem;
namespace r = rtl8168_test;

struct TempPath {
  explicit TempPath(const std::string& name)
      : path(fs::temp_directory_path() / (name + "-" + std::to_string(getpid()))) {
    fs::remove(path);
  }
  ~TempPath() { fs::remove(path); }
  std::string str() const { return path.string(); }
  fs::path path;
};

// The test's end of the wire: a datagram socket bound to `addr`.
struct Peer {
  Peer(int family, const sockaddr* addr, socklen_t len) {
    fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(bind(fd, addr, len), 0) << strerror(errno);
  }
  ~Peer() { close(fd); }
  // One datagram within timeout_ms (empty when none came).
  std::vector<uint8_t> recv(int timeout_ms = 3000) const {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, timeout_ms) != 1) return {};
    std::vector<uint8_t> b(70000);
    const ssize_t n = ::recv(fd, b.data(), b.size(), 0);
    b.resize(n > 0 ? size_t(n) : 0);
    return b;
  }
  int fd = -1;
};

sockaddr_un unix_addr(const std::string& path) {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::snprintf(a.sun_path, sizeof a.sun_path, "%s", path.c_str());
  return a;
}

sockaddr_in loopback(uint16_t port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return a;
}

// A UDP port free on the loopback just now (bound and released).
uint16_t free_udp_port() {
  const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  sockaddr_in a = loopback(0);
  socklen_t len = sizeof a;
  EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  EXPECT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len), 0);
  close(fd);
  return ntohs(a.sin_port);
}

std::vector<uint8_t> frame(uint8_t tag, size_t len = 64) {
  std::vector<uint8_t> f(len, 0);
  std::memset(f.data(), 0xff, 6);
  f[12] = 0x88, f[13] = 0xb5;
  f[20] = tag;
  return f;
}

// The backend alone: what it sends arrives as one datagram, exactly the
// frame; what the peer sends arrives as one frame. `oversize`: the socket
// type carries a datagram longer than kMaxFrame (Unix; UDP's limit is below).
void frames_both_ways(const std::string& spec, Peer& peer, const sockaddr* backend_addr,
                      socklen_t backend_len, bool oversize) {
  boost::asio::io_context io;
  std::string err;
  auto net = make_net_backend(io, spec, err);
  ASSERT_TRUE(net) << err;
  EXPECT_TRUE(net->initially_up()) << "no connection: carrier from the start";
  std::vector<std::vector<uint8_t>> got;
  net->start([&](const uint8_t* f, size_t n) { got.emplace_back(f, f + n); }, [](bool) {});
  const auto out = frame(0x11, 1514);
  net->send(out.data(), out.size());
  EXPECT_EQ(peer.recv(), out);
  const auto in = frame(0x22, 60);
  ASSERT_EQ(sendto(peer.fd, in.data(), in.size(), 0, backend_addr, backend_len),
            ssize_t(in.size()));
  // An empty datagram and one longer than any frame are not frames.
  ASSERT_EQ(sendto(peer.fd, in.data(), 0, 0, backend_addr, backend_len), 0);
  const std::vector<uint8_t> huge(kMaxFrame + 1, 0x33);
  if (oversize) {
    ASSERT_EQ(sendto(peer.fd, huge.data(), huge.size(), 0, backend_addr, backend_len),
              ssize_t(huge.size()));
  }
  const uint64_t bad = oversize ? 2 : 1;
  for (int i = 0; i < 100 && net->dropped() < bad; i++) io.run_for(std::chrono::milliseconds(10));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], in);
  EXPECT_EQ(net->dropped(), bad);
}

TEST(VfioUserDgram, UnixFramesBothWays) {
  TempPath mine("rtl8168-dgram-dev.sock"), theirs("rtl8168-dgram-peer.sock");
  const sockaddr_un pa = unix_addr(theirs.str()), da = unix_addr(mine.str());
  Peer peer(AF_UNIX, reinterpret_cast<const sockaddr*>(&pa), sizeof pa);
  frames_both_ways("dgram,local=unix:" + mine.str() + ",remote=unix:" + theirs.str(), peer,
                   reinterpret_cast<const sockaddr*>(&da), sizeof da, true);
  EXPECT_FALSE(fs::exists(mine.path)) << "the bound path is removed with the backend";
}

TEST(VfioUserDgram, UdpFramesBothWays) {
  const uint16_t dev_port = free_udp_port();
  const sockaddr_in pa = loopback(0);
  Peer peer(AF_INET, reinterpret_cast<const sockaddr*>(&pa), sizeof pa);
  sockaddr_in bound{};
  socklen_t len = sizeof bound;
  ASSERT_EQ(getsockname(peer.fd, reinterpret_cast<sockaddr*>(&bound), &len), 0);
  const sockaddr_in da = loopback(dev_port);
  // The remote in the order QEMU's options allow either way.
  frames_both_ways("dgram,remote=udp:127.0.0.1:" + std::to_string(ntohs(bound.sin_port)) +
                       ",local=udp:127.0.0.1:" + std::to_string(dev_port),
                   peer, reinterpret_cast<const sockaddr*>(&da), sizeof da, false);
}

// A dgram backend from the Unix path `local` to `remote`, started, whose
// received frames go nowhere.
std::unique_ptr<NetBackend> started_unix_backend(boost::asio::io_context& io, const TempPath& local,
                                                 const TempPath& remote) {
  std::string err;
  auto net =
      make_net_backend(io, "dgram,local=unix:" + local.str() + ",remote=unix:" + remote.str(), err);
  EXPECT_TRUE(net) << err;
  if (net) net->start([](const uint8_t*, size_t) {}, [](bool) {});
  return net;
}

// No one at the remote path: every frame is dropped and counted.
TEST(VfioUserDgram, NoPeerDropsAndCounts) {
  TempPath mine("rtl8168-dgram-lonely.sock"), nobody("rtl8168-dgram-nobody.sock");
  boost::asio::io_context io;
  auto net = started_unix_backend(io, mine, nobody);
  ASSERT_TRUE(net);
  const auto f = frame(1);
  for (int i = 0; i < 5; i++) net->send(f.data(), f.size());
  io.run_for(std::chrono::milliseconds(20));
  EXPECT_EQ(net->dropped(), 5u);
}

// A peer that does not read: its queue fills, the backend holds up to
// kMaxSendQueue frames and drops the rest; once the peer reads, the held
// ones arrive in order. Every frame is either received or counted.
TEST(VfioUserDgram, SlowPeerBackPressureAndDropCount) {
  TempPath mine("rtl8168-dgram-src.sock"), theirs("rtl8168-dgram-slow.sock");
  const sockaddr_un pa = unix_addr(theirs.str());
  Peer peer(AF_UNIX, reinterpret_cast<const sockaddr*>(&pa), sizeof pa);
  boost::asio::io_context io;
  auto net = started_unix_backend(io, mine, theirs);
  ASSERT_TRUE(net);
  constexpr size_t kFrames = 3000;
  for (size_t i = 0; i < kFrames; i++) {
    auto f = frame(0);
    std::memcpy(f.data() + 16, &i, sizeof i);
    net->send(f.data(), f.size());
  }
  EXPECT_GT(net->dropped(), 0u) << "more than the queue and the socket hold";
  size_t received = 0, last = 0;
  bool in_order = true;
  for (int idle = 0; idle < 20;) {
    io.run_for(std::chrono::milliseconds(5));
    idle++;
    for (auto d = peer.recv(0); !d.empty(); d = peer.recv(0)) {
      idle = 0;
      size_t seq;
      std::memcpy(&seq, d.data() + 16, sizeof seq);
      if (received && seq <= last) in_order = false;
      last = seq;
      received++;
    }
  }
  EXPECT_TRUE(in_order);
  EXPECT_GE(received, kMaxSendQueue);
  EXPECT_EQ(received + net->dropped(), kFrames);
}

// The device on the dgram wire: a transmitted frame leaves as one datagram,
// one sent to it is received; the capture has both; the link is up without
// any connection.
TEST(VfioUserDgram, DeviceFramesAndPcap) {
  TempPath mine("rtl8168-dgram-nic.sock"), theirs("rtl8168-dgram-wire.sock"),
      cap("rtl8168-dgram.pcap");
  const sockaddr_un pa = unix_addr(theirs.str()), da = unix_addr(mine.str());
  Peer peer(AF_UNIX, reinterpret_cast<const sockaddr*>(&pa), sizeof pa);
  HarnessOptions o;
  o.netdev = "dgram,local=unix:" + mine.str() + ",remote=unix:" + theirs.str();
  o.pcap = cap.str();
  Harness h(o);
  h.negotiate();
  EXPECT_TRUE(h.reg(r::kPHYstatus, 1) & 0x02) << "LinkStatus";
  h.map_memory(kRam, kRamSize, true);
  bring_up_tx(h, r::kTxOK);
  kick_one_frame(h, 0x99);
  const auto out = peer.recv();
  ASSERT_EQ(out.size(), 60u);
  EXPECT_EQ(out[14], 0x99);
  EXPECT_EQ(std::memcmp(out.data(), h.mem(kBuf), 60), 0);
  const auto in = frame(0x77);
  ASSERT_EQ(
      sendto(peer.fd, in.data(), in.size(), 0, reinterpret_cast<const sockaddr*>(&da), sizeof da),
      ssize_t(in.size()));
  for (int i = 0; i < 300 && h.server().frames_received() == 0; i++)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  h.stop();
  EXPECT_EQ(h.server().frames_sent(), 1u);
  EXPECT_EQ(h.server().frames_received(), 1u);
  EXPECT_EQ(h.server().frames_dropped(), 0u);

  char perr[PCAP_ERRBUF_SIZE];
  pcap_t* pc = pcap_open_offline(cap.path.c_str(), perr);
  ASSERT_TRUE(pc) << perr;
  std::vector<std::pair<uint32_t, uint8_t>> seen;  // (length, tag)
  pcap_pkthdr* ph;
  const u_char* data;
  while (pcap_next_ex(pc, &ph, &data) == 1)
    seen.emplace_back(ph->caplen, data[ph->caplen == 60 ? 14 : 20]);
  pcap_close(pc);
  EXPECT_EQ(seen, (std::vector<std::pair<uint32_t, uint8_t>>{{60, 0x99}, {64, 0x77}}))
      << "sent, then received";
}

TEST(VfioUserDgram, BadSpecsAreRefusedWithAMessage) {
  TempPath taken("rtl8168-dgram-taken.sock");
  const sockaddr_un ta = unix_addr(taken.str());
  Peer occupant(AF_UNIX, reinterpret_cast<const sockaddr*>(&ta), sizeof ta);
  boost::asio::io_context io;
  for (const std::string& bad :
       std::vector<std::string>{"dgram", "dgram,local=unix:a.sock", "dgram,remote=udp:127.0.0.1:9",
                                "dgram,local=unix:a.sock,remote=udp:127.0.0.1:9",
                                "dgram,local=tcp:127.0.0.1:1,remote=tcp:127.0.0.1:2",
                                "dgram,local=udp:127.0.0.1,remote=udp:127.0.0.1:2",
                                "dgram,local=unix:a.sock,remote=unix:b.sock,local=unix:c.sock",
                                "dgram,local=,remote=unix:b.sock", "dgram,mcast=udp:224.0.0.1:5",
                                "dgram,local=unix:" + taken.str() + ",remote=unix:b.sock",
                                "dgram,local=unix:nonexistent-dir/a.sock,remote=unix:b.sock"}) {
    std::string err;
    EXPECT_FALSE(make_net_backend(io, bad, err)) << bad;
    EXPECT_FALSE(err.empty()) << bad;
  }
  EXPECT_TRUE(fs::exists(taken.path)) << "a refused spec leaves another's socket alone";
}

}  // namespace
}  // namespace vfio_user_test
