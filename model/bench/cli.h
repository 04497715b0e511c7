// SPDX-License-Identifier: GPL-2.0-or-later
// Command-line parsing shared by the bench's subcommands (Boost.Program_options).
#pragma once

#include <boost/program_options.hpp>

namespace bench {

// Parses argv into vm. Returns -1 to go on, or the exit status to return
// now: 0 after printing --help, 2 after a bad command line (message + usage).
int parse_cli(const char* cmd, int argc, char** argv,
              const boost::program_options::options_description& opts,
              boost::program_options::variables_map& vm,
              const boost::program_options::positional_options_description* pos = nullptr);

}  // namespace bench
