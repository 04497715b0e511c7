// SPDX-License-Identifier: GPL-2.0-or-later
// The TX DMA engine (NPQ and HPQ rings, v2 descriptors) as an explicit
// state machine driven by scheduler events:
//
//   doorbell -> FetchDesc --(Own, !LS)--> FetchDesc ... --(LS)--> frame:
//     [TSO: FetchHeader] -> FetchData (read requests of at most the MXDMA
//     burst, never crossing a descriptor or TSO segment boundary; each pays
//     the PCIe read latency) -> the frame/segment enters the TX FIFO (store
//     and forward) -> the next descriptor is fetched at once (prefetch) while
//     the wire serialises the FIFO head (preamble + frame + FCS + IFG).
//   When a frame's last byte leaves the wire its descriptors are written
//   back (Own cleared, posted) and TxOK is raised.
//   A prefetch that finds Own clear ends the walk ("ring empty"); the
//   engine is idle once the FIFO drained.
//
// With `tx-desc-prefetch` N > 0 the descriptors come from the walk's ring's
// read-ahead (desc_cache.h), kept up to N descriptors ahead of the walk, one
// 16-byte read at a time on a PCIe read tag of its own, so its reads overlap
// the data read in flight (two non-posted reads outstanding; the data reads
// of one frame stay one at a time: docs/TIMING.md). Each descriptor is read
// from guest memory when its simulated read completes; the first one found
// without Own stops the read-ahead, and the walk ends when it reaches that
// slot: the idle decision still comes from a read taken before the current
// frame completes (lossy-txpoll). The walk takes a read-ahead descriptor
// through a zero-delay TxDmaDone, so event order is that of a read.
//
// Guest memory is read when each simulated read completes, not at the
// doorbell: that is what makes the lossy-txpoll race real (docs/HISTORY.md §1).
// Every ring walk is bounded (kMaxRing descriptors without EOR wrap).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "desc_cache.h"
#include "profile.h"
#include "events.h"
#include "fifo_ring.h"
#include "packet/packet.h"
#include "state_io.h"
#include "timing.h"

namespace rtl8168sim {

class Device;

// TxPoll's doorbells (tx_poll.cc): the normal- and high-priority rings.
enum class TxQueue : unsigned { Npq = 0, Hpq = 1 };

class TxEngine {
 public:
  // Its events: handlers, longest delays, when each is pending (events.h).
  static std::span<const EventSpec> events();
  static constexpr uint32_t kMaxRing = DescRing::kMaxRing;  // walk bound without EOR
  static constexpr uint32_t kMaxFrags = 64;    // descriptors per frame before it is refused
  static constexpr uint32_t kMaxTsoBytes = 256 * 1024;
  // The largest read request the engine issues: MXDMA "unlimited" is the PCIe
  // max read request size, at most 4096 bytes (PCIe base spec, MRRS field).
  static constexpr uint32_t kMaxReadRequest = 4096;

  // The profile's TX rows, in queue order (profile.cc checks there are two).
  TxEngine(Device& d, const ChipProfile& p)
      : d_(d),
        rings_{DescCache(d, *profile_ring(p, RingDir::Tx, 0)), DescCache(d, *profile_ring(p, RingDir::Tx, 1))} {}
  unsigned queues() const { return static_cast<unsigned>(rings_.size()); }
  const RingSpec& ring_spec(unsigned queue) const { return rings_[queue].spec(); }
  void reset();                  // ChipCmd reset / power-on: positions to 0, nothing in flight
  void halt();                   // TxEnb cleared / StopReq: drop in-flight work, keep positions
  void doorbell(TxQueue queue);
  // The `outcome` of the doorbell trace event (trace_events.def).
  enum DoorbellOutcome : uint32_t { kTxOff = 0, kStarted = 1, kBusy = 2, kStopped = 3 };
  void on_dma_done();
  void on_prefetch_done();  // a prefetch read completed (EventKind::TxDescDone)
  void on_wire_done();
  bool busy() const { return busy_; }
  uint32_t position(unsigned queue) const { return rings_[queue].pos(); }
  // A read request is outstanding (its TxDmaDone event is pending).
  bool read_in_flight() const {
    return phase_ == Phase::FetchDesc || phase_ == Phase::FetchHeader || phase_ == Phase::FetchData;
  }
  bool wire_busy() const { return wire_busy_; }
  // A descriptor prefetch read is outstanding (its TxDescDone event is
  // pending). Only the walk's ring reads ahead: a walk forgets its
  // read-ahead before it moves to the other ring (end_walk(), halt()).
  bool prefetch_in_flight() const { return ring().reading(); }

  // The component's state in the blob, for save and load alike (state_io.h).
  void visit(Archive& a);
  const char* check() const;  // nullptr when the loaded state is consistent

 private:
  // WaitDesc: the walk waits for the prefetcher's read in flight (last, so
  // the other phases keep the numbers the doorbell_ignored trace reports).
  enum class Phase : uint8_t { Idle, FetchDesc, FetchHeader, FetchData, WaitFifo, Drain, WaitDesc };
  using Desc = RingDesc;
  struct WireFrame {
    std::vector<uint8_t> bytes;
    uint32_t first_index = 0;               // ring index of the frame's first descriptor
    uint8_t queue = 0;
    uint32_t fifo_bytes = 0;
    bool completes = false;                 // last piece of a descriptor frame
    std::vector<std::pair<uint64_t, uint32_t>> writeback;  // desc address, opts1 to write
  };

  DescCache& ring() { return rings_[q_ & 1]; }  // the ring of the walk
  const DescCache& ring() const { return rings_[q_ & 1]; }
  uint32_t burst() const;
  void fetch_desc();
  void desc_fetched();
  void desc_arrived(const Desc& dsc);
  uint32_t prefetch_depth() const;
  void prefetch_more();
  bool slot_in_use(uint32_t index) const;
  void forget_read_ahead();
  const char* check_prefetch() const;
  void begin_frame();
  void continue_fetch();
  void data_fetched();
  void frame_done_fetching();
  // Completes the current frame with TxErr. False when handing its
  // descriptors back failed and the engine stopped (stop_on_error).
  [[nodiscard]] bool refuse_frame(uint64_t reason);
  void refuse_then_fetch(uint64_t reason);
  void stop_on_error(uint64_t reason, uint32_t index);
  void hang(uint64_t reason);  // a chip defect hung the TX path (short-udp-hang)
  void clear_frame();
  uint32_t read_ahead_from() const;
  void derive_loaded();  // the fields the blob leaves out, from those it holds
  const char* check_frame() const;
  const char* check_desc_chain() const;
  uint64_t stream_at_cursor() const;
  // What the frame's descriptors, header and segment index imply: the walk
  // sets its fields through these, and a load derives them through the same
  // ones (derive_loaded()).
  struct Unit {     // the stretch of the frame being fetched: a frame, TSO header or segment
    uint32_t start;  // stream offset of its first byte
    uint32_t goal;   // stream offset where it ends
    uint32_t fifo;   // TX FIFO bytes it takes (0: the TSO header takes none)
  };
  uint32_t frame_total() const;
  Unit frame_unit() const;
  Unit header_unit() const;
  uint32_t tso_header_len(const std::vector<uint8_t>& header) const;
  uint32_t segment_count(packet::TxStatus& st) const;
  uint64_t segment_start(uint32_t index) const;
  Unit segment_unit(uint32_t index) const;
  void start_segment();
  void decode_offload();
  void seek(uint32_t stream_pos);
  void end_walk();
  void stall();  // tx-stop-fetch fault: the walk ends without a fetch
  void stop_fetching();  // no read open; idle, or drain the FIFO first
  void go_idle();
  void kick_wire();
  void fill_writeback(WireFrame& f) const;
  void apply_chip_defects(std::vector<uint8_t>& frame) const;
  bool reserve_fifo(uint32_t bytes);

  Device& d_;
  // Ring state: NPQ, HPQ, each with its read-ahead.
  std::array<DescCache, 2> rings_;
  std::array<bool, 2> pending_{};     // doorbell latched while busy (not lost)
  Time walk_instant_ = kNever;        // bound on descriptors fetched at one instant
  uint32_t walk_count_ = 0;
  unsigned q_ = 0;
  bool busy_ = false;
  // A descriptor write-back failed (SYSErr): the engine stays stopped until
  // the driver restarts it (TxEnb off/on, StopReq, ChipCmd or PCI reset), as
  // r8169's rtl8169_pcierr_interrupt -> rtl_reset_work does.
  bool error_stop_ = false;
  Phase phase_ = Phase::Idle;
  // Current frame.
  std::vector<Desc> descs_;
  packet::TxOffload off_{};
  bool tso_ = false;
  uint32_t total_ = 0;           // bytes described by descs_
  uint32_t cur_desc_ = 0;        // stream cursor: descriptor, offset in its buffer
  uint32_t cur_off_ = 0;
  uint32_t goal_ = 0;            // stream position where the current unit (frame/segment) ends
  uint32_t stream_pos_ = 0;
  uint64_t rd_addr_ = 0;         // read request in flight
  uint32_t rd_len_ = 0;
  std::vector<uint8_t> buf_;     // frame (or TSO segment payload) being assembled
  std::vector<uint8_t> header_;  // TSO header
  uint32_t hdr_len_ = 0;
  uint32_t seg_index_ = 0, seg_count_ = 0;
  uint32_t unit_fifo_ = 0;       // FIFO bytes the unit being fetched will take
  bool unit_reserved_ = false;
  // FIFO + wire.
  FifoRing<WireFrame> fifo_;     // frames waiting for (or on) the wire
  uint32_t fifo_used_ = 0;
  bool wire_busy_ = false;
  std::vector<uint8_t> scratch_;
};

}  // namespace rtl8168sim
