// SPDX-License-Identifier: GPL-2.0-or-later
// The register map as a driver sees it, for the model's C API clients that
// act as a driver (the host library, model/hostlib/): the bench's scripted
// r8169 (model/bench/sim_driver.cc), the shared open sequence
// (model/hostlib/bring_up.cc), the fuzz target (model/fuzz/fuzz_target.cc)
// and its seed generator (model/fuzz/seed_gen.cc). Offsets and bits carry
// r8169's names (r8169_main.c enum rtl_registers, rtl_register_content,
// TxDesc/RxDesc bits; docs/R8169.md §2-3).
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
// The RTL8125B's per-queue interrupt registers (Realtek r8125 INT_CFG0_8125,
// IMR1_8125..ISR3_8125, IMR_V2_CLEAR_REG_8125, ISR_V2_8125, IMR_V2_SET_REG_8125).
inline constexpr uint32_t kIntCfg0_8125 = 0x34, kImr1_8125 = 0x800, kImrV2Clear8125 = 0xd00,
                          kIsrV2_8125 = 0xd04, kImrV2Set8125 = 0xd0c;
inline constexpr uint8_t kIntCfg0Enable8125 = 0x01;
// The rest of the map the fuzz target's register table names (fuzz_input.h).
inline constexpr uint32_t kLedCtrl = 0x18;                 // LED_CTRL (6.12's LED class)
inline constexpr uint32_t kTCTR = 0x48, kRxMissed = 0x4c;  // timer count, missed packets
inline constexpr uint32_t kConfig0 = 0x51, kConfig1 = 0x52, kConfig2 = 0x53, kConfig3 = 0x54,
                          kConfig4 = 0x55, kConfig5 = 0x56;
inline constexpr uint32_t kTimerInt = 0x58;              // timer compare value
inline constexpr uint32_t kCSIDR = 0x64, kCSIAR = 0x68;  // PCI config space, indirect
inline constexpr uint32_t kERIDR = 0x70, kERIAR = 0x74, kEPHYAR = 0x80;
inline constexpr uint32_t kOCPDR = 0xb0, kOCPAR = 0xb4, kGPHY_OCP = 0xb8;
inline constexpr uint32_t kMaxTxPacketSize = 0xec, kMISC = 0xf0;

// ---- Register bits ----
inline constexpr uint8_t kCmdReset = 0x10, kCmdRxEnb = 0x08, kCmdTxEnb = 0x04;  // ChipCmd
inline constexpr uint8_t kHPQ = 0x80, kNPQ = 0x40, kFSWInt = 0x01;              // TxPoll
inline constexpr uint8_t kCfg9346Unlock = 0xc0, kCfg9346Lock = 0x00;
// IntrStatus / IntrMask.
inline constexpr uint16_t kSYSErr = 0x8000, kLinkChg = 0x0020, kRxOverflow = 0x0010;
inline constexpr uint16_t kTxErr = 0x0008, kTxOK = 0x0004, kRxErr = 0x0002, kRxOK = 0x0001;
inline constexpr uint16_t kPCSTimeout = 0x4000;  // TimerInt reached
// TxConfig: inter-frame gap (TxInterFrameGapShift 24; 3 = 96 bit times) and
// MXDMA (TxDMAShift 8).
inline constexpr uint32_t kTxIfg96 = 3u << 24;
inline constexpr unsigned kTxDmaShift = 8;
// RxConfig: RX128_INT_EN, RX_MULTI_EN (the 8168's rtl_init_rxcfg), MXDMA
// (RxCfgDMAShift 8) and the accept bits.
inline constexpr uint32_t kRx128IntEn = 1u << 15, kRxMultiEn = 1u << 14;
inline constexpr unsigned kRxDmaShift = 8;
inline constexpr uint32_t kAcceptBroadcast = 0x08, kAcceptMulticast = 0x04, kAcceptMyPhys = 0x02;
// PHYAR: bit 31 is the write flag (and the read's completion), 20:16 the MII
// register, 15:0 the data (r8169_mdio_write).
inline constexpr uint32_t kPhyarFlag = 0x80000000u;
inline constexpr unsigned kPhyarRegShift = 16;
// MII BMCR (register 0) bits (include/uapi/linux/mii.h).
inline constexpr uint32_t kMiiBmcr = 0;
inline constexpr uint16_t kBmcrSpeed1000 = 0x0040, kBmcrFullDplx = 0x0100, kBmcrAnRestart = 0x0200,
                          kBmcrAnEnable = 0x1000;
// CounterAddrLow (DTCCR) command bits.
inline constexpr uint32_t kCounterReset = 0x1, kCounterDump = 0x8;
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

// Where a chip's interrupt registers and TX doorbell sit (C API
// rtl8168_chip_info): the 8168's unless the chip list says otherwise.
struct ChipPorts {
  uint32_t intr_status = kIntrStatus, intr_mask = kIntrMask;
  unsigned intr_width = 2;
  uint32_t doorbell = kTxPoll;
  unsigned doorbell_width = 1;
  uint32_t doorbell_bits[2] = {kNPQ, kHPQ};  // TX queue 0 (NPQ), 1 (HPQ)
  uint32_t tx_ring_base[2] = {kTxDescLow, kTxHDescLow};  // low dword; high at +4
  // The RTL8125B's per-queue interrupt registers (rtl8168_chip_info.queue_irqs).
  bool queue_irqs = false;
};

}  // namespace rtl8168_driver
