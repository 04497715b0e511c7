// SPDX-License-Identifier: GPL-2.0-or-later
// One descriptor ring as a DMA engine walks it: the TX normal- and
// high-priority rings (NPQ, HPQ) and the RX ring share this type, as igb's
// rings share E1000E_RingInfo / igb_ring_advance and gem5's engines share
// DescCache<T>.
//
//   base      the ring's start address, from the register pair its profile
//             row names (TxDescStartAddr, TxHDescStartAddr, RxDescAddr), read at each
//             access: the chip latches nothing, and r8169 writes the bases
//             only while the engines are off (rtl_set_rx_tx_desc_registers)
//   position  the slot the engine takes next; 0 after ChipCmd reset
//   fetch     a 16-byte read of a slot (descriptor.h codec); the ring's
//             read-ahead (desc_cache.h) uses the same read at later slots
//   advance   past a descriptor: slot 0 after EOR, else the next one, and
//             slot 0 again after kMaxRing slots without EOR (the model's
//             bound on a hostile ring: counted in `ring_no_eor`, traced)
//   write-back  opts1 with Own cleared (TX: 4 bytes per descriptor; RX:
//             opts2 first, then opts1, so Own is released last)
//   format    16-byte descriptors, or on an RX ring whose row says so
//             (RingSpec::rx_desc_v3) while RxConfig bit 24 is set, the RTL8125's
//             32-byte RxDescV3 (rx_desc_v3.h): slots 32 bytes apart, the
//             fields at its offsets, the RSS hash written back
//
// The read-ahead is DescCache (desc_cache.h), the type the engines hold;
// the walk itself (what a descriptor means, when to fetch) stays in the
// engines: tx_engine.cc and rx_engine.cc.
#pragma once

#include <cstdint>

#include "descriptor.h"
#include "reg_file.h"
#include "ring_spec.h"
#include "rx_desc_v3.h"
#include "state_io.h"

namespace rtl8168sim {

class Device;

// A descriptor as fetched: its slot and the three fields.
struct RingDesc {
  uint32_t index = 0;
  uint32_t opts1 = 0, opts2 = 0;
  uint64_t addr = 0;
  uint32_t tx_len() const { return opts1 & desc::kTxLenMask; }           // TX: bytes of the buffer
  uint32_t rx_buf_size() const { return opts1 & desc::kRxBufSizeMask; }  // RX: room in the buffer
};

class DescRing {
 public:
  // Slots a walk takes before it wraps without EOR (16 KiB of descriptors).
  static constexpr uint32_t kMaxRing = 1024;

  // `spec`: the profile's row for this ring (ring_spec.h).
  DescRing(Device& d, const RingSpec& spec);

  RingId id() const { return spec_->id; }
  const RingSpec& spec() const { return *spec_; }
  // Read in line when both registers are in the 256-byte file (every ring
  // but the 8125's second TX queue): the engines take it several times a
  // frame.
  uint64_t base() const {
    return file_ ? file_->u64(spec_->base_lo, spec_->base_hi) : base_above_file();
  }
  // The ring holds RxDescV3 now (an RX ring whose row allows it, with
  // RxConfig bit 24 set: read at each access, as the base is).
  bool v3() const { return v3_capable_ && v3_selected(); }
  unsigned stride() const { return v3() ? desc_v3::kSize : desc::kSize; }
  uint64_t slot_addr(uint32_t index) const { return base() + uint64_t{index} * stride(); }

  uint32_t pos() const { return pos_; }
  void set_pos(uint32_t index) { pos_ = index; }
  // The slot after `index` whose descriptor had `opts1` (no accounting:
  // for read-ahead and for checking a loaded chain).
  static uint32_t next(uint32_t index, uint32_t opts1) {
    if (opts1 & desc::RingEnd) return 0;
    return index + 1 >= kMaxRing ? 0 : index + 1;
  }
  uint32_t next_slot(uint32_t opts1) const { return next(pos_, opts1); }
  // The engine is done with the descriptor at pos() (it had `opts1`): move
  // on, counting a wrap without EOR.
  void advance(uint32_t opts1);
  // A walk ran kMaxRing slots without EOR: ring_no_eor counter and trace.
  void report_no_eor();

  // Read the descriptor of slot `index` (at `addr`: where the read was
  // issued; slot_addr(index) unless the base moved meanwhile). False when
  // the DMA failed (`out` then holds zeros).
  [[nodiscard]] bool read_at(uint64_t addr, uint32_t index, RingDesc& out) const;
  [[nodiscard]] bool read(uint32_t index, RingDesc& out) const {
    return read_at(slot_addr(index), index, out);
  }
  // TX write-back of one descriptor at `addr`: its opts1 (Own cleared).
  [[nodiscard]] bool write_opts1(uint64_t addr, uint32_t opts1) const {
    return write32(addr, opts1);
  }
  // RX write-back of slot `index`: opts2, then opts1 (Own released last),
  // both in RxDesc's layout; in RxDescV3 format first the RSS result, then
  // both translated (rx_desc_v3.h). Stops at the first failed write.
  [[nodiscard]] bool write_back(uint32_t index, uint32_t opts1, uint32_t opts2,
                                desc_v3::RssResult rss = {}) const;

  // The position in the state blob (the engines' visit() place it).
  void visit(Archive& a) { a.io(pos_); }
  bool pos_valid() const { return pos_ < kMaxRing; }

 protected:
  Device& d_;

 private:
  [[nodiscard]] bool write32(uint64_t addr, uint32_t value) const;  // one posted write
  uint64_t base_above_file() const;
  bool v3_selected() const;  // RxConfig bit 24

  const RingSpec* spec_;
  const RegFile* file_;  // the device's register file when both base registers are in it
  bool v3_capable_;
  uint32_t pos_ = 0;
};

}  // namespace rtl8168sim
