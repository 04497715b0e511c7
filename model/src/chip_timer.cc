// SPDX-License-Identifier: GPL-2.0-or-later
#include "chip_timer.h"

#include "device.h"

namespace rtl8168sim {

namespace {
constexpr uint64_t kCounterSpan = uint64_t{1} << 32;  // TCTR is 32 bits wide
}

void ChipTimer::reset() {
  start_ = d_.now();
  d_.cancel(EventKind::ChipTimer);
}

uint64_t ChipTimer::counts_since_start(Time t) const {
  const unsigned __int128 counts =
      static_cast<unsigned __int128>(t - start_) * d_.timing().timer_clock_mhz / 1000;
  return static_cast<uint64_t>(counts);
}

uint32_t ChipTimer::count() const {
  return static_cast<uint32_t>(counts_since_start(d_.now()) % kCounterSpan);
}

void ChipTimer::on_count_write() {
  start_ = d_.now();
  arm();
}

void ChipTimer::on_compare_write() { arm(); }

// The next instant at which the count equals TimerInt: the first n > the
// current count with n = TimerInt (mod 2^32), reached at the first ns where
// floor(dt * f / 1000) >= n.
Time ChipTimer::next_match() const {
  const uint32_t compare = d_.regs.u32(reg::TimerInt);
  if (compare == 0) return kNever;
  const uint64_t now_counts = counts_since_start(d_.now());
  uint64_t target = (now_counts / kCounterSpan) * kCounterSpan + compare;
  if (target <= now_counts) target += kCounterSpan;
  const uint64_t mhz = d_.timing().timer_clock_mhz;
  const unsigned __int128 ns = (static_cast<unsigned __int128>(target) * 1000 + mhz - 1) / mhz;
  return start_ + static_cast<Time>(ns);
}

void ChipTimer::arm() {
  d_.cancel(EventKind::ChipTimer);
  const Time at = next_match();
  if (at != kNever) d_.schedule_in(at - d_.now(), EventKind::ChipTimer);
}

void ChipTimer::on_match() {
  d_.trace.timer_match(d_.regs.u32(reg::TimerInt));
  start_ = d_.now();  // the count starts again: one match per period
  d_.irq.raise(reg::PCSTimeout);
  d_.cancel(EventKind::ChipTimer);
  Time at = next_match();
  // A host that calls late (or a tiny TimerInt) would make one call run a
  // match per period up to the call's time. Nothing can ack PCSTimeout
  // inside a call, so those matches change nothing the guest can see: skip
  // to the last period boundary at or before the call's time.
  const Time until = d_.call_time();
  if (at <= until) {
    const Time period = at - d_.now();
    at = d_.now() + (until - d_.now()) / period * period;
  }
  d_.schedule_in(at - d_.now(), EventKind::ChipTimer);
}

void ChipTimer::visit(Archive& a) { a.io(start_); }

const char* ChipTimer::check(Time now) const {
  if (start_ > now) return "timer started in the future";
  return nullptr;
}

std::span<const EventSpec> ChipTimer::events() {
  static constexpr EventSpec kEvents[] = {
      {.kind = EventKind::ChipTimer,
       .run = [](Device& d, uint64_t) { d.timer.on_match(); },
       // One full turn of the 32-bit counter (next_match), rounded up.
       .max_delay = [](const Device& d) -> Time {
         const uint64_t mhz = d.timing().timer_clock_mhz ? d.timing().timer_clock_mhz : 1;
         return ((uint64_t{1} << 32) * 1000 + mhz - 1) / mhz + 1;
       },
       .pending = [](const Device& d, unsigned) { return pending_if(d.regs.u32(reg::TimerInt) != 0); },
       .mismatch = "timer event does not match TimerInt"},
  };
  return kEvents;
}

}  // namespace rtl8168sim
