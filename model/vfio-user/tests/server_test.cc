// SPDX-License-Identifier: GPL-2.0-or-later
// The server as rtl8168-vfio-user runs it: listening on a socket path, its
// end when the client leaves (or, with persist, the next client finding the
// device as the last one left it), the stream network backend's framing and
// the pcap capture.
#include <arpa/inet.h>
#include <pcap/pcap.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "client.h"

namespace vfio_user_test {
namespace {

namespace fs = std::filesystem;

// A unique path under the temp dir, removed on the way out.
struct TempPath {
  explicit TempPath(const std::string& name)
      : path(fs::temp_directory_path() / (name + "-" + std::to_string(getpid()))) {
    fs::remove(path);
  }
  ~TempPath() { fs::remove(path); }
  fs::path path;
};

int connect_unix(const std::string& path) {
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::snprintf(a.sun_path, sizeof a.sun_path, "%s", path.c_str());
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

std::unique_ptr<rtl8168_config, decltype(&rtl8168_config_free)> config(const char* mac) {
  std::unique_ptr<rtl8168_config, decltype(&rtl8168_config_free)> cfg(rtl8168_config_new(),
                                                                      rtl8168_config_free);
  char err[256];
  EXPECT_EQ(rtl8168_config_set(cfg.get(), "chip", "8168evl", err, sizeof err), 0);
  EXPECT_EQ(rtl8168_config_set(cfg.get(), "mac", mac, err, sizeof err), 0);
  return cfg;
}

// One request/reply on a raw socket (no DMA requests expected).
Message roundtrip(int fd, Message req) {
  EXPECT_TRUE(send_message(fd, req, {}, 2000));
  Message r;
  EXPECT_EQ(recv_message(fd, r, kMaxMessage, 8, 2000).status, RecvStatus::kOk);
  return r;
}

Message version() {
  Message m = Harness::request(kVersion);
  put(m, Version{0, 0});
  return m;
}

uint32_t read_mac0(int fd) {
  Message m = Harness::request(kRegionRead);
  put(m, RegionAccess{0, VFIO_PCI_BAR2_REGION_INDEX, 4});
  Message r = roundtrip(fd, std::move(m));
  uint32_t v = 0;
  std::memcpy(&v, r.tail(sizeof(RegionAccess)).data(), 4);
  return v;
}

TEST(VfioUserServer, APathThatFitsOnlyWithoutTheStagingSuffixIsRefusedWithTheReason) {
  boost::asio::io_context io;
  std::string err;
  auto server =
      Server::create(io, config("52:54:00:aa:bb:cc").get(), false, nullptr, nullptr, {}, err);
  ASSERT_TRUE(server) << err;
  // 107 bytes fit sun_path (108 with the NUL); PATH.<pid> does not.
  const std::string path = "/tmp/" + std::string(102, 'x');
  ASSERT_EQ(path.size(), sizeof(sockaddr_un{}.sun_path) - 1);
  EXPECT_FALSE(server->listen(path, err));
  EXPECT_NE(err.find("socket path too long"), std::string::npos) << err;
  EXPECT_NE(err.find("first binds " + path + "." + std::to_string(getpid())), std::string::npos) << err;
  EXPECT_FALSE(fs::exists(path));
}

TEST(VfioUserServer, ExitsWhenTheClientLeavesAndRemovesItsSocket) {
  TempPath sock("rtl8168-vfio-test.sock");
  boost::asio::io_context io;
  std::string err;
  auto server =
      Server::create(io, config("52:54:00:aa:bb:cc").get(), false, nullptr, nullptr, {}, err);
  ASSERT_TRUE(server) << err;
  ASSERT_TRUE(server->listen(sock.path, err)) << err;
  auto other =
      Server::create(io, config("52:54:00:aa:bb:cd").get(), false, nullptr, nullptr, {}, err);
  std::string again;
  EXPECT_FALSE(other->listen(sock.path, again)) << "an existing path is refused";
  // the private name the socket is bound to before it listens is gone, after success or not
  EXPECT_FALSE(fs::exists(sock.path.string() + "." + std::to_string(getpid())));
  EXPECT_TRUE(fs::is_socket(sock.path));
  other.reset();
  std::thread t([&] { io.run(); });
  const int fd = connect_unix(sock.path);
  ASSERT_GE(fd, 0);
  roundtrip(fd, version());
  EXPECT_EQ(read_mac0(fd), 0xaa005452u);
  close(fd);
  t.join();  // the loop ends by itself
  server.reset();
  EXPECT_FALSE(fs::exists(sock.path));
}

TEST(VfioUserServer, PersistKeepsTheDeviceForTheNextClient) {
  TempPath sock("rtl8168-vfio-test-persist.sock");
  boost::asio::io_context io;
  std::string err;
  ServerConfig sc;
  sc.persist = true;
  auto server =
      Server::create(io, config("52:54:00:aa:bb:cc").get(), false, nullptr, nullptr, sc, err);
  ASSERT_TRUE(server) << err;
  ASSERT_TRUE(server->listen(sock.path, err)) << err;
  std::thread t([&] { io.run(); });
  int fd = connect_unix(sock.path);
  roundtrip(fd, version());
  for (auto [off, v] : {std::pair<uint64_t, uint64_t>{0x50, 0xc0}, {0x00, 0x04030201}, {0x50, 0}}) {
    Message w = Harness::request(kRegionWrite);
    put(w, RegionAccess{off, VFIO_PCI_BAR2_REGION_INDEX, off == 0 ? 4u : 1u});
    put_bytes(w, &v, off == 0 ? 4 : 1);
    roundtrip(fd, std::move(w));
  }
  close(fd);
  fd = connect_unix(sock.path);
  ASSERT_GE(fd, 0);
  roundtrip(fd, version());  // a new connection negotiates again
  EXPECT_EQ(read_mac0(fd), 0x04030201u) << "the device state survived the reconnect";
  close(fd);
  boost::asio::post(io, [&] { io.stop(); });
  t.join();
}

// The stream backend towards a peer listening on a Unix socket: the link
// comes up when it connects; frames cross both ways length-prefixed; the
// capture has them.
TEST(VfioUserServer, StreamNetdevFramingAndPcap) {
  TempPath wire("rtl8168-vfio-test-wire.sock"), cap("rtl8168-vfio-test.pcap");
  const int lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::snprintf(a.sun_path, sizeof a.sun_path, "%s", wire.path.c_str());
  ASSERT_EQ(bind(lfd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(listen(lfd, 1), 0);

  boost::asio::io_context io;
  std::string err;
  auto net = make_net_backend(io, "stream,connect=unix:" + wire.path.string(), err);
  ASSERT_TRUE(net) << err;
  auto pcap = PcapWriter::open(cap.path, err);
  ASSERT_TRUE(pcap) << err;
  auto server = Server::create(io, config("52:54:00:aa:bb:cc").get(), false, std::move(net),
                               std::move(pcap), {}, err);
  ASSERT_TRUE(server) << err;
  int sv[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
  server->serve(sv[1]);
  std::thread t([&] { io.run(); });
  const int peer = accept4(lfd, nullptr, nullptr, SOCK_CLOEXEC);
  ASSERT_GE(peer, 0);

  // Peer -> device: one 64-byte frame, length-prefixed.
  uint8_t in[4 + 64] = {};
  const uint32_t be = htonl(64);
  std::memcpy(in, &be, 4);
  std::memset(in + 4, 0xff, 6);
  in[4 + 20] = 0x77;
  ASSERT_EQ(write(peer, in, sizeof in), ssize_t(sizeof in));

  // Device -> peer: a TX descriptor kicked through the protocol.
  const int fd = sv[0];
  roundtrip(fd, version());
  const int memfd = memfd_create("ram", MFD_CLOEXEC);
  ASSERT_EQ(ftruncate(memfd, 0x4000), 0);
  auto* ram =
      static_cast<uint8_t*>(mmap(nullptr, 0x4000, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0));
  Message map = Harness::request(kDmaMap);
  put(map, DmaMap{sizeof(DmaMap), 3, 0, 0x10000, 0x4000});
  ASSERT_TRUE(send_message(fd, map, std::vector<int>{memfd}, 2000));
  Message r;
  ASSERT_EQ(recv_message(fd, r, kMaxMessage, 8, 2000).status, RecvStatus::kOk);
  EXPECT_FALSE(r.hdr.flags & kError);
  std::memset(ram + 0x2000, 0xff, 6);
  ram[0x2000 + 20] = 0x99;
  const uint32_t opts1 = (1u << 31) | (1u << 30) | (1u << 29) | (1u << 28) | 64;
  const uint64_t buf = 0x12000;
  std::memcpy(ram + 0x1000, &opts1, 4);
  std::memcpy(ram + 0x1008, &buf, 8);
  auto wr = [&](uint32_t region, uint64_t off, uint32_t count, uint64_t v) {
    Message w = Harness::request(kRegionWrite);
    put(w, RegionAccess{off, region, count});
    put_bytes(w, &v, count);
    roundtrip(fd, std::move(w));
  };
  wr(VFIO_PCI_CONFIG_REGION_INDEX, 4, 2, 7);
  wr(2, 0x50, 1, 0xc0);
  wr(2, 0x24, 4, 0);
  wr(2, 0x20, 4, 0x11000);
  wr(2, 0x50, 1, 0);
  wr(2, 0x37, 1, 0x0c);
  wr(2, 0x40, 4, 0x03000700);
  // The link came up when the peer connected (autonegotiation, then
  // PHYstatus LinkStatus): r8169 transmits only with carrier, and so do we.
  for (int i = 0; i < 300; i++) {
    Message q = Harness::request(kRegionRead);
    put(q, RegionAccess{0x6c, 2, 1});
    if (roundtrip(fd, std::move(q)).tail(sizeof(RegionAccess))[0] & 0x02) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  wr(2, 0x38, 1, 0x40);
  uint8_t out[4 + 64];
  size_t got = 0;
  pollfd p{peer, POLLIN, 0};
  while (got < sizeof out && poll(&p, 1, 3000) == 1) {
    const ssize_t n = read(peer, out + got, sizeof out - got);
    if (n <= 0) break;
    got += size_t(n);
  }
  ASSERT_EQ(got, sizeof out);
  uint32_t len;
  std::memcpy(&len, out, 4);
  EXPECT_EQ(ntohl(len), 64u);
  EXPECT_EQ(out[4 + 20], 0x99);

  close(fd);
  t.join();
  EXPECT_EQ(server->frames_sent(), 1u);
  EXPECT_EQ(server->frames_received(), 1u);
  server.reset();  // flushes and closes the capture

  char perr[PCAP_ERRBUF_SIZE];
  pcap_t* pc = pcap_open_offline(cap.path.c_str(), perr);
  ASSERT_TRUE(pc) << perr;
  EXPECT_EQ(pcap_datalink(pc), DLT_EN10MB);
  std::vector<uint8_t> marks;
  pcap_pkthdr* h;
  const u_char* data;
  while (pcap_next_ex(pc, &h, &data) == 1) {
    EXPECT_EQ(h->caplen, 64u);
    marks.push_back(data[20]);
  }
  pcap_close(pc);
  EXPECT_EQ(marks, (std::vector<uint8_t>{0x77, 0x99})) << "received, then sent";
  munmap(ram, 0x4000);
  close(memfd);
  close(peer);
  close(lfd);
}

}  // namespace
}  // namespace vfio_user_test
