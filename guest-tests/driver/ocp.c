// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtl8168sim: the RTL8168h/8111h (XID 0x541, r8169 RTL_GIGA_MAC_VER_46, "8168g class") paths,
 * written after r8169's VER_46 code (function names below are r8169_main.c's; the register
 * traffic is listed in docs/R8168H.md):
 *
 *  - MAC OCP through OCPDR 0xb0 (r8168_mac_ocp_read/write/modify): no handshake, the data of a
 *    read is valid on the read right after the address write;
 *  - the PHY through GPHY_OCP 0xb8 (r8168_phy_ocp_read/write): bit 31 handshake, polled
 *    10 x 25 us as r8169 does, with a warning naming the register when it times out; C22
 *    register r at OCP 0xa400 + 2r (r8168g_mdio_read/write, page 0 only: this driver never
 *    selects a PHY page through C22 register 0x1f);
 *  - rtl_hw_init_8168g at probe (RXDV gate, TXCFG_EMPTY and MCU FIFO-empty waits, NOW_IS_OOB,
 *    the two MAC OCP 0xe8de writes each followed by the LINK_LIST_RDY wait);
 *  - rtl8169_cleanup's VER_40+ branch (rtl_enable_rxdvgate + rtl_wait_txrx_fifo_empty instead
 *    of StopReq);
 *  - the parts of rtl_hw_start_8168h_1 the model acts on or stores (FIFO sizes, pause
 *    thresholds, packet-filter reset, rtl_disable_rxdvgate, the MAC OCP settings);
 *  - the station address from ERI 0xe0/0xe4 (rtl_read_mac_address), IDR as the fallback;
 *  - rtl8168h_2_hw_phy_config's PHY writes and PHYSR (0xa434) for speed/duplex as realtek.c's
 *    rtlgen_read_status does.
 *
 * Every poll is bounded (r8169's counts and delays) and logs once per occurrence (ratelimited)
 * when it gives up; none of them fails the probe except a PHY ID read that never completes.
 */
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/netdevice.h>

#include "rtl8168sim.h"

/* ERIAR (r8169 enum rtl_register_content): write command, byte masks, type ExGMAC = 0 */
#define ERIAR_FLAG BIT(31)
#define ERIAR_MASK_0001 (0x1 << 12)
#define ERIAR_MASK_0011 (0x3 << 12)
#define ERIAR_MASK_1111 (0xf << 12)

/* ---- bounded polls (r8169 rtl_loop_wait) ---- */

struct rtl_cond {
	bool (*check)(struct rtl_priv *tp);
	const char *msg;
};

/*
 * r8169 rtl_loop_wait: check first, then wait; at most n checks. On timeout r8169 logs
 * "<cond> == <0|1> (loop: n, delay: d)." and carries on; so does this driver. udelay when
 * atomic (the GPHY_OCP poll, which may run under the PHY mutex from any process context
 * path), fsleep otherwise.
 */
static bool rtl_loop_wait(struct rtl_priv *tp, const struct rtl_cond *c, unsigned long usecs,
			  int n, bool high)
{
	int i;

	for (i = 0; i < n; i++) {
		if (c->check(tp) == high)
			return true;
		if (usecs <= 25)
			udelay(usecs);
		else
			fsleep(usecs);
	}
	dev_warn_ratelimited(&tp->pdev->dev, "%s == %d (loop: %d, delay: %lu).\n", c->msg, !high,
			     n, usecs);
	return false;
}

static bool rtl_ocp_gphy_check(struct rtl_priv *tp)
{
	return rtl_r32(tp, REG_GPHY_OCP) & OCPAR_FLAG;
}

static const struct rtl_cond rtl_ocp_gphy_cond = { rtl_ocp_gphy_check, "rtl_ocp_gphy_cond" };

static bool rtl_eriar_check(struct rtl_priv *tp)
{
	return rtl_r32(tp, REG_ERIAR) & ERIAR_FLAG;
}

static const struct rtl_cond rtl_eriar_cond = { rtl_eriar_check, "rtl_eriar_cond" };

static bool rtl_txcfg_empty_check(struct rtl_priv *tp)
{
	return rtl_r32(tp, REG_TXCONFIG) & TXCFG_EMPTY;
}

static const struct rtl_cond rtl_txcfg_empty_cond = { rtl_txcfg_empty_check,
						      "rtl_txcfg_empty_cond" };

static bool rtl_rxtx_empty_check(struct rtl_priv *tp)
{
	return (rtl_r8(tp, REG_MCU) & MCU_RXTX_EMPTY) == MCU_RXTX_EMPTY;
}

static const struct rtl_cond rtl_rxtx_empty_cond = { rtl_rxtx_empty_check, "rtl_rxtx_empty_cond" };

/* r8169 rtl_rxtx_empty_cond_2: "IntrMitigate has new functionality on RTL8125" */
static bool rtl_rxtx_empty_2_check(struct rtl_priv *tp)
{
	return (rtl_r16(tp, REG_INTRMITIGATE) & 0x0103) == 0x0103;
}

static const struct rtl_cond rtl_rxtx_empty_cond_2 = { rtl_rxtx_empty_2_check,
						       "rtl_rxtx_empty_cond_2" };

static bool rtl_link_list_ready_check(struct rtl_priv *tp)
{
	return rtl_r8(tp, REG_MCU) & MCU_LINK_LIST_RDY;
}

static const struct rtl_cond rtl_link_list_ready_cond = { rtl_link_list_ready_check,
							  "rtl_link_list_ready_cond" };

/* ---- MAC OCP (OCPDR) ---- */

/* r8169 rtl_mac_ocp_e00e_cond (rtl_hw_start_8125_common): MAC OCP 0xe00e bit 13 */
static bool rtl_mac_ocp_e00e_check(struct rtl_priv *tp)
{
	return r8168_mac_ocp_read(tp, 0xe00e) & BIT(13);
}

static const struct rtl_cond rtl_mac_ocp_e00e_cond = { rtl_mac_ocp_e00e_check,
						       "rtl_mac_ocp_e00e_cond" };

/* rtl_loop_wait_low(tp, &rtl_mac_ocp_e00e_cond, 1000, 10) */
void r8125_wait_mac_ocp_e00e(struct rtl_priv *tp)
{
	rtl_loop_wait(tp, &rtl_mac_ocp_e00e_cond, 1000, 10, false);
}

/* r8169 rtl_ocp_reg_failure: odd or >= 0x10000 addresses are refused, once with a warning */
static bool rtl_ocp_reg_failure(u32 reg)
{
	return WARN_ONCE(reg & 0xffff0001, "Invalid ocp reg %x!\n", reg);
}

void r8168_mac_ocp_write(struct rtl_priv *tp, u32 reg, u32 data)
{
	unsigned long flags;

	if (rtl_ocp_reg_failure(reg))
		return;
	spin_lock_irqsave(&tp->mac_ocp_lock, flags);
	rtl_w32(tp, REG_OCPDR, OCPAR_FLAG | reg << 15 | data);
	spin_unlock_irqrestore(&tp->mac_ocp_lock, flags);
}

/* the address write latches the word into OCPDR 15:0: r8169 reads it back at once, no poll */
u16 r8168_mac_ocp_read(struct rtl_priv *tp, u32 reg)
{
	unsigned long flags;
	u16 v;

	if (rtl_ocp_reg_failure(reg))
		return 0;
	spin_lock_irqsave(&tp->mac_ocp_lock, flags);
	rtl_w32(tp, REG_OCPDR, reg << 15);
	v = rtl_r32(tp, REG_OCPDR);
	spin_unlock_irqrestore(&tp->mac_ocp_lock, flags);
	return v;
}

/* r8168_mac_ocp_modify: a read, then an unconditional write */
void r8168_mac_ocp_modify(struct rtl_priv *tp, u32 reg, u16 mask, u16 set)
{
	u16 v = r8168_mac_ocp_read(tp, reg);

	r8168_mac_ocp_write(tp, reg, (v & ~mask) | set);
}

/* ---- PHY OCP (GPHY_OCP); callers hold tp->phy_lock ---- */

int r8168_phy_ocp_read(struct rtl_priv *tp, u32 reg)
{
	if (rtl_ocp_reg_failure(reg))
		return 0;
	rtl_w32(tp, REG_GPHY_OCP, reg << 15);
	/* rtl_loop_wait_high(tp, &rtl_ocp_gphy_cond, 25, 10) */
	if (!rtl_loop_wait(tp, &rtl_ocp_gphy_cond, 25, 10, true)) {
		dev_warn_ratelimited(&tp->pdev->dev,
				     "GPHY_OCP read of PHY OCP 0x%04x timed out: bit 31 never set (10 x 25 us)\n",
				     reg);
		return -ETIMEDOUT;
	}
	return rtl_r32(tp, REG_GPHY_OCP) & 0xffff;
}

int r8168_phy_ocp_write(struct rtl_priv *tp, u32 reg, u32 data)
{
	if (rtl_ocp_reg_failure(reg))
		return -EINVAL;
	rtl_w32(tp, REG_GPHY_OCP, OCPAR_FLAG | reg << 15 | data);
	/* rtl_loop_wait_low(tp, &rtl_ocp_gphy_cond, 25, 10) */
	if (!rtl_loop_wait(tp, &rtl_ocp_gphy_cond, 25, 10, false)) {
		dev_warn_ratelimited(&tp->pdev->dev,
				     "GPHY_OCP write of 0x%04x to PHY OCP 0x%04x timed out: bit 31 never cleared (10 x 25 us)\n",
				     data & 0xffff, reg);
		return -ETIMEDOUT;
	}
	return 0;
}

/*
 * r8168g_mdio_read/write with tp->ocp_base at OCP_STD_PHY_BASE: C22 register r is PHY OCP
 * 0xa400 + 2r. Register 0x1f (page select) is pure software in r8169 and never reaches the
 * device; this driver only uses page 0, so a page read returns 0 and a page write is dropped.
 */
int r8168g_mdio_read(struct rtl_priv *tp, int reg)
{
	if (reg == 0x1f)
		return 0;
	return r8168_phy_ocp_read(tp, OCP_STD_PHY_BASE + (reg & 0x1f) * 2);
}

int r8168g_mdio_write(struct rtl_priv *tp, int reg, u16 val)
{
	if (reg == 0x1f)
		return 0;
	return r8168_phy_ocp_write(tp, OCP_STD_PHY_BASE + (reg & 0x1f) * 2, val);
}

/* phy_modify_paged / __phy_modify_changed on an OCP address: write only on change */
static int rtl_phy_ocp_modify(struct rtl_priv *tp, u32 reg, u16 mask, u16 set)
{
	int v = r8168_phy_ocp_read(tp, reg);
	u16 nv;

	if (v < 0)
		return v;
	nv = (v & ~mask) | set;
	return nv == v ? 0 : r8168_phy_ocp_write(tp, reg, nv);
}

/* r8168g_phy_param: page 0xa43 register 0x13 (0xa436) = parm, modify register 0x14 (0xa438) */
static void r8168g_phy_param(struct rtl_priv *tp, u16 parm, u16 mask, u16 val)
{
	if (r8168_phy_ocp_write(tp, 0xa436, parm) == 0)
		rtl_phy_ocp_modify(tp, 0xa438, mask, val);
}

/*
 * rtl8168h_2_hw_phy_config (identical in 6.1, 6.12 and 7.2), at every up as r8169's
 * rtl8169_init_phy. No firmware (rtl_nic/rtl8168h-2.fw) is applied: this driver has none.
 * PHY OCP addresses: page p register r (0x10..0x17) is (p << 4) + 2 (r - 0x10).
 */
void rtl8168h_hw_phy_config(struct rtl_priv *tp)
{
	u16 data1, data2, ioffset;
	int rlen;

	mutex_lock(&tp->phy_lock);
	/* CHIN EST parameter update */
	r8168g_phy_param(tp, 0x808a, 0x003f, 0x000a);
	/* enable R-tune & PGA-retune function */
	r8168g_phy_param(tp, 0x0811, 0x0000, 0x0800);
	rtl_phy_ocp_modify(tp, 0xa42c, 0x0000, 0x0002); /* page 0xa42 reg 0x16 */
	/* rtl8168g_enable_gphy_10m */
	rtl_phy_ocp_modify(tp, 0xa442, 0x0000, BIT(11)); /* page 0xa44 reg 0x11 */

	/* rtl8168h_2_get_adc_bias_ioffset (MAC OCP 0xdd02/0xdd00) */
	r8168_mac_ocp_write(tp, 0xdd02, 0x807d);
	data1 = r8168_mac_ocp_read(tp, 0xdd02);
	data2 = r8168_mac_ocp_read(tp, 0xdd00);
	ioffset = (data2 >> 1) & 0x7ff8;
	ioffset |= data2 & 0x0007;
	if (data1 & BIT(7))
		ioffset |= BIT(15);
	if (ioffset != 0xffff)
		r8168_phy_ocp_write(tp, 0xbcfc, ioffset); /* page 0xbcf reg 0x16 */

	/* modify rlen (TX LPF corner frequency) level */
	rlen = r8168_phy_ocp_read(tp, 0xbcdc); /* page 0xbcd reg 0x16 */
	if (rlen >= 0) {
		rlen &= 0x000f;
		rlen = rlen > 3 ? rlen - 3 : 0;
		r8168_phy_ocp_write(tp, 0xbcde, rlen | rlen << 4 | rlen << 8 | rlen << 12);
	}

	/* disable phy pfm mode */
	rtl_phy_ocp_modify(tp, 0xa442, BIT(7), 0);
	/* disable 10m pll off */
	rtl_phy_ocp_modify(tp, 0xa430, BIT(0), 0);
	/* rtl8168g_disable_aldps */
	rtl_phy_ocp_modify(tp, 0xa430, BIT(2), 0);
	/* rtl8168g_config_eee_phy */
	rtl_phy_ocp_modify(tp, 0xa432, 0x0000, BIT(4));
	mutex_unlock(&tp->phy_lock);
}

/*
 * realtek.c rtlgen_read_status: with the link up, speed (0x0630) and duplex (bit 3) come from
 * PHYSR, page 0xa43 register 0x12 = PHY OCP 0xa434, overriding what the C22 abilities say
 * (a downshifted link reports its real speed there).
 */
void rtl8168g_read_physr(struct rtl_priv *tp)
{
	int v;

	mutex_lock(&tp->phy_lock);
	v = r8168_phy_ocp_read(tp, 0xa434);
	mutex_unlock(&tp->phy_lock);
	if (v < 0)
		return;
	switch (v & 0x0630) {
	case 0x0000:
		tp->speed = SPEED_10;
		break;
	case 0x0010:
		tp->speed = SPEED_100;
		break;
	case 0x0020:
		tp->speed = SPEED_1000;
		break;
	case 0x0210: /* the RTL8125's integrated PHY (realtek.c rtlgen_decode_physr) */
		tp->speed = SPEED_2500;
		break;
	default: /* 5G/10G codes: on none of these chips, keep the C22 result */
		netdev_warn(tp->dev, "PHYSR 0x%04x: speed code not a 10/100/1000 one\n", v);
		return;
	}
	tp->duplex = v & BIT(3) ? DUPLEX_FULL : DUPLEX_HALF;
}

/* ---- ERI (ExGMAC) ---- */

/* r8169 _rtl_eri_write: the flag clears when done, polled 100 x 100 us */
static void rtl_eri_write_mask(struct rtl_priv *tp, int addr, u32 mask, u32 val)
{
	rtl_w32(tp, REG_ERIDR, val);
	rtl_w32(tp, REG_ERIAR, ERIAR_FLAG | mask | addr);
	rtl_loop_wait(tp, &rtl_eriar_cond, 100, 100, false);
}

/* r8169 _rtl_eri_read: the flag rises when the data is valid; ~0 on timeout */
u32 rtl_eri_read(struct rtl_priv *tp, int addr)
{
	rtl_w32(tp, REG_ERIAR, ERIAR_MASK_1111 | addr);
	return rtl_loop_wait(tp, &rtl_eriar_cond, 100, 100, true) ? rtl_r32(tp, REG_ERIDR) : ~0u;
}

/* rtl_w0w1_eri: read, then a mask-1111 write */
static void rtl_eri_modify(struct rtl_priv *tp, int addr, u32 clear, u32 set)
{
	u32 v = rtl_eri_read(tp, addr);

	rtl_eri_write_mask(tp, addr, ERIAR_MASK_1111, (v & ~clear) | set);
}

/*
 * rtl_read_mac_address (VER_35 and later but VER_34's own path): ERI 0xe0 holds MAC bytes
 * 0..3, ERI 0xe4 bytes 4..5 (little endian). An all-ones read (ERI timeout) or a zero or
 * multicast address is invalid: the caller then falls back to IDR0-5 as r8169 does.
 */
void rtl_read_mac_8168h(struct rtl_priv *tp, u8 *mac)
{
	u32 lo = rtl_eri_read(tp, 0xe0);
	u32 hi = rtl_eri_read(tp, 0xe4);

	mac[0] = lo;
	mac[1] = lo >> 8;
	mac[2] = lo >> 16;
	mac[3] = lo >> 24;
	mac[4] = hi;
	mac[5] = hi >> 8;
}

/* ---- RXDV gate, FIFO-empty waits, hw init ---- */

/*
 * rtl_wait_txrx_fifo_empty, VER_40..53: TXCFG_EMPTY, then MCU TX_EMPTY|RX_EMPTY; VER_63:
 * ChipCmd StopReq, MCU TX_EMPTY|RX_EMPTY, then IntrMitigate 0x0103. 42 x 100 us each.
 */
static void rtl_wait_txrx_fifo_empty(struct rtl_priv *tp)
{
	if (tp->r8125) {
		rtl_w8(tp, REG_CHIPCMD, rtl_r8(tp, REG_CHIPCMD) | CMD_STOPREQ);
		rtl_loop_wait(tp, &rtl_rxtx_empty_cond, 100, 42, true);
		rtl_loop_wait(tp, &rtl_rxtx_empty_cond_2, 100, 42, true);
		return;
	}
	rtl_loop_wait(tp, &rtl_txcfg_empty_cond, 100, 42, true);
	rtl_loop_wait(tp, &rtl_rxtx_empty_cond, 100, 42, true);
}

/* rtl_enable_rxdvgate: received data stops entering the RX FIFO; then wait for the FIFOs */
void rtl_enable_rxdvgate(struct rtl_priv *tp)
{
	rtl_w32(tp, REG_MISC, rtl_r32(tp, REG_MISC) | MISC_RXDV_GATED_EN);
	fsleep(2000);
	rtl_wait_txrx_fifo_empty(tp);
}

/* rtl_disable_rxdvgate (rtl_hw_start_8168h_1, rtl_hw_start_8125_common): without it the chip
 * receives nothing */
void rtl_disable_rxdvgate(struct rtl_priv *tp)
{
	rtl_w32(tp, REG_MISC, rtl_r32(tp, REG_MISC) & ~MISC_RXDV_GATED_EN);
}

/* r8168g_wait_ll_share_fifo_ready: MCU LINK_LIST_RDY, 42 x 100 us */
void r8168g_wait_ll_share_fifo_ready(struct rtl_priv *tp)
{
	rtl_loop_wait(tp, &rtl_link_list_ready_cond, 100, 42, true);
}

/*
 * The start that rtl_hw_init_8168g (VER_40..48) and rtl_hw_init_8125 (VER_61 and later) share:
 * RXDV gate, TX/RX off, NOW_IS_OOB cleared, MAC OCP 0xe8de bit 14 cleared, LINK_LIST_RDY.
 */
void rtl_hw_init_ocp_start(struct rtl_priv *tp)
{
	rtl_enable_rxdvgate(tp);

	rtl_w8(tp, REG_CHIPCMD, rtl_r8(tp, REG_CHIPCMD) & ~(CMD_TXEN | CMD_RXEN));
	msleep(1);
	rtl_w8(tp, REG_MCU, rtl_r8(tp, REG_MCU) & ~MCU_NOW_IS_OOB);

	r8168_mac_ocp_modify(tp, 0xe8de, BIT(14), 0);
	r8168g_wait_ll_share_fifo_ready(tp);
}

/* rtl_hw_init_8168g (rtl_hw_initialize, VER_40..48), at probe before rtl_hw_reset */
void rtl_hw_init_8168g(struct rtl_priv *tp)
{
	rtl_hw_init_ocp_start(tp);

	r8168_mac_ocp_modify(tp, 0xe8de, 0, BIT(15));
	r8168g_wait_ll_share_fifo_ready(tp);
}

/*
 * rtl8169_cleanup, case VER_40 .. LAST: no StopReq; close the RXDV gate and wait for the TX
 * path and both FIFOs to drain, then another 2 ms; the caller resets the chip (rtl_hw_reset).
 */
void rtl_cleanup_8168g(struct rtl_priv *tp)
{
	rtl_enable_rxdvgate(tp);
	fsleep(2000);
}

/*
 * rtl_hw_start_8168h_1, the parts the model acts on or stores. Left out (no behaviour in the
 * model, docs/R8168H.md section 4): the EPHY table, ERI 0x5f0/0xc0/0xb8/0x1b0, EEE_LED,
 * DLLPR/MISC_1 power saving, Config3 Rdy_to_L23, rg_saw_cnt (PHY 0xc426 -> OCP 0xd412), the
 * ASPM entry latency and rtl_hw_aspm_clkreq_enable (the model has no ASPM yet).
 * Called with Cfg9346 unlocked.
 */
void rtl_hw_start_8168h_1(struct rtl_priv *tp)
{
	/* rtl_set_fifo_size(tp, 0x08, 0x10, 0x02, 0x06) */
	rtl_eri_write_mask(tp, 0xc8, ERIAR_MASK_1111, 0x08 << 16 | 0x02);
	rtl_eri_write_mask(tp, 0xe8, ERIAR_MASK_1111, 0x10 << 16 | 0x06);
	/* rtl8168g_set_pause_thresholds(tp, 0x38, 0x48) */
	rtl_eri_write_mask(tp, 0xcc, ERIAR_MASK_0001, 0x38);
	rtl_eri_write_mask(tp, 0xd0, ERIAR_MASK_0001, 0x48);
	/* rtl_reset_packet_filter */
	rtl_eri_modify(tp, 0xdc, BIT(0), 0);
	rtl_eri_modify(tp, 0xdc, 0, BIT(0));
	rtl_eri_modify(tp, 0xdc, 0, 0x001c);

	rtl_disable_rxdvgate(tp);

	r8168_mac_ocp_modify(tp, 0xe056, 0x00f0, 0x0000);
	r8168_mac_ocp_modify(tp, 0xe052, 0x6000, 0x8008);
	r8168_mac_ocp_modify(tp, 0xe0d6, 0x01ff, 0x017f);
	r8168_mac_ocp_modify(tp, 0xd420, 0x0fff, 0x047f);
	r8168_mac_ocp_write(tp, 0xe63e, 0x0001);
	r8168_mac_ocp_write(tp, 0xe63e, 0x0000);
	r8168_mac_ocp_write(tp, 0xc094, 0x0000);
	r8168_mac_ocp_write(tp, 0xc09e, 0x0000);
}
