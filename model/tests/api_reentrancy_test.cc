// SPDX-License-Identifier: GPL-2.0-or-later
// A host whose transmit() re-enters the device, as QEMU's slirp does: it
// answers a TCP segment with an ACK delivered straight into
// rtl8168_receive() from inside qemu_send_packet, while its virtual clock
// has moved on. The model hands frames out only when the entry point's work
// is done (rtl8168.h "Re-entrancy"), so a doorbell in functional mode still
// sends every queued frame before the register write returns, nothing waits
// for the host timer, no doorbell is lost and model time never runs
// backwards.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

const Mac kDst = {0x52, 0x54, 0x00, 0x00, 0x00, 0x02};
constexpr unsigned kBatch = 8;  // more than the 8 KiB TX FIFO holds (5 x 1518)
constexpr uint64_t kSlirpNs = 1'000;  // host time spent per frame in the back end

// Every transmitted frame is answered by a 60-byte "ACK" delivered from
// inside transmit(), `dt` ns later on the host's clock.
struct Acker {
  Acker(Nic& n, uint64_t dt) : nic(n) {
    nic.host.on_transmit = [this, dt](std::span<const uint8_t>) {
      nic.host.tick(dt);
      const Bytes ack = frame_to_us(60, static_cast<uint8_t>(acks_sent + 1));
      taken += nic.host.receive(ack) == ack.size() ? 1 : 0;
      acks_sent++;
    };
  }
  ~Acker() { nic.host.on_transmit = nullptr; }
  Nic& nic;
  unsigned acks_sent = 0, taken = 0;
};

std::vector<Bytes> queue_batch(Nic& nic, uint8_t seed) {
  std::vector<Bytes> frames;
  for (unsigned i = 0; i < kBatch; i++) {
    frames.push_back(frame_to(kDst, 1514, static_cast<uint8_t>(seed + i)));
    nic.drv.queue_frame(frames.back());
  }
  return frames;
}

// Trace lines are "<ns> <event> ...": their times must never decrease.
void expect_time_monotonic(const TestHost& h) {
  uint64_t last = 0;
  for (const std::string& line : h.trace) {
    const uint64_t t = std::strtoull(line.c_str(), nullptr, 10);
    ASSERT_GE(t, last) << "model time went backwards at: " << line << "\n" << h.trace_tail();
    last = t;
  }
}

TEST(ApiReentrancy, FunctionalDoorbellSendsEveryFrameWhileTransmitReenters) {
  Nic nic;  // functional mode
  ASSERT_UP(nic);
  Acker acker(nic, kSlirpNs);
  for (uint8_t round = 0; round < 3; round++) {
    const size_t before = nic.host.tx.size();
    const std::vector<Bytes> frames = queue_batch(nic, static_cast<uint8_t>(16 * round));
    nic.drv.kick();  // one register write; no timer is fired below
    ASSERT_EQ(nic.host.tx.size(), before + kBatch)
        << "frames left behind for the host timer\n" << nic.host.trace_tail();
    for (unsigned i = 0; i < kBatch; i++) {
      EXPECT_EQ(nic.host.tx[before + i].frame, frames[i]) << "ring order, frame " << i;
    }
    EXPECT_TRUE(nic.drv.tx_done()) << "every descriptor handed back within the doorbell";
    EXPECT_EQ(nic.drv.reclaim(), kBatch);
  }
  EXPECT_EQ(acker.taken, 3 * kBatch) << "every nested receive was accepted";
  EXPECT_EQ(nic.drv.rx_poll().size(), 3 * kBatch);
  EXPECT_EQ(nic.host.stats().tx_doorbells_ignored, 0u) << "engine idle at every doorbell";
  EXPECT_EQ(nic.host.stats().tx_frames, 3 * kBatch);
  expect_time_monotonic(nic.host);
}

TEST(ApiReentrancy, TransmitSeesTheFrameAlreadyCompleted) {
  // transmit() is called after the entry point's work: the frame's
  // descriptor is already handed back and TxOK latched when the host (and
  // anything it calls back into the device) sees the frame.
  Nic nic;
  ASSERT_UP(nic);
  const unsigned first = nic.drv.cur_tx();
  unsigned seen = 0, owned_at_transmit = 0, txok_missing = 0;
  nic.host.on_transmit = [&](std::span<const uint8_t>) {
    if (nic.drv.tx_opts1(first + seen) & kDescOwn) owned_at_transmit++;
    // A register read from inside transmit() is a legal re-entry now.
    if (!(nic.host.r16(kIntrStatus) & kTxOK)) txok_missing++;
    seen++;
  };
  queue_batch(nic, 40);
  nic.drv.kick();
  nic.host.on_transmit = nullptr;
  EXPECT_EQ(seen, kBatch);
  EXPECT_EQ(owned_at_transmit, 0u);
  EXPECT_EQ(txok_missing, 0u);
}

TEST(ApiReentrancy, TimedWireTimesDoNotDependOnAReenteringHost) {
  // Timing mode: a back end that answers at once (no host time passes)
  // changes nothing in when frames leave the wire.
  auto wire_times = [](bool reenter) {
    Nic nic(default_params(true));
    EXPECT_TRUE(nic.up());
    std::unique_ptr<Acker> acker;
    if (reenter) acker = std::make_unique<Acker>(nic, 0);
    const uint64_t t0 = nic.host.now();
    queue_batch(nic, 60);
    nic.drv.kick();
    EXPECT_TRUE(nic.drv.wait_tx());
    std::vector<uint64_t> times;
    for (const TxRecord& r : nic.host.tx) times.push_back(r.time - t0);
    if (acker) {
      EXPECT_EQ(acker->taken, kBatch);
    }
    expect_time_monotonic(nic.host);
    return times;
  };
  const std::vector<uint64_t> plain = wire_times(false), reentered = wire_times(true);
  ASSERT_EQ(plain.size(), kBatch);
  EXPECT_EQ(reentered, plain);
  for (size_t i = 1; i < plain.size(); i++) EXPECT_GT(plain[i], plain[i - 1]) << "timed wire";
}

}  // namespace
}  // namespace rtl8168_test
