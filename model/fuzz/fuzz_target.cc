// SPDX-License-Identifier: GPL-2.0-or-later
// Coverage-guided fuzz target for the RTL8168 model (docs/FUZZING.md).
//
// One device, driven only through the C API (rtl8168.h) by an arbitrary
// interleaving decoded from the input (fuzz_input.h): configuration, register
// accesses of any size and offset, a guest RAM whose rings and buffers the
// input writes, DMA fault windows, time steps, frames from the wire, link
// changes, state save/load (of the saved blob and of mutated copies, onto the
// same device and onto a fresh one) and re-entry from transmit()/rx_ready().
// After every top-level call the target checks the API's promises and aborts
// with "rtl8168-fuzz: invariant violated: ..." when one is broken, so
// libFuzzer reports it like a crash.
//
// The same file is built twice: against libFuzzer with ASan+UBSan (clang,
// scripts/fuzz) and, with replay_main.cc, as the CTest regression replayer
// (g++, every build). It never reads a clock or a random source: a run is a
// function of its input.
//
// Known-defect switches: while a defect is being fixed the fuzzer
// can be kept off its path by building with -D<switch>=1. The default (all 0)
// exercises everything; a committed build never sets them.
//   RTL8168_FUZZ_SKIP_NULL_RECEIVE  receive(NULL) counted in bad_calls
//   RTL8168_FUZZ_SKIP_RESET_STATS   stats zero after rtl8168_reset
//   RTL8168_FUZZ_SKIP_WORK_BOUND    TSO with a small MSS (work per entry point)
//   RTL8168_FUZZ_SKIP_STATE         own blob refused / mutated blobs loaded
//   RTL8168_FUZZ_SKIP_CHIPCMD_RESET own blob refused because a ChipCmd write
//                                   cleared CmdReset while the reset ran
//                                   (regressions/state-chipcmd-reset-cleared)
//   RTL8168_FUZZ_SKIP_RX_FIFO_SHORT own blob refused because a short VLAN-tagged
//                                   frame sits in the RX FIFO
//                                   (regressions/state-rx-vlan-short-frame)
//   RTL8168_FUZZ_SKIP_TALLY_CMD     own blob refused because a CounterAddrLow
//                                   write cleared Dump/Reset mid-command
//                                   (regressions/state-tally-cmd-cleared)
#include <algorithm>
#include <bit>
#include <array>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "bring_up.h"
#include "driver_regs.h"
#include "fuzz_input.h"
#include "host.h"
#include "rtl8168/rtl8168.h"

#ifndef RTL8168_FUZZ_SKIP_NULL_RECEIVE
#define RTL8168_FUZZ_SKIP_NULL_RECEIVE 0
#endif
#ifndef RTL8168_FUZZ_SKIP_RESET_STATS
#define RTL8168_FUZZ_SKIP_RESET_STATS 0
#endif
#ifndef RTL8168_FUZZ_SKIP_WORK_BOUND
#define RTL8168_FUZZ_SKIP_WORK_BOUND 0
#endif
#ifndef RTL8168_FUZZ_SKIP_STATE
#define RTL8168_FUZZ_SKIP_STATE 0
#endif
#ifndef RTL8168_FUZZ_SKIP_CHIPCMD_RESET
#define RTL8168_FUZZ_SKIP_CHIPCMD_RESET 0
#endif
#ifndef RTL8168_FUZZ_SKIP_RX_FIFO_SHORT
#define RTL8168_FUZZ_SKIP_RX_FIFO_SHORT 0
#endif
#ifndef RTL8168_FUZZ_SKIP_TALLY_CMD
#define RTL8168_FUZZ_SKIP_TALLY_CMD 0
#endif

namespace rtl8168_fuzz {
namespace {

// ---- limits of one run --------------------------------------------------

constexpr size_t kMaxOps = 4096;            // operations decoded per input
constexpr unsigned kReentryBudget = 64;     // nested entry points per input
constexpr unsigned kMaxDepth = 3;           // callback nesting
constexpr size_t kHostQueue = 32;           // frames the host keeps after back-pressure
constexpr unsigned kDrainSteps = 1u << 15;  // timer steps of the final drain
constexpr uint64_t kMaxNow = 1ull << 60;    // host time never wraps
// Largest transaction the model may ask for: RX writes a frame up to the
// 14-bit buffer size, TX reads at most the PCIe MRRS (4 KiB); 64 KiB leaves
// room for any legitimate request and catches a trusted 4 GiB rd_len_.
constexpr size_t kMaxDmaLen = 64 * 1024 + 64;
constexpr size_t kMaxFrameLen = 64 * 1024;
// State checks per input. A save checked in full costs three serialisations
// of the state, four decodes (the model decodes every blob twice: on a
// scratch device, then for real) and two device constructions, and that was
// most of the target's time. Invariant 6's round trips therefore run on the
// first kFullStateChecks saves of an input and then on every
// kStateCheckEvery-th one, and likewise for loads and migrations (their own
// count); the size API contract on the first save of an input. A state that
// a later save reaches is reached at an early save by the same input with
// the saves before it removed, which is one of libFuzzer's mutations.
constexpr unsigned kFullStateChecks = 4;
constexpr unsigned kStateCheckEvery = 8;

// Fixed guest-physical layout (RAM at 0). Rings are 256-byte aligned, as the
// ring base registers require.
constexpr uint64_t kTxRing = 0x0000;  // up to 64 descriptors
constexpr uint64_t kTxHRing = 0x0400;
constexpr uint64_t kRxRing = 0x0800;  // up to 16 descriptors
constexpr uint64_t kRxBufs = 0x1000;

// Register offsets and bits, descriptor bits: the driver's view
// (model/hostlib/driver_regs.h), so the target depends on the C API only.
using namespace rtl8168_driver;

// Sizes for raw accesses: the supported ones, 8 (rejected) and odd ones.
constexpr unsigned kSizes[8] = {1, 2, 4, 8, 4, 2, 3, 0};


[[noreturn]] __attribute__((format(printf, 1, 2))) void fail(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::fputs("rtl8168-fuzz: invariant violated: ", stderr);
  std::vfprintf(stderr, fmt, ap);
  std::fputc('\n', stderr);
  va_end(ap);
  std::abort();
}

// RTL8168_FUZZ_VERBOSE=1: name each operation (to read a crash input).
bool verbose() {
  static const bool v = std::getenv("RTL8168_FUZZ_VERBOSE") != nullptr;
  return v;
}

// The target's own byte loops (frame payloads, checksums) are left out of
// coverage instrumentation: their edges and comparisons say nothing about
// the model, and traced per byte they cost more than the model's work
// (clang's -fsanitize=fuzzer; the g++ replayer has no such instrumentation).
#if defined(__clang__)
#define RTL8168_FUZZ_NO_COV __attribute__((no_sanitize("coverage")))
#else
#define RTL8168_FUZZ_NO_COV
#endif

// A refusal of the device's own blob that a known-defect switch tolerates.
bool known_refusal(const char* err) {
  return RTL8168_FUZZ_SKIP_STATE ||
         (RTL8168_FUZZ_SKIP_CHIPCMD_RESET && std::strstr(err, "ChipCmd reset bit") != nullptr) ||
         (RTL8168_FUZZ_SKIP_RX_FIFO_SHORT &&
          std::strstr(err, "RX FIFO frame too short") != nullptr) ||
         (RTL8168_FUZZ_SKIP_TALLY_CMD && std::strstr(err, "tally command bits") != nullptr);
}

// ---- input --------------------------------------------------------------

class Reader {
 public:
  Reader(const uint8_t* p, size_t n) : p_(p), n_(n) {}
  bool empty() const { return pos_ >= n_; }
  uint8_t u8() { return pos_ < n_ ? p_[pos_++] : 0; }
  uint16_t u16() { return static_cast<uint16_t>(u8() | u8() << 8); }
  uint32_t u32() { return u16() | static_cast<uint32_t>(u16()) << 16; }
  uint64_t u64() { return u32() | static_cast<uint64_t>(u32()) << 32; }
  std::vector<uint8_t> bytes(size_t len) {
    const size_t n = std::min(len, n_ - std::min(pos_, n_));
    std::vector<uint8_t> v(p_ + pos_, p_ + pos_ + n);
    pos_ += n;
    v.resize(len, 0);
    return v;
  }

 private:
  const uint8_t* p_;
  size_t n_;
  size_t pos_ = 0;
};

// ---- host ---------------------------------------------------------------

// The host is the host library's (model/hostlib/host.h): guest RAM at 0,
// the clock, one Port per device (its timer deadline and INTx pin; a fresh
// device made for a load check gets its own, so its callbacks cannot touch
// the primary device's), MSI counting and the callbacks themselves. What
// the target adds is its checker: the state below and the hooks
// (install_hooks) through which it sees every callback.
using rtl8168_host::Port;

// Host-side counters the accounting invariants compare with rtl8168_stats.
struct Acct {
  uint64_t rx_consumed = 0;  // frames receive() returned len for
  uint64_t tx_seen = 0;      // frames transmit() handed to the host
};

struct Slot {
  std::vector<uint8_t> blob;
  Acct acct;
  bool acct_valid = false;
  bool msi = false;         // the host's MSI setting when it was saved
  bool intx_armed = false;  // and whether INTx was comparable then
};

struct Driver {
  unsigned tx_n = 16, rx_n = 4;
  uint32_t rx_buf = 2048;
  std::array<unsigned, 2> tx_cur{};
  unsigned rx_cur = 0;
  uint64_t tx_next = 0;  // TX buffer bump allocator
};

// The library's host (now, ram, msi, msi_count, port: the primary device's
// Port, dev()) with the checker's state.
struct FuzzHost : rtl8168_host::Host {
  uint8_t flags = 0;
  // The chip's interrupt registers and TX doorbell (the model's chip list;
  // the 8168's until the device is created).
  ChipPorts ports{};
  std::array<uint8_t, kReentrySlots> program{};
  unsigned reentry_calls = 0, reentry_left = kReentryBudget;
  rtl8168_config* cfg = nullptr;
  std::array<uint8_t, 6> mac{};
  Driver drv;
  // DMA fault window.
  bool fail_reads = false, fail_writes = false, windowed = false;
  uint64_t win_lo = 0, win_hi = 0;
  // Per entry point (innermost): DMA transactions and transmits.
  unsigned depth = 0;
  uint64_t call_dma = 0, call_frames = 0;
  bool reentered = false;     // a callback re-entered during this top-level call
  unsigned lower_points = 0;  // calls in this top-level call that may lower INT
  bool in_load = false;
  // Checker state.
  Acct acct;
  bool acct_valid = true;
  // INT after the last call (int_lines: bit 0 INT, or the ISR v2 messages' levels).
  uint32_t lines = 0;
  bool lines_v2 = false;
  bool level_known = true;                 // false after a load that left events due
  bool intx_armed = true;                  // INTx must equal INT (MSI off and consistent once)
  std::deque<std::vector<uint8_t>> queue;  // frames refused by back-pressure
  bool rx_ready_seen = false;
  std::array<Slot, 4> slots;
  unsigned saves = 0, loads = 0;  // state operations so far (kFullStateChecks)
  // The device's fault schedule holds an irq-race:after=read fault: the
  // checker's own IntrStatus reads have side effects (docs/FAULTS.md), so
  // invariants 3 and 4 (INTx level, MSI count) are not checked meanwhile.
  bool read_effects = false;
  // Guest RAM bytes written in this run (cleared afterwards, not all of RAM).
  uint64_t dirty_lo = UINT64_MAX, dirty_hi = 0;
};

bool state_check_due(unsigned& count) {
  const unsigned n = count++;
  return n < kFullStateChecks || n % kStateCheckEvery == 0;
}

void mark_dirty(FuzzHost& h, uint64_t addr, size_t len) {
  h.dirty_lo = std::min(h.dirty_lo, addr);
  h.dirty_hi = std::max(h.dirty_hi, addr + len);
}

bool overlaps_window(const FuzzHost& h, uint64_t addr, size_t len) {
  if (!h.windowed) return true;
  const uint64_t end = addr + len < addr ? UINT64_MAX : addr + len;
  return addr < h.win_hi && h.win_lo < end;
}

void count_dma(FuzzHost& h, size_t len, const char* dir) {
  if (len > kMaxDmaLen) fail("DMA %s of %zu bytes (bound %zu)", dir, len, kMaxDmaLen);
  h.call_dma++;
#if !RTL8168_FUZZ_SKIP_WORK_BOUND
  if (h.call_dma > RTL8168_MAX_DMA_PER_CALL) {
    fail("more than RTL8168_MAX_DMA_PER_CALL (%u) DMA transactions in one entry point",
         RTL8168_MAX_DMA_PER_CALL);
  }
#endif
}

// The primary device's host: a callback from another device (a scratch one
// being created or loaded) or during a load breaks the API's promises.
FuzzHost& main_host(Port& p, const char* what) {
  FuzzHost& h = static_cast<FuzzHost&>(*p.host);
  if (&p != h.port.get()) fail("%s from a device that is only being created/loaded", what);
  if (h.in_load) fail("%s during rtl8168_state_load", what);
  return h;
}

// ---- the checker's hooks (rtl8168_host::Hooks) ----------------------------

bool before_dma_read(Port& p, uint64_t addr, size_t len) {
  FuzzHost& h = main_host(p, "dma_read");
  count_dma(h, len, "read");
  return !(h.fail_reads && overlaps_window(h, addr, len));
}

bool before_dma_write(Port& p, uint64_t addr, size_t len) {
  FuzzHost& h = main_host(p, "dma_write");
  count_dma(h, len, "write");
  return !(h.fail_writes && overlaps_window(h, addr, len));
}

void after_dma_write(Port& p, uint64_t addr, size_t len) {
  mark_dirty(static_cast<FuzzHost&>(*p.host), addr, len);
}

void on_msi(Port& p, unsigned vector) {
  const FuzzHost& h = main_host(p, "msi_notify");
  if (!h.msi) fail("msi_notify while the host has MSI disabled");
  // A vector the function's MSI-X table has (vector 0 on an MSI-only chip).
  rtl8168_pci_identity id{};
  rtl8168_config_pci_identity(h.cfg, &id);
  if (vector != 0 && vector >= id.msix_vectors) fail("msi_notify(vector %u) beyond the MSI-X table", vector);
}

void on_intx(Port&, int level) {
  if (level != 0 && level != 1) fail("set_intx(%d): not a level", level);
}

void on_trace(Port&, uint64_t now, const char* line) {
  if (!line || std::strlen(line) > 4096) fail("trace line missing or unterminated");
  if (verbose())
    std::fprintf(stderr, "  trace %llu %s\n", static_cast<unsigned long long>(now), line);
}

void run_reentry(FuzzHost& h, const uint8_t* frame, size_t len);

// RAII around every API call: the DMA and frame bounds are per entry point,
// so a nested call (from a callback) counts on its own.
class Call {
 public:
  explicit Call(FuzzHost& h) : h_(h), dma_(h.call_dma), frames_(h.call_frames) {
    h.call_dma = h.call_frames = 0;
    h.depth++;
    if (h.depth > 1) h.reentered = true;
  }
  ~Call() {
    h_.depth--;
    h_.call_dma = dma_;
    h_.call_frames = frames_;
  }
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;

 private:
  FuzzHost& h_;
  uint64_t dma_, frames_;
};

// ---- thin wrappers: one API call each ------------------------------------

uint64_t reg_read(FuzzHost& h, uint32_t off, unsigned size) {
  Call c(h);
  return rtl8168_reg_read(h.dev(), h.now, off, size);
}

bool lowers_int(const ChipPorts& p, uint32_t off, unsigned size) {
  // A write touching IntrMask/IntrStatus can drop INT (ack or mask); on a
  // chip with per-queue interrupt registers so can one touching them or
  // INT_CFG0 (which switches between them and IntrStatus).
  const uint64_t end = static_cast<uint64_t>(off) + size;
  const auto touches = [&](uint32_t reg, unsigned width) { return off < reg + width && end > reg; };
  if (touches(p.intr_status, p.intr_width) || touches(p.intr_mask, p.intr_width)) return true;
  return p.queue_irqs && (touches(kIntCfg0_8125, 1) || touches(kImr1_8125, 12) ||
                          touches(kImrV2Clear8125, 16));
}

// IntrStatus all ones at the chip's width.
uint64_t intr_all(const ChipPorts& p) { return p.intr_width == 4 ? 0xffffffffu : 0xffffu; }

void reg_write(FuzzHost& h, uint32_t off, uint64_t v, unsigned size) {
  if (lowers_int(h.ports, off, size)) h.lower_points++;
  Call c(h);
  rtl8168_reg_write(h.dev(), h.now, off, v, size);
}

size_t receive(FuzzHost& h, const uint8_t* f, size_t len) {
  // An empty std::vector's data() may be NULL: a 0-byte frame is a runt, not
  // the NULL bad call (op null-receive makes that one on purpose).
  static const uint8_t kEmpty[1] = {0};
  if (!f) f = kEmpty;
  Call c(h);
  const size_t r = rtl8168_receive(h.dev(), h.now, f, len);
  if (r != 0 && r != len) fail("receive returned %zu for a %zu-byte frame", r, len);
  if (r == len && f) h.acct.rx_consumed++;
  return r;
}

bool can_receive(FuzzHost& h) {
  Call c(h);
  return rtl8168_can_receive(h.dev(), h.now);
}

void timer_expired(FuzzHost& h) {
  Call c(h);
  rtl8168_timer_expired(h.dev(), h.now);
}

rtl8168_stats stats(FuzzHost& h) {
  rtl8168_stats s{};
  rtl8168_get_stats(h.dev(), &s);
  return s;
}

uint64_t rx_accounted(const rtl8168_stats& s) {
  return s.rx_frames + s.rx_dropped_filter + s.rx_dropped_no_desc + s.rx_dropped_disabled +
         s.rx_dropped_too_long + s.rx_dropped_dma + s.rx_dropped_runt + s.rx_dropped_fifo_over +
         s.rx_dropped_bad_fcs + s.rx_dropped_short;
}

void run_reentry(FuzzHost& h, const uint8_t* frame, size_t len) {
  if (!(h.flags & kFlagReenter) || h.reentry_left == 0 || h.depth >= kMaxDepth) return;
  h.reentry_left--;
  const uint8_t action = h.program[h.reentry_calls++ % kReentrySlots] % kReCount;
  switch (action) {
    case kReLoopback:
      if (frame) receive(h, frame, len);  // a refusal is the host's loss, not the device's
      break;
    case kReReadIsr:
      reg_read(h, h.ports.intr_status, h.ports.intr_width);
      break;
    case kReAckIsr:
      reg_write(h, h.ports.intr_status, intr_all(h.ports), h.ports.intr_width);
      break;
    case kReDoorbell:
      reg_write(h, h.ports.doorbell, h.ports.doorbell_bits[0], h.ports.doorbell_width);
      break;
    case kReCanReceive:
      can_receive(h);
      break;
    case kReTimer:
      timer_expired(h);
      break;
    case kReSave: {
      const size_t n = rtl8168_state_size(h.dev());
      std::vector<uint8_t> b(n);
      if (rtl8168_state_save(h.dev(), b.data(), b.size()) != n) fail("state_save != state_size");
      break;
    }
    default:
      break;
  }
}

void after_transmit(Port& p, const uint8_t* frame, size_t len) {
  FuzzHost& h = main_host(p, "transmit");
  if (!frame) fail("transmit of a NULL frame");
  if (len < 60 || len > kMaxFrameLen)
    fail("transmit of a %zu-byte frame (60..%zu)", len, kMaxFrameLen);
  h.acct.tx_seen++;
  h.call_frames++;
#if !RTL8168_FUZZ_SKIP_WORK_BOUND
  if (!h.reentered && h.call_frames > RTL8168_MAX_FRAMES_PER_CALL) {
    fail("more than RTL8168_MAX_FRAMES_PER_CALL (%u) frames in one entry point",
         RTL8168_MAX_FRAMES_PER_CALL);
  }
#endif
  run_reentry(h, frame, len);
}

void flush_queue(FuzzHost& h) {
  while (!h.queue.empty()) {
    const std::vector<uint8_t> f = h.queue.front();
    if (receive(h, f.data(), f.size()) == 0) break;
    h.queue.pop_front();
  }
}

void on_rx_ready(Port& p) {
  FuzzHost& h = main_host(p, "rx_ready");
  h.rx_ready_seen = true;
  // QEMU's shim flushes its queue after the call returns; a back end may
  // also deliver from inside (rtl8168.h allows re-entering receive here).
  if ((h.flags & kFlagRxReadyNow) && h.depth < kMaxDepth && h.reentry_left > 0) {
    h.reentry_left--;
    flush_queue(h);
  }
  run_reentry(h, nullptr, 0);
}

// ---- invariants after every top-level call -------------------------------

// kResetCall: rtl8168_reset re-arms the PHY's autonegotiation at `now`
// (functional mode) without running it, so its deadline may equal `now`.
enum CallKind { kPlain, kLoadCall, kResetCall };

// INT as the device defines it (irq.h): IntrStatus & IntrMask; on a chip
// with per-queue interrupt registers also ISR1-ISR3 & IMR1-IMR3, or in ISR
// v2 mode (INT_CFG0 bit 0) ISR_V2 & IMR_V2 instead, one message per bit.
// `bits`: bit 0 for INT, or the ISR v2 messages' levels.
struct IntLines {
  uint32_t bits = 0;
  bool v2 = false;
};
IntLines int_lines(FuzzHost& h, uint64_t isr, uint64_t imr) {
  IntLines l;
  l.bits = (isr & imr) != 0 ? 1u : 0u;
  if (!h.ports.queue_irqs) return l;
  if (reg_read(h, kIntCfg0_8125, 1) & kIntCfg0Enable8125) {
    l.v2 = true;
    l.bits = static_cast<uint32_t>(reg_read(h, kIsrV2_8125, 4) & reg_read(h, kImrV2Set8125, 4));
    return l;
  }
  for (uint32_t q = 0; q < 3; q++) {
    const uint64_t imr_isr = reg_read(h, kImr1_8125 + 4 * q, 4);  // IMRq, ISRq above it
    if ((imr_isr & (imr_isr >> 16)) & 0xffff) l.bits = 1;
  }
  return l;
}

void check_after(FuzzHost& h, uint32_t start_lines, uint64_t msi0, CallKind kind) {
  const Port& p = *h.port;
  // The timer: every event due at `now` has run, so nothing may be armed at
  // or before it (a load may restore an older clock: its re-arm is exempt).
  const bool pending_at_now = p.deadline <= h.now && !(kind == kResetCall && p.deadline == h.now);
  if (kind != kLoadCall && p.deadline != RTL8168_NO_DEADLINE && pending_at_now) {
    fail("timer armed at %llu, not after now %llu: work due at now left pending",
         static_cast<unsigned long long>(p.deadline), static_cast<unsigned long long>(h.now));
  }
  // A load may restore events already due (an older clock): reading now
  // would run them inside the check. The host's timer fires next instead and
  // INT is unknown until the next call.
  if (kind == kLoadCall && p.deadline <= h.now) {
    if (h.msi_count != msi0) fail("MSI sent by rtl8168_state_load");
    h.level_known = false;
    return;
  }
  // What the call itself sent, before the checker's reads: they are entry
  // points too, and after a load the first of them delivers a restored
  // rx_ready signal (a blob saved from inside transmit(), before the call
  // that saved it reached rx_ready), whose re-entry program may send an MSI
  // of its own (regressions/target-load-rx-ready-reentry-msi).
  const uint64_t sent_by_call = h.msi_count - msi0;
  if (h.read_effects) {
    // The checker's IntrStatus read may raise events (irq-race after=read):
    // INT is unknown until the schedule loses that fault.
    if (kind == kLoadCall && sent_by_call != 0) fail("MSI sent by rtl8168_state_load");
    h.level_known = false;
  } else {
    // Reads have no side effects: reads of IntrMask and IntrStatus (16 or 32 bits).
    const uint64_t imr = reg_read(h, h.ports.intr_mask, h.ports.intr_width);
    const uint64_t isr = reg_read(h, h.ports.intr_status, h.ports.intr_width);
    const IntLines lines = int_lines(h, isr, imr);
    const bool level = lines.bits != 0;
    if (!h.msi) {
      if (h.intx_armed && p.intx != static_cast<int>(level)) {
        fail("INTx %d but IntrStatus %#llx & IntrMask %#llx (MSI off)", p.intx,
             static_cast<unsigned long long>(isr), static_cast<unsigned long long>(imr));
      }
      if (p.intx == static_cast<int>(level)) h.intx_armed = true;
    }
    const uint64_t sent = h.msi_count - msi0;
    if (kind == kLoadCall) {
      if (sent_by_call != 0) fail("MSI sent by rtl8168_state_load");
    } else if (h.lower_points == 0 && h.level_known && lines.v2 == h.lines_v2) {
      // INT can only rise during this call: exactly one MSI per line that
      // went 0 -> 1 (INT itself, or each ISR v2 message).
      const uint64_t want = h.msi ? std::popcount(lines.bits & ~start_lines) : 0;
      if (sent != want) {
        fail("%llu MSI for INT %#x -> %#x (MSI %s, IntrStatus %#llx IntrMask %#llx)",
             static_cast<unsigned long long>(sent), start_lines, lines.bits, h.msi ? "on" : "off",
             static_cast<unsigned long long>(isr), static_cast<unsigned long long>(imr));
      }
    } else {
      // Each call that may lower INT allows one more edge after it (of each
      // message, in ISR v2).
      const unsigned per_call = lines.v2 || h.lines_v2 ? 32u : 1u;
      const unsigned edges = ((start_lines != 0 && h.level_known ? 0u : 1u) + h.lower_points) * per_call;
      if (sent > edges) {
        fail("%llu MSI with only %u possible 0->1 edges", static_cast<unsigned long long>(sent),
             edges);
      }
    }
    h.lines = lines.bits;
    h.lines_v2 = lines.v2;
    h.level_known = true;
  }
  if (h.acct_valid) {
    const rtl8168_stats s = stats(h);
    if (h.acct.tx_seen != s.tx_frames - s.tx_dropped_link_down) {
      fail("host saw %llu frames, stats say tx_frames %llu - tx_dropped_link_down %llu",
           static_cast<unsigned long long>(h.acct.tx_seen),
           static_cast<unsigned long long>(s.tx_frames),
           static_cast<unsigned long long>(s.tx_dropped_link_down));
    }
    if (rx_accounted(s) > h.acct.rx_consumed) {
      fail("RX: %llu frames delivered or dropped, only %llu consumed",
           static_cast<unsigned long long>(rx_accounted(s)),
           static_cast<unsigned long long>(h.acct.rx_consumed));
    }
  }
}

// Runs one top-level operation on the device and checks the invariants.
template <class F>
void top_once(FuzzHost& h, F&& f, CallKind kind) {
  const uint32_t start = h.lines;
  const uint64_t msi0 = h.msi_count;
  h.lower_points = 0;
  h.reentered = false;
  h.rx_ready_seen = false;
  f();
  check_after(h, start, msi0, kind);
}

template <class F>
void top(FuzzHost& h, F&& f, CallKind kind = kPlain) {
  top_once(h, f, kind);
  // QEMU's shim: qemu_flush_queued_packets once the model call returned.
  for (unsigned i = 0; i < kHostQueue && h.rx_ready_seen && !h.queue.empty(); i++) {
    top_once(
        h, [&] { flush_queue(h); }, kPlain);
  }
}

// ---- guest memory helpers ------------------------------------------------

// CPU writes by the "driver": the part inside RAM lands, the rest is lost.
void mem_write(FuzzHost& h, uint64_t addr, const uint8_t* p, size_t len) {
  if (addr >= h.ram.size() || len == 0) return;
  const size_t n = static_cast<size_t>(std::min<uint64_t>(len, h.ram.size() - addr));
  std::memcpy(h.ram.data() + addr, p, n);
  mark_dirty(h, addr, n);
}

void mem_w32(FuzzHost& h, uint64_t addr, uint32_t v) {
  const uint8_t b[4] = {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8),
                        static_cast<uint8_t>(v >> 16), static_cast<uint8_t>(v >> 24)};
  mem_write(h, addr, b, 4);
}

uint32_t mem_r32(const FuzzHost& h, uint64_t addr) {
  uint32_t v = 0;
  for (unsigned i = 0; i < 4; i++) {
    if (addr + i < h.ram.size()) v |= static_cast<uint32_t>(h.ram[addr + i]) << (8 * i);
  }
  return v;
}

void write_desc(FuzzHost& h, uint64_t at, uint32_t opts1, uint32_t opts2, uint64_t addr) {
  mem_w32(h, at + 4, opts2);
  mem_w32(h, at + 8, static_cast<uint32_t>(addr));
  mem_w32(h, at + 12, static_cast<uint32_t>(addr >> 32));
  mem_w32(h, at, opts1);
}

uint64_t pick_addr(const FuzzHost& h, uint8_t sel, uint32_t v) {
  const uint64_t size = h.ram.size();
  switch (sel % kAddrSelCount) {
    case kAddrRam:
      return v % size;
    case kAddrRamEnd:
      return size - v % 64;
    case kAddrBeyond:
      return size + v;
    case kAddrHuge:
      return UINT64_MAX - v % 64;
    case kAddrTxRing:
      return kTxRing + v % 1024;
    default:
      return kRxRing + v % 256;
  }
}

// ---- frames ---------------------------------------------------------------

RTL8168_FUZZ_NO_COV __attribute__((noinline)) uint32_t sum16(const uint8_t* p, size_t len,
                                                              uint32_t s = 0) {
  for (size_t i = 0; i + 1 < len; i += 2) s += static_cast<uint32_t>(p[i] << 8 | p[i + 1]);
  if (len & 1) s += static_cast<uint32_t>(p[len - 1] << 8);
  return s;
}

uint16_t fold(uint32_t s) {
  while (s >> 16) s = (s & 0xffff) + (s >> 16);
  return static_cast<uint16_t>(~s);
}

void put16(std::vector<uint8_t>& f, size_t at, unsigned v) {
  f[at] = static_cast<uint8_t>(v >> 8);
  f[at + 1] = static_cast<uint8_t>(v);
}

// p[i] = seed + 7 i (mod 256), which repeats every 256 bytes.
RTL8168_FUZZ_NO_COV __attribute__((noinline)) void fill_payload(uint8_t* p, size_t n,
                                                                 uint8_t seed) {
  uint8_t block[256];
  for (unsigned i = 0; i < 256; i++) block[i] = static_cast<uint8_t>(seed + i * 7);
  for (size_t at = 0; at < n; at += 256) std::memcpy(p + at, block, std::min<size_t>(256, n - at));
}

// An Ethernet frame of `kind` carrying `payload` bytes; with `csum` the IPv4
// header and L4 checksums are filled in (as a peer sends them), otherwise
// left 0 (as a driver leaves them for offload).
RTL8168_FUZZ_NO_COV std::vector<uint8_t> build_frame(unsigned kind, size_t payload,
                                                     const uint8_t* dst, const uint8_t* src,
                                                     uint8_t seed, bool csum) {
  const bool v6 = kind == kIpv6Tcp || kind == kIpv6Udp;
  const bool tcp = kind == kIpv4Tcp || kind == kIpv6Tcp;
  const size_t l3 = kind == kRaw ? 0 : v6 ? 40 : 20;
  const size_t l4 = kind == kRaw ? 0 : tcp ? 20 : 8;
  std::vector<uint8_t> f(14 + l3 + l4 + payload, 0);
  std::memcpy(f.data(), dst, 6);
  std::memcpy(f.data() + 6, src, 6);
  put16(f, 12, kind == kRaw ? 0x88b5 : v6 ? 0x86dd : 0x0800);
  fill_payload(f.data() + 14 + l3 + l4, payload, seed);
  if (kind == kRaw) return f;
  const size_t ip = 14, th = 14 + l3;
  const size_t l4_len = l4 + payload;
  const uint8_t proto = tcp ? 6 : 17;
  if (v6) {
    f[ip] = 0x60;
    put16(f, ip + 4, static_cast<unsigned>(l4_len));
    f[ip + 6] = proto;
    f[ip + 7] = 64;
    f[ip + 8] = 0xfe;
    f[ip + 9] = 0x80;
    f[ip + 23] = 1;
    f[ip + 24] = 0xfe;
    f[ip + 25] = 0x80;
    f[ip + 39] = 2;
  } else {
    f[ip] = 0x45;
    put16(f, ip + 2, static_cast<unsigned>(20 + l4_len));
    put16(f, ip + 4, seed);
    f[ip + 6] = 0x40;  // DF
    f[ip + 8] = 64;
    f[ip + 9] = proto;
    const uint8_t addrs[8] = {10, 0, 2, 2, 10, 0, 2, 15};
    std::memcpy(&f[ip + 12], addrs, 8);
  }
  put16(f, th, 40000 + seed);
  put16(f, th + 2, tcp ? 80 : 53);
  if (tcp) {
    put16(f, th + 4, 0x1234);
    f[th + 12] = 5 << 4;
    f[th + 13] = 0x18;  // PSH|ACK
    put16(f, th + 14, 0xffff);
  } else {
    put16(f, th + 4, static_cast<unsigned>(l4_len));
  }
  if (!csum) return f;
  if (!v6) put16(f, ip + 10, fold(sum16(&f[ip], 20)));
  uint32_t s = v6 ? sum16(&f[ip + 8], 32) : sum16(&f[ip + 12], 8);
  s += proto + static_cast<uint32_t>(l4_len);
  const uint16_t c = fold(sum16(&f[th], l4_len, s));
  put16(f, th + (tcp ? 16 : 6), c == 0 && !tcp ? 0xffff : c);
  return f;
}

constexpr uint8_t kPeerMac[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x01};

// ---- device lifetime --------------------------------------------------------

rtl8168* create_on(FuzzHost& h, Port& port) {
  char err[256];
  return h.create(h.cfg, port, err, sizeof err);
}

// Each serialisation is costly (state blobs are kilobytes): the size and the
// short-buffer contract are checked only where asked.
std::vector<uint8_t> save(rtl8168* dev, bool check_api = false) {
  static std::vector<uint8_t> scratch(1 << 20);  // no per-call clearing
  size_t n = rtl8168_state_save(dev, scratch.data(), scratch.size());
  std::vector<uint8_t> b(scratch.data(), scratch.data() + n);
  if (n == 0 || check_api) {
    n = rtl8168_state_size(dev);
    b.assign(n, 0);
    if (rtl8168_state_save(dev, b.data(), b.size()) != n) fail("state_save wrote != state_size");
    if (n > 0 && rtl8168_state_save(dev, b.data(), n - 1) != 0) {
      fail("state_save into a buffer one byte short did not return 0");
    }
  }
  b.resize(n);
  return b;
}

// save -> load onto a fresh device -> save is byte-identical.
void check_fresh_roundtrip(FuzzHost& h, const std::vector<uint8_t>& blob) {
  Port port(h);
  rtl8168* fresh = create_on(h, port);
  if (!fresh) fail("creating a second device with the same configuration failed");
  char err[256] = "";
  h.in_load = true;
  const int rc = rtl8168_state_load(fresh, blob.data(), blob.size(), err, sizeof err);
  h.in_load = false;
  if (rc != 0 && !known_refusal(err)) {
    fail("a fresh device refused the device's own state blob: %s", err);
  }
  if (rc == 0 && save(fresh) != blob) fail("save -> load onto a fresh device -> save differs");
  rtl8168_destroy(fresh);
}

// ---- operations -------------------------------------------------------------

void step_to_deadline(FuzzHost& h, uint64_t extra) {
  const uint64_t d = h.port->deadline;
  if (d == RTL8168_NO_DEADLINE || d > kMaxNow) return;
  h.now = std::min(kMaxNow, std::max(h.now, d) + extra);
  top(h, [&] { timer_expired(h); });
}

void arm_rx(FuzzHost& h) {
  const uint32_t stride = std::max<uint32_t>(64, (h.drv.rx_buf + 63) & ~63u);
  for (unsigned i = 0; i < h.drv.rx_n; i++) {
    const uint32_t opts1 = kOwn | (i + 1 == h.drv.rx_n ? kEor : 0) | (h.drv.rx_buf & kRxBufSizeMask);
    write_desc(h, kRxRing + 16 * i, opts1, 0, kRxBufs + static_cast<uint64_t>(i) * stride);
  }
  h.drv.rx_cur = 0;
}

// The fuzz host as the open sequence's bus (model/hostlib/bring_up.h): every
// write is a top-level call with its checks, the polls' reads are not, and
// a poll waits for the device's next event.
class BringUpBus final : public rtl8168_host::RegBus {
 public:
  explicit BringUpBus(FuzzHost& h) : h_(h) {}
  uint64_t read(uint32_t off, unsigned size) override { return reg_read(h_, off, size); }
  void write(uint32_t off, uint64_t v, unsigned size) override {
    top(h_, [&] { reg_write(h_, off, v, size); });
  }
  void poll_wait() override { step_to_deadline(h_, 0); }
  uint64_t now() const override { return h_.now; }
  void step_until(uint64_t t) override {  // (LinkWait::LinkChg; kFuzzOrder polls PHYstatus)
    if (h_.port->deadline <= t) {
      step_to_deadline(h_, 0);
    } else {
      h_.now = std::max(h_.now, t);
    }
  }
  void init_rings() override {
    std::memset(h_.ram.data(), 0, kRxBufs);  // (std::fill: a traced compare per byte)
    h_.drv.tx_cur = {0, 0};
    arm_rx(h_);
  }

 private:
  FuzzHost& h_;
};

void op_bring_up(FuzzHost& h, Reader& r) {
  const BringUp up = BringUp::decode(r);  // fuzz_input.h: the op's fields
  const uint8_t fl = up.flags;
  h.drv.tx_n = up.tx_n;
  h.drv.rx_n = up.rx_n;
  h.drv.rx_buf = up.rx_buf;
  rtl8168_host::OpenSpec spec;
  spec.ports = h.ports;
  spec.reset_polls = 8;  // r8169 rtl_hw_reset: CmdReset, then poll until it self-clears
  spec.mac = h.mac;      // rtl_rar_set: unlock, MAC4 then MAC0, lock
  spec.mitigate = up.mit;
  spec.tx_ring = kTxRing;
  spec.txh_ring = kTxHRing;
  spec.rx_ring = kRxRing;
  spec.rx_max_size = fl & kUpNoRxMax ? 0 : 0x4000;
  spec.cplus = static_cast<uint16_t>((fl & kUpRxVlan ? kRxVlan : 0u) |
                                     (fl & kUpRxCsum ? kRxChkSum : 0u));
  spec.tx_config = rtl8168_host::tx_config(up.mxdma);  // IFG 96 bit times, MXDMA
  spec.rx_config = rtl8168_host::rx_config(0, up.mxdma, up.accept);
  spec.mar = fl & kUpAllMulti ? 0xffffffffu : 0;
  spec.irq_mask = up.imask;
  spec.link_wait = rtl8168_host::LinkWait::PhyStatus;
  spec.link_polls = 16;
  // kFuzzOrder without the steps the flags leave out.
  std::vector<rtl8168_host::Step> order;
  for (const rtl8168_host::Step step : rtl8168_host::kFuzzOrder) {
    if (step == rtl8168_host::Step::ChipReset && !(fl & kUpChipReset)) continue;
    if (step == rtl8168_host::Step::Enable && (fl & kUpNoEnable)) continue;
    if (step == rtl8168_host::Step::WaitLink && !(fl & kUpWaitLink)) continue;
    order.push_back(step);
  }
  BringUpBus bus(h);
  rtl8168_host::bring_up(bus, spec, order);  // a link that stays down is the input's choice
}

uint64_t tx_alloc(FuzzHost& h, size_t len) {
  const uint64_t lo = h.ram.size() / 2;
  if (h.drv.tx_next < lo || h.drv.tx_next + len > h.ram.size()) h.drv.tx_next = lo;
  const uint64_t a = h.drv.tx_next;
  h.drv.tx_next = (h.drv.tx_next + len + 15) & ~uint64_t{15};
  return a;
}

void op_tx_frame(FuzzHost& h, Reader& r) {
  const uint8_t fl = r.u8();
  const unsigned kind = r.u8() % kFrameKindCount;
  const bool tso = fl & kTxTso;
  size_t payload = r.u16();
  payload %= tso ? h.ram.size() / 2 - 128 : 9216;
  const uint8_t fr = r.u8();
  const unsigned nfrags = fr == 0xff ? 66 : fr % 8 + 1;  // 66 > the 64-fragment bound
  uint32_t mss = r.u16() & 0x7ff;
#if RTL8168_FUZZ_SKIP_WORK_BOUND
  mss = std::max<uint32_t>(mss, 536);
#endif
  const uint16_t tci = r.u16();
  const std::vector<uint8_t> f = build_frame(kind, payload, kPeerMac, h.mac.data(), fl, false);
  const unsigned q = fl & kTxHpq ? 1 : 0;
  const uint64_t ring = q ? kTxHRing : kTxRing;
  const bool v6 = kind == kIpv6Tcp || kind == kIpv6Udp;
  const uint32_t l4 = kind == kRaw ? 0 : v6 ? 54 : 34;
  uint32_t o1 = 0, o2 = 0;
  if (tso) {
    o1 |= (v6 ? kGtsEnv6 : kGtsEnv4) | l4 << 18;
    o2 |= mss << 18;
  } else if (fl & kTxCsum) {
    const bool udp = kind == kIpv4Udp || kind == kIpv6Udp;
    o2 |= (v6 ? kIpv6Cs : kIpv4Cs) | (udp ? kUdpCs : kTcpCs) | l4 << 18;
  }
  if (fl & kTxVlan) o2 |= kTxVlanTag | static_cast<uint16_t>(tci << 8 | tci >> 8);
  const unsigned n = h.drv.tx_n;
  const unsigned first = h.drv.tx_cur[q] % n;
  const size_t piece = f.size() / nfrags;
  size_t at = 0;
  std::vector<std::pair<uint64_t, uint32_t>> descs;
  for (unsigned i = 0; i < nfrags; i++) {
    const size_t len = i + 1 == nfrags ? f.size() - at : piece;
    uint64_t addr = tx_alloc(h, len);
    if (i == 0 && (fl & kTxBadAddr)) addr = h.ram.size() + 0x1000;
    if (i + 1 == nfrags && (fl & kTxCrossEnd)) addr = h.ram.size() - len / 2;
    mem_write(h, addr, f.data() + at, len);
    const unsigned idx = (first + i) % n;
    const uint32_t opts1 = o1 | static_cast<uint32_t>(len & 0xffff) | (i == 0 ? kFs : 0) |
                           (i + 1 == nfrags && !(fl & kTxNoLast) ? kLs : 0) |
                           (idx + 1 == n ? kEor : 0);
    const uint64_t d = ring + 16ull * idx;
    write_desc(h, d, opts1, o2, addr);
    descs.emplace_back(d, opts1);
    at += len;
  }
  // Own on the first descriptor last (r8169 rtl8169_start_xmit).
  for (size_t i = descs.size(); i-- > 0;) mem_w32(h, descs[i].first, descs[i].second | kOwn);
  h.drv.tx_cur[q] = (first + nfrags) % n;
  if (fl & kTxKick) {
    top(h, [&] { reg_write(h, h.ports.doorbell, h.ports.doorbell_bits[q ? 1 : 0], h.ports.doorbell_width); });
  }
}

void op_rx_poll(FuzzHost& h) {
  const uint32_t stride = std::max<uint32_t>(64, (h.drv.rx_buf + 63) & ~63u);
  for (unsigned k = 0; k < h.drv.rx_n; k++) {
    const unsigned i = h.drv.rx_cur % h.drv.rx_n;
    const uint64_t d = kRxRing + 16ull * i;
    if (mem_r32(h, d) & kOwn) break;
    const uint32_t opts1 = kOwn | (i + 1 == h.drv.rx_n ? kEor : 0) | (h.drv.rx_buf & kRxBufSizeMask);
    write_desc(h, d, opts1, 0, kRxBufs + static_cast<uint64_t>(i) * stride);
    h.drv.rx_cur = (i + 1) % h.drv.rx_n;
  }
}

void offer(FuzzHost& h, std::vector<uint8_t> f) {
  size_t got = 0;
  top(h, [&] { got = receive(h, f.data(), f.size()); });
  if (got == 0 && h.queue.size() < kHostQueue) h.queue.push_back(std::move(f));
}

void op_receive_class(FuzzHost& h, Reader& r) {
  const unsigned cls = r.u8() % kRxClassCount;
  const size_t len = r.u16();
  const uint8_t seed = r.u8();
  std::array<uint8_t, 6> dst = h.mac;
  unsigned kind = kRaw;
  size_t payload = len % 1500;
  bool corrupt = false;
  switch (cls) {
    case kRxBroadcast:
      dst.fill(0xff);
      break;
    case kRxMulticast:
      dst = {0x01, 0x00, 0x5e, 0x00, 0x00, seed};
      break;
    case kRxOtherUnicast:
      dst = {0x02, 0x00, 0x00, 0x00, 0x00, seed};
      break;
    case kRxRunt: {
      std::vector<uint8_t> f(len % 14, seed);
      return offer(h, std::move(f));
    }
    case kRxJumbo:
      payload = 7000 + len % 2200;
      break;
    case kRxTcpGood:
      kind = kIpv4Tcp;
      break;
    case kRxUdpBad:
      kind = kIpv4Udp;
      corrupt = true;
      break;
    case kRxTcp6:
      kind = kIpv6Tcp;
      break;
    default:
      break;
  }
  std::vector<uint8_t> f = build_frame(kind, payload, dst.data(), kPeerMac, seed, true);
  if (corrupt) f.back() ^= 0x5a;
  if (cls == kRxVlanOurs) {
    const uint8_t tag[4] = {0x81, 0x00, static_cast<uint8_t>(seed & 0x0f), seed};
    f.insert(f.begin() + 12, tag, tag + 4);
  }
  offer(h, std::move(f));
}

void op_phy(FuzzHost& h, Reader& r) {
  const uint32_t reg = r.u8() & 0x1f;
  const bool write = r.u8() & 1;
  const uint32_t v = (write ? kPhyarFlag : 0) | reg << kPhyarRegShift | r.u16();
  top(h, [&] { reg_write(h, kPHYAR, v, 4); });
  // r8169 r8169_mdio_read/write: poll the flag (it flips when the frame is done).
  for (int i = 0; i < 4 && ((reg_read(h, kPHYAR, 4) ^ v) & kPhyarFlag) == 0; i++) {
    step_to_deadline(h, 0);
  }
}

void op_tally(FuzzHost& h, Reader& r) {
  const uint32_t cmd = r.u8() & (kCounterReset | kCounterDump);
  const uint64_t addr = pick_addr(h, r.u8(), r.u32()) & ~uint64_t{0x3f};
  top(h, [&] { reg_write(h, kCounterAddrHigh, addr >> 32, 4); });
  top(h, [&] { reg_write(h, kCounterAddrLow, (addr & 0xffffffffu) | cmd, 4); });
  for (int i = 0; i < 4 && (reg_read(h, kCounterAddrLow, 4) & (kCounterReset | kCounterDump)); i++) {
    step_to_deadline(h, 0);
  }
}

void op_time(FuzzHost& h, Reader& r) {
  const unsigned mode = r.u8() % kTimeModeCount;
  const uint32_t amount = r.u32();
  switch (mode) {
    case kTimeSmall:
      h.now = std::min(kMaxNow, h.now + amount % 65536);
      top(h, [&] { timer_expired(h); });
      break;
    case kTimeDeadline:
      step_to_deadline(h, 0);
      break;
    case kTimeAfterDeadline:
      step_to_deadline(h, amount % 65536);
      break;
    case kTimeBig:
      h.now = std::min(kMaxNow, h.now + amount);
      top(h, [&] { timer_expired(h); });
      break;
    default:
      for (uint32_t i = 0; i <= amount % 32; i++) step_to_deadline(h, 0);
      break;
  }
}

void op_fault(FuzzHost& h, Reader& r) {
  const uint8_t m = r.u8();
  const uint32_t lo = r.u32();
  const uint16_t len = r.u16();
  h.fail_reads = m & 1;
  h.fail_writes = m & 2;
  h.windowed = m & 4;
  h.win_lo = lo % h.ram.size();
  h.win_hi = h.win_lo + len + 1;
}

// The schedule as rtl8168_fault_list reports it, checking the size contract.
std::string fault_list(FuzzHost& h) {
  const size_t n = rtl8168_fault_list(h.dev(), nullptr, 0);
  std::string s(n + 1, '\0');
  if (rtl8168_fault_list(h.dev(), s.data(), s.size()) != n) fail("fault_list length changed");
  if (s[n] != '\0' || std::strlen(s.c_str()) != n) fail("fault_list not terminated at its length");
  s.resize(n);
  if (n < 2 || s.front() != '{' || s.back() != '}') fail("fault_list is not a JSON object: %s", s.c_str());
  return s;
}

// After anything that changes the schedule (add, clear, reset, load).
void refresh_fault_flags(FuzzHost& h) {
  h.read_effects = fault_list(h).find("after=read") != std::string::npos;
}

// kFaultSpec: the model's fault injection. A generated spec of a known class
// must be accepted (unless the schedule is full); raw bytes must be refused
// or accepted, never crash; clear empties the schedule.
void op_fault_spec(FuzzHost& h, Reader& r) {
  const unsigned mode = r.u8() % kFaultModeCount;
  const uint32_t a = r.u32(), b = r.u32();
  const uint8_t c = r.u8();
  const std::string n1 = std::to_string(a % 64 + 1), cnt4 = std::to_string(c % 4 + 1);
  const uint64_t lo = a % h.ram.size();
  const std::string win = "addr=" + std::to_string(lo) + "-" + std::to_string(lo + b % 4096) +
                          ",count=" + (c & 1 ? std::string("all") : std::to_string(c % 8 + 1));
  const std::string every = std::to_string(10'000 + b % 1'000'000);
  std::string spec;
  switch (mode) {
    case kFaultDmaRead: spec = "dma-read:nth=" + n1 + ",count=" + cnt4; break;
    case kFaultDmaWrite: spec = "dma-write:nth=" + n1 + ",count=" + cnt4; break;
    case kFaultDmaReadWin: spec = "dma-read:" + win; break;
    case kFaultDmaWriteWin: spec = "dma-write:" + win; break;
    case kFaultRxWithhold:
      spec = "rx-withhold:at=+" + std::to_string(a % 1'000'000) + ",frame=" +
             std::to_string(b % 8 + 1) + ",count=" + std::to_string(c % 16 + 1);
      break;
    case kFaultRxFifoOver:
      spec = "rx-fifo-over:frame=" + std::to_string(a % 16 + 1) + ",count=" + cnt4;
      break;
    case kFaultLink: {
      static constexpr const char* kSpeeds[3] = {"10", "100", "1000"};
      const std::string at = "link:at=+" + std::to_string(a % 10'000'000) + ",";
      switch (c % 4) {
        case 0: spec = at + "down"; break;
        case 1: spec = at + "up"; break;
        case 2: spec = at + "flap,every=" + every + ",count=" + std::to_string(c % 8 + 1); break;
        default:
          spec = at + "speed=" + kSpeeds[b % 3] + ",duplex=" + (b & 4 ? "half" : "full");
          break;
      }
      break;
    }
    case kFaultAutonegSlow:
      spec = "autoneg-slow:delay=" + std::to_string(a % 10'000'000 + 1) + ",count=" +
             std::to_string(c % 3 + 1);
      break;
    case kFaultSpuriousIrq:
      spec = "spurious-irq:at=+" + std::to_string(a % 10'000'000) + ",bits=" +
             std::to_string((b & 0xffff) | 1);
      if (c & 1) spec += ",every=" + every + ",count=" + std::to_string(c % 5 + 1);
      break;
    case kFaultIrqRaceAck:
    case kFaultIrqRaceRead:
      spec = std::string("irq-race:after=") + (mode == kFaultIrqRaceAck ? "ack" : "read") +
             ",count=" + (mode == kFaultIrqRaceAck && (c & 0x80) ? std::string("all") : cnt4);
      if (b & 0xffff) spec += ",bits=" + std::to_string(b & 0xffff);
      break;
    case kFaultTxStopFetch:
      spec = "tx-stop-fetch:frame=" + std::to_string(a % 8 + 1);
      if (c & 1) spec += ",at=+" + std::to_string(b % 1'000'000);
      break;
    case kFaultClear:
      top(h, [&] {
        {
          Call cl(h);
          rtl8168_fault_clear(h.dev(), h.now);
        }
        if (fault_list(h).find("\"faults\": []") == std::string::npos) fail("fault_clear left faults");
        refresh_fault_flags(h);  // before the checker's reads
      });
      return;
    case kFaultList:
      fault_list(h);
      return;
    default: {
      const std::vector<uint8_t> raw = r.bytes(a % 128);
      spec.assign(raw.begin(), raw.end());
      spec = spec.c_str();  // up to the first NUL, as a C caller passes it
      break;
    }
  }
  char err[512] = "";
  int rc = 0;
  const bool full = fault_list(h).find("\"index\": 31,") != std::string::npos;
  top(h, [&] {
    {
      Call cl(h);
      rc = rtl8168_fault_add(h.dev(), h.now, spec.c_str(), err, sizeof err);
    }
    refresh_fault_flags(h);  // before the checker's reads
  });
  if (rc != 0 && rc != -1) fail("rtl8168_fault_add returned %d", rc);
  if (rc != 0 && err[0] == '\0') fail("rtl8168_fault_add refused '%s' without a message", spec.c_str());
  if (rc != 0 && mode < kFaultClear && !full) fail("generated fault '%s' refused: %s", spec.c_str(), err);
  if (verbose()) std::fprintf(stderr, "  fault '%s': %s\n", spec.c_str(), rc ? err : "added");
}

void mutate(std::vector<uint8_t>& b, Reader& r) {
  const unsigned kind = r.u8() % kMutCount;
  const uint32_t pos32 = r.u32();
  const uint32_t value = r.u32();
  const size_t pos = b.empty() ? 0 : pos32 % b.size();
  switch (kind) {
    case kMutFlip:
      if (!b.empty()) b[pos] = static_cast<uint8_t>(b[pos] ^ (1u << (value % 8)));
      break;
    case kMutByte:
      if (!b.empty()) b[pos] = static_cast<uint8_t>(value);
      break;
    case kMutWord:
      for (unsigned i = 0; i < 4 && pos + i < b.size(); i++) {
        b[pos + i] = static_cast<uint8_t>(value >> (8 * i));
      }
      break;
    case kMutTruncate:
      b.resize(pos);
      break;
    default:
      for (unsigned i = 0; i < 4; i++) b.push_back(static_cast<uint8_t>(value >> (8 * i)));
      break;
  }
}

void op_save(FuzzHost& h, Reader& r) {
  Slot& s = h.slots[r.u8() % h.slots.size()];
  s.blob = save(h.dev(), /*check_api=*/h.saves == 0);  // the size API: first save only (cost)
  s.acct = h.acct;
  s.acct_valid = h.acct_valid;
  s.msi = h.msi;
  s.intx_armed = h.intx_armed;
  if (!state_check_due(h.saves)) return;  // (kFullStateChecks)
  check_fresh_roundtrip(h, s.blob);
  // Loading the device's own current state onto itself changes nothing.
  // (Compared before the checker's own register reads, which add trace events.)
  char err[256] = "";
  int rc = 0;
  top(
      h,
      [&] {
        h.in_load = true;
        rc = rtl8168_state_load(h.dev(), s.blob.data(), s.blob.size(), err, sizeof err);
        h.in_load = false;
        if (rc != 0 && !known_refusal(err)) {
          fail("the device refused its own current state blob: %s", err);
        }
        if (rc == 0 && save(h.dev()) != s.blob) {
          fail("save -> load onto the same device -> save differs");
        }
      },
      kLoadCall);
}

// kLoad / kMigrate: load a slot's blob, maybe mutated, onto this device or a
// fresh one (which then replaces it, as a migration does).
void op_load(FuzzHost& h, Reader& r, bool migrate) {
  const Slot& s = h.slots[r.u8() % h.slots.size()];
  const unsigned nmut = r.u8() % 5;
  std::vector<uint8_t> blob = s.blob;
  for (unsigned i = 0; i < nmut; i++) mutate(blob, r);
  if (s.blob.empty()) return;  // nothing saved in this slot yet
  const bool mutated = blob != s.blob;
#if RTL8168_FUZZ_SKIP_STATE
  if (mutated) return;
#endif
  char err[256] = "";
  int rc = 0;
  // Inside the checked call: the invariants after it compare with the
  // counters that go with the loaded state.
  auto adopt = [&] {
    if (rc != 0) return;
    refresh_fault_flags(h);  // the blob carries its own fault schedule
    if (mutated) {
      h.acct_valid = false;  // the blob's counters are the mutation's, not ours
    } else {
      h.acct = s.acct;
      h.acct_valid = s.acct_valid;
    }
    // The host's MSI setting is not part of the blob: INTx is comparable if
    // it was when the blob was saved, under the same setting (else once it
    // has been seen consistent again). A mutated blob that loads may say
    // "INT high, INTx not asserted" (consistent for a blob saved with MSI
    // in use), and the load re-drives INTx to the blob's level
    // (regressions/target-mutated-blob-intx-stale).
    h.intx_armed = h.intx_armed && !mutated && s.msi == h.msi && s.intx_armed;
  };
  const bool full = state_check_due(h.loads);  // (kFullStateChecks)
  if (!migrate) {
    std::vector<uint8_t> before;
    if (full) before = save(h.dev());
    top(
        h,
        [&] {
          h.in_load = true;
          rc = rtl8168_state_load(h.dev(), blob.data(), blob.size(), err, sizeof err);
          h.in_load = false;
          if (rc != 0 && full && save(h.dev()) != before) {
            fail("a refused load (%s) changed the device's state", err);
          }
          adopt();
        },
        kLoadCall);
  } else {
    auto port = std::make_unique<Port>(h);
    rtl8168* fresh = create_on(h, *port);
    if (!fresh) fail("creating a second device with the same configuration failed");
    h.in_load = true;
    rc = rtl8168_state_load(fresh, blob.data(), blob.size(), err, sizeof err);
    h.in_load = false;
    if (rc != 0) {
      rtl8168_destroy(fresh);
    } else {
      h.close();                   // the old device goes,
      h.port = std::move(port);    // the fresh one becomes the primary
      top(h, adopt, kLoadCall);  // the invariants on the migrated device
    }
  }
  if (!mutated && rc != 0) {
    if (!known_refusal(err)) fail("the device's own state blob was refused: %s", err);
    return;
  }
  if (verbose()) {
    std::fprintf(stderr, "  %s of a %s %zu-byte blob: %s\n", migrate ? "migrate" : "load",
                 mutated ? "mutated" : "saved", blob.size(), rc == 0 ? "loaded" : err);
  }
  if (rc == 0 && full) check_fresh_roundtrip(h, save(h.dev()));
}

void op_reset(FuzzHost& h) {
  top(
      h,
      [&] {
        h.lower_points++;
        const Acct before = h.acct;
        {
          Call c(h);
          rtl8168_reset(h.dev(), h.now);
        }
        refresh_fault_flags(h);  // the configured schedule only
        // Counters start again from zero; what callbacks re-entering from the
        // reset's own rx_ready()/transmit() did counts after it.
        h.acct.rx_consumed -= before.rx_consumed;
        h.acct.tx_seen -= before.tx_seen;
        // Before the checks: the counters start again from zero.
        const rtl8168_stats s = stats(h);
        static_assert(sizeof s % sizeof(uint64_t) == 0);
        uint64_t words[sizeof s / sizeof(uint64_t)];
        std::memcpy(words, &s, sizeof s);
        const uint64_t* nz =
            std::find_if(std::begin(words), std::end(words), [](uint64_t x) { return x != 0; });
        const bool zero = nz == std::end(words);
#if !RTL8168_FUZZ_SKIP_RESET_STATS
        if (!zero && !h.reentered) {
          fail("rtl8168_stats not all zero after rtl8168_reset (word %td of rtl8168_stats is %llu)",
               nz - std::begin(words), static_cast<unsigned long long>(*nz));
        }
        h.acct_valid = zero || h.reentered;
#else
        h.acct_valid = zero;
#endif
      },
      kResetCall);
  h.drv.tx_cur = {0, 0};
  h.drv.rx_cur = 0;
}

void op_null_receive(FuzzHost& h, Reader& r) {
  const size_t len = r.u16();
#if !RTL8168_FUZZ_SKIP_NULL_RECEIVE
  const uint64_t bad0 = stats(h).bad_calls;
  size_t got = 0;
  top(h, [&] {
    {
      Call c(h);
      got = rtl8168_receive(h.dev(), h.now, nullptr, len);
    }
    if (got != len) fail("receive(NULL, %zu) returned %zu (documented: len)", len, got);
    // (Callbacks that re-entered during the call may have made bad calls too.)
    if (stats(h).bad_calls != bad0 + 1 && !h.reentered) {
      fail("receive(NULL) not counted in bad_calls (%llu before, %llu after)",
           static_cast<unsigned long long>(bad0),
           static_cast<unsigned long long>(stats(h).bad_calls));
    }
  });
#else
  (void)h;
  (void)len;
#endif
}

void op_irq_ack(FuzzHost& h, Reader& r) {
  const bool mask = r.u8() & 1;
  const ChipPorts& p = h.ports;
  const uint64_t imr = reg_read(h, p.intr_mask, p.intr_width);
  if (mask) top(h, [&] { reg_write(h, p.intr_mask, 0, p.intr_width); });
  const uint64_t isr = reg_read(h, p.intr_status, p.intr_width);
  top(h, [&] { reg_write(h, p.intr_status, isr, p.intr_width); });
  if (mask) top(h, [&] { reg_write(h, p.intr_mask, imr, p.intr_width); });
}

// ---- configuration ----------------------------------------------------------

// The checker's view of every callback (before the first device is made:
// rx_ready and trace are passed only when their hook is set).
void install_hooks(FuzzHost& h) {
  rtl8168_host::Hooks& k = h.hooks;
  k.before_dma_read = before_dma_read;
  k.before_dma_write = before_dma_write;
  k.after_dma_write = after_dma_write;
  k.on_msi = on_msi;
  k.on_intx = on_intx;
  k.after_transmit = after_transmit;
  k.on_rx_ready = on_rx_ready;
  if ((h.flags & kFlagTrace) || verbose()) k.on_trace = on_trace;
}

void set_param(rtl8168_config* cfg, const char* name, const std::string& v) {
  char err[256];
  (void)rtl8168_config_set(cfg, name, v.c_str(), err, sizeof err);  // refusals are fine
}

void configure(FuzzHost& h, Reader& r) {
  h.flags = r.u8();
  set_param(h.cfg, "timing", h.flags & kFlagTiming ? "on" : "off");
  set_param(h.cfg, "lossy-txpoll", h.flags & kFlagLossy ? "on" : "off");
  h.msi = h.flags & kFlagMsi;
  const unsigned n = r.u8() % 4;
  const size_t count = rtl8168_param_count();
  // By index: the parameters before `faults` (it and those after it came
  // after the corpus was written; a number never parses as a schedule), so
  // that a byte picks the parameter it picked before. The others are named
  // by their hash.
  size_t indexed = count;
  for (size_t k = 0; k < count; k++) {
    const rtl8168_param_info* q = rtl8168_param_at(k);
    if (q && std::strcmp(q->name, "faults") == 0) indexed = k;
  }
  for (unsigned i = 0; i < n; i++) {
    const uint8_t which = r.u8();
    const uint8_t sel = r.u8();
    const uint32_t v = r.u32();
    const rtl8168_param_info* p = nullptr;
    for (size_t k = 0; k < count && !p; k++) {
      const rtl8168_param_info* q = rtl8168_param_at(k);
      if (q && param_hash(q->name) == which) p = q;
    }
    if (!p) p = rtl8168_param_at(which % indexed);
    if (!p) fail("rtl8168_param_at(%zu) is NULL below rtl8168_param_count", which % indexed);
    const std::string name = p->name, unit = p->unit;
    std::string value;
    if (name == "chip") {
      // Both profiles (profile.cc) and a name the config refuses.
      // A profile from the model's list (rtl8168_chip_at) or a name the
      // config refuses. Bit 1 picks the 8168evl as it did when the corpus was
      // written; bit 2 with it the chips added since (8168h, ...).
      const size_t chips = rtl8168_chip_count();
      rtl8168_chip_info c{};
      const size_t idx = !(sel & 2) ? 0 : !(sel & 4) || chips < 3 ? 1 : 2 + (sel >> 3) % (chips - 2);
      value = !(sel & 1) || rtl8168_chip_at(idx, &c) != 0 ? "no-such-chip" : c.id;
    } else if (name == "mac") {
      char b[18];
      std::snprintf(b, sizeof b, "%02x:%02x:%02x:%02x:%02x:%02x", (sel & 0xfe), v & 0xff,
                    (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24, sel);
      value = b;
    } else if (unit == "bool") {
      value = sel & 1 ? "on" : "off";
    } else if (name.find("mxdma") != std::string::npos) {
      value = sel >= 8 ? "auto" : std::to_string(sel);
    } else {
      // Interesting sizes and latencies first, else the raw value.
      static constexpr uint32_t kVals[] = {0,    1,    16,   64,    128,     2048,
                                           4096, 6148, 8192, 65536, 1u << 20};
      value = sel < std::size(kVals) ? std::to_string(kVals[sel]) : std::to_string(v);
    }
    set_param(h.cfg, name.c_str(), value);
  }
  for (uint8_t& b : h.program) b = r.u8();
}

}  // namespace
}  // namespace rtl8168_fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rtl8168_fuzz;
  Reader r(data, size);
  FuzzHost h;
  h.cfg = rtl8168_config_new();
  if (!h.cfg) fail("rtl8168_config_new returned NULL");
  configure(h, r);
  static constexpr size_t kRamSizes[4] = {64 * 1024, 128 * 1024, 192 * 1024, 256 * 1024};
  // One buffer for every run: a fresh 64-256 KiB allocation per input costs
  // more than the run itself under ASan. It is all zero between runs (each
  // run clears what it wrote; resize() zeroes what it adds).
  static std::vector<uint8_t> ram;
  ram.resize(kRamSizes[(h.flags >> kFlagRamShift) & 3]);
  h.ram.swap(ram);
  install_hooks(h);
  h.port = std::make_unique<Port>(h);
  if (!create_on(h, *h.port)) {  // an inconsistent configuration (e.g. tx-fifo-size too small)
    h.port.reset();
    rtl8168_config_free(h.cfg);
    h.ram.swap(ram);
    return 0;
  }
  for (size_t i = 0; i < rtl8168_chip_count(); i++) {
    rtl8168_chip_info c{};
    if (rtl8168_chip_at(i, &c) == 0 && std::strcmp(c.name, rtl8168_chip_name(h.dev())) == 0) {
      h.ports = rtl8168_host::chip_ports(c);
    }
  }
  for (unsigned i = 0; i < 6; i++) h.mac[i] = static_cast<uint8_t>(reg_read(h, kMAC0 + i, 1));
  top(h, [&] { timer_expired(h); });

  static constexpr const char* kOpNames[kOpCount] = {
      "bring-up", "reg-write-known", "reg-write-raw", "reg-read-raw", "tx-frame",  "rx-arm",
      "rx-poll",  "receive-class",   "receive-raw",   "can-receive",  "time-step", "set-link",
      "fault",    "mem-write",       "mem-desc",      "phy",          "tally",     "save",
      "load",     "migrate",         "reset",         "msi",          "irq-ack",   "null-receive",
      "doorbell", "fault-spec"};
  if (verbose()) {
    std::fprintf(stderr, "config: flags %#x, RAM %zu KiB\n", h.flags, h.ram.size() / 1024);
  }
  for (size_t ops = 0; ops < kMaxOps && !r.empty(); ops++) {
    const uint8_t op_byte = r.u8();
    const unsigned op = decode_op(op_byte);
    if (verbose()) {
      std::fprintf(stderr, "op %zu: %s (byte %u, now %llu, deadline %llu)\n", ops, kOpNames[op], op_byte,
                   static_cast<unsigned long long>(h.now),
                   static_cast<unsigned long long>(h.port->deadline));
    }
    switch (op) {
      case kBringUp:
        op_bring_up(h, r);
        break;
      case kRegWriteKnown: {
        const KnownReg reg = kKnownRegs[r.u8() % kKnownRegCount];
        const uint32_t v = r.u32();
        top(h, [&] { reg_write(h, reg.off, v, reg.size); });
        break;
      }
      case kRegWriteRaw: {
        const uint32_t off = r.u16();
        const unsigned sz = kSizes[r.u8() % 8];
        const uint64_t v = r.u64();
        top(h, [&] { reg_write(h, off, v, sz); });
        break;
      }
      case kRegReadRaw: {
        const uint32_t off = r.u16();
        const unsigned sz = kSizes[r.u8() % 8];
        top(h, [&] { reg_read(h, off, sz); });
        break;
      }
      case kTxFrame:
        op_tx_frame(h, r);
        break;
      case kRxArm:
        arm_rx(h);
        break;
      case kRxPoll:
        op_rx_poll(h);
        break;
      case kReceiveClass:
        op_receive_class(h, r);
        break;
      case kReceiveRaw: {
        const size_t len = r.u16() % 9216;
        offer(h, r.bytes(len));
        break;
      }
      case kCanReceive:
        top(h, [&] { can_receive(h); });
        break;
      case kTimeStep:
        op_time(h, r);
        break;
      case kSetLink: {
        const bool up = r.u8() & 1;
        top(h, [&] {
          Call c(h);
          rtl8168_set_link(h.dev(), h.now, up);
        });
        break;
      }
      case kFault:
        op_fault(h, r);
        break;
      case kMemWrite: {
        const uint64_t addr = r.u32() % h.ram.size();
        const std::vector<uint8_t> b = r.bytes(r.u8());
        mem_write(h, addr, b.data(), b.size());
        break;
      }
      case kMemDesc: {
        const unsigned ring = r.u8() % 3;
        const unsigned idx = r.u8() % 64;
        const uint32_t o1 = r.u32(), o2 = r.u32();
        const uint8_t sel = r.u8();
        const uint64_t addr = pick_addr(h, sel, r.u32());
        const uint64_t base = ring == 0 ? kTxRing : ring == 1 ? kTxHRing : kRxRing;
        write_desc(h, base + 16ull * idx, o1, o2, addr);
        break;
      }
      case kPhy:
        op_phy(h, r);
        break;
      case kTally:
        op_tally(h, r);
        break;
      case kSave:
        op_save(h, r);
        break;
      case kLoad:
        op_load(h, r, false);
        break;
      case kMigrate:
        op_load(h, r, true);
        break;
      case kReset:
        op_reset(h);
        break;
      case kMsi:
        if (h.msi != static_cast<bool>(r.u8() & 1)) {
          h.msi = !h.msi;
          h.intx_armed = false;  // the model re-drives INTx at the next INT change only
        }
        break;
      case kIrqAck:
        op_irq_ack(h, r);
        break;
      case kNullReceive:
        op_null_receive(h, r);
        break;
      case kDoorbell: {
        const uint8_t v = r.u8();
        top(h, [&] { reg_write(h, h.ports.doorbell, v, h.ports.doorbell_width); });
        break;
      }
      case kFaultSpec:
        op_fault_spec(h, r);
        break;
      default:
        break;
    }
  }

  // Drain: run the timer until nothing is pending, then every frame the
  // device consumed must be delivered or counted as dropped.
  h.fail_reads = h.fail_writes = false;
  for (unsigned i = 0; i < kDrainSteps && h.port->deadline != RTL8168_NO_DEADLINE; i++) {
    if (h.acct_valid && rx_accounted(stats(h)) == h.acct.rx_consumed) break;
    if (h.port->deadline > kMaxNow) break;
    step_to_deadline(h, 0);
  }
  if (h.acct_valid) {
    const rtl8168_stats s = stats(h);
    if (rx_accounted(s) != h.acct.rx_consumed) {
      fail("RX: %llu frames consumed but %llu delivered or dropped after draining",
           static_cast<unsigned long long>(h.acct.rx_consumed),
           static_cast<unsigned long long>(rx_accounted(s)));
    }
  }
  h.close();
  h.port.reset();
  rtl8168_config_free(h.cfg);
  if (h.dirty_lo < h.dirty_hi) std::memset(h.ram.data() + h.dirty_lo, 0, h.dirty_hi - h.dirty_lo);
  h.ram.swap(ram);
  return 0;
}
