// SPDX-License-Identifier: GPL-2.0-or-later
// The host-speed workloads: the model with timing on, kept busy in one
// direction by the scripted driver, one frame size. `rtl8168-bench speed`
// and the Google Benchmark cases (model/bench/gbench/) time the same loops;
// the host clock is read by them, never here or in the model.
//
//   TX  the driver keeps the ring full of `len`-byte frames (prebuilt in
//       every slot's buffer): each TxOK interrupt reclaims, refills and rings
//       the NPQ doorbell
//   RX  the peer sends back-to-back `len`-byte frames at the line rate of
//       the chip's link (preamble + FCS + IFG between them), waiting while
//       the FIFO is full (until the device's rx_ready); the driver re-arms
//       descriptors from its interrupt handler
//
// Each workload runs on one chip of kSpeedChips, at the speed its link comes
// up at with the bench's partner.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "commands.h"
#include "sim_driver.h"

namespace bench {

// A chip the speed workloads cover and its link speed: the fastest the
// chip's PHY and the bench's partner both advertise at power-on (the
// RTL8125B's integrated PHY resolves 2500BASE-T, docs/TIMING.md "The RTL8125B
// profile"; the 8168's 1000BASE-T).
struct SpeedChip {
  std::string_view id;  // the `chip` parameter
  uint32_t link_mbps;
};
inline constexpr SpeedChip kSpeedChips[] = {{"8168c", 1000}, {"8125b", 2500}};

// The row of the chip `params` name (chip=...; the 8168c when none).
// Throws std::invalid_argument for a chip kSpeedChips does not list.
const SpeedChip& speed_chip(const ParamList& params);

class SpeedLoop {
 public:
  enum class Dir { Tx, Rx };
  // Opens the device with `params` (on speed_chip(params)) and brings the
  // link up; throws std::runtime_error when the link stays down,
  // std::invalid_argument when the model refuses a parameter.
  SpeedLoop(Dir dir, uint32_t len, const ParamList& params);

  // Simulates until `frames` more frames went out on the wire (TX) or
  // reached the driver (RX).
  void run(uint64_t frames);

  Time now() const { return h_.now; }  // virtual time, ns
  rtl8168* dev() const { return h_.dev(); }
  uint64_t frames_done() const;  // since construction

 private:
  void run_tx(uint64_t frames);
  void run_rx(uint64_t frames);
  void refill();  // TX: post every free slot, one doorbell

  Dir dir_;
  uint32_t len_;
  uint32_t link_mbps_;
  Host h_;
  std::unique_ptr<SimDriver> drv_;
  std::vector<uint8_t> rx_frame_;
  uint64_t tx_base_ = 0;
  uint64_t rx_delivered_ = 0;
  Time rx_next_ = 0;             // when the wire offers the next frame
  Time rx_refused_at_ = kNever;  // the refused frame's offer, while it waits for rx_ready
  Time rx_room_at_ = kNever;     // when rx_ready came
};

}  // namespace bench
