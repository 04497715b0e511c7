// SPDX-License-Identifier: GPL-2.0-or-later
// The bench's subcommands (one file each).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace bench {

using ParamList = std::vector<std::pair<std::string, std::string>>;

int cmd_mtu_sweep(int argc, char** argv);
int cmd_episode(int argc, char** argv);
int cmd_speed(int argc, char** argv);
int cmd_rx_rate(int argc, char** argv);
int cmd_params(int argc, char** argv);
int cmd_chips(int argc, char** argv);

// "--param name=value" (repeatable) -> model parameters; throws on bad syntax.
ParamList parse_params(const std::vector<std::string>& raw);

}  // namespace bench
