// SPDX-License-Identifier: GPL-2.0-or-later
#include "options.h"

#include <boost/program_options.hpp>
#include <iostream>
#include <sstream>

namespace po = boost::program_options;

namespace vfio_user {

namespace {
std::string params_help() {
  std::ostringstream o;
  o << "\nModel parameters (--param NAME=VALUE; --chip first loads that profile's defaults):\n";
  for (size_t i = 0; i < rtl8168_param_count(); i++) {
    const rtl8168_param_info* p = rtl8168_param_at(i);
    o << "  " << p->name << (*p->unit ? " [" : "") << p->unit << (*p->unit ? "]" : "") << "\n      "
      << p->description << "\n";
  }
  o << "\nChips (--chip):";
  for (size_t i = 0; i < rtl8168_chip_count(); i++) {
    rtl8168_chip_info c;
    if (rtl8168_chip_at(i, &c) == 0) o << " " << c.id << " (" << c.name << ")";
  }
  o << "\n";
  return o.str();
}
}  // namespace

int parse_options(int argc, char** argv, Options& out) {
  std::string chip = "8168c", faults;
  std::vector<std::string> params;
  po::options_description opts(
      "rtl8168-vfio-user: the RTL8168 model as a vfio-user device server (docs/VFIO-USER.md)\n"
      "  qemu-system-x86_64 ... -device "
      "'{\"driver\":\"vfio-user-pci\",\"socket\":{\"type\":\"unix\",\"path\":\"SOCKET\"}}'\n"
      "Options");
  opts.add_options()("help,h", "this text, with every model parameter")(
      "socket", po::value(&out.socket)->required(),
      "Unix socket path to listen on (created; must not exist)")(
      "chip", po::value(&chip)->default_value(chip),
      "chip profile (loads its defaults; see Chips below)")(
      "param", po::value(&params)->composing(),
      "model parameter NAME=VALUE (repeatable; see below)")(
      "faults", po::value(&faults),
      "fault schedule 'class:key=value,...;...' (docs/FAULTS.md); same as --param faults=SPEC")(
      "netdev", po::value(&out.netdev)->default_value(out.netdev),
      "none | user[,hostfwd=tcp|udp:[HOSTADDR]:PORT-[GUESTADDR]:PORT...] (libslirp, as "
      "-netdev user) | stream,connect=ADDR | stream,listen=ADDR with ADDR unix:PATH or "
      "tcp:HOST:PORT (QEMU's -netdev stream framing) | dgram,local=ADDR,remote=ADDR with "
      "ADDR unix:PATH or udp:HOST:PORT (QEMU's -netdev dgram framing)")(
      "pcap", po::value(&out.pcap), "write every frame sent and received to this pcap file")(
      "pme", "advertise PME# from D0/D3hot in the PM capability (the QEMU device's x-pme=on)")(
      "persist",
      "when the client goes away, keep the device state and wait for the next one "
      "(default: exit 0)");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(opts).run(), vm);
    if (vm.count("help")) {
      std::cout << opts << params_help();
      return 0;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "rtl8168-vfio-user: " << e.what() << "\n" << opts;
    return 2;
  }
  out.pme = vm.count("pme") > 0;
  out.persist = vm.count("persist") > 0;
  out.cfg.reset(rtl8168_config_new());
  char err[512];
  // Functional mode unless --param timing=on (the clock is the host's, so
  // timing follows it; docs/VFIO-USER.md "Time").
  if (rtl8168_config_set(out.cfg.get(), "chip", chip.c_str(), err, sizeof err) != 0 ||
      rtl8168_config_set(out.cfg.get(), "timing", "off", err, sizeof err) != 0) {
    std::cerr << "rtl8168-vfio-user: --chip: " << err << "\n";
    return 2;
  }
  if (!faults.empty()) params.push_back("faults=" + faults);
  for (const std::string& p : params) {
    const auto eq = p.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::cerr << "rtl8168-vfio-user: --param expects NAME=VALUE, got '" << p << "'\n";
      return 2;
    }
    const std::string name = p.substr(0, eq), value = p.substr(eq + 1);
    if (name == "chip") {
      std::cerr
          << "rtl8168-vfio-user: use --chip, not --param chip= (it resets every other parameter)\n";
      return 2;
    }
    if (rtl8168_config_set(out.cfg.get(), name.c_str(), value.c_str(), err, sizeof err) != 0) {
      std::cerr << "rtl8168-vfio-user: --param " << p << ": " << err << "\n";
      return 2;
    }
  }
  return -1;
}

}  // namespace vfio_user
