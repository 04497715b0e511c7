// SPDX-License-Identifier: GPL-2.0-or-later
#include "stats.h"

#include <algorithm>
#include <cmath>

namespace peer {

uint64_t NearestRank(const std::vector<uint64_t>& sorted, unsigned percent) {
  if (sorted.empty()) return 0;
  const uint64_t n = sorted.size();
  uint64_t rank = (percent * n + 99) / 100;  // ceil(p * n / 100)
  if (rank == 0) rank = 1;
  return sorted[rank - 1];
}

LatencyStats Summarize(std::vector<uint64_t> samples_ns) {
  LatencyStats s;
  if (samples_ns.empty()) return s;
  std::sort(samples_ns.begin(), samples_ns.end());
  s.count = samples_ns.size();
  double sum = 0;
  for (uint64_t v : samples_ns) sum += static_cast<double>(v);
  s.mean_ns = sum / static_cast<double>(s.count);
  double sq = 0;
  for (uint64_t v : samples_ns) {
    const double d = static_cast<double>(v) - s.mean_ns;
    sq += d * d;
  }
  s.stddev_ns = std::sqrt(sq / static_cast<double>(s.count));
  s.min_ns = samples_ns.front();
  s.max_ns = samples_ns.back();
  s.p50_ns = NearestRank(samples_ns, 50);
  s.p90_ns = NearestRank(samples_ns, 90);
  s.p99_ns = NearestRank(samples_ns, 99);
  return s;
}

nlohmann::json ToJson(const LatencyStats& s) {
  return {{"count", s.count},   {"mean_ns", s.mean_ns}, {"stddev_ns", s.stddev_ns},
          {"min_ns", s.min_ns}, {"p50_ns", s.p50_ns},   {"p90_ns", s.p90_ns},
          {"p99_ns", s.p99_ns}, {"max_ns", s.max_ns}};
}

}  // namespace peer
