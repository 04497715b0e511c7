// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli.h"

#include <iostream>

namespace po = boost::program_options;

namespace bench {

int parse_cli(const char* cmd, int argc, char** argv, const po::options_description& opts,
              po::variables_map& vm, const po::positional_options_description* pos) {
  try {
    po::command_line_parser parser(argc, argv);
    parser.options(opts);
    if (pos) parser.positional(*pos);
    po::store(parser.run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << cmd << ": " << e.what() << "\n" << opts;
    return 2;
  }
  if (vm.count("help")) {
    std::cout << opts;
    return 0;
  }
  return -1;
}

}  // namespace bench
