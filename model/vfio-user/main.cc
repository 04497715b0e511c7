// SPDX-License-Identifier: GPL-2.0-or-later
// rtl8168-vfio-user: serve the RTL8168 model to a vfio-user client (QEMU's
// -device vfio-user-pci) on a Unix socket (docs/VFIO-USER.md).
#include <csignal>
#include <iostream>

#include "options.h"
#include "server.h"

int main(int argc, char** argv) {
  using namespace vfio_user;
  Options opt;
  if (const int rc = parse_options(argc, argv, opt); rc >= 0) return rc;

  boost::asio::io_context io;
  std::string err;
  std::unique_ptr<NetBackend> net = make_net_backend(io, opt.netdev, err);
  if (!net) {
    std::cerr << "rtl8168-vfio-user: --netdev: " << err << "\n";
    return 2;
  }
  std::unique_ptr<PcapWriter> pcap;
  if (!opt.pcap.empty()) {
    pcap = PcapWriter::open(opt.pcap, err);
    if (!pcap) {
      std::cerr << "rtl8168-vfio-user: --pcap: " << err << "\n";
      return 2;
    }
  }
  ServerConfig sc;
  sc.persist = opt.persist;
  std::unique_ptr<Server> server =
      Server::create(io, opt.cfg.get(), opt.pme, std::move(net), std::move(pcap), sc, err);
  if (!server) {
    std::cerr << "rtl8168-vfio-user: " << err << "\n";
    return 2;
  }
  if (!server->listen(opt.socket, err)) {
    std::cerr << "rtl8168-vfio-user: " << err << "\n";
    return 1;
  }
  // SIGINT/SIGTERM: stop the loop; the socket file is removed on the way out.
  boost::asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code& ec, int) {
    if (!ec) io.stop();
  });
  std::cerr << "rtl8168-vfio-user: " << rtl8168_chip_name(server->device().model())
            << " listening on " << opt.socket << "\n";
  io.run();
  std::cerr << "rtl8168-vfio-user: exit (" << server->frames_sent() << " frames sent, "
            << server->frames_received() << " received)\n";
  return 0;
}
