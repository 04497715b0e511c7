// SPDX-License-Identifier: GPL-2.0-or-later
#include "speed_loop.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "device.h"
#include "frames.h"

namespace bench {

const SpeedChip& speed_chip(const ParamList& params) {
  std::string_view id = kSpeedChips[0].id;
  for (const auto& [name, value] : params) {
    if (name == "chip") id = value;
  }
  std::string known;
  for (const SpeedChip& c : kSpeedChips) {
    if (c.id == id) return c;
    known += known.empty() ? "" : ", ";
    known += c.id;
  }
  throw std::invalid_argument("the speed workloads cover the chips " + known + ", not '" +
                              std::string(id) + "'");
}

SpeedLoop::SpeedLoop(Dir dir, uint32_t len, const ParamList& params)
    : dir_(dir), len_(len), link_mbps_(speed_chip(params).link_mbps), h_(SimDriver::kMemBytes) {
  if (dir_ == Dir::Rx) h_.hooks.on_rx_ready = [this](Port&) { rx_room_at_ = h_.now; };
  open_device(h_, params);
  drv_ = std::make_unique<SimDriver>(h_, DriverOptions{});
  if (!drv_->open()) throw std::runtime_error("link did not come up");
  if (dir_ == Dir::Tx) {
    for (unsigned i = 0; i < SimDriver::kRing; i++) {
      const std::vector<uint8_t> f = tcp_frame(kPeerMac, kNicMac, len_, i);
      std::copy(f.begin(), f.end(), h_.ram.data() + SimDriver::kTxBuf + i * SimDriver::kTxBufSize);
    }
    tx_base_ = h_.tx_frames;
  } else {
    rx_frame_ = tcp_frame(kNicMac, kPeerMac, len_, 1);
    rx_next_ = h_.now;
  }
}

uint64_t SpeedLoop::frames_done() const {
  return dir_ == Dir::Tx ? h_.tx_frames - tx_base_ : rx_delivered_;
}

void SpeedLoop::run(uint64_t frames) {
  if (dir_ == Dir::Tx) {
    run_tx(frames);
  } else {
    run_rx(frames);
  }
}

void SpeedLoop::refill() {
  bool posted = false;
  while (drv_->tx_free() >= 1) {
    const Frag frag{drv_->tx_buffer(0), len_};
    drv_->tx_post(std::span<const Frag>(&frag, 1), 0, 0);
    posted = true;
  }
  if (posted) drv_->doorbell();
}

void SpeedLoop::run_tx(uint64_t frames) {
  const uint64_t goal = h_.tx_frames + frames;
  refill();
  while (h_.tx_frames < goal) {
    h_.step_until(kNever - 1);
    if (h_.msi_pending) {
      drv_->handle_irq(nullptr);
      refill();
    }
  }
}

// The wire never pauses between calls: frames already on it are delivered
// in the next call. A refused frame waits as QEMU's net queue does, for the
// device's rx_ready (no receive call while the FIFO is full), and then enters
// at the first point of the retry grid (every quarter gap from the refusal)
// at or after the room appeared: the times a host retrying every quarter gap
// would have hit, so the frames enter the device at the same virtual times
// (a refused receive changes nothing in the device but its wait flag, which
// the first refusal set already).
void SpeedLoop::run_rx(uint64_t frames) {
  // ns per frame on the link, rounded up as the model's wire is (timing.h wire_time).
  const Time gap = ((static_cast<Time>(len_) + 24) * 8 * 1000 + link_mbps_ - 1) / link_mbps_;
  const Time retry = std::max<Time>(gap / 4, 1);
  const uint64_t goal = rx_delivered_ + frames;
  auto count = [this](std::span<const uint8_t>) { rx_delivered_++; };
  while (rx_delivered_ < goal) {
    h_.step_until(rx_next_);
    if (rx_refused_at_ != kNever && rx_room_at_ != kNever) {
      rx_next_ = rx_refused_at_ + (rx_room_at_ - rx_refused_at_ + retry - 1) / retry * retry;
      rx_refused_at_ = rx_room_at_ = kNever;
    }
    if (h_.now >= rx_next_) {
      if (rtl8168_receive(h_.dev(), h_.now, rx_frame_.data(), rx_frame_.size()) != 0) {
        rx_next_ = h_.now + gap;
      } else {
        rx_refused_at_ = h_.now;  // FIFO full: the wire waits (back-pressure) for rx_ready
        rx_room_at_ = kNever;
        rx_next_ = kNever - 1;
      }
    }
    if (h_.msi_pending) drv_->handle_irq(count);
  }
}

}  // namespace bench
