// SPDX-License-Identifier: GPL-2.0-or-later
#include "pattern.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "sha256.h"

namespace peer {

std::span<const uint8_t> PatternPeriod() {
  static const std::vector<uint8_t> period = [] {
    std::vector<uint8_t> buf(RTL_PATTERN_PERIOD);
    rtl_pattern_fill(buf.data(), buf.size(), 0);
    return buf;
  }();
  return period;
}

std::string PatternSha256(uint64_t bytes) {
  const auto period = PatternPeriod();
  Sha256 sha;
  while (bytes) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(bytes, period.size()));
    sha.Update(period.data(), n);
    bytes -= n;
  }
  return sha.FinalHex();
}

void PatternChecker::Feed(const uint8_t* data, size_t len) {
  const auto period = PatternPeriod();
  while (len) {
    const size_t at = static_cast<size_t>(offset_ % period.size());
    const size_t n = std::min(len, period.size() - at);
    if (!first_mismatch_ && std::memcmp(data, period.data() + at, n) != 0) {
      const auto [mine, theirs] = std::mismatch(data, data + n, period.data() + at);
      first_mismatch_ = offset_ + static_cast<uint64_t>(mine - data);
    }
    offset_ += n;
    data += n;
    len -= n;
  }
}

}  // namespace peer
