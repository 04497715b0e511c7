// SPDX-License-Identifier: GPL-2.0-or-later
// episode: register-level reproductions of the historical r8169 bugs with
// scripted drivers (docs/HISTORY.md §1, §2). Each prints a verdict line and a
// JSON summary; exit 0 when the outcome matches what history reports
// (old driver: the bug appears; fixed driver, or old driver on INTx: it does not).
#include <boost/program_options.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>

#include "cli.h"
#include "driver_regs.h"
#include "commands.h"
#include "device.h"
#include "frames.h"
#include "sim_driver.h"

namespace po = boost::program_options;
using json = nlohmann::json;

namespace bench {

namespace {

// The fault schedule's figures (--faults): each fault's state and firing
// count as rtl8168_fault_list reports them, and the drops they caused (the
// counters stats.def marks fault_drop).
void add_fault_figures(json& j, const rtl8168* dev) {
  std::string list(rtl8168_fault_list(dev, nullptr, 0) + 1, '\0');
  list.resize(rtl8168_fault_list(dev, list.data(), list.size()));
  const json f = json::parse(list);
  if (f["faults"].empty()) return;
  rtl8168_stats st{};
  rtl8168_get_stats(dev, &st);
  j["faults"] = f;
  json& drops = j["fault_drops"];
#define RTL8168_STAT(name, blob, fault_drop, doc) \
  if constexpr (fault_drop) drops[#name] = st.name;
#include "rtl8168/stats.def"
#undef RTL8168_STAT
}

constexpr Time kUs = 1000, kMs = 1000 * kUs, kS = 1000 * kMs;

// ---- 2007: lost TxPoll doorbell -> TX stall ------------------------------
// A Samba-read-like load: the client sends a request, the server (the
// NIC under test) answers with `frames_per_response` full-size frames, each
// built by the stack in 5..30 us of CPU time (seeded) and handed to the NIC
// with its own doorbell (2.6.2x: no xmit_more). The client sends the next
// request 20 us after the whole response arrived. The old driver rings NPQ
// only in start_xmit; the fixed one re-kicks after reclaiming TX.
json txpoll_stall(bool fixed, Time duration, uint32_t seed, const ParamList& params) {
  Host h(SimDriver::kMemBytes);
  open_device(h, params);
  SimDriver drv(h, DriverOptions{.txpoll_rekick = fixed});
  if (!drv.open()) throw std::runtime_error("link did not come up");
  std::mt19937 rng(seed);
  std::uniform_int_distribution<Time> cpu(5 * kUs, 30 * kUs);
  constexpr unsigned kFramesPerResponse = 16;
  constexpr uint32_t kFrameLen = 1514;
  const Time start = h.now, end = start + duration;

  uint64_t responses = 0, frames_rx_by_client = 0, payload_bytes = 0;
  unsigned got_in_response = 0;
  Time next_request = start, next_post = kNever;
  unsigned to_post = 0;
  Time last_tx_completion = start, stall_started = kNever, longest_stall = 0;
  uint64_t stalls = 0, watchdog_resets = 0;
  std::vector<Time> stall_times;
  h.hooks.after_transmit = [&](Port&, const uint8_t*, size_t len) {
    const Time t = h.now;
    frames_rx_by_client++;
    payload_bytes += len - kTcpHeaderBytes;
    last_tx_completion = t;
    if (++got_in_response == kFramesPerResponse) {
      got_in_response = 0;
      responses++;
      next_request = t + 20 * kUs;  // client think time + RTT
    }
  };
  const std::vector<uint8_t> request = tcp_frame(kNicMac, kPeerMac, 128, 1);
  auto rx_sink = [&](std::span<const uint8_t>) {
    to_post += kFramesPerResponse;  // the server starts producing the response
    if (next_post == kNever) next_post = h.now + cpu(rng);
  };
  uint32_t seq = 0;
  while (h.now < end) {
    // dev_watchdog deadline while frames sit owned by the NIC.
    const bool was_stranded = drv.tx_pending() && (drv.tx_desc_opts1(drv.tx_dirty()) & (1u << 31));
    const Time watchdog = was_stranded ? last_tx_completion + 5 * kS : kNever;
    const Time stall_check =
        was_stranded && stall_started == kNever ? last_tx_completion + 100 * kMs : kNever;
    const Time wake = std::min({next_request, next_post, watchdog, stall_check, end});
    h.step_until(wake);
    const Time now = h.now;
    if (h.msi_pending) drv.handle_irq(rx_sink);
    if (now >= next_request && next_request != kNever) {
      rtl8168_receive(h.dev(), now, request.data(), request.size());
      next_request = kNever;
    }
    if (now >= next_post && next_post != kNever && to_post > 0) {
      drv.tx_post_copy(tcp_frame(kPeerMac, kNicMac, kFrameLen, seq));
      seq += kFrameLen - kTcpHeaderBytes;
      drv.doorbell();
      to_post--;
      next_post = to_post ? now + cpu(rng) : kNever;
    }
    // Stall watch: NIC-owned frames and no completion for 100 ms.
    const bool stranded = drv.tx_pending() && (drv.tx_desc_opts1(drv.tx_dirty()) & (1u << 31));
    if (stranded && now - last_tx_completion >= 100 * kMs && stall_started == kNever) {
      stall_started = last_tx_completion;
      stalls++;
      stall_times.push_back(now);
    }
    if (!stranded && stall_started != kNever) {
      longest_stall = std::max(longest_stall, now - stall_started);
      stall_started = kNever;
    }
    // dev_watchdog: TX queue stuck for 5 s -> rtl8169_tx_timeout -> reset
    // task; its effect on the device here is a fresh NPQ write.
    if (stranded && now - last_tx_completion >= 5 * kS) {
      watchdog_resets++;
      last_tx_completion = now;
      drv.doorbell();
    }
  }
  if (stall_started != kNever) longest_stall = std::max(longest_stall, h.now - stall_started);
  rtl8168_stats st{};
  rtl8168_get_stats(h.dev(), &st);
  const double secs = static_cast<double>(h.now - start) / 1e9;
  json j;
  j["episode"] = "txpoll-stall";
  j["driver"] = fixed ? "fixed" : "old";
  j["virtual_seconds"] = secs;
  j["responses"] = responses;
  j["frames"] = frames_rx_by_client;
  j["goodput_mbps"] = static_cast<double>(payload_bytes) * 8 / secs / 1e6;
  j["stalls"] = stalls;
  j["longest_stall_ms"] = static_cast<double>(longest_stall) / 1e6;
  j["watchdog_resets"] = watchdog_resets;
  j["doorbells"] = st.tx_doorbells;
  j["doorbells_ignored"] = st.tx_doorbells_ignored;
  j["trace_hash"] = rtl8168_trace_hash(h.dev());
  add_fault_figures(j, h.dev());
  j["bug_seen"] = stalls > 0;
  return j;
}

// ---- 2009: lost MSI -> interrupt hang ------------------------------------
// TX-heavy parallel streams: the driver keeps the ring full with a seeded
// mix of full-size frames and ACK-sized frames, refilling only from its
// interrupt handler; the peer returns one ACK per two frames. The handler
// spends 0.5..3 us (seeded) between reading IntrStatus and acking it. The
// old handler acks what it read and returns; the fixed one loops until
// IntrStatus reads 0. With INTx the line stays asserted, so the platform
// runs the handler again.
json msi_lost_irq(bool fixed, bool msi, Time duration, uint32_t seed, const ParamList& params) {
  Host h(SimDriver::kMemBytes);
  open_device(h, params);
  h.msi = msi;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<Time> window(500, 3 * kUs);
  SimDriver drv(h, DriverOptions{.irq_ack_loop = fixed, .irq_read_to_ack = 2 * kUs});
  if (!drv.open()) throw std::runtime_error("link did not come up");
  const Time start = h.now, end = start + duration;
  uint64_t frames = 0, bytes = 0;
  Time next_ack = kNever, last_irq = start, hang_at = kNever;
  unsigned unacked = 0;
  h.hooks.after_transmit = [&](Port&, const uint8_t*, size_t len) {
    const Time t = h.now;
    frames++;
    bytes += len;
    if (++unacked == 2) {
      unacked = 0;
      if (next_ack == kNever) next_ack = t + 10 * kUs;
    }
  };
  const std::vector<uint8_t> ack = tcp_frame(kNicMac, kPeerMac, 66, 7);
  uint32_t seq = 0;
  std::uniform_int_distribution<int> size_pick(0, 3);
  auto refill = [&] {
    bool posted = false;
    while (drv.tx_free() >= 1) {
      const uint32_t len = size_pick(rng) == 0 ? 66 : 1514;
      drv.tx_post_copy(tcp_frame(kPeerMac, kNicMac, len, seq));
      seq += len;
      posted = true;
    }
    if (posted) drv.doorbell();
  };
  refill();
  uint64_t isr_stuck = 0, imr_stuck = 0;
  while (h.now < end) {
    const Time watch = last_irq + 100 * kMs > h.now ? last_irq + 100 * kMs : kNever;
    h.step_until(std::min({next_ack, end, watch}));
    const Time now = h.now;
    if (now >= next_ack) {
      rtl8168_receive(h.dev(), now, ack.data(), ack.size());
      next_ack = kNever;
    }
    const bool irq = msi ? h.msi_pending : h.port->intx != 0;
    if (irq) {
      last_irq = now;
      drv.set_irq_read_to_ack(window(rng));
      drv.handle_irq(nullptr);
      refill();
    }
    // Hang watch: work outstanding, INT asserted, no interrupt for 100 ms.
    if (now - last_irq >= 100 * kMs && drv.tx_pending()) {
      isr_stuck = h.r16(rtl8168_driver::kIntrStatus);
      imr_stuck = h.r16(rtl8168_driver::kIntrMask);
      hang_at = now;
      break;
    }
  }
  rtl8168_stats st{};
  rtl8168_get_stats(h.dev(), &st);
  const double secs = static_cast<double>(h.now - start) / 1e9;
  json j;
  j["episode"] = "msi-lost-irq";
  j["driver"] = fixed ? "fixed" : "old";
  j["irq"] = msi ? "msi" : "intx";
  j["virtual_seconds"] = secs;
  j["frames"] = frames;
  j["throughput_mbps"] = static_cast<double>(bytes) * 8 / secs / 1e6;
  j["interrupts_handled"] = drv.irqs_handled;
  j["msi_sent"] = st.msi_sent;
  j["hang"] = hang_at != kNever;
  if (hang_at != kNever) {
    j["hang_detected_at_s"] = static_cast<double>(hang_at - start) / 1e9;
    j["intr_status_at_hang"] = isr_stuck;
    j["intr_mask_at_hang"] = imr_stuck;
  }
  j["trace_hash"] = rtl8168_trace_hash(h.dev());
  add_fault_figures(j, h.dev());
  j["bug_seen"] = hang_at != kNever;
  return j;
}

}  // namespace

int cmd_episode(int argc, char** argv) {
  std::string name, driver = "fixed", irq = "msi";
  std::vector<std::string> raw_params;
  std::string faults;  // --faults: the `faults` parameter
  double seconds = 0;
  uint32_t seed = 1;
  po::options_description opts(
      "rtl8168-bench episode NAME: reproduce a historical r8169 bug at register level\n"
      "  NAME: txpoll-stall (2007) or msi-lost-irq (2009)");
  opts.add_options()("help,h", "this help")("name", po::value(&name), "episode")(
      "driver", po::value(&driver)->default_value(driver), "old or fixed driver behaviour")(
      "irq", po::value(&irq)->default_value(irq), "msi or intx (msi-lost-irq)")(
      "seconds", po::value(&seconds), "virtual seconds to run (default 11 / 2)")(
      "seed", po::value(&seed)->default_value(seed), "seed of the scripted traffic")(
      "param", po::value(&raw_params)->composing(), "model parameter name=value (repeatable)")(
      "faults", po::value(&faults), "fault schedule, 'class:key=value,...;...' (docs/FAULTS.md); same as --param faults=SPEC");
  po::positional_options_description pos;
  pos.add("name", 1);
  po::variables_map vm;
  if (const int rc = parse_cli("episode", argc, argv, opts, vm, &pos); rc >= 0) return rc;
  if (driver != "old" && driver != "fixed") {
    std::cerr << "episode: --driver expects old or fixed, got '" << driver << "'\n";
    return 2;
  }
  if (irq != "msi" && irq != "intx") {
    std::cerr << "episode: --irq expects msi or intx, got '" << irq << "'\n";
    return 2;
  }
  try {
    if (!faults.empty()) raw_params.push_back("faults=" + faults);
    const ParamList params = parse_params(raw_params);
    const bool fixed = driver == "fixed";
    json j;
    bool expect_bug = false;
    if (name == "txpoll-stall") {
      j = txpoll_stall(fixed, static_cast<Time>((seconds > 0 ? seconds : 11) * 1e9), seed, params);
      expect_bug = !fixed;
    } else if (name == "msi-lost-irq") {
      j = msi_lost_irq(fixed, irq == "msi", static_cast<Time>((seconds > 0 ? seconds : 2) * 1e9),
                       seed, params);
      expect_bug = !fixed && irq == "msi";
    } else {
      std::cerr << "episode: expects txpoll-stall or msi-lost-irq, got '" << name << "'\n";
      return 2;
    }
    const bool seen = j["bug_seen"].get<bool>();
    const bool ok = seen == expect_bug;
    j["expected_bug"] = expect_bug;
    j["verdict"] = ok ? (seen ? "REPRODUCED" : "CLEAN") : "UNEXPECTED";
    std::cout << "VERDICT " << name << " driver=" << driver
              << (name == "msi-lost-irq" ? " irq=" + irq : std::string()) << ": "
              << j["verdict"].get<std::string>() << "\n"
              << j.dump(2) << "\n";
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "episode: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace bench
