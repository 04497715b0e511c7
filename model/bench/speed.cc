// SPDX-License-Identifier: GPL-2.0-or-later
// speed: simulated frames per host second with timing on, TX and RX, 64-
// and 1514-byte frames, and the same as a multiple of 1 GbE real time
// (virtual time simulated / host time spent). The host clock is read here,
// in the bench, never in the model.
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "cli.h"
#include "commands.h"
#include "device.h"
#include "frames.h"
#include "sim_driver.h"

namespace po = boost::program_options;

namespace bench {

namespace {

struct SpeedResult {
  double frames_per_s = 0;
  double x_realtime = 0;
};

// TX: the driver keeps the ring full of `len`-byte frames (prebuilt in every slot).
SpeedResult speed_tx(uint32_t len, uint64_t frames, const ParamList& params) {
  Host h(SimDriver::kMemBytes);
  open_device(h, params);
  SimDriver drv(h, DriverOptions{});
  if (!drv.open()) throw std::runtime_error("link did not come up");
  for (unsigned i = 0; i < SimDriver::kRing; i++) {
    const std::vector<uint8_t> f = tcp_frame(kPeerMac, kNicMac, len, i);
    std::copy(f.begin(), f.end(), h.ram.data() + SimDriver::kTxBuf + i * SimDriver::kTxBufSize);
  }
  auto refill = [&] {
    bool posted = false;
    while (drv.tx_free() >= 1) {
      const Frag frag{drv.tx_buffer(0), len};
      drv.tx_post(std::span<const Frag>(&frag, 1), 0, 0);
      posted = true;
    }
    if (posted) drv.doorbell();
  };
  const uint64_t base = h.tx_frames;
  const Time v0 = h.now;
  const auto t0 = std::chrono::steady_clock::now();
  refill();
  while (h.tx_frames - base < frames) {
    h.step_until(kNever - 1);
    if (h.msi_pending) {
      drv.handle_irq(nullptr);
      refill();
    }
  }
  const double host_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double virt_s = static_cast<double>(h.now - v0) / 1e9;
  return {static_cast<double>(frames) / host_s, virt_s / host_s};
}

// RX: the peer sends back-to-back frames at line rate (preamble + FCS + IFG
// between them); the driver re-arms descriptors from its interrupt handler.
SpeedResult speed_rx(uint32_t len, uint64_t frames, const ParamList& params) {
  Host h(SimDriver::kMemBytes);
  open_device(h, params);
  SimDriver drv(h, DriverOptions{});
  if (!drv.open()) throw std::runtime_error("link did not come up");
  const std::vector<uint8_t> f = tcp_frame(kNicMac, kPeerMac, len, 1);
  const Time gap = (static_cast<Time>(len) + 24) * 8;  // ns per frame at 1000 Mbit/s
  uint64_t delivered = 0, sent = 0;
  const Time v0 = h.now;
  Time next = v0;
  const auto t0 = std::chrono::steady_clock::now();
  auto count = [&](std::span<const uint8_t>) { delivered++; };
  while (delivered < frames) {
    h.step_until(next);
    if (h.now >= next && sent < frames) {
      if (rtl8168_receive(h.dev(), h.now, f.data(), f.size()) != 0) {
        sent++;
        next = h.now + gap;
      } else {
        next = h.now + gap / 4;  // FIFO full: the wire waits (back-pressure)
      }
    }
    if (sent >= frames && next != kNever - 1) next = kNever - 1;
    if (h.msi_pending) drv.handle_irq(count);
  }
  const double host_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double virt_s = static_cast<double>(h.now - v0) / 1e9;
  return {static_cast<double>(frames) / host_s, virt_s / host_s};
}

}  // namespace

int cmd_speed(int argc, char** argv) {
  std::vector<std::string> raw_params;
  std::string faults;  // --faults: the `faults` parameter
  uint64_t frames = 1'000'000;
  po::options_description opts(
      "rtl8168-bench speed: simulated frames per host second (timing on), TX and RX,\n"
      "64- and 1514-byte frames; x_realtime = virtual time simulated / host time");
  opts.add_options()("help,h", "this help")("csv", "print direction,frame_bytes,frames_per_s,x_realtime")(
      "frames", po::value(&frames)->default_value(frames), "frames per measurement")(
      "param", po::value(&raw_params)->composing(), "model parameter name=value (repeatable)")(
      "faults", po::value(&faults), "fault schedule, 'class:key=value,...;...' (docs/FAULTS.md); same as --param faults=SPEC");
  po::variables_map vm;
  if (const int rc = parse_cli("speed", argc, argv, opts, vm); rc >= 0) return rc;
  try {
    if (!faults.empty()) raw_params.push_back("faults=" + faults);
    const ParamList params = parse_params(raw_params);
    const bool csv = vm.count("csv");
    if (csv) std::cout << "direction,frame_bytes,frames_per_s,x_realtime\n";
    for (const char* dir : {"tx", "rx"}) {
      for (uint32_t len : {64u, 1514u}) {
        const SpeedResult r = std::string(dir) == "tx" ? speed_tx(len, frames, params)
                                                       : speed_rx(len, frames, params);
        if (csv) {
          std::printf("%s,%u,%.0f,%.2f\n", dir, len, r.frames_per_s, r.x_realtime);
        } else {
          std::printf("%-3s %5u bytes: %10.0f frames/s  %6.2fx 1 GbE real time\n", dir, len,
                      r.frames_per_s, r.x_realtime);
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
