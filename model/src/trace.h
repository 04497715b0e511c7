// SPDX-License-Identifier: GPL-2.0-or-later
// The event trace: every guest-visible decision is one record (kind + up to
// three values) folded into a 64-bit hash (FNV-1a over 64-bit words: one
// multiply per word keeps it off the per-frame profile), and optionally
// formatted as a text line for the host (QEMU trace event, bench trace).
#pragma once

#include <cstdint>

#include "timing.h"

namespace rtl8168sim {

enum class Tr : uint8_t {
  PowerOnReset,
  RegRead,          // offset, size, value
  RegWrite,         // offset, size, value
  BadAccess,        // offset, size, is_write
  Doorbell,         // queue (0 NPQ, 1 HPQ), accepted
  DoorbellIgnored,  // queue, engine busy (lossy-txpoll)
  TxDesc,           // ring index, opts1, opts2
  TxFrame,          // length, ring index of first descriptor
  TxError,          // reason, ring index
  TxIdle,           // ring index where the engine stopped
  RxFrame,          // length (incl. FCS), ring index, opts1
  RxDrop,           // reason, length
  IrqMsi,           // isr, imr
  IrqLevel,         // level, isr, imr
  LinkChange,       // up, speed
  PhyRead,          // page, reg, value
  PhyWrite,         // page, reg, value
  DmaError,         // address, length, is_write
  ChipReset,        // phase (0 start, 1 done)
  Tally,            // command, address
  RingNoEor,        // queue, base
  TimerMatch,       // TimerInt value (PCSTimeout latched)
  WorkYield,        // DMA transactions, frames so far in this entry point
  TxStopped,        // reason (failed write-back), ring index: engine stopped until restarted
};

const char* trace_name(Tr kind);

class Trace {
 public:
  void record(Time now, Tr kind, uint64_t a = 0, uint64_t b = 0, uint64_t c = 0) {
    mix(now);
    mix(static_cast<uint64_t>(kind));
    mix(a);
    mix(b);
    mix(c);
    count_++;
  }
  uint64_t hash() const { return hash_; }
  uint64_t count() const { return count_; }
  void restore(uint64_t hash, uint64_t count) {
    hash_ = hash;
    count_ = count;
  }
  void reset() { restore(kFnvOffset, 0); }

 private:
  static constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ull;
  static constexpr uint64_t kFnvPrime = 0x100000001b3ull;
  void mix(uint64_t v) {
    hash_ ^= v;
    hash_ *= kFnvPrime;
    hash_ ^= hash_ >> 32;
  }
  uint64_t hash_ = kFnvOffset;
  uint64_t count_ = 0;
};

}  // namespace rtl8168sim
