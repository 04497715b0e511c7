// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtl8168sim: the RTL8125B (10ec:8125, XID 0x641, r8169 RTL_GIGA_MAC_VER_63) paths, after
 * r8169's VER_63 code (function names below are r8169_main.c's; the register traffic and what
 * the model answers are in docs/R8125.md):
 *
 *  - rtl_hw_init_8125 at probe (RXDV gate, FIFO-empty waits, NOW_IS_OOB, MAC OCP 0xe8de and
 *    0xc0aa/0xc0a6/0xc01e, each group followed by the LINK_LIST_RDY wait);
 *  - rtl_hw_start_8125 / rtl_hw_start_8125_common at every start: INT_CFG0/INT_CFG1 and the
 *    moderation block zeroed, RSS_CTRL and Q_NUM_CTRL, the MAC OCP settings (0xeb58 bit 0
 *    cleared: the 16-byte descriptors this driver writes), the 0xe00e wait, the RXDV gate
 *    opened;
 *  - the station address from MAC0_BKP (rtl_read_mac_address).
 *
 * With rss_queues > 1 (not an r8169 mode: r8169 runs one RX queue) the RX queues and RSS
 * are set up as Realtek's r8125 does (r8125_rss.c): RX queue q > 0's ring at
 * RDSAR_Q1_LOW_8125 + 8 (q - 1) (rtl8125_init_rx_ring), the 40-byte Toeplitz key at
 * RSS_KEY_8125 (rtl8125_store_rss_key: the byte array as 32-bit words), the 128-entry
 * indirection table at RSS_INDIRECTION_TBL_8125_V2 (rtl8125_store_reta: entry i in byte i & 3
 * of the word at 0x4700 + (i & ~3)) and RSS_CTRL_8125 with the IPv4/IPv6 TCP/UDP hash types,
 * the indirection mask and the ring count (_rtl8125_set_rss_hash_opt, rtl8125_config_rss).
 * Interrupts stay ISR v1 (INT_CFG0 bit 0 clear): one vector, IntrStatus RxOK for every queue
 * (irq.c). The RSS hash in the RX descriptor needs the 32-byte RxDescV3, which this driver
 * does not use.
 */
#include <linux/delay.h>
#include <linux/log2.h>
#include <linux/netdevice.h>

#include "rtl8168sim.h"

/*
 * The Microsoft RSS verification key ("Verifying the RSS Hash Calculation"), also the
 * default key of several drivers: a fixed key keeps the queue a flow lands on a function of
 * the flow alone, so a test's spread does not depend on a random key.
 */
static const u8 rtl_rss_key[RSS_KEY_SIZE_8125] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3,
	0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3,
	0x80, 0x30, 0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

/* rtl_hw_init_8125 (rtl_hw_initialize, VER_61 and later), at probe before rtl_hw_reset */
void rtl_hw_init_8125(struct rtl_priv *tp)
{
	rtl_hw_init_ocp_start(tp);

	r8168_mac_ocp_write(tp, 0xc0aa, 0x07d0);
	r8168_mac_ocp_write(tp, 0xc0a6, 0x0150);
	r8168_mac_ocp_write(tp, 0xc01e, 0x5555);
	r8168g_wait_ll_share_fifo_ready(tp);
}

/* rtl_read_mac_address: the 8125 keeps the autoloaded address in MAC0_BKP (byte reads) */
void rtl_read_mac_8125(struct rtl_priv *tp, u8 *mac)
{
	int i;

	for (i = 0; i < ETH_ALEN; i++)
		mac[i] = rtl_r8(tp, REG_MAC0_BKP + i);
}

/* rtl8125_store_rss_key: the key's bytes as little-endian 32-bit words */
static void rtl8125_store_rss_key(struct rtl_priv *tp)
{
	int i;

	for (i = 0; i < RSS_KEY_SIZE_8125; i += 4)
		rtl_w32(tp, REG_RSS_KEY_8125 + i,
			rtl_rss_key[i] | rtl_rss_key[i + 1] << 8 | rtl_rss_key[i + 2] << 16 |
			(u32)rtl_rss_key[i + 3] << 24);
}

/* rtl8125_store_reta with ethtool_rxfh_indir_default: entry i names ring i % rings */
static void rtl8125_store_reta(struct rtl_priv *tp)
{
	int i, b;

	for (i = 0; i < RSS_INDIR_ENTRIES_8125; i += 4) {
		u32 word = 0;

		for (b = 0; b < 4; b++)
			word |= ((i + b) % tp->num_rx_queues) << (8 * b);
		rtl_w32(tp, REG_RSS_INDIR_8125 + i, word);
	}
}

/* RSS_CTRL_8125 with RSS on: every hash type, 128 table entries, the ring count */
static u32 rtl8125_rss_ctrl(struct rtl_priv *tp)
{
	return RSS_CTRL_TCP_IPV4 | RSS_CTRL_IPV4 | RSS_CTRL_TCP_IPV6 | RSS_CTRL_IPV6 |
	       RSS_CTRL_UDP_IPV4 | RSS_CTRL_UDP_IPV6 |
	       ilog2(RSS_INDIR_ENTRIES_8125) << RSS_MASK_BITS_SHIFT |
	       ilog2(tp->num_rx_queues) << RSS_CPU_NUM_SHIFT;
}

/* the ring bases of RX queues 1.. (queue 0's is RDSAR 0xe4, written with the TX ring's) */
void rtl_rx_rings_8125(struct rtl_priv *tp)
{
	unsigned int q;

	for (q = 1; q < tp->num_rx_queues; q++) {
		int reg = REG_RDSAR_Q1_LOW_8125 + 8 * (q - 1);

		/* high word first, then low, as for queue 0 */
		rtl_w32(tp, reg + 4, upper_32_bits(tp->rx[q].phys));
		rtl_w32(tp, reg, lower_32_bits(tp->rx[q].phys));
	}
}

/*
 * rtl_hw_start_8125 (VER_63) and rtl_hw_start_8125_common, the writes the model acts on or
 * stores, then RSS when several RX queues are in use. Left out (no behaviour in the model):
 * the EPHY table, rtl_pcie_state_l2l3_disable, the EEE MAC settings (rtl8125b_config_eee_mac),
 * the extended tally switch (7.2: MAC OCP 0xea84). Called with Cfg9346 unlocked.
 */
void rtl_hw_start_8125(struct rtl_priv *tp)
{
	int i;

	/* disable interrupt coalescing (VER_63: 0xa00-0xa7f, then INT_CFG1) */
	for (i = 0; i < INT_MITI_8125_LEN; i += 4)
		rtl_w32(tp, REG_INT_MITI_8125 + i, 0);
	rtl_w16(tp, REG_INT_CFG1_8125, 0);
	rtl_w8(tp, REG_INT_CFG0_8125, 0); /* ISR v1 */

	rtl_w16(tp, REG_PCIE_382_8125, 0x221b);
	rtl_w32(tp, REG_RSS_CTRL_8125, 0);
	/* r8125 writes Q_NUM_CTRL_8125 ("VMQ_control") 0 also with RSS on */
	rtl_w16(tp, REG_Q_NUM_CTRL_8125, 0);

	r8168_mac_ocp_modify(tp, 0xd40a, 0x0010, 0x0000); /* disable UPS */
	r8168_mac_ocp_write(tp, 0xc140, 0xffff);
	r8168_mac_ocp_write(tp, 0xc142, 0xffff);
	r8168_mac_ocp_modify(tp, 0xd3e2, 0x0fff, 0x03a9);
	r8168_mac_ocp_modify(tp, 0xd3e4, 0x00ff, 0x0000);
	r8168_mac_ocp_modify(tp, 0xe860, 0x0000, 0x0080);
	/* disable the new TX descriptor format: the 16-byte descriptors */
	r8168_mac_ocp_modify(tp, 0xeb58, 0x0001, 0x0000);
	r8168_mac_ocp_modify(tp, 0xe614, 0x0700, 0x0200);
	r8168_mac_ocp_modify(tp, 0xe63e, 0x0c30, 0x0000);
	r8168_mac_ocp_modify(tp, 0xc0b4, 0x0000, 0x000c);
	r8168_mac_ocp_modify(tp, 0xeb6a, 0x00ff, 0x0033);
	r8168_mac_ocp_modify(tp, 0xeb50, 0x03e0, 0x0040);
	r8168_mac_ocp_modify(tp, 0xe056, 0x00f0, 0x0030);
	r8168_mac_ocp_modify(tp, 0xe040, 0x1000, 0x0000);
	r8168_mac_ocp_modify(tp, 0xea1c, 0x0003, 0x0001);
	r8168_mac_ocp_modify(tp, 0xe0c0, 0x4f0f, 0x4403);
	r8168_mac_ocp_modify(tp, 0xe052, 0x0080, 0x0068);
	r8168_mac_ocp_modify(tp, 0xd430, 0x0fff, 0x047f);
	r8168_mac_ocp_modify(tp, 0xea1c, 0x0004, 0x0000);
	r8168_mac_ocp_modify(tp, 0xeb54, 0x0000, 0x0001);
	udelay(1);
	r8168_mac_ocp_modify(tp, 0xeb54, 0x0001, 0x0000);
	rtl_w16(tp, REG_MISC_1880_8125, rtl_r16(tp, REG_MISC_1880_8125) & ~0x0030);
	r8168_mac_ocp_write(tp, 0xe098, 0xc302);
	r8125_wait_mac_ocp_e00e(tp);

	rtl_disable_rxdvgate(tp);

	if (tp->num_rx_queues > 1) {
		rtl8125_store_rss_key(tp);
		rtl8125_store_reta(tp);
		rtl_w32(tp, REG_RSS_CTRL_8125, rtl8125_rss_ctrl(tp));
	}
}
