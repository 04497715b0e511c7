// SPDX-License-Identifier: GPL-2.0-or-later
// rx-rate: frames the NIC receives per second of virtual time when the peer
// sends back-to-back frames of one size at line rate (preamble + FCS + IFG
// between them) and the driver, without CPU time, hands every buffer back
// from its interrupt handler (a ring of 256, as r8169's NUM_RX_DESC). A
// frame that arrives while the RX FIFO is full is lost, as on a wire (the
// model refuses it: receive() returns 0). docs/TIMING.md "RX".
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <stdexcept>

#include "cli.h"
#include "commands.h"
#include "device.h"
#include "frames.h"
#include "sim_driver.h"

namespace po = boost::program_options;

namespace bench {

namespace {

struct RxResult {
  double offered_pps = 0, delivered_pps = 0;
};

RxResult measure_rx(uint32_t len, uint64_t frames, const ParamList& params) {
  Host h(SimDriver::kMemBytes);
  open_device(h, params);
  SimDriver drv(h, DriverOptions{});
  if (!drv.open()) throw std::runtime_error("link did not come up");
  const std::vector<uint8_t> f = tcp_frame(kNicMac, kPeerMac, len, 1);
  // Wire time of one frame: max(len, 60) + FCS 4 + preamble 8 + IFG 12 bytes at 1 Gbit/s.
  const Time gap = (static_cast<Time>(std::max<uint32_t>(len, 60)) + 24) * 8;
  const uint64_t warm = 1000;
  uint64_t delivered = 0, offered = 0;
  Time t_warm = 0, t_end = 0;
  uint64_t at_warm = 0;
  auto count = [&](std::span<const uint8_t>) {
    if (++delivered == warm) {
      t_warm = h.now;
      at_warm = offered;
    }
  };
  Time next = h.now + gap;
  while (delivered < warm + frames) {
    h.step_until(next);
    if (h.now >= next && offered < 4 * (warm + frames)) {
      rtl8168_receive(h.dev(), h.now, f.data(), f.size());  // 0: FIFO full, the frame is lost
      offered++;
      next += gap;
    }
    if (h.msi_pending) drv.handle_irq(count);
    if (offered >= 4 * (warm + frames) && !h.msi_pending && h.port->deadline == kNever) break;
  }
  t_end = h.now;
  if (delivered < warm + frames || t_end <= t_warm)
    throw std::runtime_error("too few frames received");
  RxResult r;
  const double s = static_cast<double>(t_end - t_warm) / 1e9;
  r.delivered_pps = static_cast<double>(delivered - warm) / s;
  r.offered_pps = static_cast<double>(offered - at_warm) / s;
  return r;
}

}  // namespace

int cmd_rx_rate(int argc, char** argv) {
  std::vector<std::string> raw_params;
  std::vector<unsigned> sizes;
  uint64_t frames = 20000;
  po::options_description opts(
      "rtl8168-bench rx-rate: RX of back-to-back frames at line rate, frames per second of\n"
      "virtual time the driver gets. Prints size,offered_pps,delivered_pps,line_fraction");
  opts.add_options()("help,h", "this help")(
      "size", po::value(&sizes)->composing(),
      "frame size without FCS (60..1514, repeatable; default 60 and 1514)")(
      "frames", po::value(&frames)->default_value(frames), "frames measured after 1000 of warm-up")(
      "param", po::value(&raw_params)->composing(), "model parameter name=value (repeatable)");
  po::variables_map vm;
  if (const int rc = parse_cli("rx-rate", argc, argv, opts, vm); rc >= 0) return rc;
  if (sizes.empty()) sizes = {60, 1514};
  try {
    const ParamList params = parse_params(raw_params);
    std::cout << "size,offered_pps,delivered_pps,line_fraction\n";
    for (const unsigned len : sizes) {
      if (len < 60 || len > 1514) throw std::invalid_argument("--size expects 60..1514");
      const RxResult r = measure_rx(len, frames, params);
      std::printf("%u,%.0f,%.0f,%.4f\n", len, r.offered_pps, r.delivered_pps,
                  r.delivered_pps / r.offered_pps);
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::cerr << "rx-rate: " << e.what() << "\n";
    return 2;
  }
  return 0;
}

}  // namespace bench
