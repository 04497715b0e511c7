// SPDX-License-Identifier: GPL-2.0-or-later
#include "fault_injector.h"

#include <algorithm>
#include <charconv>
#include <iterator>

#include "device.h"

namespace rtl8168sim {

namespace {

// Bounds of every number a spec may carry (hostile specs: QMP, the fuzzer).
constexpr Time kMaxTime = Time{1} << 62;  // the model's clock range (device_state.cc)
constexpr uint64_t kMaxNth = uint64_t{1} << 40;
constexpr uint64_t kMaxCount = uint64_t{1} << 32;
constexpr Time kMinEvery = 10'000;     // 10 us: a periodic fault is not an event storm
constexpr size_t kMaxSpecText = 256;   // one fault as written
constexpr size_t kMaxCanonical = 512;  // one fault in canonical form (the state blob)
// len=: a received frame's length, destination MAC to the end of the data (no
// FCS): a frame below 14 bytes never reaches the hooks (RxEngine::receive),
// none above the 14-bit descriptor length field fits a descriptor.
constexpr uint64_t kMinLen = 14, kMaxLen = 16383;

// Keys a class accepts (bit per key).
enum Key : unsigned {
  kAt = 1,
  kNth = 2,
  kCount = 4,
  kAddr = 8,
  kEvery = 16,
  kDelay = 32,
  kBits = 64,
  kAfter = 128,
  kLinkAct = 256,
  kLen = 512,
};

// What a class's nth= counts (fault_classes.h).
enum Counts : uint8_t { kAccess, kFrames, kTimed };

struct ClassInfo {
  unsigned code;
  const char* name;
  Counts counts;
  unsigned keys;
  unsigned needs;          // keys a spec must give
  const char* needs_help;  // "<name> needs <needs_help>"
  const char* help;        // accepted keys, for error messages
};
// Indexed by FaultClass.
constexpr ClassInfo kClasses[] = {
#define RTL8168_FAULT_CLASS_INFO(code, Name, name, counts, keys, needs, needs_help, help, doc) \
  {code, name, counts, keys, needs, needs_help, help},
    RTL8168_FAULT_CLASSES(RTL8168_FAULT_CLASS_INFO)
#undef RTL8168_FAULT_CLASS_INFO
};
static_assert(std::size(kClasses) == static_cast<size_t>(FaultClass::kCount));
constexpr bool codes_in_order() {
  for (size_t i = 0; i < std::size(kClasses); i++) {
    if (kClasses[i].code != i) return false;
  }
  return true;
}
static_assert(codes_in_order(), "fault_classes.h: codes 0, 1, 2, ... in list order");

const ClassInfo& class_info(FaultClass c) { return kClasses[static_cast<size_t>(c)]; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Decimal or 0x-hexadecimal, no sign, no overflow.
bool parse_u64(std::string_view s, uint64_t& v) {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  return ec == std::errc() && p == s.data() + s.size();
}

// A time: an integer with an optional unit ns (default), us, ms or s.
bool parse_time(std::string_view s, Time& v) {
  uint64_t scale = 1;
  auto unit = [&](std::string_view u, uint64_t k) {
    if (s.size() > u.size() && s.substr(s.size() - u.size()) == u) {
      s.remove_suffix(u.size());
      scale = k;
      return true;
    }
    return false;
  };
  unit("ns", 1) || unit("us", 1'000) || unit("ms", 1'000'000) || unit("s", 1'000'000'000);
  uint64_t n = 0;
  if (!parse_u64(s, n) || n > kMaxTime / scale) return false;
  v = n * scale;
  return v <= kMaxTime;
}

std::string hex(uint64_t v) {
  char b[24];
  auto [p, ec] = std::to_chars(b, b + sizeof b, v, 16);
  return "0x" + std::string(b, p);
}

}  // namespace

const char* fault_class_name(FaultClass c) {
  return c < FaultClass::kCount ? class_info(c).name : "unknown";
}

bool FaultInjector::timed(FaultClass c) { return class_info(c).counts == kTimed; }

std::string parse_fault(std::string_view text, FaultSpec& out) {
  text = trim(text);
  if (text.empty()) return "empty fault spec";
  if (text.size() > kMaxSpecText) return "fault spec longer than 256 characters";
  const std::string quoted = "fault '" + std::string(text) + "': ";
  const size_t colon = text.find(':');
  const std::string_view name = trim(text.substr(0, colon));
  FaultSpec f;
  size_t ci = 0;
  while (ci < std::size(kClasses) && name != kClasses[ci].name) ci++;
  if (ci == std::size(kClasses)) {
    std::string known;
    for (const ClassInfo& c : kClasses) known += (known.empty() ? "" : ", ") + std::string(c.name);
    return quoted + "unknown fault class '" + std::string(name) + "' (known: " + known + ")";
  }
  f.cls = static_cast<FaultClass>(ci);
  const ClassInfo& info = kClasses[ci];
  unsigned given = 0;
  bool count_given = false, duplex_given = false;
  std::string_view rest = colon == std::string_view::npos ? "" : text.substr(colon + 1);
  while (colon != std::string_view::npos) {
    const size_t comma = rest.find(',');
    const std::string_view item = trim(rest.substr(0, comma));
    if (item.empty()) return quoted + "empty field";
    const size_t eq = item.find('=');
    const std::string_view key = trim(item.substr(0, eq));
    const std::string_view val = eq == std::string_view::npos ? "" : trim(item.substr(eq + 1));
    const bool has_val = eq != std::string_view::npos;
    const std::string bad = quoted + "bad value for '" + std::string(key) + "': ";
    unsigned k = 0;
    if (key == "at" || key == "from")
      k = kAt;
    else if (key == "nth" || key == "frame")
      k = kNth;
    else if (key == "count")
      k = kCount;
    else if (key == "addr")
      k = kAddr;
    else if (key == "every")
      k = kEvery;
    else if (key == "delay")
      k = kDelay;
    else if (key == "bits")
      k = kBits;
    else if (key == "after")
      k = kAfter;
    else if (key == "down" || key == "up" || key == "flap" || key == "speed")
      k = kLinkAct;
    else if (key == "len")
      k = kLen;
    else if (key == "duplex")
      k = 0;  // with speed (checked below)
    else
      return quoted + "unknown key '" + std::string(key) + "' (" + info.name + " takes " +
             info.help + ")";
    if (key == "frame" && info.counts != kFrames) {
      return quoted + info.name + " takes no 'frame': it counts no frames (" + info.help + ")";
    }
    if (key == "duplex") {
      if (!(info.keys & kLinkAct))
        return quoted + info.name + " takes no duplex (" + info.help + ")";
      if (duplex_given) return quoted + "duplex given twice";
      duplex_given = true;
      if (val == "full")
        f.full = true;
      else if (val == "half")
        f.full = false;
      else
        return bad + "expects half or full";
    } else {
      if (!(info.keys & k)) {
        return quoted + info.name + " takes no '" + std::string(key) + "' (" + info.help + ")";
      }
      if (given & k) return quoted + "'" + std::string(key) + "' given twice (or with an alias)";
      given |= k;
    }
    switch (k) {
      case kAt: {
        std::string_view v = val;
        if (!v.empty() && v.front() == '+') {
          f.at_relative = true;
          v.remove_prefix(1);
        }
        if (!parse_time(v, f.at))
          return bad + "expects a time (ns, or with us/ms/s), at most 2^62 ns";
        break;
      }
      case kNth:
        if (!parse_u64(val, f.nth) || f.nth == 0 || f.nth > kMaxNth) return bad + "expects 1..2^40";
        break;
      case kCount:
        count_given = true;
        if (val == "all") {
          f.count = FaultSpec::kAll;
        } else if (!parse_u64(val, f.count) || f.count == 0 || f.count > kMaxCount) {
          return bad + "expects 1..2^32 or all";
        }
        break;
      case kAddr: {
        const size_t dash = val.find('-');
        if (dash == std::string_view::npos || !parse_u64(trim(val.substr(0, dash)), f.lo) ||
            !parse_u64(trim(val.substr(dash + 1)), f.hi) || f.lo > f.hi)
          return bad + "expects LO-HI (inclusive, LO <= HI)";
        f.window = true;
        break;
      }
      case kEvery:
        if (!parse_time(val, f.every) || f.every < kMinEvery)
          return bad + "expects a period of at least 10us";
        break;
      case kDelay:
        if (!parse_time(val, f.delay) || f.delay == 0 || f.delay > FaultInjector::kMaxAutonegDelay)
          return bad + "expects 1 ns .. 60 s";
        break;
      case kBits: {
        uint64_t b = 0;
        if (!parse_u64(val, b) || b == 0 || b > 0xffff)
          return bad + "expects IntrStatus bits 0x1..0xffff";
        f.bits = static_cast<uint16_t>(b);
        break;
      }
      case kAfter:
        if (val == "read")
          f.after = RaceAfter::Read;
        else if (val == "ack")
          f.after = RaceAfter::Ack;
        else
          return bad + "expects read or ack";
        break;
      case kLen: {
        uint64_t n = 0;
        if (!parse_u64(val, n) || n < kMinLen || n > kMaxLen) return bad + "expects 14..16383";
        f.len = static_cast<uint32_t>(n);
        break;
      }
      case kLinkAct:
        if (key == "speed") {
          uint64_t s = 0;
          // 2500: 2.5GBASE-T, a multi-gigabit partner (IEEE 802.3 clause 126); a PHY
          // without that ability finds no common mode and keeps the link down (Phy::resolve)
          if (!parse_u64(val, s) || (s != 10 && s != 100 && s != 1000 && s != 2500))
            return bad + "expects 10, 100, 1000 or 2500";
          f.link = LinkAction::Speed;
          f.speed = static_cast<uint32_t>(s);
        } else {
          if (has_val) return quoted + "'" + std::string(key) + "' takes no value";
          f.link = key == "down" ? LinkAction::Down
                   : key == "up" ? LinkAction::Up
                                 : LinkAction::Flap;
        }
        break;
      default:
        break;
    }
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  // What each class needs, and the defaults that differ from "fire once".
  if ((given & info.needs) != info.needs) return quoted + info.name + " needs " + info.needs_help;
  switch (f.cls) {
    case FaultClass::DmaRead:
    case FaultClass::DmaWrite:
      if (f.window && !count_given) f.count = FaultSpec::kAll;  // every access to the window
      break;
    case FaultClass::IrqRace:
      if (!count_given) f.count = FaultSpec::kAll;  // after each read / ack
      break;
    case FaultClass::Link:
      if (duplex_given && f.link != LinkAction::Speed) return quoted + "duplex goes with speed=";
      // 2.5GBASE-T has no half duplex (IEEE 802.3 clause 126)
      if (f.link == LinkAction::Speed && f.speed == 2500 && !f.full)
        return quoted + "speed=2500 is full duplex only";
      break;
    default:
      break;
  }
  if (info.counts == kTimed) {
    if (f.count != 1 && f.every == 0) return quoted + "count above 1 needs every=";
    if (f.every != 0 && !count_given) f.count = FaultSpec::kAll;
  }
  out = f;
  return {};
}

std::string parse_fault_list(std::string_view text, std::vector<FaultSpec>& out) {
  std::vector<FaultSpec> list;
  while (true) {
    const size_t semi = text.find(';');
    const std::string_view item = trim(text.substr(0, semi));
    if (!item.empty()) {
      if (list.size() == FaultInjector::kMaxFaults) {
        return "more than " + std::to_string(FaultInjector::kMaxFaults) + " faults";
      }
      FaultSpec f;
      std::string err = parse_fault(item, f);
      if (!err.empty()) return err;
      list.push_back(f);
    }
    if (semi == std::string_view::npos) break;
    text = text.substr(semi + 1);
  }
  out = std::move(list);
  return {};
}

std::string format_fault(const FaultSpec& f) {
  const ClassInfo& info = class_info(f.cls);
  std::string s = info.name;
  std::vector<std::string> kv;
  // The keys in a fixed order, each where the class takes it.
  if (info.keys & kAfter) kv.push_back(f.after == RaceAfter::Read ? "after=read" : "after=ack");
  if (info.keys & kLinkAct) {
    switch (f.link) {
      case LinkAction::Down:
        kv.push_back("down");
        break;
      case LinkAction::Up:
        kv.push_back("up");
        break;
      case LinkAction::Flap:
        kv.push_back("flap");
        break;
      case LinkAction::Speed:
        kv.push_back("speed=" + std::to_string(f.speed));
        kv.push_back(f.full ? "duplex=full" : "duplex=half");
        break;
    }
  }
  if (info.keys & kDelay) kv.push_back("delay=" + std::to_string(f.delay));
  if (f.bits) kv.push_back("bits=" + hex(f.bits));
  if (f.window) kv.push_back("addr=" + hex(f.lo) + "-" + hex(f.hi));
  if (f.len) kv.push_back("len=" + std::to_string(f.len));
  if (f.at || f.at_relative)
    kv.push_back(std::string("at=") + (f.at_relative ? "+" : "") + std::to_string(f.at));
  if (f.nth != 1)
    kv.push_back((info.counts == kFrames ? "frame=" : "nth=") + std::to_string(f.nth));
  if (f.every) kv.push_back("every=" + std::to_string(f.every));
  if (info.keys & kCount) {
    kv.push_back("count=" +
                 (f.count == FaultSpec::kAll ? std::string("all") : std::to_string(f.count)));
  }
  for (size_t i = 0; i < kv.size(); i++) s += (i == 0 ? ":" : ",") + kv[i];
  return s;
}

// ---- the schedule ----

void FaultInjector::power_on(const std::vector<FaultSpec>& configured) {
  faults_.clear();
  tx_stalled_ = false;
  for (const FaultSpec& f : configured) install(f);
  if (!faults_.empty()) reschedule();
}

void FaultInjector::install(FaultSpec spec) {
  const Time now = d_.now();
  if (spec.at_relative) {
    spec.at = std::min(kMaxTime, now + std::min(spec.at, kMaxTime));
    spec.at_relative = false;
  }
  // A time-class fault due in the past fires at once; its period counts from now.
  if (timed(spec.cls) && spec.at < now) spec.at = now;
  Fault f;
  f.spec = spec;
  f.base = d_.stats.tx_frames;
  faults_.push_back(f);
}

std::string FaultInjector::add(std::string_view text) {
  std::vector<FaultSpec> list;
  std::string err = parse_fault_list(text, list);
  if (!err.empty()) return err;
  if (list.empty()) return "empty fault spec";
  if (faults_.size() + list.size() > kMaxFaults) {
    return "the schedule holds at most " + std::to_string(kMaxFaults) + " faults (" +
           std::to_string(faults_.size()) + " installed)";
  }
  for (const FaultSpec& f : list) install(f);
  reschedule();
  return {};
}

void FaultInjector::clear() {
  faults_.clear();
  tx_stalled_ = false;
  reschedule();
}

// ---- triggers ----

Time FaultInjector::due(const Fault& f) const {
  if (!timed(f.spec.cls) || f.fired >= f.spec.count) return kNever;
  if (f.spec.every == 0) return f.fired == 0 ? f.spec.at : kNever;
  if (f.fired > (kMaxTime - f.spec.at) / f.spec.every) return kNever;  // beyond the clock's range
  return f.spec.at + f.fired * f.spec.every;
}

Time FaultInjector::next_due() const {
  Time t = kNever;
  for (const Fault& f : faults_) t = std::min(t, due(f));
  return t;
}

void FaultInjector::reschedule() {
  d_.cancel(EventKind::FaultTimer);
  const Time t = next_due();
  if (t != kNever) d_.schedule_in(t > d_.now() ? t - d_.now() : 0, EventKind::FaultTimer);
}

bool FaultInjector::occurrence(Fault& f) {
  if (d_.now() < f.spec.at || f.fired >= f.spec.count) return false;
  f.seen++;
  return f.seen >= f.spec.nth;
}

void FaultInjector::fired(size_t index, uint64_t detail) {
  Fault& f = faults_[index];
  f.fired++;
  d_.stats.faults_fired++;
  d_.trace.fault_fired(static_cast<uint32_t>(index), static_cast<uint32_t>(f.spec.cls), detail);
}

// ---- hooks ----

bool FaultInjector::scan_dma(bool write, uint64_t addr, uint64_t len) {
  const FaultClass want = write ? FaultClass::DmaWrite : FaultClass::DmaRead;
  // The transaction's last byte (an address + length that wraps reaches the top).
  const uint64_t last = addr + len - 1 < addr ? UINT64_MAX : addr + len - 1;
  bool fail = false;
  for (size_t i = 0; i < faults_.size(); i++) {
    Fault& f = faults_[i];
    if (f.spec.cls != want) continue;
    if (f.spec.window && (last < f.spec.lo || addr > f.spec.hi)) continue;
    if (!occurrence(f)) continue;
    fired(i, addr);
    fail = true;
  }
  return fail;
}

// The frame classes: every fault of `cls` counts the occurrence (with len=,
// only a frame of that length), and those due fire (each is a fault_fired
// event with the occurrence number).
bool FaultInjector::scan_frame(FaultClass cls, size_t len) {
  bool hit = false;
  for (size_t i = 0; i < faults_.size(); i++) {
    Fault& f = faults_[i];
    if (f.spec.cls != cls || (f.spec.len != 0 && f.spec.len != len) || !occurrence(f)) continue;
    fired(i, f.seen);
    hit = true;
  }
  return hit;
}

// frame=N: the engine stops before fetching the Nth frame counted from the
// fault's installation, i.e. once N-1 frames have left the wire since then.
bool FaultInjector::scan_tx_stop_fetch() {
  for (size_t i = 0; i < faults_.size(); i++) {
    Fault& f = faults_[i];
    if (f.spec.cls != FaultClass::TxStopFetch || f.fired || d_.now() < f.spec.at) continue;
    if (d_.stats.tx_frames - f.base < f.spec.nth - 1) continue;
    f.seen++;
    tx_stalled_ = true;
    fired(i, d_.stats.tx_frames - f.base);
    return true;
  }
  return false;
}

Time FaultInjector::autoneg_delay() {
  Time delay = 0;
  for (size_t i = 0; i < faults_.size(); i++) {
    Fault& f = faults_[i];
    if (f.spec.cls != FaultClass::AutonegSlow || !occurrence(f)) continue;
    fired(i, f.spec.delay);
    delay = std::max(delay, f.spec.delay);
  }
  return delay;
}

void FaultInjector::scan_irq_race(bool ack) {
  const RaceAfter after = ack ? RaceAfter::Ack : RaceAfter::Read;
  for (size_t i = 0; i < faults_.size(); i++) {
    Fault& f = faults_[i];
    if (f.spec.cls != FaultClass::IrqRace || f.spec.after != after || !occurrence(f)) continue;
    if (f.spec.bits) {
      fired(i, f.spec.bits);
      d_.irq.raise(f.spec.bits);
    } else if (d_.has_pullable_event()) {
      fired(i, 0);
      d_.pull_next_event();
    }
  }
}

void FaultInjector::on_timer() {
  const Time now = d_.now();
  for (size_t i = 0; i < faults_.size(); i++) {
    if (due(faults_[i]) <= now) fire_timed(i);
  }
  reschedule();
}

void FaultInjector::fire_timed(size_t index) {
  Fault& f = faults_[index];
  f.seen++;
  if (f.spec.cls == FaultClass::SpuriousIrq) {
    fired(index, f.spec.bits);
    d_.irq.raise(f.spec.bits);
    return;
  }
  switch (f.spec.link) {
    case LinkAction::Down:
      fired(index, 0);
      d_.phy.set_fault_carrier(false);
      break;
    case LinkAction::Up:
      fired(index, 1);
      d_.phy.set_fault_carrier(true);
      break;
    case LinkAction::Flap: {
      const bool up = !d_.phy.fault_carrier();
      fired(index, up ? 1 : 0);
      d_.phy.set_fault_carrier(up);
      break;
    }
    case LinkAction::Speed:
      fired(index, f.spec.speed);
      d_.phy.set_partner(f.spec.speed, f.spec.full);
      break;
  }
}

// ---- figures ----

std::string FaultInjector::to_json() const {
  std::string s = "{\"faults\": [";
  for (size_t i = 0; i < faults_.size(); i++) {
    const Fault& f = faults_[i];
    const bool done = f.fired >= f.spec.count || (f.spec.cls == FaultClass::TxStopFetch && f.fired);
    const char* state = f.spec.cls == FaultClass::TxStopFetch && tx_stalled_ ? "active"
                        : done                                               ? "done"
                        : d_.now() < f.spec.at                               ? "waiting"
                                                                             : "armed";
    const Time next = due(f);
    s += i ? ", " : "";
    s += "{\"index\": " + std::to_string(i) + ", \"spec\": \"" + format_fault(f.spec) +
         "\", \"class\": \"" + fault_class_name(f.spec.cls) + "\", \"state\": \"" + state +
         "\", \"seen\": " + std::to_string(f.seen) + ", \"fired\": " + std::to_string(f.fired) +
         ", \"next\": " + (next == kNever ? std::string("null") : std::to_string(next)) + "}";
  }
  s += "], \"tx_stalled\": " + std::string(tx_stalled_ ? "true" : "false") +
       ", \"fired_total\": " + std::to_string(d_.stats.faults_fired) + "}";
  return s;
}

// ---- state ----

void FaultInjector::visit(Archive& a) {
  const uint32_t n = a.count(faults_.size(), kMaxFaults);
  if (a.loading()) faults_.assign(n, Fault{});
  for (uint32_t i = 0; i < n && a.ok(); i++) {
    Fault& f = faults_[i];
    const std::string text = a.loading() ? std::string() : format_fault(f.spec);
    std::vector<uint8_t> bytes(text.begin(), text.end());
    a.bytes(bytes, kMaxCanonical);
    a.io(f.seen);
    a.io(f.fired);
    a.io(f.base);
    if (a.loading() && a.ok()) {
      // The blob carries the canonical text: it must parse, and be canonical
      // (so every field has exactly one encoding), with its time resolved.
      const std::string loaded(bytes.begin(), bytes.end());
      if (!parse_fault(loaded, f.spec).empty() || format_fault(f.spec) != loaded ||
          f.spec.at_relative)
        a.fail();
    }
  }
  a.io(tx_stalled_);
}

const char* FaultInjector::check() const {
  bool stop_fired = false;
  for (const Fault& f : faults_) {
    // occurrence() fires only from the nth matching occurrence on, at most
    // `count` times; fire_timed() counts each firing as seen.
    if (f.fired > f.spec.count) return "fault fired more often than its count";
    if (f.spec.cls == FaultClass::TxStopFetch) {
      // tx_stop_fetch() counts frames through tx_frames - base, not seen.
      if (f.fired > 1 || f.seen != f.fired) return "tx-stop-fetch fired twice";
      if (f.base > d_.stats.tx_frames) return "tx-stop-fetch counts frames from the future";
      if (f.fired && d_.stats.tx_frames - f.base < f.spec.nth - 1)
        return "tx-stop-fetch fired before its frame";
      stop_fired |= f.fired == 1;
      continue;
    }
    if (f.fired > f.seen || (f.fired && f.seen - f.fired < f.spec.nth - 1))
      return "fault fired before its nth occurrence";
    if (timed(f.spec.cls) && f.seen != f.fired) return "timed fault seen and fired disagree";
    if (f.base > d_.stats.tx_frames) {
      return "fault installed after the frames it counts";
    }
  }
  // tx_stalled_ is set only when a tx-stop-fetch fault fires, and then the
  // engine issues no read (TxEngine::stall at a frame boundary, and every
  // later fetch_desc() stalls at once).
  if (tx_stalled_ && !stop_fired) return "TX stalled without a tx-stop-fetch fault that fired";
  if (tx_stalled_ && d_.tx.read_in_flight()) return "TX reads while stalled by tx-stop-fetch";
  return nullptr;
}

// reschedule() keeps one FaultTimer at the schedule's next firing, and none
// when nothing is due.
std::span<const EventSpec> FaultInjector::events() {
  static constexpr EventSpec kEvents[] = {
      {.kind = EventKind::FaultTimer,
       .run = [](Device& d, uint64_t) { d.faults.on_timer(); },
       // A fault's own time (`due` wants exactly the schedule's next).
       .max_delay = [](const Device&) -> Time { return Device::kMaxClock; },
       .pending = [](const Device& d, unsigned) { return pending_if(d.faults.next_due() != kNever); },
       .mismatch = "fault timer does not match the fault schedule",
       .due = [](const Device& d) { return d.faults.next_due(); },
       .mistimed = "fault timer not at the schedule's next firing"},
  };
  return kEvents;
}

}  // namespace rtl8168sim
