// SPDX-License-Identifier: GPL-2.0-or-later
// The TX engine's part of the state blob holds only what its walk cannot
// recompute (TxEngine::visit): the frame's total, the goal and FIFO room of
// the unit being fetched and whether it holds that room, the TSO header
// length and segment count, the FIFO bytes in use, the busy and wire flags
// and the slots of the descriptors read ahead are derived on load through
// the helpers the walk sets them with. A blob therefore cannot state one of them against the
// others: every blob that loads is the one encoding of the state it describes (save after load
// gives its bytes back), mutated or not. Checked on every chip profile with the engine in the
// middle of a TSO frame: several segments sent, more in the TX FIFO, the rest still being fetched,
// and the next frames' descriptors read ahead.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include <algorithm>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

const Mac kDst = {0x52, 0x54, 0x00, 0x00, 0x00, 0x02};

enum TxPhase : uint8_t { kFetchData = 3, kWaitFifo = 4 };

struct Chip {
  const char* id;
  DriverConfig (*driver)();
};
void PrintTo(const Chip& chip, std::ostream* os) { *os << chip.id; }
DriverConfig driver_8168c() { return {}; }
const Chip kChips[] = {{"8168c", driver_8168c},
                       {"8168evl", driver_8168evl},
                       {"8168h", driver_8168h},
                       {"8125b", driver_8125b}};

// The TX engine's part of a blob, walked in TxEngine::visit() order from the
// frame's first descriptor, which the test knows (its slot, opts1, opts2
// and buffer address): the part starts 24 bytes before the phase (ring
// positions, doorbell latches, walk bound, queue, error stop). `opaque`
// lists the frame bytes the engine only carries (the buffer being filled,
// the FIFO's frames): nothing is derived from them.
struct TxSection {
  bool ok = false;
  size_t begin = 0, end = 0;
  uint8_t phase = 0;
  uint32_t seg_index = 0, fifo_frames = 0, read_ahead = 0;
  std::vector<std::pair<size_t, size_t>> opaque;

  static TxSection find(const std::vector<uint8_t>& b, const std::vector<uint8_t>& first_desc) {
    TxSection t;
    size_t at = 0;
    for (size_t i = 29; i + first_desc.size() <= b.size(); i++) {
      if (std::equal(first_desc.begin(), first_desc.end(), b.begin() + static_cast<long>(i))) {
        at = i;
        break;
      }
    }
    if (at == 0) return t;
    size_t p = at - 5;
    auto u32 = [&] {
      uint32_t v = 0;
      for (int i = 0; i < 4; i++) v |= uint32_t{b.at(p + i)} << (8 * i);
      p += 4;
      return v;
    };
    auto opaque_bytes = [&] {
      const uint32_t n = u32();
      t.opaque.emplace_back(p, p + n);
      p += n;
    };
    t.begin = p - 24;
    t.phase = b.at(p++);
    p += 20 * u32();         // the frame's descriptors: slot, opts1, opts2, address
    p += 4 + 4 + 4 + 8 + 4;  // cursor (descriptor, offset), stream position, read in flight
    opaque_bytes();          // the buffer being filled
    p += u32();              // the TSO header bytes (their TCP data offset gives its length)
    t.seg_index = u32();
    t.fifo_frames = u32();
    for (uint32_t i = 0; i < t.fifo_frames; i++) {
      opaque_bytes();
      p += 4 + 1 + 4 + 1;  // first slot, queue, FIFO bytes, completes
      p += 12 * u32();     // write-back: address, opts1
    }
    t.read_ahead = u32();
    p += 16 * t.read_ahead;  // opts1, opts2, address (the slots are derived)
    p += 3;                  // read in flight, ring end seen, read failed
    t.end = p;
    t.ok = p <= b.size();
    return t;
  }
  bool is_opaque(size_t i) const {
    for (const auto& [from, to] : opaque) {
      if (i >= from && i < to) return true;
    }
    return false;
  }
};

std::vector<uint8_t> le(uint64_t v, unsigned bytes) {
  std::vector<uint8_t> out;
  for (unsigned i = 0; i < bytes; i++) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
  return out;
}

class ApiStateDerive : public ::testing::TestWithParam<Chip> {
 protected:
  // Reads from memory faster than the wire sends, so segments queue in the
  // TX FIFO.
  ApiStateDerive()
      : p(with(default_params(true), {{"chip", GetParam().id},
                                      {"pcie-read-latency", "100"},
                                      {"pcie-bandwidth", "100000"},
                                      {"dma-read-rate", "0"}})),
        nic(p, GetParam().driver()) {}

  // A TSO frame of three descriptors (header, two payload halves), MSS 500,
  // 16 segments, and three frames behind it; saved once the engine works on
  // segment 2 or later with at least two segments in the FIFO and the next
  // frames' descriptors read ahead.
  std::vector<uint8_t> mid_tso_blob(TxSection& found) {
    const Bytes super = ipv4_tcp(kDst, test_mac(), pattern(8000, 7));
    const Parsed parsed = parse(super);
    EXPECT_TRUE(parsed.ok);
    const auto split = static_cast<long>(parsed.payload);
    const Bytes hdr(super.begin(), super.begin() + split);
    const Bytes pay1(super.begin() + split, super.begin() + split + 4000);
    const Bytes pay2(super.begin() + split + 4000, super.end());
    const uint32_t opts1 = kTd1GtsEnv4 | static_cast<uint32_t>(parsed.l4) << kGttcphoShift;
    const unsigned first = nic.drv.queue_tx({hdr, pay1, pay2}, opts1, 500u << kTd1MssShift);
    for (uint8_t i = 0; i < 3; i++) nic.drv.queue_frame(frame_to(kDst, 1000, i));
    const uint64_t d = nic.drv.tx_desc_addr(Queue::kNormal, first);
    std::vector<uint8_t> pattern_desc = le(first, 4);
    const std::pair<uint64_t, unsigned> fields[] = {
        {d, 4}, {d + 4, 4}, {d + 8, 8}};  // opts1, opts2, addr
    for (const auto& [addr, n] : fields) {
      const std::vector<uint8_t> v = le(nic.host.mem().rd(addr, n), n);
      pattern_desc.insert(pattern_desc.end(), v.begin(), v.end());
    }
    nic.drv.kick();
    for (unsigned step = 0; step < 20000; step++) {
      std::vector<uint8_t> saved = nic.host.save();
      found = TxSection::find(saved, pattern_desc);
      if (found.ok && (found.phase == kFetchData || found.phase == kWaitFifo) &&
          found.seg_index >= 2 && found.fifo_frames >= 2 && found.read_ahead >= 1)
        return saved;
      nic.host.advance(100);
    }
    ADD_FAILURE() << GetParam().id
                  << ": the TX engine never stood mid-TSO with its FIFO and read-ahead in use\n"
                  << nic.host.trace_tail();
    return {};
  }

  // Brought up, then stepped to the mid-TSO state.
  void SetUp() override {
    ASSERT_UP(nic);
    blob = mid_tso_blob(t);
    ASSERT_FALSE(blob.empty());
  }

  const Params p;
  Nic nic;
  TxSection t;
  std::vector<uint8_t> blob;
};

// Saved mid-TSO, loaded onto a fresh device: that device saves the same
// bytes, and both then send the same frames at the same times with the same
// trace hash (what a load derives is what the walk had).
TEST_P(ApiStateDerive, SaveLoadSaveIsByteIdenticalMidTso) {
  TestHost restored(p, nic.host.mem(), nic.host.now());
  std::string err;
  ASSERT_EQ(restored.load(blob, &err), 0) << err;
  EXPECT_EQ(restored.save(), blob);
  const size_t sent = nic.host.tx.size();
  const uint64_t until = nic.host.now() + 2'000'000;
  nic.host.run_until(until);
  restored.run_until(until);
  ASSERT_EQ(nic.host.tx.size() - sent, restored.tx.size());
  EXPECT_GE(restored.tx.size(), 14u + 3u) << "the rest of the TSO frame and the three behind it";
  for (size_t i = 0; i < restored.tx.size(); i++) {
    EXPECT_EQ(restored.tx[i].time, nic.host.tx[sent + i].time) << "frame " << i;
    EXPECT_EQ(restored.tx[i].frame, nic.host.tx[sent + i].frame) << "frame " << i;
  }
  EXPECT_EQ(restored.trace_hash(), nic.host.trace_hash());
  EXPECT_EQ(restored.save(), nic.host.save());
}

// Every single-bit change of the TX engine's fields in that blob (its
// descriptors, cursors, header bytes, segment index, FIFO entries,
// read-ahead) is either refused or loads as the state it spells: the
// device saves exactly the mutated bytes again. A field the load derived
// instead would be overwritten by the derivation and come back different.
TEST_P(ApiStateDerive, EveryBlobThatLoadsIsTheEncodingOfItsState) {
  TestHost other(p, nic.host.mem(), nic.host.now());
  unsigned loaded = 0, refused = 0;
  for (size_t i = t.begin; i < t.end; i++) {
    if (t.is_opaque(i)) continue;
    for (unsigned bit = 0; bit < 8; bit++) {
      std::vector<uint8_t> mutated = blob;
      mutated[i] ^= static_cast<uint8_t>(1u << bit);
      if (other.load(mutated) != 0) {
        refused++;
        continue;
      }
      loaded++;
      ASSERT_EQ(other.save(), mutated)
          << "blob byte " << i << " bit " << bit << " (TX part from byte " << t.begin << ")";
    }
  }
  // Both sides are exercised: pointers and lengths are refused, descriptor
  // flags and addresses the walk has not used yet load.
  EXPECT_GT(loaded, 0u);
  EXPECT_GT(refused, 0u);
}

INSTANTIATE_TEST_SUITE_P(Chips, ApiStateDerive, ::testing::ValuesIn(kChips),
                         [](const ::testing::TestParamInfo<Chip>& chip) {
                           return std::string("chip") + chip.param.id;
                         });

}  // namespace
}  // namespace rtl8168_test
