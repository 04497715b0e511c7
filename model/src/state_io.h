// SPDX-License-Identifier: GPL-2.0-or-later
// The state blob's serialisation: one Archive that either writes or reads,
// so each component describes its state once, in one visit(Archive&), for
// both save and load (QEMU's VMStateDescription idea, gem5's serialize /
// unserialize in one). Little-endian, fixed widths. Reading is bounded: a
// count or a byte string longer than its stated maximum, or running past the
// end of the blob, fails the archive (ok() == false) and the load is refused.
// What the values mean together is checked after the read (check()).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

namespace rtl8168sim {

class Archive {
 public:
  // Writing: appends to `out`.
  explicit Archive(std::vector<uint8_t>& out) : out_(&out) {}
  // Reading: consumes `in` from the start.
  explicit Archive(std::span<const uint8_t> in) : in_(in) {}

  bool loading() const { return out_ == nullptr; }
  bool ok() const { return ok_; }
  void fail() { ok_ = false; }
  bool at_end() const { return pos_ == in_.size(); }

  // An integer, enum or bool, in exactly sizeof(T) bytes (bool: one byte, 0
  // or 1; any other byte fails the archive, so a blob that loads is the one
  // encoding of the state it describes).
  template <typename T>
    requires std::is_integral_v<T> || std::is_enum_v<T>
  void io(T& v) {
    if (!loading()) {
      const auto x = static_cast<uint64_t>(v);
      uint8_t le[sizeof(T)];
      for (size_t i = 0; i < sizeof(T); i++) le[i] = static_cast<uint8_t>(x >> (8 * i));
      out_->insert(out_->end(), le, le + sizeof(T));
      return;
    }
    if (!ok_ || pos_ + sizeof(T) > in_.size()) {
      ok_ = false;
      v = T{};
      return;
    }
    uint64_t x = 0;
    for (size_t i = 0; i < sizeof(T); i++) x |= static_cast<uint64_t>(in_[pos_ + i]) << (8 * i);
    pos_ += sizeof(T);
    if constexpr (std::is_same_v<T, bool>) {
      if (x > 1) ok_ = false;
      v = x == 1;
    } else {
      v = static_cast<T>(x);
    }
  }
  // A fixed-size table of integers (register files: the PHY's pages, the
  // ERI/EPHY/CSI windows): the same bytes as io() on each element in turn,
  // copied in one piece on a little-endian host (the blob is little-endian).
  template <typename T, size_t N>
    requires std::is_integral_v<T> && (!std::is_same_v<T, bool>)
  void io_array(std::array<T, N>& a) {
    if constexpr (std::endian::native == std::endian::little) {
      constexpr size_t n = sizeof(T) * N;
      if (!loading()) {
        const auto* p = reinterpret_cast<const uint8_t*>(a.data());
        out_->insert(out_->end(), p, p + n);
        return;
      }
      if (!ok_ || pos_ + n > in_.size()) {
        ok_ = false;
        a.fill(T{});
        return;
      }
      std::memcpy(a.data(), in_.data() + pos_, n);
      pos_ += n;
    } else {
      for (T& v : a) io(v);
    }
  }
  // A value stored in a narrower or wider type than the member (e.g. an
  // `unsigned` kept as one byte): Wire is the blob's type.
  template <typename Wire, typename T>
  void io_as(T& v) {
    Wire w = static_cast<Wire>(v);
    io(w);
    v = static_cast<T>(w);
  }
  // A length-prefixed byte string of at most `max` bytes.
  void bytes(std::vector<uint8_t>& v, size_t max) {
    uint32_t n = static_cast<uint32_t>(v.size());
    io(n);
    if (!loading()) {
      out_->insert(out_->end(), v.begin(), v.end());
      return;
    }
    if (!ok_ || n > max || pos_ + n > in_.size()) {
      ok_ = false;
      v.clear();
      return;
    }
    v.assign(in_.begin() + static_cast<long>(pos_), in_.begin() + static_cast<long>(pos_ + n));
    pos_ += n;
  }
  // An element count: writes `n`; when reading returns the stored count, or
  // 0 (and fails) when it exceeds `max`.
  uint32_t count(size_t n, uint32_t max) {
    uint32_t c = static_cast<uint32_t>(n);
    io(c);
    if (loading() && c > max) {
      ok_ = false;
      return 0;
    }
    return ok_ ? c : 0;
  }

 private:
  std::vector<uint8_t>* out_ = nullptr;
  std::span<const uint8_t> in_;
  size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace rtl8168sim
