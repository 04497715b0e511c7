// SPDX-License-Identifier: GPL-2.0-or-later
// A descriptor ring that owns its read-ahead, as gem5's DescCache<T>
// (i8254xGBe) and SimBricks' queue states own theirs: the ring reads
// descriptors ahead of its engine's walk, keeps the owned ones in slot
// order, hands them out one by one, and writes them back (DescRing's
// write_opts1 / write_back). The engine only decides when to read ahead,
// how far, and what a descriptor means. One type for every queue of either
// direction, so a chip with several queues per direction gets one of these
// per queue.
//
//   read_next()  one 16-byte read of slot next() on the ring's own read tag
//                (a second non-posted read besides the engine's data read:
//                docs/TIMING.md "Descriptor prefetch and outstanding reads");
//                its completion event is the direction's: TxDescDone,
//                RxPrefetchDone
//   land()       the read completed: guest memory is read now, as for every
//                simulated read. An owned descriptor joins the ones held
//                and next() moves past it (EOR, the kMaxRing bound: as the
//                walk moves). A slot without Own, or a failed read, is kept
//                as a fact on a TX ring and forgotten on an RX ring
//                (remembers_misses())
//   take()       the oldest held descriptor, handed to the engine
//   forget()     drop everything read ahead and the read in flight (a walk
//                ends, the engine halts, or the engine reads on by itself)
//
// Its state in the blob (two encodings, one state; the slots of what it
// holds and next() are derived on load, as land() moved through them) and
// one check of a loaded state against what these operations can leave.
#pragma once

#include <cstdint>
#include <vector>

#include "desc_ring.h"
#include "events.h"
#include "state_io.h"

namespace rtl8168sim {

class DescCache : public DescRing {
 public:
  DescCache(Device& d, const RingSpec& spec) : DescRing(d, spec) {}

  // What a read that finds no owned descriptor leaves behind. TX keeps it:
  // the walk ends at that slot, so the idle decision comes from a read taken
  // before the current frame completes (the lossy-txpoll race, docs/HISTORY.md
  // §1). RX drops it: the slot is read again when a frame needs it, so a
  // drop (RxOverflow) still means a read at the frame's turn found no buffer
  // (docs/R8169.md §3 "RX").
  bool remembers_misses() const { return spec().dir == RingDir::Tx; }

  // ---- What has been read ahead.
  bool reading() const { return reading_; }      // a read is in flight
  uint32_t next() const { return next_; }        // the slot read next (or being read)
  bool ring_end_seen() const { return end_; }    // a read found Own clear at next()
  bool read_failed() const { return failed_; }   // a read at next() failed
  bool empty() const { return ahead_.empty(); }  // no descriptor held
  // Nothing held and no miss remembered: the engine has to wait for a read.
  bool nothing_ahead() const { return ahead_.empty() && !end_ && !failed_; }
  // The state of a ring that has read nothing ahead (power-on, forget()).
  bool canonical() const { return nothing_ahead() && next_ == 0 && !reading_; }
  // A descriptor of slot `index` is held (not read again until taken).
  bool holds(uint32_t index) const;
  // The oldest held descriptor is slot `index`'s: the engine may take it.
  bool has_at(uint32_t index) const { return !ahead_.empty() && ahead_.front().index == index; }

  // ---- Reading ahead.
  void start_at(uint32_t index) { next_ = index; }  // the next read is of slot `index`
  // Room for another read: none in flight, no miss remembered, fewer than
  // `depth` held.
  bool may_read(uint32_t depth) const {
    return !reading_ && !end_ && !failed_ && ahead_.size() < depth;
  }
  void read_next();
  // The read's completion event ran: false when it is stale (forgotten
  // meanwhile). The read is no longer in flight either way.
  [[nodiscard]] bool complete_read();
  enum class Landed : uint8_t { Owned, NotOwned, Failed };
  Landed land();
  RingDesc take();
  void forget();

  // ---- State save / load.
  // The two encodings of the blob. TX's chain: every held descriptor's
  // opts1, opts2 and address, and the three flags; on load the held
  // descriptors take the slots from `from` on (the walk's slot, where the
  // read-ahead starts: fetch_desc() / start_at()), each the DescRing::next()
  // of the one before, and next() stands just past the last, as land() left
  // them. RX's single slot: in flight, held, the slot and the held
  // descriptor's opts1 and address (RX reads only those), next() derived
  // the same way. Loading the single slot refuses field combinations no RX
  // ring produces (check() reports them).
  enum class Layout : uint8_t { Chain, Slot };
  void visit_read_ahead(Archive& a, Layout layout, uint32_t from = 0);
  // Forget the read-ahead state without touching the scheduler (a ring the
  // blob carries no read-ahead for; events are restored separately).
  void clear_read_ahead();

  // What the engine expects of a loaded read-ahead during a walk.
  struct Expect {
    uint32_t depth;  // descriptors it may hold
    bool may_idle;   // no read in flight with room is fine (it resumes or reads on demand)
  };
  // nullptr when consistent: what read_next(), land() and take() can leave.
  const char* check(const Expect& e) const;

 private:
  EventKind done_kind() const {
    return spec().dir == RingDir::Tx ? EventKind::TxDescDone : EventKind::RxPrefetchDone;
  }

  // Owned descriptors, consecutive from the slot the read-ahead started at.
  std::vector<RingDesc> ahead_;
  uint32_t next_ = 0;
  bool reading_ = false;
  bool end_ = false;
  bool failed_ = false;
  const char* decode_error_ = nullptr;  // a loaded single-slot encoding no ring produces
};

}  // namespace rtl8168sim
