// SPDX-License-Identifier: GPL-2.0-or-later
// The register map as a driver sees it, for the model's C API clients that
// act as a driver: the bench's scripted r8169 (model/bench/sim_driver.cc),
// the fuzz target (model/fuzz/fuzz_target.cc) and its seed generator
// (model/fuzz/seed_gen.cc). Offsets and bits carry r8169's names
// (r8169_main.c enum rtl_registers, rtl_register_content, TxDesc/RxDesc
// bits; docs/R8169.md §2-3).
//
// The model's own map is model/src/regs.h; the unit tests keep a third,
// deliberately independent copy (model/tests/harness/regs.h) so that a
// wrong offset in the model cannot be confirmed by the same wrong offset
// in the test.
#pragma once

#include <cstdint>

namespace rtl8168_driver {

// ---- Register offsets (BAR0 I/O and BAR2 MMIO alike) ----
inline constexpr uint32_t kMAC0 = 0x00, kMAC4 = 0x04;  // IDR0-5, written unlocked (Cfg9346)
inline constexpr uint32_t kMAR0 = 0x08, kMAR4 = 0x0c;  // multicast hash filter
inline constexpr uint32_t kCounterAddrLow = 0x10, kCounterAddrHigh = 0x14;
inline constexpr uint32_t kTxDescLow = 0x20, kTxDescHigh = 0x24;    // NPQ ring base
inline constexpr uint32_t kTxHDescLow = 0x28, kTxHDescHigh = 0x2c;  // HPQ ring base
inline constexpr uint32_t kChipCmd = 0x37, kTxPoll = 0x38;
inline constexpr uint32_t kIntrMask = 0x3c, kIntrStatus = 0x3e;
inline constexpr uint32_t kTxConfig = 0x40, kRxConfig = 0x44;
inline constexpr uint32_t kCfg9346 = 0x50, kPHYAR = 0x60, kPHYstatus = 0x6c;
inline constexpr uint32_t kRxMaxSize = 0xda, kCPlusCmd = 0xe0, kIntrMitigate = 0xe2;
inline constexpr uint32_t kRxDescLow = 0xe4, kRxDescHigh = 0xe8;

// ---- Register bits ----
inline constexpr uint8_t kCmdReset = 0x10, kCmdRxEnb = 0x08, kCmdTxEnb = 0x04;  // ChipCmd
inline constexpr uint8_t kNPQ = 0x40;                                           // TxPoll
inline constexpr uint8_t kCfg9346Unlock = 0xc0, kCfg9346Lock = 0x00;
// IntrStatus / IntrMask.
inline constexpr uint16_t kSYSErr = 0x8000, kLinkChg = 0x0020, kRxOverflow = 0x0010;
inline constexpr uint16_t kTxErr = 0x0008, kTxOK = 0x0004, kRxErr = 0x0002, kRxOK = 0x0001;
// RxConfig accept bits.
inline constexpr uint32_t kAcceptBroadcast = 0x08, kAcceptMulticast = 0x04, kAcceptMyPhys = 0x02;
// CPlusCmd.
inline constexpr uint16_t kRxVlan = 0x0040, kRxChkSum = 0x0020;
inline constexpr uint8_t kLinkStatus = 0x02;  // PHYstatus

// ---- Descriptor bits (opts1 / opts2, v2 TX descriptors) ----
inline constexpr uint32_t kOwn = 1u << 31, kEor = 1u << 30, kFs = 1u << 29, kLs = 1u << 28;
inline constexpr uint32_t kGtsEnv4 = 1u << 26, kGtsEnv6 = 1u << 25;
inline constexpr uint32_t kUdpCs = 1u << 31, kTcpCs = 1u << 30, kIpv4Cs = 1u << 29,
                          kIpv6Cs = 1u << 28;
inline constexpr uint32_t kTxVlanTag = 1u << 17;
inline constexpr uint32_t kRxBufSizeMask = 0x3fff;

}  // namespace rtl8168_driver
