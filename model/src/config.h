// SPDX-License-Identifier: GPL-2.0-or-later
// The device configuration: chip profile, MAC, mode, quirks and timing
// parameters, settable by name (QEMU properties, bench flags) through one
// table (config.cc) that also documents each parameter.
#pragma once

#include <array>
#include <cstdint>
#include <string>

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

struct ParamDoc {
  const char* name;
  const char* unit;
  const char* description;
};
size_t param_count();
const ParamDoc& param_doc(size_t i);

}  // namespace rtl8168sim
