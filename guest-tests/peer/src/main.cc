// SPDX-License-Identifier: GPL-2.0-or-later
// rtl8168-peer: host-side traffic peer for rtl8168-sim guests (docs/PEER.md).
// Exit status: 0 ok, 1 expectation not met, 2 bad arguments, 3 timeout, 4 network
// error, 5 interrupted by SIGINT/SIGTERM before the work was complete.
#include <csignal>
#include <exception>
#include <fstream>
#include <iostream>

#include "modes.h"
#include "options.h"
#include "runtime.h"

namespace {

enum Exit { kOk = 0, kMismatch = 1, kUsage = 2, kTimeout = 3, kNetwork = 4, kInterrupted = 5 };

peer::ModeResult RunMode(peer::Runtime& rt, const peer::Options& opts) {
  switch (opts.mode) {
    case peer::Mode::kSink:
      return peer::RunSink(rt, opts);
    case peer::Mode::kSource:
      return peer::RunSource(rt, opts);
    case peer::Mode::kRr:
      return peer::RunRr(rt, opts);
    case peer::Mode::kUdpEcho:
      return peer::RunUdpEcho(rt, opts);
    case peer::Mode::kPattern:
      return peer::RunPattern(opts);
  }
  return {};
}

// Decides status and exit code from how the loop stopped and what the mode saw.
std::pair<const char*, int> Verdict(const peer::Runtime& rt, const peer::ModeResult& r) {
  using peer::StopReason;
  if (rt.reason() == StopReason::kFatal || r.error) return {"error", kNetwork};
  if (rt.reason() == StopReason::kTimeout && !r.complete) return {"timeout", kTimeout};
  if (!r.complete) return {"interrupted", kInterrupted};
  if (!r.ok) return {"mismatch", kMismatch};
  return {"ok", kOk};
}

bool Emit(const peer::Options& opts, const nlohmann::json& json) {
  const std::string text = json.dump(2) + "\n";
  if (opts.json_file.empty()) {
    std::cout << text << std::flush;
    return static_cast<bool>(std::cout);
  }
  std::ofstream out(opts.json_file, std::ios::trunc);
  out << text;
  return static_cast<bool>(out.flush());
}

}  // namespace

int main(int argc, char** argv) {
  std::optional<peer::Options> opts;
  try {
    opts = peer::ParseOptions(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "rtl8168-peer: " << e.what() << "\nTry 'rtl8168-peer --help'.\n";
    return kUsage;
  }
  if (!opts) return kOk;  // --help

  peer::Runtime rt(opts->timeout_seconds);
  peer::ModeResult result;
  try {
    result = RunMode(rt, *opts);
  } catch (const peer::UsageError& e) {
    std::cerr << "rtl8168-peer: " << e.what() << "\n";
    return kUsage;
  } catch (const std::exception& e) {  // bind/listen/resolve/open failures
    std::cerr << "rtl8168-peer: " << ModeName(opts->mode) << ": " << e.what() << "\n";
    return kNetwork;
  }
  if (opts->mode != peer::Mode::kPattern && rt.reason() == peer::StopReason::kNone)
    rt.Finish();  // the loop ran out of work (cannot normally happen)

  const auto [status, code] = opts->mode == peer::Mode::kPattern
                                  ? std::pair<const char*, int>{"ok", kOk}
                                  : Verdict(rt, result);
  nlohmann::json json = {{"tool", "rtl8168-peer"}, {"mode", ModeName(opts->mode)}};
  json.update(result.json);
  json["status"] = status;
  json["exit_code"] = code;
  if (rt.reason() == peer::StopReason::kTimeout) json["timeout_seconds"] = opts->timeout_seconds;
  if (rt.reason() == peer::StopReason::kSignal) json["signal"] = rt.signal_number();
  if (!rt.fatal_message().empty()) json["error"] = rt.fatal_message();
  if (code != kOk) std::cerr << "rtl8168-peer: " << ModeName(opts->mode) << ": " << status << "\n";
  if (!Emit(*opts, json)) {
    std::cerr << "rtl8168-peer: cannot write the JSON result\n";
    return code == kOk ? kNetwork : code;
  }
  return code;
}
