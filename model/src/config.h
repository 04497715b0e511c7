// SPDX-License-Identifier: GPL-2.0-or-later
// The device configuration: chip profile, MAC, mode, quirks and timing
// parameters, settable by name (QEMU properties, bench flags) through one
// table (config.cc) that also documents each parameter.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "rtl8168/rtl8168.h"

#include "profile.h"
#include "timing.h"

namespace rtl8168sim {

struct Config {
  const ChipProfile* profile = nullptr;
  std::array<uint8_t, 6> mac{0x52, 0x54, 0x00, 0x12, 0x34, 0x56};
  bool timing = true;   // false: functional mode, every latency zero
  Quirks quirks;
  int tx_mxdma = -1;    // -1: from TxConfig; 0..7 forces the TX burst (studies with r8169)
  TimingParams t;
  // Fault schedule installed at every power-on (docs/FAULTS.md), canonical
  // text; empty: none.
  std::string faults;

  Config();
  // Effective timing: all zero in functional mode.
  TimingParams effective_timing() const;
};

// Set by name; returns an empty string on success, else an error message.
std::string config_set(Config& cfg, const std::string& name, const std::string& value);
// Textual value; false for an unknown name.
bool config_get(const Config& cfg, const std::string& name, std::string& out);

// Set by name where parameters come in any order (QEMU's properties): a
// "chip" keeps the values of the parameters named in `explicit_set`, which
// records every other parameter set through it.
std::string config_set_any_order(Config& cfg, std::vector<std::string>& explicit_set,
                                 const std::string& name, const std::string& value);

// A parameter's name, unit, doc string, type and range (the C API's
// rtl8168_param_info).
using ParamDoc = rtl8168_param_info;
size_t param_count();
const ParamDoc& param_doc(size_t i);

}  // namespace rtl8168sim
