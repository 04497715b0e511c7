// SPDX-License-Identifier: GPL-2.0-or-later
// A host for the model outside QEMU: flat fake guest memory (the host
// library's GuestRam, model/hostlib/guest_ram.h), the single
// timer, MSI/INTx recording and a virtual clock. Callbacks only record;
// the scripted driver reacts after the entry point returns (the model is
// never re-entered).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "guest_ram.h"
#include "rtl8168/rtl8168.h"

namespace bench {

using Time = uint64_t;
inline constexpr Time kNever = RTL8168_NO_DEADLINE;

class SimHost {
 public:
  // Guest RAM [0, mem_bytes); any DMA outside fails like a master abort.
  SimHost(size_t mem_bytes, const std::vector<std::pair<std::string, std::string>>& params);
  ~SimHost();
  SimHost(const SimHost&) = delete;
  SimHost& operator=(const SimHost&) = delete;

  rtl8168* dev() { return dev_; }
  Time now() const { return now_; }
  Time deadline() const { return deadline_; }
  // Advance the clock to `t`, running the device timer whenever it is due.
  void run_until(Time t);
  // Advance to the earlier of `t` and the device's next event; returns the new time.
  Time step_until(Time t);

  uint32_t r32(uint32_t off) { return static_cast<uint32_t>(rtl8168_reg_read(dev_, now_, off, 4)); }
  uint16_t r16(uint32_t off) { return static_cast<uint16_t>(rtl8168_reg_read(dev_, now_, off, 2)); }
  uint8_t r8(uint32_t off) { return static_cast<uint8_t>(rtl8168_reg_read(dev_, now_, off, 1)); }
  void w32(uint32_t off, uint32_t v) { rtl8168_reg_write(dev_, now_, off, v, 4); }
  void w16(uint32_t off, uint16_t v) { rtl8168_reg_write(dev_, now_, off, v, 2); }
  void w8(uint32_t off, uint8_t v) { rtl8168_reg_write(dev_, now_, off, v, 1); }

  uint8_t* mem(uint64_t addr) { return ram_.data() + addr; }
  uint32_t mem32(uint64_t addr) const { return ram_.r32(addr); }
  void set_mem32(uint64_t addr, uint32_t v) { ram_.w32(addr, v); }
  void set_mem64(uint64_t addr, uint64_t v) { ram_.w64(addr, v); }

  // Interrupt delivery as the platform sees it.
  bool msi = true;                 // MSI enabled in config space
  uint64_t msi_count = 0;
  bool msi_pending = false;        // an MSI arrived and was not yet serviced
  int intx_level = 0;
  std::function<void(std::span<const uint8_t>, Time)> on_transmit;
  uint64_t tx_frames = 0;

 private:
  static int dma_read(void* o, uint64_t addr, void* buf, size_t len);
  static int dma_write(void* o, uint64_t addr, const void* buf, size_t len);
  static bool msi_enabled(void* o);
  static void msi_notify(void* o);
  static void set_intx(void* o, int level);
  static void transmit(void* o, const uint8_t* frame, size_t len);
  static void timer_arm(void* o, uint64_t deadline);

  rtl8168_host::GuestRam ram_;
  rtl8168* dev_ = nullptr;
  Time now_ = 0;
  Time deadline_ = kNever;
};

}  // namespace bench
