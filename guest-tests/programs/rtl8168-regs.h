/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtl8168-regs.h - the RTL8168's register map as the guest side sees it: one copy for the
 * guest driver (guest-tests/driver/rtl8168sim.h includes it), the hostile-driver test
 * (guest-tests/programs/hostile.c) and the lab tools (guest-tests/lab/chip-timer.c).
 * Offsets and bits follow docs/R8169.md section 2 (checked against r8169_main.c 6.1/6.12:
 * enum rtl_registers, enum rtl_register_content). Plain integer constants only, no
 * includes: it builds in the kernel module and in the static user-space tools alike.
 * The model's own copy (model/src/regs.h) and the tests' deliberately independent one
 * (model/tests/harness/regs.h) are the device's side and stay separate: a register
 * map written twice by the same hand would carry the same mistake into the check.
 */
#ifndef RTL8168_REGS_H
#define RTL8168_REGS_H

/* ---- registers (MMIO BAR) ---- */
#define REG_MAC0 0x00
#define REG_MAC4 0x04
#define REG_MAR0 0x08
#define REG_COUNTER_LO 0x10 /* DTCCR: tally dump address, bit 3 = dump */
#define REG_COUNTER_HI 0x14
#define REG_TXDESC_LO 0x20
#define REG_TXDESC_HI 0x24
#define REG_TXHDESC_LO 0x28 /* high-priority queue ring (r8169 TxHDescStartAddrLow) */
#define REG_CHIPCMD 0x37
#define REG_TXPOLL 0x38
#define REG_INTRMASK 0x3c
#define REG_INTRSTATUS 0x3e
#define REG_TXCONFIG 0x40
#define REG_ERIDR 0x70 /* 8168evl ExGMAC side bus (r8169 rtl_eri_write) */
#define REG_ERIAR 0x74
#define REG_RXCONFIG 0x44
#define REG_TCTR 0x48 /* timer count, 32 bit, free running */
#define REG_CFG9346 0x50
#define REG_TIMERINT 0x58 /* timer compare value: PCSTimeout when TCTR reaches it */
#define REG_PHYAR 0x60
#define REG_PHYSTATUS 0x6c
#define REG_RXMAXSIZE 0xda
#define REG_CPLUSCMD 0xe0
#define REG_INTRMITIGATE 0xe2
#define REG_RXDESC_LO 0xe4
#define REG_RXDESC_HI 0xe8
#define REG_SPACE_LEN 0x100

/* ChipCmd */
#define CMD_STOPREQ 0x80
#define CMD_RESET 0x10
#define CMD_RXEN 0x08
#define CMD_TXEN 0x04

/* TxPoll */
#define TXPOLL_HPQ 0x80
#define TXPOLL_NPQ 0x40

/* IntrStatus / IntrMask */
#define INT_SYSERR 0x8000
#define INT_PCSTIMEOUT 0x4000
#define INT_LINKCHG 0x0020
#define INT_RXOVERFLOW 0x0010
#define INT_TXERR 0x0008
#define INT_TXOK 0x0004
#define INT_RXERR 0x0002
#define INT_RXOK 0x0001

/* Cfg9346 */
#define CFG9346_UNLOCK 0xc0
#define CFG9346_LOCK 0x00

/* CPlusCmd */
#define CPCMD_RXVLAN 0x0040
#define CPCMD_RXCHKSUM 0x0020

#endif /* RTL8168_REGS_H */
