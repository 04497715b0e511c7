// SPDX-License-Identifier: GPL-2.0-or-later
// Little-endian serialisation helpers for the versioned state blob.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace rtl8168sim {

class StateWriter {
 public:
  explicit StateWriter(std::vector<uint8_t>& out) : out_(out) {}
  template <typename T>
    requires std::is_integral_v<T> || std::is_enum_v<T>
  void put(T v) {
    uint64_t x = static_cast<uint64_t>(v);
    for (size_t i = 0; i < sizeof(T); i++) out_.push_back(static_cast<uint8_t>(x >> (8 * i)));
  }
  void put_bytes(std::span<const uint8_t> b) {
    put<uint32_t>(static_cast<uint32_t>(b.size()));
    out_.insert(out_.end(), b.begin(), b.end());
  }

 private:
  std::vector<uint8_t>& out_;
};

class StateReader {
 public:
  explicit StateReader(std::span<const uint8_t> in) : in_(in) {}
  template <typename T>
    requires std::is_integral_v<T> || std::is_enum_v<T>
  T get() {
    if (pos_ + sizeof(T) > in_.size()) {
      ok_ = false;
      return T{};
    }
    uint64_t x = 0;
    for (size_t i = 0; i < sizeof(T); i++) x |= static_cast<uint64_t>(in_[pos_ + i]) << (8 * i);
    pos_ += sizeof(T);
    return static_cast<T>(x);
  }
  bool get_bool() { return get<uint8_t>() != 0; }
  // Bounded: a length beyond `max` or the blob fails the load.
  std::vector<uint8_t> get_bytes(size_t max) {
    uint32_t n = get<uint32_t>();
    if (!ok_ || n > max || pos_ + n > in_.size()) {
      ok_ = false;
      return {};
    }
    std::vector<uint8_t> v(in_.begin() + static_cast<long>(pos_),
                           in_.begin() + static_cast<long>(pos_ + n));
    pos_ += n;
    return v;
  }
  bool ok() const { return ok_; }
  void fail() { ok_ = false; }
  bool at_end() const { return pos_ == in_.size(); }

 private:
  std::span<const uint8_t> in_;
  size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace rtl8168sim
