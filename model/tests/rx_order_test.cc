// SPDX-License-Identifier: GPL-2.0-or-later
// The RX-order gate (rtl8168/rx_order.h) against a small model of QEMU's net
// layer as of 10.0 (net/queue.c qemu_net_queue_send/_flush, net/net.c
// qemu_can_send_packet/qemu_deliver_packet_iov/qemu_flush_queued_packets,
// net/hub.c): the NIC's own incoming queue, a hub port's queue in front of
// it, receive_disabled after a refusal, and a device whose readiness changes
// with (virtual) time. Frames are sequence numbers; a NIC must deliver them
// in the order they were sent.
#include <rtl8168/rx_order.h>

#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <vector>

namespace {

class FakeNet {
 public:
  // gate == false: the shim before the gate existed (can_receive asks the
  // model, rx_ready flushes at once), to show the checks can fail.
  FakeNet(unsigned fifo_cap, bool gate) : cap_(fifo_cap), room_(fifo_cap), use_gate_(gate) {
    const rtl8168_rx_order_ops ops = {this, &FakeNet::ready_cb, &FakeNet::flush_cb};
    o_ = rtl8168_rx_order_new(&ops);
  }
  ~FakeNet() { rtl8168_rx_order_free(o_); }
  FakeNet(const FakeNet&) = delete;
  FakeNet& operator=(const FakeNet&) = delete;

  // A frame from another NIC behind a hub (net_hub_port_can_receive asks us
  // first; a "no" leaves it in the hub port's queue).
  void hub_send(int f) {
    if (!can_send()) {
      hub_q_.push_back(f);
      return;
    }
    queue_send(f);
  }
  // A frame from a backend that is our direct peer (-netdev socket, user).
  void direct_send(int f) { queue_send(f); }

  // A model call from a QEMU callback (timer, register access): the FIFO
  // drains `n` frames; the model signals rx_ready when room appears.
  void model_call(unsigned n) {
    begin();
    const bool was_full = room_ == 0;
    room_ = std::min(cap_, room_ + n);
    if (was_full && room_ > 0) rx_ready();
    end();
  }

  const std::vector<int>& delivered() const { return delivered_; }
  size_t queued() const { return hub_q_.size() + nic_q_.size(); }
  rtl8168_rx_order* gate() { return o_; }
  unsigned flushes = 0;

 private:
  static bool ready_cb(void* p) { return static_cast<FakeNet*>(p)->room_ > 0; }
  static void flush_cb(void* p) { static_cast<FakeNet*>(p)->flush(); }

  void begin() {
    if (use_gate_) rtl8168_rx_order_begin(o_);
  }
  void end() {
    if (use_gate_) {
      rtl8168_rx_order_end(o_);
    } else if (flush_now_) {
      flush_now_ = false;
      flush();
    }
  }
  void rx_ready() {
    if (use_gate_) {
      rtl8168_rx_order_rx_ready(o_);
    } else {
      flush_now_ = true;
    }
  }

  // NetClientInfo callbacks of the NIC
  bool nc_can_receive() { return use_gate_ ? rtl8168_rx_order_can_receive(o_) : room_ > 0; }
  size_t nc_receive(int f) {
    begin();
    size_t taken = 0;
    if (room_ > 0) {
      room_--;
      delivered_.push_back(f);
      taken = 1;
    }
    if (use_gate_) {
      rtl8168_rx_order_end_receive(o_, taken);
    }
    return taken;
  }

  // net/net.c
  bool can_send() { return !receive_disabled_ && nc_can_receive(); }
  size_t deliver(int f) {
    if (receive_disabled_) return 0;
    const size_t r = nc_receive(f);
    if (r == 0) receive_disabled_ = true;
    return r;
  }
  // net/queue.c qemu_net_queue_send into our incoming queue
  void queue_send(int f) {
    if (!can_send()) {
      nic_q_.push_back(f);
      return;
    }
    if (deliver(f) == 0) {
      nic_q_.push_back(f);
      return;
    }
    flush_nic_queue();
  }
  void flush_nic_queue() {
    while (!nic_q_.empty()) {
      const int f = nic_q_.front();
      nic_q_.pop_front();
      if (deliver(f) == 0) {
        nic_q_.push_front(f);
        return;
      }
    }
  }
  // qemu_flush_queued_packets(): the hub's queues first, then our own.
  void flush() {
    flushes++;
    receive_disabled_ = false;
    while (!hub_q_.empty()) {  // net_hub_flush: the hub port always takes it
      const int f = hub_q_.front();
      hub_q_.pop_front();
      queue_send(f);
    }
    flush_nic_queue();
  }

  unsigned cap_, room_;
  bool use_gate_;
  bool flush_now_ = false;
  bool receive_disabled_ = false;
  std::deque<int> hub_q_, nic_q_;
  std::vector<int> delivered_;
  rtl8168_rx_order* o_;
};

// Random traffic through a hub and directly, a FIFO that fills and drains;
// returns how many frames were delivered out of order.
unsigned run_traffic(bool gate, uint32_t seed, unsigned frames, bool via_hub) {
  FakeNet net(4, gate);
  std::mt19937 rng(seed);
  int next = 0;
  while (next < static_cast<int>(frames)) {
    switch (rng() % 4) {
      case 0:
      case 1:
        if (via_hub) {
          net.hub_send(next++);
        } else {
          net.direct_send(next++);
        }
        break;
      case 2: net.model_call(static_cast<unsigned>(rng() % 3)); break;
      default: net.model_call(0); break;  // a register access
    }
  }
  for (int i = 0; i < 10000 && net.queued(); i++) net.model_call(4);
  EXPECT_EQ(net.queued(), 0u);
  EXPECT_EQ(net.delivered().size(), frames);
  unsigned out_of_order = 0;
  for (size_t i = 1; i < net.delivered().size(); i++) {
    if (net.delivered()[i] < net.delivered()[i - 1]) out_of_order++;
  }
  return out_of_order;
}

TEST(RxOrder, HubTrafficKeepsOrder) {
  for (uint32_t seed = 1; seed <= 200; seed++) {
    EXPECT_EQ(run_traffic(true, seed, 300, true), 0u) << "seed " << seed;
  }
}

TEST(RxOrder, DirectTrafficKeepsOrder) {
  for (uint32_t seed = 1; seed <= 200; seed++) {
    EXPECT_EQ(run_traffic(true, seed, 300, false), 0u) << "seed " << seed;
  }
}

// The same traffic without the gate reorders: the checks above can fail.
TEST(RxOrder, WithoutTheGateFramesOvertake) {
  unsigned total = 0;
  for (uint32_t seed = 1; seed <= 50; seed++) total += run_traffic(false, seed, 300, true);
  EXPECT_GT(total, 0u);
}

struct Counting {
  bool ready = true;
  unsigned flushes = 0;
  rtl8168_rx_order* o = nullptr;
  bool refuse_in_flush = false;  // a frame offered (and refused) during every flush
};

rtl8168_rx_order* counting_gate(Counting& c) {
  const rtl8168_rx_order_ops ops = {
      &c, [](void* p) { return static_cast<Counting*>(p)->ready; },
      [](void* p) {
        auto* c2 = static_cast<Counting*>(p);
        c2->flushes++;
        if (c2->refuse_in_flush) {
          EXPECT_FALSE(rtl8168_rx_order_can_receive(c2->o));
        }
      }};
  c.o = rtl8168_rx_order_new(&ops);
  return c.o;
}

TEST(RxOrder, RxReadyDrainsOnceWhenTheOutermostCallEnds) {
  Counting c;
  rtl8168_rx_order* o = counting_gate(c);
  rtl8168_rx_order_begin(o);
  rtl8168_rx_order_begin(o);
  rtl8168_rx_order_rx_ready(o);
  rtl8168_rx_order_end(o);
  EXPECT_EQ(c.flushes, 0u);  // still inside the outer call
  EXPECT_TRUE(rtl8168_rx_order_flush_pending(o));
  rtl8168_rx_order_end(o);
  EXPECT_EQ(c.flushes, 1u);
  EXPECT_FALSE(rtl8168_rx_order_flush_pending(o));
  EXPECT_EQ(rtl8168_rx_order_depth(o), 0u);
  rtl8168_rx_order_free(o);
}

TEST(RxOrder, RefusalMarksABacklogThatTheNextOfferDrains) {
  Counting c;
  rtl8168_rx_order* o = counting_gate(c);
  EXPECT_TRUE(rtl8168_rx_order_can_receive(o));
  EXPECT_EQ(c.flushes, 0u);
  rtl8168_rx_order_begin(o);
  rtl8168_rx_order_end_receive(o, 0);  // receive() refused a frame
  EXPECT_TRUE(rtl8168_rx_order_backlog(o));
  EXPECT_EQ(c.flushes, 0u);            // a receive never drains
  EXPECT_TRUE(rtl8168_rx_order_can_receive(o));  // drains first, then yes
  EXPECT_EQ(c.flushes, 1u);
  EXPECT_FALSE(rtl8168_rx_order_backlog(o));
  rtl8168_rx_order_free(o);
}

TEST(RxOrder, NotReadyKeepsTheBacklogWithoutFlushing) {
  Counting c;
  c.ready = false;
  rtl8168_rx_order* o = counting_gate(c);
  EXPECT_FALSE(rtl8168_rx_order_can_receive(o));
  EXPECT_TRUE(rtl8168_rx_order_backlog(o));
  EXPECT_FALSE(rtl8168_rx_order_can_receive(o));
  EXPECT_EQ(c.flushes, 0u);
  c.ready = true;
  EXPECT_TRUE(rtl8168_rx_order_can_receive(o));
  EXPECT_EQ(c.flushes, 1u);
  rtl8168_rx_order_free(o);
}

TEST(RxOrder, OfferDuringACallIsRefusedAndDrainedAfter) {
  Counting c;
  rtl8168_rx_order* o = counting_gate(c);
  rtl8168_rx_order_begin(o);
  EXPECT_FALSE(rtl8168_rx_order_can_receive(o));
  EXPECT_EQ(c.flushes, 0u);
  rtl8168_rx_order_end(o);
  EXPECT_EQ(c.flushes, 1u);
  EXPECT_FALSE(rtl8168_rx_order_backlog(o));
  rtl8168_rx_order_free(o);
}

// A host that refuses during every flush cannot keep a drain looping: four
// rounds, then the drain is retried after the next call.
TEST(RxOrder, DrainIsBoundedAndRetriedLater) {
  Counting c;
  c.refuse_in_flush = true;
  rtl8168_rx_order* o = counting_gate(c);
  rtl8168_rx_order_begin(o);
  rtl8168_rx_order_rx_ready(o);
  rtl8168_rx_order_end(o);
  EXPECT_EQ(c.flushes, 4u);
  EXPECT_TRUE(rtl8168_rx_order_flush_pending(o));
  rtl8168_rx_order_begin(o);
  rtl8168_rx_order_end(o);
  EXPECT_EQ(c.flushes, 8u);
  rtl8168_rx_order_free(o);
}

}  // namespace
