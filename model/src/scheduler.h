// SPDX-License-Identifier: GPL-2.0-or-later
// The discrete-event scheduler: integral time, ordered by (time, sequence
// number) so that ties resolve in scheduling order and runs are
// deterministic. Events are plain data (kind + argument), never closures,
// so the queue can be saved and restored with the rest of the state; what a
// kind does is its EventSpec (events.h).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "events.h"
#include "timing.h"

namespace rtl8168sim {

struct Event {
  Time time;
  uint64_t seq;
  EventKind kind;
  uint64_t arg;
};

class Scheduler {
 public:
  void schedule(Time at, EventKind kind, uint64_t arg = 0) {
    heap_.push_back(Event{at, next_seq_++, kind, arg});
    std::push_heap(heap_.begin(), heap_.end(), Later{});
  }
  bool empty() const { return heap_.empty(); }
  Time next_time() const { return heap_.empty() ? kNever : heap_.front().time; }
  Event pop() {
    std::pop_heap(heap_.begin(), heap_.end(), Later{});
    Event e = heap_.back();
    heap_.pop_back();
    return e;
  }
  // Drop every pending event of a kind. Each engine keeps at most one event
  // of a kind pending (cancel before re-scheduling), so the queue stays
  // small whatever the guest does.
  void cancel(EventKind kind) {
    drop_if([kind](const Event& e) { return e.kind == kind; });
  }
  // Drop the pending events of a kind that carry `arg` (e.g. one of the two
  // interrupt-mitigation timers).
  void cancel(EventKind kind, uint64_t arg) {
    drop_if([kind, arg](const Event& e) { return e.kind == kind && e.arg == arg; });
  }
  bool pending(EventKind kind) const {
    return std::any_of(heap_.begin(), heap_.end(), [kind](const Event& e) { return e.kind == kind; });
  }
  void clear() { heap_.clear(); }
  // For save/restore: events in a canonical (time, seq) order.
  std::vector<Event> sorted() const {
    std::vector<Event> v = heap_;
    std::sort(v.begin(), v.end(), [](const Event& a, const Event& b) { return Later{}(b, a); });
    return v;
  }
  uint64_t next_seq() const { return next_seq_; }
  void restore(std::vector<Event> events, uint64_t next_seq) {
    heap_ = std::move(events);
    std::make_heap(heap_.begin(), heap_.end(), Later{});
    next_seq_ = next_seq;
  }
  size_t size() const { return heap_.size(); }

 private:
  template <typename Pred>
  void drop_if(Pred pred) {
    auto it = std::remove_if(heap_.begin(), heap_.end(), pred);
    if (it == heap_.end()) return;
    heap_.erase(it, heap_.end());
    std::make_heap(heap_.begin(), heap_.end(), Later{});
  }
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      return a.time != b.time ? a.time > b.time : a.seq > b.seq;
    }
  };
  std::vector<Event> heap_;
  uint64_t next_seq_ = 0;
};

}  // namespace rtl8168sim
