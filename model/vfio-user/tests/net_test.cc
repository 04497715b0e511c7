// SPDX-License-Identifier: GPL-2.0-or-later
// The network backends on their own: libslirp's gateway answers ARP like
// QEMU's -netdev user, host forwards are parsed, bad specs are refused.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "net_backend.h"

namespace vfio_user_test {
namespace {

using namespace vfio_user;

// An ARP request from the guest's usual address for the gateway 10.0.2.2.
std::vector<uint8_t> arp_who_has_gateway() {
  std::vector<uint8_t> f(60, 0);
  const uint8_t mac[6] = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};
  std::memset(f.data(), 0xff, 6);
  std::memcpy(f.data() + 6, mac, 6);
  f[12] = 0x08, f[13] = 0x06;                     // ARP
  f[14] = 0, f[15] = 1, f[16] = 0x08, f[17] = 0;  // Ethernet, IPv4
  f[18] = 6, f[19] = 4, f[20] = 0, f[21] = 1;     // request
  std::memcpy(f.data() + 22, mac, 6);
  const uint8_t sip[4] = {10, 0, 2, 15}, tip[4] = {10, 0, 2, 2};
  std::memcpy(f.data() + 28, sip, 4);
  std::memcpy(f.data() + 38, tip, 4);
  return f;
}

TEST(VfioUserNet, SlirpGatewayAnswersArp) {
  boost::asio::io_context io;
  std::string err;
  auto net = make_net_backend(io, "user,hostfwd=tcp:127.0.0.1:0-:22", err);
  ASSERT_TRUE(net) << err;
  EXPECT_TRUE(net->initially_up());
  std::vector<std::vector<uint8_t>> got;
  net->start([&](const uint8_t* f, size_t n) { got.emplace_back(f, f + n); }, [](bool) {});
  const auto req = arp_who_has_gateway();
  net->send(req.data(), req.size());
  io.run_for(std::chrono::milliseconds(200));
  ASSERT_FALSE(got.empty());
  const auto& r = got.front();
  ASSERT_GE(r.size(), 42u);
  EXPECT_EQ(r[12], 0x08);
  EXPECT_EQ(r[13], 0x06);
  EXPECT_EQ(r[21], 2) << "an ARP reply";
  const uint8_t gw[4] = {10, 0, 2, 2};
  EXPECT_EQ(std::memcmp(r.data() + 28, gw, 4), 0) << "from the gateway";
  EXPECT_EQ(std::memcmp(r.data(), req.data() + 6, 6), 0) << "to the asker";
}

TEST(VfioUserNet, BadSpecsAreRefusedWithAMessage) {
  boost::asio::io_context io;
  for (const char* bad : {"tap", "user,hostfwd=tcp::x-:22", "user,hostfwd=sctp::1-:2",
                          "user,restrict=on", "user,hostfwd=tcp::22", "stream,connect=udp:1",
                          "stream,connect=tcp:nocolon", "stream,bind=unix:/x"}) {
    std::string err;
    EXPECT_FALSE(make_net_backend(io, bad, err)) << bad;
    EXPECT_FALSE(err.empty()) << bad;
  }
}

}  // namespace
}  // namespace vfio_user_test
