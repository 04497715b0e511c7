// SPDX-License-Identifier: GPL-2.0-or-later
// speed: simulated frames per host second with timing on, TX and RX, 64-
// and 1514-byte frames (speed_loop.h), on the 8168c at 1 GbE or the RTL8125B
// at 2.5 GbE (--chip), and the same as a multiple of the link's real time
// (virtual time simulated / host time spent). The host clock is
// read here, in the bench, never in the model. The Google Benchmark cases
// (gbench/speed_bench.cc) time the same loops against the 2.5 GbE target.
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "cli.h"
#include "commands.h"
#include "device.h"
#include "sim_driver.h"
#include "speed_loop.h"

namespace po = boost::program_options;

namespace bench {

namespace {

struct SpeedResult {
  double frames_per_s = 0;
  double x_realtime = 0;
};

// The workload of speed_loop.h, timed by the host clock.
SpeedResult measure(SpeedLoop::Dir dir, uint32_t len, uint64_t frames, const ParamList& params) {
  SpeedLoop loop(dir, len, params);
  const Time v0 = loop.now();
  const auto t0 = std::chrono::steady_clock::now();
  loop.run(frames);
  const double host_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double virt_s = static_cast<double>(loop.now() - v0) / 1e9;
  return {static_cast<double>(frames) / host_s, virt_s / host_s};
}

// --digest: the same workload, no clock: the trace hash and every state blob
// saved every `step` frames folded into one FNV-1a hash. Work on the model's
// speed must leave it unchanged (docs/TIMING.md "Host speed").
uint64_t digest(SpeedLoop::Dir dir, uint32_t len, uint64_t frames, const ParamList& params) {
  constexpr uint64_t kStep = 97;  // frames between saves (prime: the saves drift over the ring)
  uint64_t hash = 0xcbf29ce484222325ull;
  auto mix = [&hash](uint64_t v) {
    for (int i = 0; i < 8; i++) {
      hash ^= (v >> (8 * i)) & 0xff;
      hash *= 0x100000001b3ull;
    }
  };
  SpeedLoop loop(dir, len, params);
  std::vector<uint8_t> blob;
  for (uint64_t done = 0; done < frames; done += kStep) {
    loop.run(kStep);
    blob.resize(rtl8168_state_size(loop.dev()));
    blob.resize(rtl8168_state_save(loop.dev(), blob.data(), blob.size()));
    mix(blob.size());
    for (uint8_t b : blob) mix(b);
    mix(rtl8168_trace_hash(loop.dev()));
    mix(rtl8168_trace_events(loop.dev()));
    mix(loop.now());
  }
  return hash;
}

}  // namespace

int cmd_speed(int argc, char** argv) {
  std::vector<std::string> raw_params;
  std::string faults;  // --faults: the `faults` parameter
  std::string chip;    // --chip: the `chip` parameter
  uint64_t frames = 1'000'000;
  std::vector<std::string> dirs;     // --direction: tx, rx (default both)
  std::vector<uint32_t> sizes;       // --size: frame bytes (default 64 and 1514)
  po::options_description opts(
      "rtl8168-bench speed: simulated frames per host second (timing on), TX and RX,\n"
      "64- and 1514-byte frames; x_realtime = virtual time simulated / host time");
  opts.add_options()("help,h", "this help")(
      "chip", po::value(&chip),
      "8168c (default; its link at 1000 Mbit/s) or 8125b (2500 Mbit/s); same as --param chip=ID")(
      "csv", "print direction,frame_bytes,frames_per_s,x_realtime")(
      "digest", "no timing: print direction,frame_bytes,digest (trace hash and state blobs along the run)")(
      "frames", po::value(&frames)->default_value(frames), "frames per measurement")(
      "direction", po::value(&dirs)->composing(), "tx or rx (repeatable; default both)")(
      "size", po::value(&sizes)->composing(), "frame bytes, 64..1514 (repeatable; default 64 and 1514)")(
      "param", po::value(&raw_params)->composing(), "model parameter name=value (repeatable)")(
      "faults", po::value(&faults), "fault schedule, 'class:key=value,...;...' (docs/FAULTS.md); same as --param faults=SPEC");
  po::variables_map vm;
  if (const int rc = parse_cli("speed", argc, argv, opts, vm); rc >= 0) return rc;
  try {
    if (!faults.empty()) raw_params.push_back("faults=" + faults);
    if (!chip.empty()) raw_params.push_back("chip=" + chip);
    const ParamList params = parse_params(raw_params);
    const SpeedChip& speed = speed_chip(params);
    const bool csv = vm.count("csv");
    if (frames == 0) throw std::invalid_argument("--frames expects at least 1");
    if (dirs.empty()) dirs = {"tx", "rx"};
    if (sizes.empty()) sizes = {64, 1514};
    for (const std::string& d : dirs) {
      if (d != "tx" && d != "rx") throw std::invalid_argument("--direction expects tx or rx, not '" + d + "'");
    }
    for (uint32_t len : sizes) {
      if (len < 64 || len > 1514) throw std::invalid_argument("--size expects 64..1514, not " + std::to_string(len));
    }
    if (vm.count("digest")) {
      for (const std::string& d : dirs) {
        for (uint32_t len : sizes) {
          const uint64_t h = digest(d == "tx" ? SpeedLoop::Dir::Tx : SpeedLoop::Dir::Rx, len, frames, params);
          std::printf("%s,%u,%016llx\n", d.c_str(), len, static_cast<unsigned long long>(h));
        }
      }
      return 0;
    }
    if (csv) std::cout << "direction,frame_bytes,frames_per_s,x_realtime\n";
    for (const std::string& d : dirs) {
      const char* dir = d.c_str();
      for (uint32_t len : sizes) {
        const SpeedResult r =
            measure(d == "tx" ? SpeedLoop::Dir::Tx : SpeedLoop::Dir::Rx, len, frames, params);
        if (csv) {
          std::printf("%s,%u,%.0f,%.2f\n", dir, len, r.frames_per_s, r.x_realtime);
        } else {
          std::printf("%.*s %-3s %5u bytes: %10.0f frames/s  %6.2fx real time at %u Mbit/s\n",
                      static_cast<int>(speed.id.size()), speed.id.data(), dir, len, r.frames_per_s,
                      r.x_realtime, speed.link_mbps);
        }
        std::fflush(stdout);
      }
    }
    if (!csv) {
      // Memory: the state blob holds every behaviour-relevant field plus the
      // frames in flight, so its size bounds the model's state.
      Host h(SimDriver::kMemBytes);
      open_device(h, params);
      SimDriver drv(h, DriverOptions{});
      drv.open();
      std::printf("state: %zu bytes idle (target <= 65536 plus in-flight frames)\n",
                  rtl8168_state_size(h.dev()));
    }
  } catch (const std::exception& e) {
    std::cerr << "speed: " << e.what() << "\n";
    return 2;
  }
  return 0;
}

}  // namespace bench
