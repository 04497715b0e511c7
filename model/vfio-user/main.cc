// SPDX-License-Identifier: GPL-2.0-or-later
// rtl8168-vfio-user: serve the RTL8168 model to a vfio-user client (QEMU's
// -device vfio-user-pci) on a Unix socket (docs/VFIO-USER.md).
#include <csignal>
#include <functional>
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
  // SIGUSR1/SIGUSR2: the link goes down/up (the PHY's link status and the LinkChg interrupt,
  // rtl8168_set_link), as `set_link nic0 off|on` does for the QEMU device: the host's cable.
  boost::asio::signal_set link_signals(io, SIGUSR1, SIGUSR2);
  std::function<void(const boost::system::error_code&, int)> on_link =
      [&](const boost::system::error_code& ec, int sig) {
        if (ec) return;
        server->device().set_link(sig == SIGUSR2);
        std::cerr << "rtl8168-vfio-user: link " << (sig == SIGUSR2 ? "up" : "down") << "\n";
        link_signals.async_wait(on_link);
      };
  link_signals.async_wait(on_link);
  std::cerr << "rtl8168-vfio-user: " << rtl8168_chip_name(server->device().model())
            << " listening on " << opt.socket << "\n";
  io.run();
  const Irqs& irqs = server->device().irqs();
  std::cerr << "rtl8168-vfio-user: exit (" << server->frames_sent() << " frames sent, "
            << server->frames_received() << " received, " << server->frames_dropped()
            << " dropped; interrupts " << irqs.intx_signals() << " INTx, " << irqs.msi_signals()
            << " MSI, " << irqs.msix().signals() << " MSI-X)\n";
  return 0;
}
