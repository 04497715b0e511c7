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
  // (time, seq) is unique, so the order of events is total and the queue's
  // layout cannot change which event runs first.
  void schedule(Time at, EventKind kind, uint64_t arg = 0) {
    // The new event has the largest sequence number: it runs after every
    // pending event due at or before `at`, before the ones due later. Most
    // are due soon (an engine's next step), so its place is found from the
    // back, moving the few events due earlier up by one.
    q_.emplace_back();
    size_t i = q_.size() - 1;
    for (; i > 0 && q_[i - 1].time <= at; i--) q_[i] = q_[i - 1];
    q_[i] = Event{at, next_seq_++, kind, arg};
  }
  bool empty() const { return q_.empty(); }
  Time next_time() const { return q_.empty() ? kNever : q_.back().time; }
  Event pop() {
    const Event e = q_.back();
    q_.pop_back();
    return e;
  }
  // Drop every pending event of a kind. Each engine keeps at most one event
  // of a kind pending (cancel before re-scheduling), so the queue stays
  // small whatever the guest does.
  void cancel(EventKind kind) {
    std::erase_if(q_, [kind](const Event& e) { return e.kind == kind; });
  }
  // Drop the pending events of a kind that carry `arg` (e.g. one of the two
  // interrupt-mitigation timers).
  void cancel(EventKind kind, uint64_t arg) {
    std::erase_if(q_, [kind, arg](const Event& e) { return e.kind == kind && e.arg == arg; });
  }
  bool pending(EventKind kind) const {
    return std::any_of(q_.begin(), q_.end(), [kind](const Event& e) { return e.kind == kind; });
  }
  void clear() { q_.clear(); }
  // For save/restore: events in a canonical (time, seq) order.
  std::vector<Event> sorted() const { return std::vector<Event>(q_.rbegin(), q_.rend()); }
  uint64_t next_seq() const { return next_seq_; }
  void restore(std::vector<Event> events, uint64_t next_seq) {
    q_ = std::move(events);
    std::sort(q_.begin(), q_.end(), Later{});
    next_seq_ = next_seq;
  }
  size_t size() const { return q_.size(); }

 private:
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      return a.time != b.time ? a.time > b.time : a.seq > b.seq;
    }
  };
  // Pending events, the latest first: the next one to run is at the back
  // (a handful are pending at a time; popping is O(1), scheduling a short
  // scan from the back).
  std::vector<Event> q_;
  uint64_t next_seq_ = 0;
};

}  // namespace rtl8168sim
