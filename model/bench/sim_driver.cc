// SPDX-License-Identifier: GPL-2.0-or-later
#include "sim_driver.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <utility>

#include "bring_up.h"
#include "driver_regs.h"

namespace bench {

using namespace rtl8168_driver;

namespace {

// The bench host as the open sequence's bus (model/hostlib/bring_up.h).
class Bus final : public rtl8168_host::RegBus {
 public:
  Bus(Host& h, std::function<void()> rings) : h_(h), rings_(std::move(rings)) {}
  uint64_t read(uint32_t off, unsigned size) override {
    return rtl8168_reg_read(h_.dev(), h_.now, off, size);
  }
  void write(uint32_t off, uint64_t v, unsigned size) override {
    rtl8168_reg_write(h_.dev(), h_.now, off, v, size);
  }
  void poll_wait() override { h_.run_until(h_.now + 100'000); }  // 100 us per ChipCmd poll
  uint64_t now() const override { return h_.now; }
  void step_until(uint64_t t) override { h_.step_until(t); }
  void init_rings() override { rings_(); }
  void link_acked() override { h_.msi_pending = false; }

 private:
  Host& h_;
  std::function<void()> rings_;
};

// The ports of h's device's chip (the chip list names it as the device does).
rtl8168_driver::ChipPorts ports_of(const Host& h) {
  const char* name = rtl8168_chip_name(h.dev());
  for (size_t i = 0; i < rtl8168_chip_count(); i++) {
    rtl8168_chip_info c{};
    if (rtl8168_chip_at(i, &c) == 0 && std::strcmp(c.name, name) == 0) {
      return rtl8168_host::chip_ports(c);
    }
  }
  return {};
}

}  // namespace

SimDriver::SimDriver(Host& h, DriverOptions o) : h_(h), o_(o), ports_(ports_of(h)) {}

bool SimDriver::open(Time link_timeout) {
  // rtl_init_one / rtl_open order (docs/R8169.md §A): rtl8168_host::kBenchOrder.
  rtl8168_host::OpenSpec spec;
  spec.ports = ports_;
  spec.tx_ring = kTxRing;
  spec.rx_ring = kRxRing;
  // RxConfig: RX128_INT_EN | RX_MULTI_EN, MXDMA 7 (unlimited), AB | AM | APM.
  spec.rx_config = rtl8168_host::rx_config(kRx128IntEn | kRxMultiEn, 7,
                                           kAcceptBroadcast | kAcceptMulticast | kAcceptMyPhys);
  spec.tx_config = rtl8168_host::tx_config(o_.tx_mxdma);  // IFG 96 bit times, MXDMA
  spec.irq_mask = o_.irq_mask;
  spec.link_wait = rtl8168_host::LinkWait::LinkChg;
  spec.link_timeout_ns = link_timeout;
  Bus bus(h_, [this] {
    for (unsigned i = 0; i < kRing; i++) {
      const uint64_t d = kTxRing + i * 16;
      h_.ram.w32(d, i == kRing - 1 ? kEor : 0);
      const uint64_t r = kRxRing + i * 16;
      h_.ram.w32(r + 4, 0);
      h_.ram.w64(r + 8, kRxBuf + i * kRxBufSize);
      h_.ram.w32(r, kOwn | (i == kRing - 1 ? kEor : 0) | static_cast<uint32_t>(kRxBufSize - 1));
    }
  });
  return rtl8168_host::bring_up(bus, spec, rtl8168_host::kBenchOrder);
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
    h_.ram.w32(d + 4, opts2);
    h_.ram.w64(d + 8, frags[i].addr);
    h_.ram.w32(d, opts1);
    frame_end_[slot] = i + 1 == frags.size();
  }
  // Own on the first descriptor last (r8169 rtl8169_start_xmit).
  const uint64_t d0 = kTxRing + (first % kRing) * 16;
  h_.ram.w32(d0, h_.ram.r32(d0) | kOwn);
  cur_ += static_cast<uint32_t>(frags.size());
}

void SimDriver::tx_post_copy(std::span<const uint8_t> frame) {
  const uint64_t buf = tx_buffer(0);
  std::copy(frame.begin(), frame.end(), h_.ram.data() + buf);
  const Frag frag{buf, static_cast<uint32_t>(frame.size())};
  tx_post(std::span<const Frag>(&frag, 1), 0, 0);
}

void SimDriver::doorbell() {
  rtl8168_reg_write(h_.dev(), h_.now, ports_.doorbell, ports_.doorbell_bits[0],
                    ports_.doorbell_width);
}

uint32_t SimDriver::tx_desc_opts1(unsigned ring_index) const {
  return h_.ram.r32(kTxRing + (ring_index % kRing) * 16);
}

unsigned SimDriver::tx_reclaim() {
  unsigned frames = 0;
  while (dirty_ != cur_) {
    const unsigned slot = dirty_ % kRing;
    if (h_.ram.r32(kTxRing + slot * 16) & kOwn) break;
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
    const uint32_t opts1 = h_.ram.r32(r);
    if (opts1 & kOwn) break;
    const uint32_t len = (opts1 & kRxBufSizeMask) - 4;  // the driver drops the FCS
    if (sink) sink(std::span<const uint8_t>(h_.ram.data() + kRxBuf + slot * kRxBufSize, len));
    h_.ram.w32(r, kOwn | (opts1 & kEor) | static_cast<uint32_t>(kRxBufSize - 1));
    rx_cur_++;
    n++;
  }
  return n;
}

void SimDriver::handle_irq(const std::function<void(std::span<const uint8_t>)>& rx_sink) {
  irqs_handled++;
  h_.msi_pending = false;
  const uint32_t all_ones = ports_.intr_width == 4 ? 0xffffffffu : 0xffffu;  // the device is gone
  for (int round = 0; round < 64; round++) {
    const auto status = static_cast<uint32_t>(
        rtl8168_reg_read(h_.dev(), h_.now, ports_.intr_status, ports_.intr_width));
    if (status == 0 || status == all_ones) return;
    if (!(status & o_.irq_mask)) return;  // not ours (IRQ_NONE)
    // CPU time between the read and the ack: the window of docs/HISTORY.md §2.
    if (o_.irq_read_to_ack) h_.run_until(h_.now + o_.irq_read_to_ack);
    // Ack exactly what was read.
    rtl8168_reg_write(h_.dev(), h_.now, ports_.intr_status, status, ports_.intr_width);
    if (status & (kTxOK | kTxErr)) tx_reclaim();
    if (status & (kRxOK | kRxErr | kRxOverflow)) rx_poll(rx_sink);
    if (!o_.irq_ack_loop) return;         // old handler: no re-read
  }
}

}  // namespace bench
