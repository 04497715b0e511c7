// SPDX-License-Identifier: GPL-2.0-or-later
#include "desc_cache.h"

#include "device.h"

namespace rtl8168sim {

namespace {

// The refusals of check(), each in TX's and RX's words (the engines' load
// checks speak of a prefetcher on TX and of a prefetch on RX). RX's single
// slot can only fail kNoRoom and kUnowned; its other words serve an RX ring
// that holds more.
enum Refusal : uint8_t { kDeeper, kFlags, kNoRoom, kIdle, kUnowned };
constexpr const char* kRefusals[][2] = {
    // more held than the depth
    {"TX prefetched more descriptors than its depth",
     "RX prefetched more descriptors than its depth"},
    // in flight, end seen and failed are exclusive
    {"TX prefetcher state flags conflict", "RX prefetch state flags conflict"},
    // a read in flight with no room for its result
    {"TX prefetch read in flight without room", "RX prefetch both in flight and done"},
    // no read in flight though there is room
    {"TX prefetcher idle with room during a walk", "RX prefetch idle with room"},
    // a held descriptor without Own
    {"TX prefetched descriptor not owned", "RX prefetched descriptor not owned"},
};

}  // namespace

bool DescCache::holds(uint32_t index) const {
  for (const RingDesc& dsc : ahead_) {
    if (dsc.index == index) return true;
  }
  return false;
}

void DescCache::read_next() {
  reading_ = true;
  d_.schedule_in(d_.paced(d_.link_wake() + dma_read_time(d_.timing(), desc::kSize)), done_kind());
}

bool DescCache::complete_read() {
  if (!reading_) return false;
  reading_ = false;
  return true;
}

DescCache::Landed DescCache::land() {
  RingDesc dsc;
  if (!read(next_, dsc)) {
    if (remembers_misses())
      failed_ = true;
    else
      forget();
    return Landed::Failed;
  }
  if (!(dsc.opts1 & desc::DescOwn)) {
    if (remembers_misses())
      end_ = true;
    else
      forget();
    return Landed::NotOwned;
  }
  ahead_.push_back(dsc);
  next_ = DescRing::next(next_, dsc.opts1);
  return Landed::Owned;
}

RingDesc DescCache::take() {
  const RingDesc dsc = ahead_.front();
  ahead_.erase(ahead_.begin());
  return dsc;
}

void DescCache::forget() {
  d_.cancel(done_kind());
  clear_read_ahead();
}

void DescCache::clear_read_ahead() {
  ahead_.clear();
  next_ = 0;
  reading_ = end_ = failed_ = false;
  decode_error_ = nullptr;
}

void DescCache::visit_read_ahead(Archive& a, Layout layout, uint32_t from) {
  if (a.loading()) decode_error_ = nullptr;
  if (layout == Layout::Chain) {
    const uint32_t n = a.count(ahead_.size(), 64);
    if (a.loading()) ahead_.assign(n, RingDesc{});
    for (uint32_t i = 0; i < n && a.ok(); i++) {
      a.io(ahead_[i].opts1);
      a.io(ahead_[i].opts2);
      a.io(ahead_[i].addr);
    }
    a.io(reading_);
    a.io(end_);
    a.io(failed_);
    if (!a.loading()) return;
    // The slots land() read them from: the first at `from`, each next one
    // where DescRing::next() moves (EOR, the kMaxRing bound).
    next_ = from;
    for (RingDesc& dsc : ahead_) {
      dsc.index = next_;
      next_ = DescRing::next(next_, dsc.opts1);
    }
    return;
  }
  // One slot: the read in flight is of `index`; a held descriptor is slot
  // `index`'s, with its opts1 and address; neither: all zero (forget()).
  bool held = !ahead_.empty();
  uint32_t index = held ? ahead_.front().index : next_;
  uint32_t opts1 = held ? ahead_.front().opts1 : 0;
  uint64_t addr = held ? ahead_.front().addr : 0;
  a.io(reading_);
  a.io(held);
  a.io(index);
  a.io(opts1);
  a.io(addr);
  if (!a.loading()) return;
  end_ = failed_ = false;
  ahead_.clear();
  if (held) ahead_.push_back(RingDesc{index, opts1, 0, addr});
  next_ = held ? DescRing::next(index, opts1) : index;
  if (index >= kMaxRing) {
    decode_error_ = "RX prefetch slot out of range";
  } else if (!reading_ && !held && (index || opts1 || addr)) {
    decode_error_ = "RX prefetch fields set with no prefetch";
  } else if (reading_ && !held && (opts1 || addr)) {
    decode_error_ = "RX prefetch read in flight with a result";
  }
}

// The read-ahead as read_next(), land(), take() and forget() keep it: at
// most `depth` held, at most one of in flight / end seen / failed, a read in
// flight only with room for its result, an idle read-ahead with room only
// where the engine expects it, the held descriptors owned (land() keeps no
// other). Their slots follow each other by construction (visit_read_ahead
// derives them). A blob with any other state would hand the engine a
// descriptor the driver still owns, or leave it waiting for a read nobody
// issued.
const char* DescCache::check(const Expect& e) const {
  const size_t dir = spec().dir == RingDir::Tx ? 0 : 1;
  auto refuse = [dir](Refusal why) { return kRefusals[why][dir]; };
  if (decode_error_) return decode_error_;
  if (ahead_.size() > e.depth) return refuse(kDeeper);
  if (int{reading_} + int{end_} + int{failed_} > 1) return refuse(kFlags);
  if (reading_ && ahead_.size() >= e.depth) return refuse(kNoRoom);
  if (!reading_ && !end_ && !failed_ && ahead_.size() != e.depth && !e.may_idle)
    return refuse(kIdle);
  for (const RingDesc& dsc : ahead_) {
    if (!(dsc.opts1 & desc::DescOwn)) return refuse(kUnowned);
  }
  return nullptr;
}

}  // namespace rtl8168sim
