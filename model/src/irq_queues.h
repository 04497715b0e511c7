// SPDX-License-Identifier: GPL-2.0-or-later
// The RTL8125B's per-queue interrupt registers, beside IntrStatus/IntrMask
// (irq.h). r8169 uses none of them (it writes INT_CFG0 0 and uses one
// queue); Realtek's r8125 does. Sources: r8125.h (enum RTL8125_registers,
// enum RTL8125_register_content), r8125_n.c (rtl8125_interrupt_msix,
// rtl8125_tx_interrupt_with_vector, rtl8125_enable_hw_interrupt_v2,
// rtl8125_disable_hw_interrupt_v2, rtl8125_clear_hw_isr_v2,
// rtl8125_disable_hw_interrupt, rtl8125_enable_hw_interrupt).
//
// ISR v2, chosen by INT_CFG0 (0x34) bit 0 (INT_CFG0_ENABLE_8125):
//   ISR_V2_8125 0x0d04, 32 bits, write 1 to clear: one bit per MSI-X
//     message. RX queue q done is bit q (ISRIMR_V2_ROK_Q0 << q, r8125's
//     intr_mask loop over its RX rings), TX queue 0 done bit 16
//     (ISRIMR_TOK_Q0), TX queue 1 done bit 18 (ISRIMR_TOK_Q1), link change
//     bit 21 (ISRIMR_V2_LINKCHG).
//   IMR_V2_SET_REG_8125 0x0d0c / IMR_V2_CLEAR_REG_8125 0x0d00, 32 bits: a 1
//     unmasks / masks that message (rtl8125_enable_hw_interrupt_v2 and
//     rtl8125_disable_hw_interrupt_v2 write BIT(message_id);
//     rtl8125_disable_hw_interrupt writes 0xffffffff to CLEAR).
//   Bit n is MSI-X entry n: rtl8125_interrupt_msix serves vector n as
//     message_id n (it masks message n, acks ISR_V2 bit n, polls RX queue n
//     or, for messages 16 and 18, TX queue 0 or 1, then unmasks message n).
// ISR v1 with several RX queues (r8125's isr_reg[]/imr_reg[]): RX queue q
//   (1-3) reports in ISRq at 0x802 + 4 (q - 1) (16 bits, write 1 to clear:
//   RxOK1 bit 0, RxDU1 bit 1), masked by IMRq at 0x800 + 4 (q - 1)
//   (rtl8125_enable_hw_interrupt writes other_q_intr_mask = RxOK1 | RxDU1).
//
// The model's choices where the sources say nothing (docs/R8125.md "ISR v2
// and per-queue vectors"): both IMR_V2 addresses read the mask; ISR_V2
// holds only the seven event bits above (a write of 1 elsewhere changes
// nothing) and the IMRq/ISRq only bits 0-1; in ISR v2 mode the events that
// have a v2 bit latch there only, the others (errors, RxDescUnavail, SWInt,
// ...) still latch in IntrStatus but signal nothing; the registers keep
// their contents over a ChipCmd reset, as IntrStatus does.
#pragma once

#include <array>
#include <cstdint>

#include "state_io.h"

namespace rtl8168sim {

struct ChipProfile;

class IrqQueues {
 public:
  // ISR_V2 bits (Realtek r8125 ISRIMR_*).
  static constexpr uint32_t kRxOk0 = 1u << 0;  // RX queue q: kRxOk0 << q
  static constexpr uint32_t kTxOk0 = 1u << 16;
  static constexpr uint32_t kTxOk1 = 1u << 18;
  static constexpr uint32_t kLinkChg = 1u << 21;
  static constexpr unsigned kRxQueues = 4;  // the 8125B's RX rings
  static constexpr uint32_t kEvents = 0xfu | kTxOk0 | kTxOk1 | kLinkChg;
  // ISRq / IMRq bits (Realtek r8125 RxOK1, RxDU1).
  static constexpr uint16_t kRxOk1 = 1u << 0;
  static constexpr uint16_t kRxDu1 = 1u << 1;
  static constexpr uint16_t kQueueBits = kRxOk1 | kRxDu1;

  explicit IrqQueues(const ChipProfile& p);
  bool modelled() const { return modelled_; }
  void reset();

  // Whether an access touches one of the registers (never on a profile
  // without them).
  bool covers(uint32_t off, unsigned size) const;
  uint64_t read(uint32_t off, unsigned size) const;
  void write(uint32_t off, unsigned size, uint64_t value);

  void latch_v2(uint32_t bits) { isr_v2_ |= bits & kEvents; }
  // RX queue q (1-3) in ISR v1.
  void latch_queue(unsigned q, uint16_t bits) { isr_q_[q - 1] |= bits & kQueueBits; }
  uint32_t isr_v2() const { return isr_v2_; }
  uint32_t imr_v2() const { return imr_v2_; }
  uint32_t v2_active() const { return isr_v2_ & imr_v2_; }
  // Any ISRq & IMRq bit set (ISR v1's INT includes them).
  bool v1_active() const;

  // The registers in the blob (profiles that have them).
  void visit(Archive& a);
  const char* check() const;  // nullptr when the loaded registers are possible

 private:
  bool modelled_;
  uint32_t isr_v2_ = 0, imr_v2_ = 0;
  std::array<uint16_t, kRxQueues - 1> isr_q_{}, imr_q_{};
};

}  // namespace rtl8168sim
