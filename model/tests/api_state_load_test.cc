// SPDX-License-Identifier: GPL-2.0-or-later
// State blobs whose fields each look plausible but whose combination is
// unreachable from power-on: each test saves a real device, patches one field
// (located by a walk of device_state.cc's layout, 8168c profile), and checks
// that rtl8168_state_load refuses the blob and says why. Loaded, each of
// these would lead to an over-read of the TX descriptor list (a host
// crash), a stuck TX engine or PHY reset, NPQ reading back set forever,
// frames sent with the transmitter off, or the device refusing its own next
// blob. The unpatched blob always loads.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

const Mac kDst = {0x52, 0x54, 0x00, 0x00, 0x00, 0x02};

// Offsets of the fields the tests patch, from a walk of the blob in
// visit_state() order (8168c: no side buses, PHY page as one byte).
// The FAULTS counters of rtl8168/stats.def: the blob's fault part starts with them.
#define RTL8168_STAT(name, blob, fault_drop, doc) +(std::string_view(#blob) == "FAULTS" ? 1 : 0)
constexpr size_t kFaultStats = 0
#include <rtl8168/stats.def>
    ;
#undef RTL8168_STAT

struct BlobMap {
  size_t now = 0, rf = 0, irq = 0, phy = 0;
  size_t tx_phase = 0, tx_ndescs_at = 0, tx_descs = 0;
  uint32_t tx_ndescs = 0;
  uint8_t phase = 0;
  size_t tx_cur_desc = 0, tx_cur_off = 0, tx_stream_pos = 0;
  uint32_t tx_fifo_frames = 0, rx_fifo_frames = 0, tx_prefetched = 0;
  size_t tx_pf = 0, rx_pf = 0, tx_prefetched_at = 0;  // prefetched TX descriptors; RX prefetch
  uint8_t rx_pf_busy = 0;
  size_t txpoll = 0, timer_start = 0;
  size_t events = 0;  // first event
  uint32_t nevents = 0;
  size_t next_seq = 0;
  size_t fault_stats = 0, phy_faults = 0, faults = 0;  // the fault-injection part
  uint32_t nfaults = 0;
  bool ok = false;

  static BlobMap parse(const std::vector<uint8_t>& b) {
    BlobMap m;
    size_t p = 8;  // magic
    auto u8 = [&] { return b.at(p++); };
    auto u32 = [&] {
      uint32_t v = 0;
      for (int i = 0; i < 4; i++) v |= uint32_t{b.at(p + i)} << (8 * i);
      p += 4;
      return v;
    };
    auto u64 = [&] {
      uint64_t v = 0;
      for (int i = 0; i < 8; i++) v |= uint64_t{b.at(p + i)} << (8 * i);
      p += 8;
      return v;
    };
    auto bytes = [&] { p += u32(); };
    u32();    // version
    bytes();  // chip id
    m.now = p;
    u64();
    u32();  // register file length
    m.rf = p;
    p += 256;
    m.irq = p;
    p += 2 + 2 * 9;  // IRQ: INT level, INTx; per direction pending, gen, timer armed
    m.phy = p;
    p += 8 * 32 * 2 + 1 + 3 + 4 + 1 + 8;
    // TX: ring positions, doorbell latches, walk bound, queue, error stop
    p += 4 + 4 + 1 + 1 + 8 + 4 + 1 + 1;
    m.tx_phase = p;
    m.phase = u8();
    m.tx_ndescs_at = p;
    m.tx_ndescs = u32();
    m.tx_descs = p;
    p += 20 * m.tx_ndescs;
    m.tx_cur_desc = p;
    p += 4;
    m.tx_cur_off = p;
    p += 4;
    m.tx_stream_pos = p;
    p += 4;
    p += 8 + 4;  // rd_addr, rd_len
    bytes();     // buf
    bytes();     // header
    p += 4;      // seg_index
    m.tx_fifo_frames = u32();
    for (uint32_t i = 0; i < m.tx_fifo_frames; i++) {
      bytes();
      p += 4 + 1 + 4 + 1;
      p += 12 * u32();
    }
    m.tx_prefetched_at = p;
    m.tx_prefetched = u32();
    m.tx_pf = p;
    p += 16 * m.tx_prefetched;  // opts1, opts2, addr (the slots are derived)
    p += 1 + 1 + 1;             // read in flight, stopped, failed
    // RX
    p += 4 + 1 + 4 + 8 + 4 + 1 + 1;
    m.rx_pf = p;
    m.rx_pf_busy = u8();
    p += 1 + 4 + 4 + 8;  // prefetch: kept, slot, opts1, addr
    m.rx_fifo_frames = u32();
    for (uint32_t i = 0; i < m.rx_fifo_frames; i++) {
      bytes();
      p += 4 + 4 + 1 + 4;
    }
    p += 4 + 64;  // tally
    m.timer_start = p;
    p += 8;
    p += 24 * 8;  // statistics
    p += 8 + 8;   // trace hash, count
    m.txpoll = p;
    p += 16;
    m.nevents = u32();
    m.events = p;
    p += 25 * m.nevents;
    m.next_seq = p;
    p += 8;
    // Fault injection: statistics, the PHY's link-fault state, the schedule.
    m.fault_stats = p;
    p += kFaultStats * 8;
    m.phy_faults = p;
    p += 1 + 1;
    m.nfaults = u32();
    m.faults = p;
    for (uint32_t i = 0; i < m.nfaults; i++) {
      bytes();      // canonical spec
      p += 3 * 8;   // seen, fired, base
    }
    p += 1;  // TX stalled
    m.ok = p == b.size();
    return m;
  }
  // Event i: time at +0, seq +8, kind +16, arg +17.
  size_t event(uint32_t i) const { return events + 25 * i; }
  // Events held back by interrupt moderation, 0 = RX, 1 = TX (Irq::visit).
  size_t mod_pending(unsigned which) const { return irq + 2 + 9 * which; }
  // BMSR.LSTATUS as the next read reports it (Phy::visit, 8168c: one-byte page).
  size_t phy_latched_link() const { return phy + 8 * 32 * 2 + 1 + 2; }
};

void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; i++) b.at(at + i) = static_cast<uint8_t>(v >> (8 * i));
}
void put64(std::vector<uint8_t>& b, size_t at, uint64_t v) {
  for (int i = 0; i < 8; i++) b.at(at + i) = static_cast<uint8_t>(v >> (8 * i));
}

enum TxPhase : uint8_t { kIdle, kFetchDesc, kFetchHeader, kFetchData, kWaitFifo, kDrain, kWaitDesc };
enum Kind : uint8_t { kPhyarDone = 0, kTxDmaDone = 5, kTxWireDone = 6, kMitigationTimer = 9 };

Params params(Params extra = {}) {
  return with(with(default_params(true), {{"pcie-read-latency", "800"}}), extra);
}

// Step the host in small increments until the saved blob satisfies `want`.
bool save_when(Nic& nic, const std::function<bool(const BlobMap&)>& want,
               std::vector<uint8_t>& blob, uint64_t step_ns = 50, unsigned max_steps = 20000) {
  for (unsigned i = 0; i < max_steps; i++) {
    blob = nic.host.save();
    const BlobMap m = BlobMap::parse(blob);
    if (!m.ok) {
      ADD_FAILURE() << "blob walk did not end at the blob's end";
      return false;
    }
    if (want(m)) return true;
    nic.host.advance(step_ns);
  }
  return false;
}

// Load `blob` onto a fresh device and return the error ("" when it loaded).
std::string load_error(const Nic& nic, const Params& p, const std::vector<uint8_t>& blob) {
  TestHost b(p, nic.host.mem(), nic.host.now());
  std::string err;
  if (b.load(blob, &err) == 0) return {};
  return err.empty() ? "refused" : err;
}

std::string refusal(const char* why) { return std::string("inconsistent state blob: ") + why; }

// A device brought up like r8169's open (8168c, timing on): `saved()` is its
// blob now, with `map` locating the fields; `refused()` loads a blob onto a
// fresh device and returns the error ("" when it loaded).
class ApiStateLoad : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_UP(nic); }
  std::vector<uint8_t> saved() {
    std::vector<uint8_t> blob = nic.host.save();
    map = BlobMap::parse(blob);
    EXPECT_TRUE(map.ok) << "the blob walk did not end at the blob's end";
    return blob;
  }
  // The blob at the first step at which `want` holds (see save_when).
  std::vector<uint8_t> saved_when(const std::function<bool(const BlobMap&)>& want) {
    std::vector<uint8_t> blob;
    EXPECT_TRUE(save_when(nic, want, blob));
    map = BlobMap::parse(blob);
    return blob;
  }
  std::string refused(const std::vector<uint8_t>& blob) { return load_error(nic, p, blob); }

  const Params p = params();
  Nic nic{p};
  BlobMap map;
};

// A WaitFifo blob: six 1514-byte frames, the smallest FIFO the profile allows
// (6148 bytes) and a fast link to memory: four fit, the fifth waits for room.
std::vector<uint8_t> wait_fifo_blob(Nic& nic) {
  EXPECT_TRUE(nic.up());
  for (uint8_t i = 0; i < 6; i++) nic.drv.queue_frame(frame_to(kDst, 1514, i));
  nic.drv.kick();
  std::vector<uint8_t> blob;
  EXPECT_TRUE(save_when(
      nic, [](const BlobMap& m) { return m.phase == kWaitFifo; }, blob));
  return blob;
}

// TX waiting for FIFO room resumes from its cursor (on_wire_done ->
// continue_fetch reads descs_[cur_desc_]); the cursor was checked only while
// fetching, so a WaitFifo blob could point it past the descriptor list.
TEST(ApiStateLoadSmallFifo, TxCursorWhileWaitingForFifoRoomIsChecked) {
  const Params p = params(
      {{"tx-fifo-size", "6148"}, {"pcie-bandwidth", "100000"}, {"dma-read-rate", "0"}});
  Nic nic(p);
  const std::vector<uint8_t> blob = wait_fifo_blob(nic);
  const BlobMap map = BlobMap::parse(blob);
  ASSERT_TRUE(map.ok);
  ASSERT_EQ(map.phase, kWaitFifo);
  ASSERT_EQ(map.tx_ndescs, 1u);
  EXPECT_EQ(load_error(nic, p, blob), "");
  std::vector<uint8_t> one_past = blob;
  put32(one_past, map.tx_cur_desc, 1);  // one descriptor; the cursor just past it
  EXPECT_EQ(load_error(nic, p, one_past), refusal("TX cursor disagrees with the stream position"));
  std::vector<uint8_t> far = blob;
  put32(far, map.tx_cur_desc, 0x40000000u);  // read 24 GiB past the list: the host crashed
  EXPECT_EQ(load_error(nic, p, far), refusal("TX cursor outside its frame"));
  std::vector<uint8_t> off = blob;
  put32(off, map.tx_cur_off, 7);  // inside the descriptor, not at the stream position
  EXPECT_EQ(load_error(nic, p, off), refusal("TX cursor disagrees with the stream position"));
}

// Descriptors collected before LS carry their ring index into the frame's
// write-back and, on a halt, into the ring position: they must follow each
// other from the ring position as desc_fetched() took them. (With the
// descriptor prefetch of the profiles, the walk holds the first descriptor
// while the prefetcher's read of the second is in flight: WaitDesc.)
TEST_F(ApiStateLoad, PartialFrameDescriptorIndicesAreChecked) {
  nic.drv.queue_tx({frame_to(kDst, 700, 1), pattern(800, 2)});
  nic.drv.kick();
  const std::vector<uint8_t> blob =
      saved_when([](const BlobMap& m) { return m.phase == kWaitDesc && m.tx_ndescs == 1; });
  EXPECT_EQ(refused(blob), "");
  std::vector<uint8_t> beyond = blob;
  put32(beyond, map.tx_descs, 5000);  // descs_[0].index; the ring bound is 1024
  EXPECT_EQ(refused(beyond), refusal("TX descriptor index out of range"));
  std::vector<uint8_t> elsewhere = blob;
  put32(elsewhere, map.tx_descs, 7);  // in range, but the ring position is not just past it
  EXPECT_EQ(refused(elsewhere), refusal("TX descriptors not consecutive from the ring position"));
}

// The TX prefetcher's descriptors are handed to the walk as they are: one
// without Own would put a descriptor the driver still owns into a frame.
// (Their slots are not in the blob: they follow from the walk's slot,
// api_state_derive_test.cc.)
TEST_F(ApiStateLoad, PrefetchedTxDescriptorsAreChecked) {
  for (uint8_t i = 0; i < 4; i++) nic.drv.queue_frame(frame_to(kDst, 1514, i));
  nic.drv.kick();
  const std::vector<uint8_t> blob =
      saved_when([](const BlobMap& m) { return m.phase == kFetchData && m.tx_prefetched >= 1; });
  EXPECT_EQ(refused(blob), "");
  std::vector<uint8_t> unowned = blob;
  unowned.at(map.tx_pf + 3) &= 0x7f;  // opts1 bit 31: Own
  EXPECT_EQ(refused(unowned), refusal("TX prefetched descriptor not owned"));
}

// The RX read of the next slot is either in flight or done (an owned
// descriptor kept), never both: a blob claiming both would hand the next
// frame a descriptor no read returned.
TEST_F(ApiStateLoad, RxPrefetchIsInFlightOrDoneNotBoth) {
  EXPECT_EQ(nic.host.receive(frame_to_us(1514, 1)), 1514u);
  const std::vector<uint8_t> blob = saved_when([](const BlobMap& m) { return m.rx_pf_busy == 1; });
  EXPECT_EQ(refused(blob), "");
  std::vector<uint8_t> both = blob;
  both.at(map.rx_pf + 1) = 1;
  EXPECT_EQ(refused(both), refusal("RX prefetch both in flight and done"));
}

// At 2^64-1 the next schedule() wrapped the sequence number to 0 and the
// device then refused its own blob ("event sequence number from the future").
TEST_F(ApiStateLoad, EventSequenceNumberIsBounded) {
  std::vector<uint8_t> blob = saved();
  put64(blob, map.next_seq, ~uint64_t{0});
  EXPECT_EQ(refused(blob), refusal("event sequence number beyond the model's range"));
}

// An event due at RTL8168_NO_DEADLINE told the host nothing was pending: the
// frame on the wire never left and the engine stayed busy for good.
TEST_F(ApiStateLoad, EventsFurtherAheadThanTheirKindAreRefused) {
  nic.drv.xmit(frame_to(kDst, 1514, 3));
  const std::vector<uint8_t> blob = saved_when([](const BlobMap& m) {
    return m.phase == kDrain && m.tx_fifo_frames == 1 && m.nevents == 1;
  });
  ASSERT_EQ(blob.at(map.event(0) + 16), kTxWireDone);
  EXPECT_EQ(refused(blob), "");
  const char* why = "pending event further ahead than its kind is scheduled";
  std::vector<uint8_t> never = blob;
  put64(never, map.event(0), RTL8168_NO_DEADLINE);
  EXPECT_EQ(refused(never), refusal(why));
  // A 1514-byte frame takes 12.3 us at 1 Gbit/s and 1.23 ms at 10 Mbit/s,
  // the longest any wire completion can be away; one second is not.
  std::vector<uint8_t> late = blob;
  put64(late, map.event(0), nic.host.now() + 1'000'000'000);
  EXPECT_EQ(refused(late), refusal(why));
}

// BMCR RESET self-clears only through its PhyResetDone event; without it the
// driver's soft-reset poll (genphy_soft_reset) never ended.
TEST_F(ApiStateLoad, PhyResetNeedsItsCompletionEvent) {
  std::vector<uint8_t> blob = saved();
  blob.at(map.phy + 1) |= 0x80;  // BMCR (page 0 register 0) bit 15, RESET
  EXPECT_EQ(refused(blob), refusal("PHY reset without its completion event"));
}

// Bits no guest write and no device action changes hold their power-on value:
// TxPoll stores nothing (a stored NPQ read back as a doorbell in progress
// forever), TxConfig's XID identifies the chip, ring bases are 256-aligned.
TEST_F(ApiStateLoad, RegisterBitsAGuestCannotWriteAreChecked) {
  const std::vector<uint8_t> blob = saved();
  const char* why = "register bits a guest cannot write differ from power-on";
  for (const auto& [offset, bits] : std::vector<std::pair<uint32_t, uint8_t>>{
           {kTxPoll, kTxPollNPQ | kTxPollHPQ},  // TxPoll storage
           {0x43, 0x10},                        // TxConfig XID (bits 30:26 and 23:20)
           {0x20, 0x80},                        // TxDescStartAddrLow bit 7
           {0xe4, 0x01},                        // RxDescAddrLow bit 0
           {0x48, 0x01},                        // TCTR: reads the live count, stores nothing
       }) {
    std::vector<uint8_t> patched = blob;
    patched.at(map.rf + offset) ^= bits;
    EXPECT_EQ(refused(patched), refusal(why)) << "register byte 0x" << std::hex << offset;
  }
  // Writable bits are the guest's: any value loads (IntrMitigate here).
  std::vector<uint8_t> writable = blob;
  writable.at(map.rf + 0xe2) ^= 0x0f;
  EXPECT_EQ(refused(writable), "");
}

// PHYstatus is the MAC's view of the PHY's resolution, bit for bit.
TEST_F(ApiStateLoad, PhyStatusMustMatchThePhy) {
  std::vector<uint8_t> blob = saved();
  ASSERT_TRUE(blob.at(map.rf + 0x6c) & 0x10) << "link at 1000 Mbit/s";
  blob.at(map.rf + 0x6c) ^= 0x10 | 0x08;  // claims 100 Mbit/s
  EXPECT_EQ(refused(blob), refusal("PHYstatus disagrees with the PHY's link"));
}

// Only a doorbell starts TX, and only with the transmitter on; clearing TxEnb
// halts it. A blob running the engine with TxEnb clear sent two frames the
// guest had disabled.
TEST_F(ApiStateLoad, TxEngineRunsOnlyWithTheTransmitterOn) {
  nic.drv.queue_frame(frame_to(kDst, 600, 5));
  nic.drv.queue_frame(frame_to(kDst, 600, 6));
  nic.drv.kick();
  const std::vector<uint8_t> blob =
      saved_when([](const BlobMap& m) { return m.phase == kFetchData; });
  EXPECT_EQ(refused(blob), "");
  const char* why = "TX engine running with the transmitter off";
  for (const uint8_t cmd_bits : {uint8_t{kCmdTxEnb}, uint8_t{0x80 /* StopReq */}}) {
    std::vector<uint8_t> patched = blob;
    patched.at(map.rf + kChipCmd) ^= cmd_bits;
    EXPECT_EQ(refused(patched), refusal(why)) << "ChipCmd bits 0x" << std::hex << int{cmd_bits};
  }
}

// receive() queues only while RxEnb is set, and clearing it empties the FIFO.
TEST_F(ApiStateLoad, RxFramesQueueOnlyWithTheReceiverOn) {
  const Mac bcast = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  ASSERT_GT(nic.host.receive(frame_to(bcast, 200, 7)), 0u);
  std::vector<uint8_t> blob = saved();  // the frame waits for its descriptor fetch
  ASSERT_EQ(map.rx_fifo_frames, 1u);
  EXPECT_EQ(refused(blob), "");
  blob.at(map.rf + kChipCmd) &= static_cast<uint8_t>(~kCmdRxEnb);
  EXPECT_EQ(refused(blob), refusal("RX frames queued with the receiver off"));
}

// The clock counts from 0; near 2^64 the model's own sums wrapped (one NPQ
// doorbell later the device refused its own blob: "TxPoll read-back too far
// ahead").
TEST_F(ApiStateLoad, ClockIsBounded) {
  nic.host.advance(10'000'000);
  std::vector<uint8_t> blob = saved();
  ASSERT_EQ(map.nevents, 0u);
  put64(blob, map.now, ~uint64_t{0} - 500'000);
  EXPECT_EQ(refused(blob), refusal("clock beyond the model's range"));
}

// A blob of another layout version is refused, not converted, and the
// error names both versions.
TEST_F(ApiStateLoad, OtherVersionsAreRefusedByName) {
  std::vector<uint8_t> blob = saved();
  EXPECT_EQ(refused(blob), "");
  put32(blob, 8, 5);  // the version, right after the magic
  EXPECT_EQ(refused(blob),
            "unsupported state version 5 (this model loads version 7 only; blobs of other "
            "versions are not converted)");
}

// A flag is one byte, 0 or 1: any other value would load as "set" and save
// back as 1, a second spelling of the same state.
TEST_F(ApiStateLoad, FlagBytesAreZeroOrOne) {
  std::vector<uint8_t> blob = saved();
  const size_t pending_npq = map.tx_phase - 1 - 1 - 4 - 8 - 2;  // TX doorbell latch (NPQ)
  ASSERT_EQ(blob.at(pending_npq), 0);
  blob.at(pending_npq) = 2;
  EXPECT_EQ(refused(blob), "truncated or corrupt state blob");
}

// receive() admits a frame into a non-empty FIFO only if it fits within
// rx-fifo-size; a blob from a device with a larger FIFO holds more than a
// small one can, and loading it would let the FIFO grow past its size.
TEST(ApiStateLoadSmallFifo, RxFifoHoldsNoMoreThanItsSize) {
  const Params big = params();  // 8168c: 8192-byte RX FIFO
  Nic nic(big);
  ASSERT_UP(nic);
  const Mac bcast = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  ASSERT_GT(nic.host.receive(frame_to(bcast, 1514, 1)), 0u);
  const std::vector<uint8_t> one = nic.host.save();
  ASSERT_GT(nic.host.receive(frame_to(bcast, 1514, 2)), 0u);
  const std::vector<uint8_t> two = nic.host.save();
  ASSERT_EQ(BlobMap::parse(two).rx_fifo_frames, 2u);
  EXPECT_EQ(load_error(nic, big, two), "");
  const Params small = params({{"rx-fifo-size", "2048"}});
  EXPECT_EQ(load_error(nic, small, one), "") << "one frame alone may be larger than the FIFO";
  EXPECT_EQ(load_error(nic, small, two), refusal("RX FIFO holds more than rx-fifo-size"));
}

// Events are held back only while the direction's IntrMitigate field is
// non-zero, and clearing it releases them: held events with moderation off
// would never be raised (no timer, no frame count to reach).
TEST_F(ApiStateLoad, ModerationHoldsNothingWhileOff) {
  nic.host.w16(kIntrMitigate, 0x0001);  // RX: 4 frames, no timer
  std::vector<uint8_t> blob = saved();
  blob.at(map.mod_pending(0)) = 3;
  EXPECT_EQ(refused(blob), "") << "three RX events waiting for the fourth";
  const char* why = "interrupt events held back with moderation off";
  std::vector<uint8_t> off = blob;
  off.at(map.rf + kIntrMitigate) = 0;
  EXPECT_EQ(refused(off), refusal(why));
  std::vector<uint8_t> tx = blob;
  tx.at(map.mod_pending(1)) = 1;  // TX field (bits 15:8) is 0
  EXPECT_EQ(refused(tx), refusal(why));
}

// Every pending event must belong to an instance its component has
// (EventSpec::instance_arg): a mitigation timer of an older generation than
// its direction's was never left pending (flush() cancels the armed timer
// before the generation moves on, and one that fires clears it), so a blob
// that carries one describes no reachable state and is refused.
TEST_F(ApiStateLoad, MitigationTimerOfAnOldGenerationIsRefused) {
  nic.host.w16(kIntrMitigate, 0x00f0);  // RX: timer of 15 units, no frame count
  ASSERT_EQ(nic.host.receive(frame_to_us(100)), 100u);
  ASSERT_TRUE(nic.host.advance(30'000));  // written, RxOK held back, timer armed
  std::vector<uint8_t> blob = saved();
  bool timer = false;
  for (uint32_t i = 0; i < map.nevents; i++) timer |= blob.at(map.event(i) + 16) == kMitigationTimer;
  ASSERT_TRUE(timer) << "no mitigation timer pending";
  ASSERT_EQ(blob.at(map.mod_pending(0) + 8), 1) << "RX timer not armed";
  EXPECT_EQ(refused(blob), "");
  // The direction disarmed and one generation on: the pending event is stale.
  std::vector<uint8_t> stale = blob;
  stale.at(map.mod_pending(0) + 8) = 0;  // timer armed
  stale.at(map.mod_pending(0) + 4) += 1;  // generation
  EXPECT_EQ(refused(stale), refusal("mitigation timer state inconsistent"));
}

// BMSR.LSTATUS latches low (IEEE 802.3 22.2.4.2.13): a link loss clears the
// latch and a read re-arms it to the current link, so it is never up while
// the link is down; such a blob told the driver the link was up after a loss.
TEST_F(ApiStateLoad, LinkStatusLatchIsNeverUpWithTheLinkDown) {
  nic.host.set_link(false);
  nic.host.advance(1'000'000);
  std::vector<uint8_t> blob = saved();
  ASSERT_EQ(blob.at(map.phy_latched_link()), 0);
  EXPECT_EQ(refused(blob), "");
  blob.at(map.phy_latched_link()) = 1;
  EXPECT_EQ(refused(blob), refusal("PHY link status latched up while the link is down"));
}

}  // namespace
}  // namespace rtl8168_test
