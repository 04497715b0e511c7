// SPDX-License-Identifier: GPL-2.0-or-later
// rtl8168-vfio-user's command line: the socket, every model parameter
// (--chip, --param NAME=VALUE, --faults, listed by --help from the model's
// own parameter table), the network and capture, and what to do when the
// client leaves.
#pragma once

#include <rtl8168/rtl8168.h>

#include <memory>
#include <string>
#include <vector>

namespace vfio_user {

struct Options {
  std::string socket;
  std::string netdev = "none";
  std::string pcap;
  bool pme = false;
  bool persist = false;  // re-listen when the client goes away (device state kept)
  std::unique_ptr<rtl8168_config, decltype(&rtl8168_config_free)> cfg{nullptr, rtl8168_config_free};
};

// Returns -1 to go on, or the exit status to return now: 0 after --help,
// 2 after a bad command line (a message on stderr).
int parse_options(int argc, char** argv, Options& out);

}  // namespace vfio_user
