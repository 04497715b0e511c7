// SPDX-License-Identifier: GPL-2.0-or-later
// The RX engine: address filter (RxConfig accept bits, MAR hash), RX FIFO
// with back-pressure toward the host, descriptor fetch (non-posted read),
// data + FCS write and descriptor write-back (posted), RxOK; no owned
// descriptor -> the frame is dropped with RxOverflow|RxFIFOOver and the
// next frame re-reads the same slot (docs/R8169.md §3 "RX").
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "fifo_ring.h"
#include "state_io.h"
#include "timing.h"

namespace rtl8168sim {

class Device;

class RxEngine {
 public:
  static constexpr uint32_t kMaxRing = 1024;  // walk bound without EOR
  explicit RxEngine(Device& d) : d_(d) {}

  void reset();   // ring position 0, FIFO emptied
  void halt();    // RxEnb cleared: FIFO emptied, position kept
  // False when the FIFO has no room for a standard frame; the host is then
  // owed an rx_ready() once there is (QEMU backends such as tap stop
  // polling until qemu_flush_queued_packets()).
  bool can_receive();
  // Returns false when the FIFO is full (host must retry after rx_ready).
  bool receive(std::span<const uint8_t> frame);
  void on_desc_done();
  void on_write_done();
  uint32_t position() const { return pos_; }
  // The host was refused and waits for room (rx_ready is due).
  bool take_ready_signal();

  bool desc_fetch_in_flight() const { return phase_ == Phase::FetchDesc; }
  bool write_in_flight() const { return phase_ == Phase::Write; }

  // The component's state in the blob, for save and load alike (state_io.h).
  void visit(Archive& a);
  const char* check() const;  // nullptr when the loaded state is consistent

 private:
  enum class Phase : uint8_t { Idle, FetchDesc, Write };
  enum class AddressClass : uint8_t { Unicast, Broadcast, Multicast };
  struct RxFrame {
    std::vector<uint8_t> bytes;  // frame as delivered + 4-byte FCS
    uint32_t status = 0;         // opts1 status bits (MAR/PAM/BAR, PID, fail bits)
    uint32_t opts2 = 0;          // VLAN tag when stripped
    AddressClass kind = AddressClass::Unicast;  // for the tally
    uint32_t fifo_bytes = 0;     // FIFO space taken on arrival (before VLAN strip)
  };
  bool accept(std::span<const uint8_t> frame, uint32_t& status, AddressClass& kind) const;
  void fetch_desc();
  void drop_head(uint64_t reason);
  void pop_head();
  uint64_t ring_base() const;

  Device& d_;
  uint32_t pos_ = 0;
  Phase phase_ = Phase::Idle;
  uint32_t desc_opts1_ = 0;
  uint64_t desc_addr_ = 0;
  FifoRing<RxFrame> fifo_;  // frames taken from the wire, waiting for a descriptor
  uint32_t fifo_used_ = 0;
  bool host_waiting_ = false;
  bool ready_signal_ = false;
};

}  // namespace rtl8168sim
