// SPDX-License-Identifier: GPL-2.0-or-later
// A test driver that talks to the model the way Linux r8169 does for
// RTL_GIGA_MAC_VER_22 (see docs/R8169.md §A): probe, open,
// v2 TX descriptors with Own set on the first descriptor last, the NPQ/HPQ
// doorbells, reclaim, RX polling and re-arming, PHY access over PHYAR with
// the flag handshake, the DTCCR tally dump, and the interrupt handler in its
// pre-2009 (read once, ack what was read) and fixed (loop until 0) forms.
//
// Every wait advances virtual time in bounded steps; a wait that times out
// returns false (the caller asserts on it), it never loops forever.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "harness/net_ref.h"
#include "harness/regs.h"
#include "harness/test_host.h"

namespace rtl8168_test {

struct DriverConfig {
  uint16_t irq_mask = kDriverIrqMask;
  uint32_t rx_accept = kAcceptBroadcast | kAcceptMulticast | kAcceptMyPhys;
  uint16_t cplus = kRxChkSum | kRxVlan;  // r8169 default features (RXCSUM, VLAN RX)
  uint16_t rx_max_size = 0x4000;         // rtl_set_rx_max_size
  uint32_t tx_config = kTxConfigDriver;
  uint32_t rx_buf_size = kRxBufSize;
  bool wait_link = true;  // open() waits for BMSR link up
  uint32_t expect_xid = 0x3c4;       // probe checks the chip (8168evl: 0x2c8)
  uint16_t expect_phy_id2 = 0xc912;  // and its PHY (8168evl: 0xc800)
  uint64_t link_timeout_ns = 3'000'000'000;
  // Drive the chip as r8169 drives the 8168g class (VER_40 and later; the
  // 8168h is VER_46): PHY through GPHY_OCP with r8168g_mdio_* paging,
  // rtl_hw_init_8168g at probe, the RXDV gate opened at start
  // (rtl_hw_start_8168h_1).
  bool g_class = false;
  // Drive it as r8169 drives the RTL8125 (VER_61 and later; the 8125B is
  // VER_63), on top of g_class: 32-bit IntrMask/IntrStatus at 0x38/0x3c,
  // the doorbell 0x90 (16 bits, bit q for TX queue q), the station address
  // from MAC0_BKP, rtl_hw_init_8125 at probe, the VER_63 FIFO-empty wait
  // (StopReq, MCU, IntrMitigate 0x0103), RX VLAN in RxConfig.
  bool c8125 = false;
};

// How r8169 drives each chip profile: the identity its probe checks (TxConfig
// XID, PHY ID) and the register paths of the chip's class.
DriverConfig driver_8168evl();  // VER_34: XID 0x2c8, PHY 0x001cc800
DriverConfig driver_8168h();    // VER_46: XID 0x541, the 8168g class paths
DriverConfig driver_8125b();    // VER_63: XID 0x641, PHY 0x001cc840, the 8125 paths

enum class Queue { kNormal, kHigh };

struct RxFrame {
  unsigned index = 0;
  uint32_t opts1 = 0, opts2 = 0;
  Bytes data;  // length from opts1 13:0, i.e. including the 4-byte FCS
};

// struct rtl8169_counters (r8169_main.c), 64 bytes, little-endian.
struct Tally {
  uint64_t tx_packets = 0, rx_packets = 0, tx_errors = 0;
  uint32_t rx_errors = 0;
  uint16_t rx_missed = 0, align_errors = 0;
  uint32_t tx_one_collision = 0, tx_multi_collision = 0;
  uint64_t rx_unicast = 0, rx_broadcast = 0;
  uint32_t rx_multicast = 0;
  uint16_t tx_aborted = 0, tx_underrun = 0;
};

class Driver {
 public:
  // Guest-physical layout inside the 16 MiB FakeMemory.
  static constexpr uint64_t kTxRing = 0x10000;   // NPQ ring, 256 x 16 bytes
  static constexpr uint64_t kTxHRing = 0x11000;  // HPQ ring
  static constexpr uint64_t kRxRing = 0x12000;
  static constexpr uint64_t kTally = 0x13000;    // 64-byte aligned
  static constexpr uint64_t kRxBufs = 0x100000;  // 256 x 16 KiB
  static constexpr uint64_t kRxBufStride = 0x4000;
  static constexpr uint64_t kTxBufs = 0x500000;  // bump allocator, wraps
  static constexpr uint64_t kTxBufsEnd = 0xd00000;
  static constexpr uint64_t kScratch = 0xd00000;  // free for tests (3 MiB)
  // An address no DMA can reach (outside the FakeMemory).
  static constexpr uint64_t kBadAddr = 0x0000dead00000000ull;

  explicit Driver(TestHost& h, DriverConfig c = {});
  // The same driver state (rings, allocator, filters) bound to another host:
  // the guest side of a migrated / restored device.
  Driver(TestHost& h, const Driver& other);

  TestHost& host;
  DriverConfig cfg;

  // Re-evaluate cond() after each step of virtual time, at most until
  // now + timeout_ns. True as soon as cond() holds.
  bool poll(const std::function<bool()>& cond, uint64_t step_ns, uint64_t timeout_ns);

  // ---- bring-up (r8169 rtl_init_one / rtl_open) ----
  bool probe();
  bool open();
  // rtl_hw_reset: ChipCmd = CmdReset, poll until bit 4 clears.
  bool chip_reset();
  // rtl8169_cleanup: mask+ack, RX accept off, StopReq, reset.
  bool cleanup();
  // rtl_hw_start for VER_22 minus PCI config space: rings, RxMaxSize,
  // Tx/Rx enable, Tx/RxConfig, MAR, IntrMask. Re-arms RX, resets ring state.
  void hw_start();
  std::array<uint8_t, 6> read_mac();
  // rtl_rar_set: unlock, MAC4 then MAC0 (32-bit), lock.
  void write_mac(const Mac& mac, bool unlock = true);
  // rtl_set_rx_mode multicast filter for VER > 06 (swab32 of the halves).
  void set_multicast(const std::vector<Mac>& groups);
  uint32_t mar0 = 0, mar4 = 0;  // what hw_start programs

  // ---- PHY over PHYAR ----
  std::optional<uint16_t> mdio_read(unsigned reg);
  bool mdio_write(unsigned reg, uint16_t val);
  // 8168g class (r8168_phy_ocp_read/write, r8168_mac_ocp_read/write).
  std::optional<uint16_t> phy_ocp_read(uint16_t addr);
  bool phy_ocp_write(uint16_t addr, uint16_t val);
  uint16_t mac_ocp_read(uint16_t addr);
  void mac_ocp_write(uint16_t addr, uint16_t val);
  bool hw_init_8168g();  // rtl_hw_init_8168g: false when a poll timed out
  bool hw_init_8125();   // rtl_hw_init_8125: false when a poll timed out
  // IntrMask / IntrStatus at the chip's offsets and width (c8125: 32 bits at 0x38/0x3c).
  void irq_mask_write(uint32_t v);
  void irq_status_write(uint32_t v);
  uint32_t irq_status_read();
  uint16_t ocp_base = 0xa400;  // r8168g_mdio_write's page state (tp->ocp_base)
  bool phy_config();      // r8169_hw_phy_config for 8168c (PC 369)
  bool phy_soft_reset();  // genphy_soft_reset: RESET|ANRESTART, poll RESET clear
  bool phy_start();       // advertise, BMCR |= ANENABLE|ANRESTART
  bool wait_link(uint64_t timeout_ns);
  uint64_t mdio_poll_step_ns = 5'000;

  // ---- TX ----
  uint64_t ring_base(Queue q) const { return q == Queue::kHigh ? kTxHRing : kTxRing; }
  uint64_t tx_desc_addr(Queue q, unsigned idx) const { return ring_base(q) + idx * kDescSize; }
  // Build a frame of one or more fragments (SG) at the ring's current
  // position; `opts1` adds offload bits to every descriptor (GTSENV, L4
  // offset), `opts2` is written to every descriptor. Own on the first last.
  // Returns the index of the first descriptor.
  unsigned queue_tx(const std::vector<Bytes>& frags, uint32_t opts1 = 0, uint32_t opts2 = 0,
                    Queue q = Queue::kNormal);
  unsigned queue_frame(const Bytes& frame, uint32_t opts1 = 0, uint32_t opts2 = 0,
                       Queue q = Queue::kNormal) {
    return queue_tx(std::vector<Bytes>{frame}, opts1, opts2, q);
  }
  void kick(Queue q = Queue::kNormal);
  unsigned xmit(const Bytes& frame, uint32_t opts1 = 0, uint32_t opts2 = 0) {
    const unsigned i = queue_frame(frame, opts1, opts2);
    kick();
    return i;
  }
  bool tx_done(Queue q = Queue::kNormal) const;  // every queued descriptor Own-cleared
  bool wait_tx(uint64_t timeout_ns = 100'000'000, Queue q = Queue::kNormal);
  unsigned reclaim(Queue q = Queue::kNormal);
  uint32_t tx_opts1(unsigned idx, Queue q = Queue::kNormal) const;
  unsigned cur_tx(Queue q = Queue::kNormal) const { return tx_[static_cast<int>(q)].cur; }
  unsigned dirty_tx(Queue q = Queue::kNormal) const { return tx_[static_cast<int>(q)].dirty; }
  uint64_t tx_buf_alloc(size_t len);
  void write_desc(uint64_t addr, uint32_t opts1, uint32_t opts2, uint64_t buf);

  // ---- RX ----
  void arm_rx_ring();
  uint64_t rx_desc_addr(unsigned idx) const { return kRxRing + idx * kDescSize; }
  uint64_t rx_buf_addr(unsigned idx) const { return kRxBufs + idx * kRxBufStride; }
  // Collect completed descriptors from cur_rx on (Own clear), optionally
  // re-arming them (Own | EOR-if-last | buffer size).
  std::vector<RxFrame> rx_poll(bool rearm = true, size_t max = kRingSize);
  unsigned cur_rx = 0;

  // ---- interrupts ----
  // Pre-2009 handler: read IntrStatus once; nothing for us -> 0; otherwise
  // run `between` (an event racing the handler), then ack exactly the bits
  // that were read. Returns what was read.
  uint16_t irq_old(const std::function<void()>& between = {});
  // 2009 fix: ack and re-read until IntrStatus reads 0 (bounded).
  unsigned irq_fixed(unsigned max_loops = 64);

  // ---- DTCCR ----
  bool counters_cmd(uint32_t cmd, uint64_t addr = kTally, uint64_t timeout_ns = 10'000'000);
  bool dump_counters(Tally& out, uint64_t addr = kTally);
  bool reset_counters(uint64_t addr = kTally) { return counters_cmd(kCounterReset, addr); }
  static Tally parse_tally(const Bytes& raw);

 private:
  struct TxRing {
    unsigned cur = 0, dirty = 0;
  };
  std::array<TxRing, 2> tx_{};
  uint64_t tx_buf_next_ = kTxBufs;
};

// A unicast frame from the peer to kTestMacBytes (ethertype 0x88b5, local
// experimental), `len` bytes without FCS.
Bytes frame_to_us(size_t len, uint8_t seed = 1);
Bytes frame_to(const Mac& dst, size_t len, uint8_t seed = 1);
Mac test_mac();

}  // namespace rtl8168_test
