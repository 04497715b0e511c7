// SPDX-License-Identifier: GPL-2.0-or-later
#include "trace.h"

namespace rtl8168sim {

const char* trace_name(Tr kind) {
  switch (kind) {
    case Tr::PowerOnReset: return "power_on_reset";
    case Tr::RegRead: return "reg_read";
    case Tr::RegWrite: return "reg_write";
    case Tr::BadAccess: return "bad_access";
    case Tr::Doorbell: return "doorbell";
    case Tr::DoorbellIgnored: return "doorbell_ignored";
    case Tr::TxDesc: return "tx_desc";
    case Tr::TxFrame: return "tx_frame";
    case Tr::TxError: return "tx_error";
    case Tr::TxIdle: return "tx_idle";
    case Tr::RxFrame: return "rx_frame";
    case Tr::RxDrop: return "rx_drop";
    case Tr::IrqMsi: return "irq_msi";
    case Tr::IrqLevel: return "irq_level";
    case Tr::LinkChange: return "link_change";
    case Tr::PhyRead: return "phy_read";
    case Tr::PhyWrite: return "phy_write";
    case Tr::DmaError: return "dma_error";
    case Tr::ChipReset: return "chip_reset";
    case Tr::Tally: return "tally";
    case Tr::RingNoEor: return "ring_no_eor";
    case Tr::TimerMatch: return "timer_match";
    case Tr::WorkYield: return "work_yield";
    case Tr::TxStopped: return "tx_stopped";
  }
  return "unknown";
}

}  // namespace rtl8168sim
