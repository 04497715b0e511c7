// SPDX-License-Identifier: GPL-2.0-or-later
// rtl8168-speed-bench: the model's host speed with timing on, as Google
// Benchmark cases over the workloads of speed_loop.h (TX: the driver keeps
// the ring full; RX: back-to-back frames from the wire), one chip, direction
// and frame size per case: BM_Tx/BM_Rx on the 8168c (RX at 1 GbE),
// BM_Tx_8125b/BM_Rx_8125b on the RTL8125B (RX at its 2.5 GbE link).
//
// The target (docs/TIMING.md "Host speed"): a model behind a 2.5 GbE port
// keeps up with its line rate at the smallest frames, per direction:
// 2.5e9 / ((64 + 8 + 12) * 8) = 3 720 238 frames/s (1514-byte frames:
// 2.5e9 / ((1514 + 20) * 8) = 203 716). Each case reports frames_per_s
// (simulated frames per host second) and target_2g5 (that line rate);
// scripts/check-speed runs the cases and judges the figures: no unit test
// times anything.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <exception>

#include "commands.h"

#include "speed_loop.h"

namespace {

// Frames per second of a 2.5 Gbit/s wire: preamble 8 + frame + IFG 12
// bytes (the frame length includes the FCS, as the bench's sizes do).
constexpr double line_rate_2g5(uint32_t len) { return 2.5e9 / ((len + 20.0) * 8.0); }

// Frames per timed batch: long enough that a batch boundary (one loop of
// the driver) is noise, short enough for Google Benchmark to repeat.
constexpr uint64_t kBatch = 20'000;

void speed(benchmark::State& state, bench::SpeedLoop::Dir dir, const bench::ParamList& params) {
  const auto len = static_cast<uint32_t>(state.range(0));
  try {
    bench::SpeedLoop loop(dir, len, params);
    loop.run(kBatch);  // warm-up: rings full, the wire busy
    const uint64_t start = loop.frames_done();
    while (state.KeepRunningBatch(kBatch)) loop.run(kBatch);
    const uint64_t frames = loop.frames_done() - start;
    if (frames < static_cast<uint64_t>(state.iterations())) {
      state.SkipWithError("the model moved fewer frames than asked");
      return;
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
    state.counters["target_2g5"] = line_rate_2g5(len);
    state.counters["frames_per_s"] =
        benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

const bench::ParamList k8125b{{"chip", "8125b"}};

void BM_Tx(benchmark::State& state) { speed(state, bench::SpeedLoop::Dir::Tx, {}); }
void BM_Rx(benchmark::State& state) { speed(state, bench::SpeedLoop::Dir::Rx, {}); }
void BM_Tx_8125b(benchmark::State& state) { speed(state, bench::SpeedLoop::Dir::Tx, k8125b); }
void BM_Rx_8125b(benchmark::State& state) { speed(state, bench::SpeedLoop::Dir::Rx, k8125b); }

BENCHMARK(BM_Tx)->Arg(64)->Arg(1514)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_Rx)->Arg(64)->Arg(1514)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_Tx_8125b)->Arg(64)->Arg(1514)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_Rx_8125b)->Arg(64)->Arg(1514)->Unit(benchmark::kNanosecond);

}  // namespace

BENCHMARK_MAIN();
