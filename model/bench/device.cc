// SPDX-License-Identifier: GPL-2.0-or-later
#include "device.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>

namespace bench {

void open_device(rtl8168_host::Host& h, const ParamList& params) {
  std::unique_ptr<rtl8168_config, decltype(&rtl8168_config_free)> cfg(rtl8168_config_new(),
                                                                      rtl8168_config_free);
  char err[256];
  for (const auto& [name, value] : params) {
    if (rtl8168_config_set(cfg.get(), name.c_str(), value.c_str(), err, sizeof err) != 0) {
      throw std::invalid_argument(err);
    }
  }
  if (const char* t = std::getenv("RTL8168_BENCH_TRACE"); t && *t == '1') {
    h.hooks.on_trace = [](rtl8168_host::Port&, uint64_t now, const char* line) {
      std::fprintf(stderr, "%14llu %s\n", static_cast<unsigned long long>(now), line);
    };
  }
  h.port = std::make_unique<rtl8168_host::Port>(h);
  if (!h.create(cfg.get(), *h.port, err, sizeof err)) throw std::invalid_argument(err);
}

}  // namespace bench
