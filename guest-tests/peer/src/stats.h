// SPDX-License-Identifier: GPL-2.0-or-later
// Latency summary shared by rr and udp-echo: same definitions as rtl-traffic.c
// (population standard deviation; nearest-rank percentiles: p-th = sorted[ceil(p*n/100)-1]).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

namespace peer {

struct LatencyStats {
  uint64_t count = 0;
  double mean_ns = 0, stddev_ns = 0;
  uint64_t min_ns = 0, p50_ns = 0, p90_ns = 0, p99_ns = 0, max_ns = 0;
};

LatencyStats Summarize(std::vector<uint64_t> samples_ns);
uint64_t NearestRank(const std::vector<uint64_t>& sorted, unsigned percent);
nlohmann::json ToJson(const LatencyStats& s);

}  // namespace peer
