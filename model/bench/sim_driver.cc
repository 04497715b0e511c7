// SPDX-License-Identifier: GPL-2.0-or-later
#include "sim_driver.h"

#include <algorithm>

#include "driver_regs.h"

namespace bench {

using namespace rtl8168_driver;

bool SimDriver::open(Time link_timeout) {
  // rtl_init_one / rtl_open order (docs/R8169.md §A).
  h_.w16(kIntrMask, 0);
  h_.w16(kIntrStatus, 0xffff);
  h_.w8(kChipCmd, kCmdReset);  // reset, poll until it self-clears
  for (int i = 0; i < 100 && (h_.r8(kChipCmd) & kCmdReset); i++) h_.run_until(h_.now() + 100'000);
  h_.w8(kCfg9346, kCfg9346Unlock);
  h_.w16(kCPlusCmd, kRxVlan | kRxChkSum);
  h_.w16(kIntrMitigate, 0);
  h_.w16(kRxMaxSize, 0x4000);
  h_.w32(kTxDescHigh, static_cast<uint32_t>(kTxRing >> 32));
  h_.w32(kTxDescLow, static_cast<uint32_t>(kTxRing));
  h_.w32(kRxDescHigh, static_cast<uint32_t>(kRxRing >> 32));
  h_.w32(kRxDescLow, static_cast<uint32_t>(kRxRing));
  h_.w8(kCfg9346, kCfg9346Lock);
  for (unsigned i = 0; i < kRing; i++) {
    const uint64_t d = kTxRing + i * 16;
    h_.set_mem32(d, i == kRing - 1 ? kEor : 0);
    const uint64_t r = kRxRing + i * 16;
    h_.set_mem32(r + 4, 0);
    h_.set_mem64(r + 8, kRxBuf + i * kRxBufSize);
    h_.set_mem32(r, kOwn | (i == kRing - 1 ? kEor : 0) | static_cast<uint32_t>(kRxBufSize - 1));
  }
  h_.w8(kChipCmd, kCmdTxEnb | kCmdRxEnb);
  // RxConfig: 0xc7 in bits 15:8 (MXDMA 7 in 10:8), AB | AM | APM.
  h_.w32(kRxConfig, 0xc700 | kAcceptBroadcast | kAcceptMulticast | kAcceptMyPhys);
  h_.w32(kTxConfig, 0x03000000u | (o_.tx_mxdma & 7) << 8);  // IFG 96 bit times, MXDMA
  h_.w32(kMAR4, 0xffffffff);  // all multicast
  h_.w32(kMAR0, 0xffffffff);
  h_.w16(kIntrMask, o_.irq_mask);
  // phy_start: BMCR |= ANENABLE | ANRESTART through PHYAR (write flag, MII
  // register 0), then wait for LinkChg.
  h_.w32(kPHYAR, 0x80000000u | 0u << 16 | 0x1340);
  const Time until = h_.now() + link_timeout;
  while (h_.now() < until) {
    h_.step_until(until);
    if (h_.r16(kIntrStatus) & kLinkChg) {
      h_.w16(kIntrStatus, kLinkChg);
      h_.msi_pending = false;
      return (h_.r8(kPHYstatus) & kLinkStatus) != 0;
    }
  }
  return false;
}

void SimDriver::tx_post(std::span<const Frag> frags, uint32_t opts1_first, uint32_t opts2) {
  const uint32_t first = cur_;
  for (size_t i = 0; i < frags.size(); i++) {
    const unsigned slot = (cur_ + static_cast<uint32_t>(i)) % kRing;
    const uint64_t d = kTxRing + slot * 16;
    uint32_t opts1 = frags[i].len | (slot == kRing - 1 ? kEor : 0);
    if (i == 0) opts1 |= kFs | opts1_first;
    if (i + 1 == frags.size()) opts1 |= kLs;
    if (i != 0) opts1 |= kOwn;
    h_.set_mem32(d + 4, opts2);
    h_.set_mem64(d + 8, frags[i].addr);
    h_.set_mem32(d, opts1);
    frame_end_[slot] = i + 1 == frags.size();
  }
  // Own on the first descriptor last (r8169 rtl8169_start_xmit).
  const uint64_t d0 = kTxRing + (first % kRing) * 16;
  h_.set_mem32(d0, h_.mem32(d0) | kOwn);
  cur_ += static_cast<uint32_t>(frags.size());
}

void SimDriver::tx_post_copy(std::span<const uint8_t> frame) {
  const uint64_t buf = tx_buffer(0);
  std::copy(frame.begin(), frame.end(), h_.mem(buf));
  const Frag frag{buf, static_cast<uint32_t>(frame.size())};
  tx_post(std::span<const Frag>(&frag, 1), 0, 0);
}

void SimDriver::doorbell() { h_.w8(kTxPoll, kNPQ); }

uint32_t SimDriver::tx_desc_opts1(unsigned ring_index) const {
  return h_.mem32(kTxRing + (ring_index % kRing) * 16);
}

unsigned SimDriver::tx_reclaim() {
  unsigned frames = 0;
  while (dirty_ != cur_) {
    const unsigned slot = dirty_ % kRing;
    if (h_.mem32(kTxRing + slot * 16) & kOwn) break;
    frames += frame_end_[slot];
    dirty_++;
  }
  // "8168 hack: TxPoll requests are lost when the Tx packets are too close."
  if (o_.txpoll_rekick && frames && cur_ != dirty_) doorbell();
  return frames;
}

unsigned SimDriver::rx_poll(const std::function<void(std::span<const uint8_t>)>& sink) {
  unsigned n = 0;
  for (unsigned i = 0; i < kRing; i++) {
    const unsigned slot = rx_cur_ % kRing;
    const uint64_t r = kRxRing + slot * 16;
    const uint32_t opts1 = h_.mem32(r);
    if (opts1 & kOwn) break;
    const uint32_t len = (opts1 & kRxBufSizeMask) - 4;  // the driver drops the FCS
    if (sink) sink(std::span<const uint8_t>(h_.mem(kRxBuf + slot * kRxBufSize), len));
    h_.set_mem32(r, kOwn | (opts1 & kEor) | static_cast<uint32_t>(kRxBufSize - 1));
    rx_cur_++;
    n++;
  }
  return n;
}

void SimDriver::handle_irq(const std::function<void(std::span<const uint8_t>)>& rx_sink) {
  irqs_handled++;
  h_.msi_pending = false;
  for (int round = 0; round < 64; round++) {
    const uint16_t status = h_.r16(kIntrStatus);
    if (status == 0 || status == 0xffff) return;
    if (!(status & o_.irq_mask)) return;  // not ours (IRQ_NONE)
    // CPU time between the read and the ack: the window of docs/HISTORY.md §2.
    if (o_.irq_read_to_ack) h_.run_until(h_.now() + o_.irq_read_to_ack);
    h_.w16(kIntrStatus, status);  // ack exactly what was read
    if (status & (kTxOK | kTxErr)) tx_reclaim();
    if (status & (kRxOK | kRxErr | kRxOverflow)) rx_poll(rx_sink);
    if (!o_.irq_ack_loop) return;         // old handler: no re-read
  }
}

}  // namespace bench
