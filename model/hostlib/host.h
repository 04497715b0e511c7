// SPDX-License-Identifier: GPL-2.0-or-later
// The host of the model outside QEMU: what QEMU and the shim
// (hw/net/rtl8168.c) are to the device inside it, for the model's
// driver-like C API clients, the bench (model/bench/) and the fuzz target
// (model/fuzz/fuzz_target.cc). It implements the C API's host callbacks
// (rtl8168.h rtl8168_host_ops) once:
//   dma_read/dma_write  guest RAM at guest-physical 0 (GuestRam, guest_ram.h):
//                       an access not wholly inside fails like a master abort
//   msi_enabled         Host::msi (MSI enabled in config space)
//   msi_notify          counted (msi_count) and flagged (msi_pending)
//   set_intx            the level of the device's pin (Port::intx)
//   transmit            counted (tx_frames), then the after_transmit hook
//   timer_arm           the device's deadline (Port::deadline)
//   rx_ready, trace     only when the hook is set (the C API makes both optional;
//                       trace_event, the structured form, is not passed)
// plus the virtual clock (Host::now) and the timer loop (step_until).
//
// One host may serve more than one device: each device gets its own Port
// (its callbacks' opaque pointer), so its timer and INTx pin are its own. The
// fuzz target's load checks create scratch devices on ports of their own
// beside the primary one (Host::port), whose timer the host runs.
//
// Hooks (Hooks below) let a client look at or refuse what the devices do
// without another copy of the callbacks: the fuzz target's checker (DMA
// bounds, the DMA fault window, dirty RAM, re-entry) is a set of hooks; the
// bench sets after_transmit and, with RTL8168_BENCH_TRACE=1, on_trace.
//
// Callbacks only record and call hooks; whether a hook re-enters the model
// (the C API allows it from transmit and rx_ready) is the client's choice.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "guest_ram.h"
#include "rtl8168/rtl8168.h"

namespace rtl8168_host {

using Time = uint64_t;
inline constexpr Time kNever = RTL8168_NO_DEADLINE;

class Host;

// One device on the host: the callbacks' opaque pointer.
struct Port {
  explicit Port(Host& h) : host(&h) {}
  Port(const Port&) = delete;
  Port& operator=(const Port&) = delete;

  Host* host;
  rtl8168* dev = nullptr;  // set by Host::create
  Time deadline = kNever;  // timer_arm
  int intx = 0;            // set_intx
};

// Each hook is optional. Hooks run inside the callback, before the host
// records (before_*, on_*) or after it (after_*).
struct Hooks {
  // A DMA transaction before it reaches guest RAM: false fails it (the
  // callback returns -1, nothing is copied).
  std::function<bool(Port&, uint64_t addr, size_t len)> before_dma_read, before_dma_write;
  // A DMA write that landed in guest RAM.
  std::function<void(Port&, uint64_t addr, size_t len)> after_dma_write;
  // msi_notify, before it is counted.
  std::function<void(Port&, unsigned vector)> on_msi;
  // set_intx, before the level is recorded (the raw argument).
  std::function<void(Port&, int level)> on_intx;
  // transmit, after tx_frames counted it (the raw arguments: frame may be NULL).
  std::function<void(Port&, const uint8_t* frame, size_t len)> after_transmit;
  // Set before Host::create: the device gets rx_ready / trace callbacks.
  std::function<void(Port&)> on_rx_ready;
  std::function<void(Port&, uint64_t now, const char* line)> on_trace;
};

class Host {
 public:
  // Guest RAM [0, ram_bytes), zeroed.
  explicit Host(size_t ram_bytes = 0) : ram(ram_bytes) {}
  ~Host();  // destroys the primary port's device
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  // rtl8168_create on `port` with this host's callbacks (opaque = &port);
  // sets port.dev. NULL with `err` filled when the model refuses `cfg`.
  rtl8168* create(const rtl8168_config* cfg, Port& port, char* err, size_t err_len);
  // The callback table create() passes (hooks as set now).
  rtl8168_host_ops ops_for(Port& port) const;

  // The primary device: create it on `port` (below); close() destroys it.
  rtl8168* dev() const { return port ? port->dev : nullptr; }
  void close();

  // Advance the clock to the earlier of `t` and the primary device's
  // deadline, running its timer if that is due; returns the new time.
  Time step_until(Time t);
  // Advance the clock to `t`, running the timer whenever it is due.
  void run_until(Time t);

  // Register access to the primary device at `now`.
  uint32_t r32(uint32_t off) { return static_cast<uint32_t>(rtl8168_reg_read(dev(), now, off, 4)); }
  uint16_t r16(uint32_t off) { return static_cast<uint16_t>(rtl8168_reg_read(dev(), now, off, 2)); }
  uint8_t r8(uint32_t off) { return static_cast<uint8_t>(rtl8168_reg_read(dev(), now, off, 1)); }
  void w32(uint32_t off, uint32_t v) { rtl8168_reg_write(dev(), now, off, v, 4); }
  void w16(uint32_t off, uint16_t v) { rtl8168_reg_write(dev(), now, off, v, 2); }
  void w8(uint32_t off, uint8_t v) { rtl8168_reg_write(dev(), now, off, v, 1); }

  GuestRam ram;
  Time now = 0;                // the virtual clock: moves forward only
  bool msi = true;             // MSI enabled in config space
  uint64_t msi_count = 0;      // MSIs the devices sent
  bool msi_pending = false;    // an MSI arrived (the driver clears it when it services it)
  unsigned last_msi_vector = 0;  // the MSI-X entry of the last message (0 for MSI)
  uint64_t tx_frames = 0;      // frames the devices transmitted
  std::unique_ptr<Port> port;  // the primary device's port (the one the driver drives)
  Hooks hooks;
};

}  // namespace rtl8168_host
