// SPDX-License-Identifier: GPL-2.0-or-later
// Register offsets and bit names the test driver uses, spelled as in Linux
// r8169_main.c (enum rtl_registers / rtl_register_content / descriptor bits)
// so a test reads like the driver code it mirrors. Kept independent of the
// model's own definitions on purpose: the tests check the model against the
// driver's view of the hardware, not against itself.
#pragma once

#include <cstdint>

namespace rtl8168_test {

// ---- register offsets (r8169 enum rtl_registers) ----------------------------
inline constexpr uint32_t kMAC0 = 0x00;
inline constexpr uint32_t kMAC4 = 0x04;
inline constexpr uint32_t kMAR0 = 0x08;
inline constexpr uint32_t kCounterAddrLow = 0x10;
inline constexpr uint32_t kCounterAddrHigh = 0x14;
inline constexpr uint32_t kTxDescStartAddrLow = 0x20;
inline constexpr uint32_t kTxDescStartAddrHigh = 0x24;
inline constexpr uint32_t kTxHDescStartAddrLow = 0x28;
inline constexpr uint32_t kTxHDescStartAddrHigh = 0x2c;
inline constexpr uint32_t kChipCmd = 0x37;
inline constexpr uint32_t kTxPoll = 0x38;
inline constexpr uint32_t kIntrMask = 0x3c;
inline constexpr uint32_t kIntrStatus = 0x3e;
// The RTL8125's (r8169 enum rtl8125_registers).
inline constexpr uint32_t kIntCfg0_8125 = 0x34;
inline constexpr uint32_t kIntrMask8125 = 0x38;
inline constexpr uint32_t kIntrStatus8125 = 0x3c;
inline constexpr uint32_t kIntCfg1_8125 = 0x7a;
inline constexpr uint32_t kTxPoll8125 = 0x90;
inline constexpr uint32_t kMac0Bkp = 0x19e0;
inline constexpr uint32_t kRssCtrl8125 = 0x4500;
inline constexpr uint32_t kQNumCtrl8125 = 0x4800;
inline constexpr uint32_t kRxVlan8125 = 0x00c00000;  // RxConfig RX_VLAN_INNER/OUTER_8125
// Realtek r8125's per-queue interrupt registers (enum RTL8125_registers):
// RX queue q's IMRq/ISRq (16 bits) at 0x800/0x802 + 4 (q - 1); ISR v2.
inline constexpr uint32_t kImr1_8125 = 0x800;
inline constexpr uint32_t kIsr1_8125 = 0x802;
inline constexpr uint32_t kImrV2Clear8125 = 0xd00;
inline constexpr uint32_t kIsrV2_8125 = 0xd04;
inline constexpr uint32_t kImrV2Set8125 = 0xd0c;
inline constexpr uint8_t kIntCfg0Enable8125 = 0x01;       // INT_CFG0_ENABLE_8125
inline constexpr uint32_t kIsrV2RxQ0 = 1u << 0;           // ISRIMR_V2_ROK_Q0 (<< q)
inline constexpr uint32_t kIsrV2TxQ0 = 1u << 16;          // ISRIMR_TOK_Q0
inline constexpr uint32_t kIsrV2TxQ1 = 1u << 18;          // ISRIMR_TOK_Q1
inline constexpr uint32_t kIsrV2LinkChg = 1u << 21;       // ISRIMR_V2_LINKCHG
inline constexpr uint16_t kRxOK1 = 0x0001;                // ISRq bits
inline constexpr uint16_t kRxDU1 = 0x0002;
inline constexpr uint32_t kEnableRxDescV3 = 1u << 24;     // RxConfig EnableRxDescV3
inline constexpr uint32_t kTnpdsQ1Low8125 = 0x2100;       // TX queue 1's ring
inline constexpr uint32_t kTxConfig = 0x40;
inline constexpr uint32_t kRxConfig = 0x44;
inline constexpr uint32_t kTCTR = 0x48;      // timer count (datasheet "TCTR")
inline constexpr uint32_t kCfg9346 = 0x50;
inline constexpr uint32_t kTimerInt = 0x58;  // timer interrupt compare value
inline constexpr uint32_t kConfig1 = 0x52;
inline constexpr uint32_t kConfig3 = 0x54;
inline constexpr uint32_t kPHYAR = 0x60;
// 8168g class (RTL8168g/h): MAC OCP data port, PHY OCP port, MCU status, MISC.
inline constexpr uint32_t kOcpdr = 0xb0;
inline constexpr uint32_t kGphyOcp = 0xb8;
inline constexpr uint32_t kMcu = 0xd3;
inline constexpr uint32_t kMisc = 0xf0;
inline constexpr uint8_t kMcuNowIsOob = 0x80;
inline constexpr uint8_t kMcuRxTxEmpty = 0x30;  // TX_EMPTY | RX_EMPTY
inline constexpr uint8_t kMcuLinkListRdy = 0x02;
inline constexpr uint32_t kRxdvGatedEn = 1u << 19;
inline constexpr uint32_t kTxCfgEmpty = 1u << 11;
inline constexpr uint32_t kPHYstatus = 0x6c;
inline constexpr uint32_t kRxMaxSize = 0xda;
inline constexpr uint32_t kCPlusCmd = 0xe0;
inline constexpr uint32_t kIntrMitigate = 0xe2;
inline constexpr uint32_t kRxDescAddrLow = 0xe4;
inline constexpr uint32_t kRxDescAddrHigh = 0xe8;
inline constexpr uint32_t kMaxTxPacketSize = 0xec;

// ---- ChipCmd / TxPoll / Cfg9346 ---------------------------------------------
inline constexpr uint8_t kCmdStopReq = 0x80;
inline constexpr uint8_t kCmdReset = 0x10;
inline constexpr uint8_t kCmdRxEnb = 0x08;
inline constexpr uint8_t kCmdTxEnb = 0x04;
inline constexpr uint8_t kTxPollHPQ = 0x80;
inline constexpr uint8_t kTxPollNPQ = 0x40;
inline constexpr uint8_t kCfg9346Unlock = 0xc0;
inline constexpr uint8_t kCfg9346Lock = 0x00;

// ---- interrupt bits (IntrStatus / IntrMask) ---------------------------------
inline constexpr uint16_t kSYSErr = 0x8000;
inline constexpr uint16_t kPCSTimeout = 0x4000;
inline constexpr uint16_t kSWInt = 0x0100;
inline constexpr uint16_t kTxDescUnavail = 0x0080;
inline constexpr uint16_t kRxFIFOOver = 0x0040;
inline constexpr uint16_t kLinkChg = 0x0020;
inline constexpr uint16_t kRxOverflow = 0x0010;
inline constexpr uint16_t kTxErr = 0x0008;
inline constexpr uint16_t kTxOK = 0x0004;
inline constexpr uint16_t kRxErr = 0x0002;
inline constexpr uint16_t kRxOK = 0x0001;
// r8169 6.1 irq_mask for VER_22: RxOK|RxErr|TxOK|TxErr|LinkChg (0x2f) | RxOverflow.
inline constexpr uint16_t kDriverIrqMask = 0x003f;

// ---- TxConfig / RxConfig -----------------------------------------------------
inline constexpr uint32_t kTxConfigXidMask = 0xfcf00000;  // (TxConfig >> 20) & 0xfcf
inline constexpr uint32_t kTxConfigReset = 0x3c400000;    // XID 0x3c4, RTL8168c
inline constexpr uint32_t kTxConfigDriver = 0x03000700;   // IFG + MXDMA unlimited
inline constexpr uint32_t kRxConfigDriver = 0x0000c700;   // RX128_INT_EN | MXDMA unlimited
inline constexpr uint32_t kAcceptErr = 0x20;
inline constexpr uint32_t kAcceptRunt = 0x10;
inline constexpr uint32_t kAcceptBroadcast = 0x08;
inline constexpr uint32_t kAcceptMulticast = 0x04;
inline constexpr uint32_t kAcceptMyPhys = 0x02;
inline constexpr uint32_t kAcceptAllPhys = 0x01;

// ---- CPlusCmd ----------------------------------------------------------------
inline constexpr uint16_t kRxVlan = 0x0040;
inline constexpr uint16_t kRxChkSum = 0x0020;

// ---- DTCCR (CounterAddrLow command bits) ---------------------------------------
inline constexpr uint32_t kCounterDump = 0x08;
inline constexpr uint32_t kCounterReset = 0x01;

// ---- PHYAR ---------------------------------------------------------------------
inline constexpr uint32_t kPHYARFlag = 0x80000000u;

// ---- MII registers (RTL8211B) ----------------------------------------------------
inline constexpr unsigned kMiiBmcr = 0x00;
inline constexpr unsigned kMiiBmsr = 0x01;
inline constexpr unsigned kMiiPhysid1 = 0x02;
inline constexpr unsigned kMiiPhysid2 = 0x03;
inline constexpr unsigned kMiiAdvertise = 0x04;
inline constexpr unsigned kMiiLpa = 0x05;
inline constexpr unsigned kMiiCtrl1000 = 0x09;
inline constexpr unsigned kMiiStat1000 = 0x0a;
inline constexpr unsigned kMiiEstatus = 0x0f;
inline constexpr unsigned kMiiPage = 0x1f;
inline constexpr uint16_t kBmcrReset = 0x8000;
inline constexpr uint16_t kBmcrAnEnable = 0x1000;
inline constexpr uint16_t kBmcrAnRestart = 0x0200;
inline constexpr uint16_t kBmcrPdown = 0x0800;
inline constexpr uint16_t kBmsrLStatus = 0x0004;
inline constexpr uint16_t kBmsrAnComplete = 0x0020;
inline constexpr uint16_t kLpa100Full = 0x0100;
inline constexpr uint16_t kLpa1000Full = 0x0800;  // STAT1000

// ---- descriptors (16 bytes: opts1, opts2, addr64) ---------------------------------
inline constexpr uint32_t kDescSize = 16;
inline constexpr uint32_t kDescOwn = 1u << 31;
inline constexpr uint32_t kRingEnd = 1u << 30;
inline constexpr uint32_t kFirstFrag = 1u << 29;
inline constexpr uint32_t kLastFrag = 1u << 28;
// TX v2 opts1
inline constexpr uint32_t kTd1GtsEnv4 = 1u << 26;
inline constexpr uint32_t kTd1GtsEnv6 = 1u << 25;
inline constexpr unsigned kGttcphoShift = 18;  // opts1 24:18, TSO transport offset
// TX v2 opts2
inline constexpr uint32_t kTd1UdpCs = 1u << 31;
inline constexpr uint32_t kTd1TcpCs = 1u << 30;
inline constexpr uint32_t kTd1Ipv4Cs = 1u << 29;
inline constexpr uint32_t kTd1Ipv6Cs = 1u << 28;
inline constexpr unsigned kTd1MssShift = 18;  // opts2 28:18
inline constexpr unsigned kTcphoShift = 18;   // opts2 27:18
inline constexpr uint32_t kTxVlanTag = 1u << 17;
// RX opts1 status (RTL8169 datasheet p.56)
inline constexpr uint32_t kRxMAR = 1u << 27;
inline constexpr uint32_t kRxPAM = 1u << 26;
inline constexpr uint32_t kRxBAR = 1u << 25;
inline constexpr uint32_t kRxRWT = 1u << 22;
inline constexpr uint32_t kRxRES = 1u << 21;
inline constexpr uint32_t kRxRUNT = 1u << 20;
inline constexpr uint32_t kRxCRC = 1u << 19;
inline constexpr uint32_t kRxProtoMask = 3u << 17;
inline constexpr uint32_t kRxProtoTCP = 1u << 17;
inline constexpr uint32_t kRxProtoUDP = 2u << 17;
inline constexpr uint32_t kRxIPF = 1u << 16;
inline constexpr uint32_t kRxUDPF = 1u << 15;
inline constexpr uint32_t kRxTCPF = 1u << 14;
inline constexpr uint32_t kRxLenMask = 0x3fff;
// RX opts2
inline constexpr uint32_t kRxVlanTagged = 1u << 16;

// r8169 R8169_RX_BUF_SIZE (SZ_16K - 1), armed into every RX descriptor.
inline constexpr uint32_t kRxBufSize = 0x3fff;
inline constexpr unsigned kRingSize = 256;  // NUM_TX_DESC / NUM_RX_DESC

constexpr uint16_t swab16(uint16_t v) { return static_cast<uint16_t>((v >> 8) | (v << 8)); }
constexpr uint32_t swab32(uint32_t v) {
  return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

}  // namespace rtl8168_test
