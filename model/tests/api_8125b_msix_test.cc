// SPDX-License-Identifier: GPL-2.0-or-later
// The RTL8125B's multi-queue interrupts and RSS descriptors as Realtek's
// r8125 uses them (model/src/irq_queues.h, model/src/rx_desc_v3.h,
// docs/R8125.md "ISR v2 and per-queue vectors"): four RX queues with RSS
// and ISR v2, each queue's frames raising that queue's MSI-X message, the
// TX queues' and the link's messages, ISR_V2's write-1-to-clear, masking
// through IMR_V2_SET/CLEAR, ISR1-ISR3 of ISR v1, the RSS hash in the
// 32-byte RxDescV3 against the Microsoft verification suite, r8169's ISR v1
// use unchanged, and hostile writes, MSI off mid-flight and the blob.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include <algorithm>
#include <string>
#include <vector>

#include "harness/nic.h"
#include "harness/rss_queues.h"

namespace rtl8168_test {
namespace {

constexpr uint32_t kRxQueueBits = 0xf;  // ISR_V2 bits 0-3: RX queues 0-3

// The queue RSS picks for a suite vector under default_table() and the
// 4-tuple types: table[hash & 127] = hash % 4.
unsigned queue_of(uint32_t hash) { return hash % 4; }

// Bring the chip up as r8169 does, then switch it to r8125's multi-queue
// mode: rings for queues 1-3, RSS, ISR v2 with the RX queues' messages
// unmasked (IntrMask left 0, as r8125 leaves IMR0 in ISR v2).
void multi_queue_v2(Nic& nic, uint32_t unmask = kRxQueueBits) {
  arm_queues(nic);
  program_rss(nic, default_table());
  nic.drv.irq_mask_write(0);
  nic.host.w8(kIntCfg0_8125, kIntCfg0Enable8125);
  nic.host.w32(kImrV2Set8125, unmask);
}

struct Sent {
  Bytes frame;
  uint32_t hash;
  bool v6;
};
std::vector<Sent> suite_frames() {
  std::vector<Sent> s;
  for (const V4Vector& v : kV4) s.push_back({v4_frame(v), v.ip_tcp, false});
  for (const V6Vector& v : kV6) s.push_back({v6_frame(v), v.ip_tcp, true});
  return s;
}

TEST(Msix8125b, EachQueuesFramesRaiseThatQueuesVector) {
  for (const bool timing : {true, false}) {
    SCOPED_TRACE(timing ? "timing" : "functional");
    Nic nic(chip_8125b(timing), driver_8125b());
    ASSERT_UP(nic);
    multi_queue_v2(nic);
    std::vector<bool> seen(4, false);
    for (const Sent& f : suite_frames()) {
      const unsigned q = queue_of(f.hash);
      seen[q] = true;
      const size_t before = nic.host.msi_vectors.size();
      ASSERT_GT(nic.host.receive(f.frame), 0u);
      nic.host.advance(1'000'000);
      // One message, the queue's own (rtl8125_interrupt_msix: message_id q).
      ASSERT_EQ(nic.host.msi_vectors.size(), before + 1);
      EXPECT_EQ(nic.host.msi_vectors.back(), q);
      EXPECT_EQ(nic.host.r32(kIsrV2_8125), kIsrV2RxQ0 << q);
      // Queue 0's RxOK is ISR_V2 bit 0 here, not IntrStatus RxOK.
      EXPECT_EQ(nic.drv.irq_status_read() & kRxOK, 0u);
      // rtl8125_clear_hw_isr_v2: write 1 to clear.
      nic.host.w32(kIsrV2_8125, kIsrV2RxQ0 << q);
      EXPECT_EQ(nic.host.r32(kIsrV2_8125), 0u);
    }
    EXPECT_EQ(nic.host.stats().rx_frames, 8u);
    EXPECT_GE(std::count(seen.begin(), seen.end(), true), 2);  // else the test shows nothing
  }
}

// r8125's handler masks its message (IMR_V2_CLEAR), acks it, polls and
// unmasks it (IMR_V2_SET): an event while masked stays in ISR_V2 and is
// sent when the message is unmasked; a second event while the bit is still
// pending sends nothing (one message per 0->1 edge).
TEST(Msix8125b, MaskingThroughImrV2HoldsTheMessageUntilUnmasked) {
  Nic nic(chip_8125b(true), driver_8125b());
  ASSERT_UP(nic);
  multi_queue_v2(nic);
  const Sent f = suite_frames()[0];
  const unsigned q = queue_of(f.hash);
  nic.host.w32(kImrV2Clear8125, kIsrV2RxQ0 << q);
  EXPECT_EQ(nic.host.r32(kImrV2Set8125), kRxQueueBits & ~(kIsrV2RxQ0 << q));
  EXPECT_EQ(nic.host.r32(kImrV2Clear8125), kRxQueueBits & ~(kIsrV2RxQ0 << q));
  const size_t before = nic.host.msi_vectors.size();
  nic.host.receive(f.frame);
  nic.host.advance(1'000'000);
  EXPECT_EQ(nic.host.msi_vectors.size(), before);
  EXPECT_EQ(nic.host.r32(kIsrV2_8125), kIsrV2RxQ0 << q);
  nic.host.w32(kImrV2Set8125, kIsrV2RxQ0 << q);
  ASSERT_EQ(nic.host.msi_vectors.size(), before + 1);
  EXPECT_EQ(nic.host.msi_vectors.back(), q);
  // Still pending: the same queue's next frame sends nothing.
  nic.host.receive(f.frame);
  nic.host.advance(1'000'000);
  EXPECT_EQ(nic.host.msi_vectors.size(), before + 1);
  // Acked, then the next one does.
  nic.host.w32(kIsrV2_8125, kIsrV2RxQ0 << q);
  nic.host.receive(f.frame);
  nic.host.advance(1'000'000);
  ASSERT_EQ(nic.host.msi_vectors.size(), before + 2);
  EXPECT_EQ(nic.host.msi_vectors.back(), q);
}

// TX queue 0 is message 16, TX queue 1 message 18
// (rtl8125_tx_interrupt_with_vector), the link change message 21.
TEST(Msix8125b, TxQueuesAndTheLinkHaveTheirOwnVectors) {
  Nic nic(chip_8125b(true), driver_8125b());
  ASSERT_UP(nic);
  multi_queue_v2(nic, kIsrV2TxQ0 | kIsrV2TxQ1 | kIsrV2LinkChg);
  const Bytes frame = frame_to(kRssPeer, 200);
  nic.drv.xmit(frame);
  ASSERT_TRUE(nic.drv.wait_tx());
  ASSERT_FALSE(nic.host.msi_vectors.empty());
  EXPECT_EQ(nic.host.msi_vectors.back(), 16u);
  EXPECT_EQ(nic.host.r32(kIsrV2_8125), kIsrV2TxQ0);
  nic.host.w32(kIsrV2_8125, kIsrV2TxQ0);
  // TX queue 1's ring at TNPDS_Q1 (r8125 rtl8125_init_tx_ring), doorbell bit 1.
  nic.host.w32(kTnpdsQ1Low8125 + 4, 0);
  nic.host.w32(kTnpdsQ1Low8125, static_cast<uint32_t>(Driver::kTxHRing));
  nic.drv.queue_frame(frame, 0, 0, Queue::kHigh);
  nic.drv.kick(Queue::kHigh);
  ASSERT_TRUE(nic.drv.wait_tx(100'000'000, Queue::kHigh));
  EXPECT_EQ(nic.host.msi_vectors.back(), 18u);
  EXPECT_EQ(nic.host.r32(kIsrV2_8125), kIsrV2TxQ1);
  nic.host.w32(kIsrV2_8125, kIsrV2TxQ1);
  const size_t before = nic.host.msi_vectors.size();
  nic.host.set_link(false);
  nic.host.advance(1'000'000);
  ASSERT_EQ(nic.host.msi_vectors.size(), before + 1);
  EXPECT_EQ(nic.host.msi_vectors.back(), 21u);
  EXPECT_EQ(nic.host.r32(kIsrV2_8125), kIsrV2LinkChg);
  EXPECT_EQ(nic.drv.irq_status_read() & kLinkChg, 0u);
}

// ISR v1 with several queues: queue q > 0 reports RxOK1 in ISRq (masked by
// IMRq), queue 0 RxOK in IntrStatus; every message is vector 0, one per
// edge of INT, which ISR1-ISR3 count in.
TEST(Msix8125b, IsrV1QueuesReportInIsr1ToIsr3OnVector0) {
  Nic nic(chip_8125b(true), driver_8125b());
  ASSERT_UP(nic);
  arm_queues(nic);
  program_rss(nic, default_table());
  for (unsigned q = 1; q < 4; q++) nic.host.w16(kImr1_8125 + 4 * (q - 1), kRxOK1 | kRxDU1);
  nic.drv.irq_status_write(0xffffffff);
  unsigned on_other_queues = 0;
  for (const Sent& f : suite_frames()) {
    const unsigned q = queue_of(f.hash);
    const size_t before = nic.host.msi_vectors.size();
    nic.host.receive(f.frame);
    nic.host.advance(1'000'000);
    ASSERT_EQ(nic.host.msi_vectors.size(), before + 1);
    EXPECT_EQ(nic.host.msi_vectors.back(), 0u);
    if (q == 0) {
      EXPECT_NE(nic.drv.irq_status_read() & kRxOK, 0u);
      nic.drv.irq_status_write(nic.drv.irq_status_read());
      continue;
    }
    on_other_queues++;
    const uint32_t isr = kIsr1_8125 + 4 * (q - 1);
    EXPECT_EQ(nic.host.r16(isr), kRxOK1);
    EXPECT_EQ(nic.drv.irq_status_read() & kRxOK, 0u);
    nic.host.w16(isr, kRxOK1);
    EXPECT_EQ(nic.host.r16(isr), 0u);
  }
  EXPECT_GT(on_other_queues, 0u);
  EXPECT_EQ(nic.host.r32(kIsrV2_8125), 0u);
  // A queue without an owned descriptor: RxDU1 in its ISR.
  Sent f;
  for (const Sent& s : suite_frames()) {
    if (queue_of(s.hash) != 0) f = s;
  }
  const unsigned q = queue_of(f.hash);
  ASSERT_NE(q, 0u);
  for (unsigned s = 0; s < kQueueSlots; s++) nic.host.mem().w32(q_desc(q, s), 0);
  // (The first frame may still take the descriptor the chip read ahead.)
  const uint64_t no_desc = nic.host.stats().rx_dropped_no_desc;
  nic.host.receive(f.frame);
  nic.host.advance(1'000'000);
  nic.host.receive(f.frame);
  nic.host.advance(1'000'000);
  EXPECT_GT(nic.host.stats().rx_dropped_no_desc, no_desc);
  EXPECT_NE(nic.host.r16(kIsr1_8125 + 4 * (q - 1)) & kRxDU1, 0u);
}

// RxConfig bit 24: every RX ring holds 32-byte RxDescV3 (queue 0's too);
// the chip writes the Toeplitz hash (RSSResult, byte 8) and its type
// (HeaderInfo, byte 14) where r8125's rtl8125_rx_hash reads them, and
// opts1/opts2 at bytes 28/24 with FirstFrag/LastFrag at bits 25/24.
TEST(Msix8125b, RxDescV3CarriesTheToeplitzHashOfTheFrame) {
  for (const bool timing : {true, false}) {
    SCOPED_TRACE(timing ? "timing" : "functional");
    Nic nic(chip_8125b(timing), driver_8125b());
    ASSERT_UP(nic);
    // Four V3 rings of kQueueSlots descriptors, queue q's at ring(q).
    const auto ring = [](unsigned q) { return Driver::kScratch + 0x10000 + q * 0x400; };
    const auto buf = [](unsigned q, unsigned s) { return Driver::kScratch + 0x20000 + (q * 8 + s) * 0x800; };
    for (unsigned q = 0; q < 4; q++) {
      for (unsigned s = 0; s < kQueueSlots; s++) {
        const uint64_t d = ring(q) + 32 * s;
        nic.host.mem().fill(d, 32, 0xee);  // the chip overwrites what it reports
        nic.host.mem().w64(d + 16, buf(q, s));
        nic.host.mem().w32(d + 24, 0);
        nic.host.mem().w32(d + 28, kDescOwn | (s == kQueueSlots - 1 ? kRingEnd : 0) | 0x800);
      }
      const uint32_t lo = q == 0 ? kRxDescAddrLow : kRdsarQ1 + 8 * (q - 1);
      const uint32_t hi = q == 0 ? kRxDescAddrHigh : lo + 4;
      nic.host.w32(hi, static_cast<uint32_t>(ring(q) >> 32));
      nic.host.w32(lo, static_cast<uint32_t>(ring(q)));
    }
    program_rss(nic, default_table());
    nic.host.w32(kRxConfig, nic.host.r32(kRxConfig) | kEnableRxDescV3);
    std::vector<unsigned> next(4, 0);
    for (const Sent& f : suite_frames()) {
      const unsigned q = queue_of(f.hash);
      ASSERT_GT(nic.host.receive(f.frame), 0u);
      nic.host.advance(1'000'000);
      const uint64_t d = ring(q) + 32 * next[q]++;
      EXPECT_EQ(nic.host.mem().r32(d + 8), f.hash) << "queue " << q;  // RSSResult
      EXPECT_EQ(nic.host.mem().r16(d + 12), 0u);                       // HeaderBufferLen
      // HeaderInfo: IPv4 (bit 10) or IPv6 (bit 12), TCP (bit 13).
      EXPECT_EQ(nic.host.mem().r16(d + 14), (f.v6 ? 1u << 12 : 1u << 10) | 1u << 13);
      const uint32_t opts1 = nic.host.mem().r32(d + 28);
      EXPECT_EQ(opts1 & (kDescOwn | 1u << 25 | 1u << 24), 1u << 25 | 1u << 24);  // FS_V3 | LS_V3
      EXPECT_EQ(opts1 & 0x3fff, f.frame.size() + 4);
      // RxChkSum is on (r8169's default): TCP (RxTCPT_v3 bit 28); the
      // suite's addresses were written over a checksummed frame, so the TCP
      // checksum fails (RxTCPF_v3 bit 24) and, over IPv4, the header's
      // (RxIPF_v3 bit 26).
      EXPECT_EQ(nic.host.mem().r32(d + 24), 1u << 28 | 1u << 24 | (f.v6 ? 0u : 1u << 26));
      EXPECT_EQ(nic.host.mem().read(buf(q, next[q] - 1), f.frame.size()), f.frame);
    }
    // A UDP frame with the UDP types off hashes the 2-tuple: IPv4 only.
    const Bytes udp = v4_frame(kV4[1], true);
    const unsigned q = queue_of(kV4[1].ip_only);
    nic.host.receive(udp);
    nic.host.advance(1'000'000);
    const uint64_t d = ring(q) + 32 * next[q]++;
    EXPECT_EQ(nic.host.mem().r32(d + 8), kV4[1].ip_only);
    EXPECT_EQ(nic.host.mem().r16(d + 14), 1u << 10);
    EXPECT_EQ(nic.host.mem().r32(d + 24), 1u << 29 | 1u << 26 | 1u << 25);  // RxUDPT_v3, IPF, UDPF
  }
}

// r8169 writes INT_CFG0 0 and RSS_CTRL 0: every message is vector 0, the
// per-queue registers stay 0, IntrStatus carries RxOK/TxOK as on the 8168s.
TEST(Msix8125b, R8169StyleIsrV1UseIsUnchanged) {
  Nic nic(chip_8125b(true), driver_8125b());
  ASSERT_UP(nic);
  for (unsigned i = 0; i < 6; i++) {
    nic.host.receive(frame_to_us(100 + i));
    nic.host.advance(1'000'000);
    EXPECT_NE(nic.drv.irq_status_read() & kRxOK, 0u);
    nic.drv.irq_status_write(nic.drv.irq_status_read());
    nic.drv.rx_poll();
    nic.drv.xmit(frame_to(kRssPeer, 300));
    ASSERT_TRUE(nic.drv.wait_tx());
    nic.drv.irq_status_write(nic.drv.irq_status_read());
  }
  EXPECT_EQ(nic.host.stats().rx_frames, 6u);
  EXPECT_GE(nic.host.msi_vectors.size(), 6u);
  for (const unsigned v : nic.host.msi_vectors) EXPECT_EQ(v, 0u);
  EXPECT_EQ(nic.host.r32(kIsrV2_8125), 0u);
  for (unsigned q = 1; q < 4; q++) EXPECT_EQ(nic.host.r16(kIsr1_8125 + 4 * (q - 1)), 0u);
}

// Garbage in every new register, at every width: the event registers hold
// only their events' bits, a message for a queue without a ring is never
// sent, nothing crashes. With MSI off mid-flight the events drive INTx and
// are not lost; the state blob keeps them, and a blob claiming an event bit
// no event sets is refused.
TEST(Msix8125b, HostileWritesMsiOffMidFlightAndTheBlob) {
  Nic nic(chip_8125b(true), driver_8125b());
  ASSERT_UP(nic);
  multi_queue_v2(nic, 0xffffffff);
  for (const uint32_t base : {0x800u, 0xd00u}) {
    for (uint32_t off = base; off < base + 0x10; off++) {
      for (const unsigned size : {1u, 2u, 4u}) {
        if (off % size) continue;
        nic.host.write(off, 0xa5a5a5a5u, size);
        nic.host.read(off, size);
      }
    }
  }
  nic.host.w32(kImrV2Set8125, 0xffffffff);
  // Only the seven event bits can be set; writing 1s elsewhere set none.
  EXPECT_EQ(nic.host.r32(kIsrV2_8125) & ~(0xfu | kIsrV2TxQ0 | kIsrV2TxQ1 | kIsrV2LinkChg), 0u);
  for (unsigned q = 1; q < 4; q++) EXPECT_EQ(nic.host.r16(kImr1_8125 + 4 * (q - 1)) & ~3u, 0u);
  nic.host.w32(kIsrV2_8125, 0xffffffff);
  for (const unsigned v : nic.host.msi_vectors) EXPECT_TRUE(v < 4 || v == 16 || v == 18 || v == 21) << v;
  // MSI off: INTx follows ISR_V2 & IMR_V2.
  nic.host.msi = false;
  const size_t msis = nic.host.msi_vectors.size();
  const Sent f = suite_frames()[1];
  const unsigned q = queue_of(f.hash);
  nic.host.receive(f.frame);
  nic.host.advance(1'000'000);
  EXPECT_EQ(nic.host.msi_vectors.size(), msis);
  ASSERT_FALSE(nic.host.intx_changes.empty());
  EXPECT_EQ(nic.host.intx_changes.back().second, 1);
  EXPECT_EQ(nic.host.r32(kIsrV2_8125), kIsrV2RxQ0 << q);
  // Saved with the event pending; the restored device has it and drops
  // INTx when it is acked.
  const std::vector<uint8_t> blob = nic.host.save();
  Nic c(chip_8125b(true), driver_8125b(), nic.host.now());
  c.host.msi = false;
  c.host.mem() = nic.host.mem();
  std::string err;
  ASSERT_EQ(c.host.load(blob, &err), 0) << err;
  EXPECT_EQ(c.host.save(), blob);
  EXPECT_EQ(c.host.r32(kIsrV2_8125), kIsrV2RxQ0 << q);
  c.host.w32(kIsrV2_8125, kIsrV2RxQ0 << q);
  EXPECT_EQ(c.host.intx_changes.back().second, 0);
  // MSI back on, then ISR v1 and v2 again: a bit still pending and
  // unmasked is a new edge of its message.
  nic.host.msi = true;
  nic.host.w8(kIntCfg0_8125, 0);
  nic.host.w8(kIntCfg0_8125, kIntCfg0Enable8125);
  ASSERT_EQ(nic.host.msi_vectors.size(), msis + 1);
  EXPECT_EQ(nic.host.msi_vectors.back(), q);
  // The per-queue part is the blob's last 25 bytes: ISR v2 mode, the message
  // levels, ISR_V2, IMR_V2, then ISRq/IMRq of queues 1-3.
  std::vector<uint8_t> bad = blob;
  bad[bad.size() - 20 + 3] |= 0x40;  // ISR_V2 bit 30: no event sets it
  EXPECT_NE(c.host.load(bad, &err), 0);
  EXPECT_NE(err.find("ISR_V2"), std::string::npos) << err;
  bad = blob;
  bad[bad.size() - 25] ^= 1;  // ISR v2 mode against INT_CFG0
  EXPECT_NE(c.host.load(bad), 0);
  size_t refused = 0;
  for (size_t i = blob.size() - 25; i < blob.size(); i++) {
    bad = blob;
    bad[i] ^= 0x5a;
    refused += c.host.load(bad) != 0;
  }
  EXPECT_GT(refused, 0u);
  ASSERT_EQ(c.host.load(blob, &err), 0) << err;
}

}  // namespace
}  // namespace rtl8168_test
