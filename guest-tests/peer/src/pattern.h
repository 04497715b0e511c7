// SPDX-License-Identifier: GPL-2.0-or-later
// The deterministic stream pattern (defined once in guest-tests/programs/rtl-pattern.h)
// as one precomputed period, plus a streaming checker.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

extern "C" {
#include "rtl-pattern.h"
}

namespace peer {

// One full period (RTL_PATTERN_PERIOD bytes): stream byte i == PatternPeriod()[i % period].
std::span<const uint8_t> PatternPeriod();

// SHA-256 (hex) of the first `bytes` bytes of the pattern.
std::string PatternSha256(uint64_t bytes);

// Checks that consecutive chunks continue the pattern; remembers the first mismatch.
class PatternChecker {
 public:
  void Feed(const uint8_t* data, size_t len);
  std::optional<uint64_t> first_mismatch() const { return first_mismatch_; }

 private:
  uint64_t offset_ = 0;
  std::optional<uint64_t> first_mismatch_;
};

}  // namespace peer
