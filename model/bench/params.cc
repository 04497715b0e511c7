// SPDX-License-Identifier: GPL-2.0-or-later
// params: every model parameter with its default for a chip profile, unit
// and description, as text or JSON. The one source of defaults for scripts
// (scripts/repro reads the partner NIC's timing from here instead of keeping
// copies of profile.cc's numbers).
#include <rtl8168/rtl8168.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli.h"
#include "commands.h"

namespace po = boost::program_options;

namespace bench {

int cmd_params(int argc, char** argv) {
  std::string chip = "8168c";
  po::options_description opts(
      "rtl8168-bench params: model parameters, their defaults for a chip, units and sources\n"
      "Options");
  opts.add_options()("help,h", "this text")("chip", po::value(&chip)->default_value(chip),
                                            "chip profile whose defaults to show")(
      "json", "one JSON object: {name: {value, unit, description}}");
  po::variables_map vm;
  if (const int rc = parse_cli("params", argc, argv, opts, vm); rc >= 0) return rc;

  std::unique_ptr<rtl8168_config, decltype(&rtl8168_config_free)> cfg(rtl8168_config_new(),
                                                                      rtl8168_config_free);
  char err[256];
  if (!cfg || rtl8168_config_set(cfg.get(), "chip", chip.c_str(), err, sizeof err) != 0) {
    std::cerr << "params: " << (cfg ? err : "out of memory") << "\n";
    return 2;
  }
  nlohmann::ordered_json j;
  for (size_t i = 0; i < rtl8168_param_count(); i++) {
    const rtl8168_param_info* p = rtl8168_param_at(i);
    char value[128];
    if (rtl8168_config_get(cfg.get(), p->name, value, sizeof value) != 0) continue;
    if (vm.count("json")) {
      j[p->name] = {{"value", value}, {"unit", p->unit}, {"description", p->description}};
    } else {
      std::cout << p->name << " = " << value << (*p->unit ? " " : "") << p->unit << "\n    "
                << p->description << "\n";
    }
  }
  if (vm.count("json")) std::cout << j.dump(2) << "\n";
  return 0;
}

}  // namespace bench
