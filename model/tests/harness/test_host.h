// SPDX-License-Identifier: GPL-2.0-or-later
// A host for the model, as the QEMU shim would be but fully observable:
// fake guest RAM behind the DMA callbacks, and a recorder for everything the
// model tells the host (frames on the wire with their virtual time, MSI
// messages, INTx level changes, the armed timer, rx_ready, trace lines).
// Virtual time only moves when the test says so (run_until / advance), and
// every time loop is bounded so a model that never settles fails the test
// instead of hanging it.
#pragma once

#include <rtl8168/rtl8168.h>

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "harness/fake_memory.h"

namespace rtl8168_test {

using Params = std::vector<std::pair<std::string, std::string>>;

// The parameters every API test starts from: chip first (it loads the
// profile defaults), the MAC, the mode, and every delay a test may depend on
// set explicitly (distinct values, so a test can tell them apart).
inline constexpr const char* kTestMac = "52:54:00:12:34:56";
inline constexpr uint8_t kTestMacBytes[6] = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};
inline constexpr uint64_t kPhyAnTime = 3'000'000;   // 3 ms autonegotiation
inline constexpr uint64_t kPhyResetTime = 200'000;  // 200 us BMCR reset
inline constexpr uint64_t kPhyarTime = 20'000;      // 20 us per MDIO transaction
inline constexpr uint64_t kChipResetTime = 50'000;  // 50 us ChipCmd reset
inline constexpr uint64_t kDtccrTime = 30'000;      // 30 us tally dump
Params default_params(bool timing);
// `base` with `overrides` replacing or appending entries (order kept).
Params with(Params base, const Params& overrides);

struct TxRecord {
  uint64_t time;
  std::vector<uint8_t> frame;
};

// One typed trace event (rtl8168_host_ops.trace_event).
struct TraceRecord {
  uint64_t time;
  unsigned kind;  // rtl8168_trace_kind
  std::array<uint64_t, 3> args;
};

class TestHost {
 public:
  // Hard bound on timer events handled by one run_until() call.
  static constexpr uint64_t kMaxEventsPerRun = 2'000'000;

  // `optional_callbacks` false leaves the optional trace and rx_ready
  // callbacks NULL, as a host that does not need them would.
  explicit TestHost(const Params& params = default_params(true), uint64_t start_ns = 0,
                    bool optional_callbacks = true);
  // A second host for state restore: same parameters, a copy of the guest
  // RAM (QEMU migrates RAM separately), and a clock already at `start_ns`.
  TestHost(const Params& params, const FakeMemory& ram, uint64_t start_ns);
  ~TestHost();
  TestHost(const TestHost&) = delete;
  TestHost& operator=(const TestHost&) = delete;

  rtl8168* dev() const { return dev_; }
  bool ok() const { return dev_ != nullptr; }
  const std::string& create_error() const { return create_error_; }
  FakeMemory& mem() { return mem_; }
  const FakeMemory& mem() const { return mem_; }

  // ---- time ----
  uint64_t now() const { return now_; }
  uint64_t deadline() const { return deadline_; }
  // Fire every timer deadline <= t (each at its own time), then set now = t.
  // Returns false (and records a test failure) if the event bound was hit.
  bool run_until(uint64_t t, uint64_t max_events = kMaxEventsPerRun);
  bool advance(uint64_t dt) { return run_until(now_ + dt); }
  // Move the clock forward without firing timers: time that passes while
  // the host is busy inside a callback (QEMU's virtual clock runs on while
  // slirp handles a transmitted frame).
  void tick(uint64_t dt) { now_ += dt; }
  // Fire deadlines one by one until no timer is armed (now() stays at the
  // last event) or the next one lies beyond now + horizon_ns. Returns true
  // when the model went quiet.
  bool run_until_idle(uint64_t horizon_ns);
  // Fire exactly the next pending deadline (if any, and not beyond `limit`).
  bool step_one(uint64_t limit = RTL8168_NO_DEADLINE);

  // ---- guest register access at now() ----
  uint64_t read(uint32_t off, unsigned size);
  void write(uint32_t off, uint64_t v, unsigned size);
  uint8_t r8(uint32_t off) { return static_cast<uint8_t>(read(off, 1)); }
  uint16_t r16(uint32_t off) { return static_cast<uint16_t>(read(off, 2)); }
  uint32_t r32(uint32_t off) { return static_cast<uint32_t>(read(off, 4)); }
  void w8(uint32_t off, uint8_t v) { write(off, v, 1); }
  void w16(uint32_t off, uint16_t v) { write(off, v, 2); }
  void w32(uint32_t off, uint32_t v) { write(off, v, 4); }

  // ---- network side at now() ----
  size_t receive(std::span<const uint8_t> frame);
  bool can_receive();
  void set_link(bool up);
  void reset();  // PCI function reset
  // Fault injection at now() (rtl8168_fault_add / _clear / _list).
  int add_fault(const std::string& spec, std::string* err = nullptr);
  void clear_faults();
  std::string faults_json() const;

  rtl8168_stats stats() const;
  uint64_t trace_hash() const { return rtl8168_trace_hash(dev_); }

  // ---- save / restore ----
  std::vector<uint8_t> save() const;
  int load(std::span<const uint8_t> blob, std::string* err = nullptr);

  // ---- recorded host-side effects ----
  std::vector<TxRecord> tx;                            // frames on the wire
  // Called from transmit() after the frame is recorded, still inside the
  // entry point: a back end that answers synchronously (slirp ACKs from
  // inside qemu_send_packet) re-enters the device from here.
  std::function<void(std::span<const uint8_t>)> on_transmit;
  std::vector<uint64_t> msi_times;                     // one entry per MSI message
  std::vector<std::pair<uint64_t, int>> intx_changes;  // (time, level) per set_intx call
  int intx_level = 0;
  uint64_t timer_arms = 0;
  uint64_t rx_ready_calls = 0;
  uint64_t pme_calls = 0;  // rtl8168_host_ops.pme (Wake-on-LAN events)
  std::vector<std::string> trace;  // capped at kMaxTraceLines
  uint64_t trace_lines = 0;
  std::vector<TraceRecord> trace_events;  // typed, capped at kMaxTraceLines
  bool msi = true;  // what msi_enabled() answers (guest MSI enable bit)
  std::vector<unsigned> msi_vectors;  // each message's vector, in msi_times' order
  // Set by any callback that arrives while the host is not inside an entry
  // point (a model calling back outside a call) -- should never happen.
  uint64_t callbacks_outside_calls = 0;
  static constexpr size_t kMaxTraceLines = 20000;

  // Tail of the trace, for failure messages.
  std::string trace_tail(size_t lines = 30) const;

 private:
  void init(const Params& params, bool optional_callbacks = true);
  static const rtl8168_host_ops& ops_template();
  struct Enter;  // RAII guard marking "inside an entry point"

  static int cb_dma_read(void* o, uint64_t addr, void* buf, size_t len);
  static int cb_dma_write(void* o, uint64_t addr, const void* buf, size_t len);
  static bool cb_msi_enabled(void* o);
  static void cb_msi_notify(void* o, unsigned vector);
  static void cb_set_intx(void* o, int level);
  static void cb_transmit(void* o, const uint8_t* frame, size_t len);
  static void cb_timer_arm(void* o, uint64_t deadline);
  static void cb_rx_ready(void* o);
  static void cb_trace(void* o, uint64_t now, const char* line);
  static void cb_trace_event(void* o, uint64_t now, unsigned kind, const uint64_t* args);
  static void cb_pme(void* o);
  void note_callback();

  FakeMemory mem_;
  rtl8168* dev_ = nullptr;
  std::string create_error_;
  uint64_t now_ = 0;
  uint64_t deadline_ = RTL8168_NO_DEADLINE;
  int depth_ = 0;
};

}  // namespace rtl8168_test
