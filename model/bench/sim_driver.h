// SPDX-License-Identifier: GPL-2.0-or-later
// A scripted r8169-like driver for the bench: the open sequence, a TX ring
// and an RX ring in fake guest memory, and the interrupt handler in its old
// (2007/2009) and fixed forms. It mirrors r8169_main.c closely enough that
// the device sees the same register traffic for the paths studied here.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "driver_regs.h"
#include "host.h"

namespace bench {

// The host library's host (model/hostlib/host.h): guest RAM, the clock, the
// device's timer and interrupt lines.
using rtl8168_host::Host;
using rtl8168_host::kNever;
using rtl8168_host::Port;
using rtl8168_host::Time;

struct DriverOptions {
  unsigned tx_mxdma = 7;      // TxConfig MXDMA (TX_DMA_BURST)
  bool txpoll_rekick = true;  // 2007 fix: ring NPQ again after reclaim while work remains
  bool irq_ack_loop = true;   // 2009 fix: ack and re-read IntrStatus until it reads 0
  Time irq_read_to_ack = 0;   // CPU time between reading IntrStatus and acking it
  uint16_t irq_mask = rtl8168_driver::kLinkChg | rtl8168_driver::kRxOverflow |
                      rtl8168_driver::kTxErr | rtl8168_driver::kTxOK | rtl8168_driver::kRxErr |
                      rtl8168_driver::kRxOK;
};

struct Frag {
  uint64_t addr;
  uint32_t len;
};

class SimDriver {
 public:
  static constexpr unsigned kRing = 256;
  static constexpr uint64_t kTxRing = 0x10000, kRxRing = 0x11000, kTally = 0x12000;
  static constexpr uint64_t kTxBuf = 0x100000, kTxBufSize = 0x10000;    // 64 KiB per TX slot
  static constexpr uint64_t kRxBuf = 0x1100000, kRxBufSize = 0x4000;    // 16 KiB per RX slot
  static constexpr size_t kMemBytes = 0x1600000;

  // The interrupt registers and the TX doorbell are where h's device's chip
  // has them (the chip list, rtl8168_chip_at).
  SimDriver(Host& h, DriverOptions o);

  // r8169 probe + open: reset, MAC/rings/config, enable, restart
  // autonegotiation and wait (in virtual time) for LinkChg. False if no link.
  bool open(Time link_timeout = 5'000'000'000ull);

  // ---- TX ----
  unsigned tx_free() const { return kRing - (cur_ - dirty_); }
  uint64_t tx_buffer(unsigned slot_offset) const {
    return kTxBuf + ((cur_ + slot_offset) % kRing) * kTxBufSize;
  }
  // Post one frame; Own is set on the first descriptor last (r8169 M 4342).
  void tx_post(std::span<const Frag> frags, uint32_t opts1_first, uint32_t opts2);
  // Copy `frame` into the next slot's buffer and post it as one descriptor
  // (no offloads; no doorbell).
  void tx_post_copy(std::span<const uint8_t> frame);
  void doorbell();  // TxPoll NPQ
  // Reclaim completed descriptors; returns frames completed. Applies the
  // 2007 re-kick when enabled.
  unsigned tx_reclaim();
  bool tx_pending() const { return cur_ != dirty_; }
  unsigned tx_in_flight() const { return cur_ - dirty_; }
  uint32_t tx_desc_opts1(unsigned ring_index) const;
  uint32_t tx_cur() const { return cur_; }
  uint32_t tx_dirty() const { return dirty_; }

  // ---- RX ----
  // Deliver completed RX frames to `sink` and re-arm their descriptors.
  unsigned rx_poll(const std::function<void(std::span<const uint8_t>)>& sink);

  // ---- interrupts ----
  // Service the interrupt (old or fixed handler): reads/acks IntrStatus,
  // reclaims TX and polls RX. Advances time by irq_read_to_ack.
  void handle_irq(const std::function<void(std::span<const uint8_t>)>& rx_sink);
  void set_irq_read_to_ack(Time t) { o_.irq_read_to_ack = t; }
  uint64_t irqs_handled = 0;

 private:
  Host& h_;
  DriverOptions o_;
  rtl8168_driver::ChipPorts ports_;
  uint32_t cur_ = 0, dirty_ = 0, rx_cur_ = 0;
  std::vector<uint8_t> frame_end_ = std::vector<uint8_t>(kRing, 0);  // LS per slot
};

}  // namespace bench
