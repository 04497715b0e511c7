// SPDX-License-Identifier: GPL-2.0-or-later
// The RX engine: address filter (RxConfig accept bits, MAR hash), RX FIFO
// with back-pressure toward the host, descriptor fetch (non-posted read),
// data + FCS write and descriptor write-back (posted), RxOK; no owned
// descriptor -> the frame is dropped with RxOverflow|RxFIFOOver and the
// next frame re-reads the same slot (docs/R8169.md §3 "RX").
//
// With `rx-desc-prefetch` 1 the engine has its ring read the next slot's
// descriptor ahead while the current frame is written (a second outstanding
// read, its own tag; desc_cache.h), so the next frame's descriptor is at
// hand when its write may begin (docs/TIMING.md "RX"). Only an owned
// descriptor is kept: a slot found without Own is read again when a frame
// needs it, so a drop still means a read at the frame's turn found no buffer.
//
// RX queues (the RTL8125B's four): one ring per RX row of the profile, one
// FIFO in front of them. RSS (rss.h) picks a frame's queue as it enters the
// FIFO; the frames leave it in order, each through its own queue's ring.
// Only the ring of the head frame's queue (the active queue) reads ahead:
// when the head frame's queue differs, the other ring's read-ahead is
// forgotten and that ring becomes the active one. A profile with one RX row
// (the 8168s) always has queue 0 active: nothing changes for it.
#pragma once

#include <cstdint>
#include <deque>
#include <span>
#include <vector>

#include "desc_cache.h"
#include "profile.h"
#include "events.h"
#include "fifo_ring.h"
#include "state_io.h"
#include "timing.h"

namespace rtl8168sim {

class Device;

// Why a received frame was dropped: the `reason` of the RX_DROP trace event
// (trace_events.def documents the same numbers). A number never changes
// meaning, so 8 stays unused.
enum class RxDropReason : uint64_t {
  kRunt = 1,         // shorter than 64 bytes with its FCS, AcceptRunt off
  kDisabled = 2,     // RxEnb off in ChipCmd
  kFilter = 3,       // RxConfig's accept bits / the MAR hash refused it
  kTooLong = 4,      // longer than RxMaxSize (rx_engine.cc, rx_wire_errors.cc)
  kNoDesc = 5,       // no owned descriptor at the frame's turn (RxOverflow)
  kDescDma = 6,      // the descriptor read failed
  kDataDma = 7,      // the data write failed
  kFifoOver = 9,     // RX FIFO overflow (the rx-fifo-over fault)
  kSpillNoDesc = 10, // a frame spilling over descriptors ran out of them (rx_spill.cc)
  kSpillBadDesc = 11,// a 0-byte buffer mid-frame (rx_spill.cc)
  kSpillDma = 12,    // a DMA of the spill failed (rx_spill.cc)
  kRssQueue = 13,    // RSS chose a queue the chip has no ring for (rss.h)
  kBadFcs = 14,      // a bad FCS RxConfig does not accept (rx_wire_errors.cc)
  kShortWire = 15,   // a runt from the wire RxConfig does not accept (rx_wire_errors.cc)
};

class RxEngine {
 public:
  // Its events: handlers, longest delays, when each is pending (events.h).
  static std::span<const EventSpec> events();
  static constexpr uint32_t kMaxRing = DescRing::kMaxRing;  // walk bound without EOR
  // The profile's RX rows.
  RxEngine(Device& d, const ChipProfile& p) : d_(d) {
    for (unsigned q = 0; const RingSpec* spec = profile_ring(p, RingDir::Rx, q); q++) rings_.emplace_back(d, *spec);
  }

  void reset();   // ring position 0, FIFO emptied
  void halt();    // RxEnb cleared: FIFO emptied, position kept
  // False when the FIFO has no room for a standard frame; the host is then
  // owed an rx_ready() once there is (QEMU backends such as tap stop
  // polling until qemu_flush_queued_packets()).
  bool can_receive();
  // Returns false when the FIFO is full (host must retry after rx_ready).
  bool receive(std::span<const uint8_t> frame);
  void on_desc_done();
  void on_write_done();
  void on_prefetch_done();  // EventKind::RxPrefetchDone
  uint32_t position() const { return rings_[0].pos(); }
  // RX queue q's ring position (q < queues()).
  uint32_t position(unsigned q) const { return rings_[q].pos(); }
  unsigned queues() const { return static_cast<unsigned>(rings_.size()); }
  // Nothing taken from the wire waits in the RX FIFO (MCU RX_EMPTY).
  bool fifo_empty() const { return fifo_used_ == 0; }
  // The host was refused and waits for room (rx_ready is due). In line:
  // every entry point asks.
  bool take_ready_signal() {
    const bool r = ready_signal_;
    ready_signal_ = false;
    return r;
  }

  bool desc_fetch_in_flight() const { return phase_ == Phase::FetchDesc; }
  bool write_in_flight() const { return phase_ == Phase::Write; }
  bool prefetch_in_flight() const { return ring().reading(); }

  // The component's state in the blob, for save and load alike (state_io.h).
  void visit(Archive& a);
  const char* check() const;  // nullptr when the loaded state is consistent

 private:
  // WaitDesc: the head frame's descriptor is the prefetch read in flight.
  enum class Phase : uint8_t { Idle, FetchDesc, Write, WaitDesc };
  enum class AddressClass : uint8_t { Unicast, Broadcast, Multicast };
  struct RxFrame {
    std::vector<uint8_t> bytes;  // frame as delivered + 4-byte FCS
    uint32_t status = 0;         // opts1 status bits (MAR/PAM/BAR, PID, fail bits)
    uint32_t opts2 = 0;          // VLAN tag when stripped
    AddressClass kind = AddressClass::Unicast;  // for the tally
    uint32_t fifo_bytes = 0;     // FIFO space taken on arrival (before VLAN strip)
    uint8_t queue = 0;           // the RX queue RSS chose (rss.h)
    desc_v3::RssResult rss;      // RSS's hash and its type, for RxDescV3 (rx_desc_v3.h)
  };
  bool accept(std::span<const uint8_t> frame, uint32_t& status, AddressClass& kind) const;
  // Wire errors (rx_wire_errors.cc): the descriptor error bits (RxCRC,
  // RxRUNT, RxRWT) the fault schedule gives the frame entering the FIFO,
  // and whether RxConfig discards a frame with them (counted; false: it is
  // taken, with RxRES).
  uint32_t wire_errors(size_t len);
  bool refuse_wire_errors(uint32_t wire, size_t len);
  static constexpr uint32_t kRuntBytes = 32;  // a runt on the wire, FCS included
  void count_delivered(const RxFrame& f, uint32_t len);  // a frame written to the ring
  void fetch_desc();
  void drop_head(RxDropReason reason);
  void trace_drop(RxDropReason reason, size_t len);  // the RX_DROP trace event
  // The head frame is longer than its descriptor's buffer: spill it over
  // the following descriptors (rx_spill.cc).
  void spill_head();
  void pop_head();
  uint32_t next_slot() const { return ring().next_slot(desc_.opts1); }  // after the one written
  // The active queue's ring (the head frame's, or the last one used).
  DescCache& ring() { return rings_[q_]; }
  const DescCache& ring() const { return rings_[q_]; }
  // Make the head frame's queue the active one.
  void activate(uint8_t queue);

  Device& d_;
  // One ring per RX queue and, on the active one, its read-ahead of the
  // slot after the one being written: a read in flight, or an owned
  // descriptor kept for that slot. (A deque: DescCache is built in place.)
  std::deque<DescCache> rings_;
  uint8_t q_ = 0;  // the active queue
  Phase phase_ = Phase::Idle;
  RingDesc desc_;  // the head frame's descriptor (opts1 and buffer address kept)
  FifoRing<RxFrame> fifo_;  // frames taken from the wire, waiting for a descriptor
  uint32_t fifo_used_ = 0;
  bool host_waiting_ = false;
  bool ready_signal_ = false;
};

}  // namespace rtl8168sim
