// SPDX-License-Identifier: GPL-2.0-or-later
// rtl8168-bench: the RTL8168 model on a host with fake guest memory and
// scripted drivers (no QEMU). Subcommands: mtu-sweep, episode, speed, params, chips.
#include <cstring>
#include <iostream>

#include "commands.h"

namespace {
void usage(std::ostream& os) {
  os << "usage: rtl8168-bench COMMAND [OPTIONS]\n"
        "  mtu-sweep --burst {128,256,512,1024,unlimited} --mtu FROM:TO[:STEP] [--csv]\n"
        "        [--offloads {tso,sg-csum,csum}]\n"
        "        TCP goodput versus MTU and TX DMA burst: TSO (the 2012 study), SG +\n"
        "        checksum without TSO (the 2019 report) or SG off\n"
        "  episode txpoll-stall --driver {old,fixed}\n"
        "  episode msi-lost-irq --driver {old,fixed} [--irq {msi,intx}]\n"
        "        register-level reproductions of the 2007 and 2009 r8169 bugs\n"
        "  rx-rate [--size N]...\n"
        "        RX of back-to-back frames at line rate: frames per second delivered\n"
        "  speed [--chip 8168c|8125b] [--csv] [--digest]\n"
        "        simulated frames per host second, TX and RX, 64 and 1514 bytes, at the chip's link speed\n"
        "  params [--chip C] [--json]\n"
        "        every model parameter with its default, unit and source\n"
        "  chips [--json | --ids]\n"
        "        the chip profiles: id, r8169 version, XID, PHY ID, PCI identity, queues\n"
        "Every command takes --help, --param NAME=VALUE (model parameters) and --faults SPEC\n"
        "(a fault schedule, docs/FAULTS.md).\n";
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") ||
      !std::strcmp(argv[1], "help")) {
    usage(argc < 2 ? std::cerr : std::cout);
    return argc < 2 ? 2 : 0;
  }
  const std::string cmd = argv[1];
  if (cmd == "mtu-sweep") return bench::cmd_mtu_sweep(argc - 1, argv + 1);
  if (cmd == "episode") return bench::cmd_episode(argc - 1, argv + 1);
  if (cmd == "speed") return bench::cmd_speed(argc - 1, argv + 1);
  if (cmd == "rx-rate") return bench::cmd_rx_rate(argc - 1, argv + 1);
  if (cmd == "params") return bench::cmd_params(argc - 1, argv + 1);
  if (cmd == "chips") return bench::cmd_chips(argc - 1, argv + 1);
  std::cerr << "rtl8168-bench: unknown command '" << cmd << "'\n";
  usage(std::cerr);
  return 2;
}
