// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtl8168sim: ethtool -i / -S / -d / link settings. Offloads (-k/-K) go through
 * netdev features (main.c rtl_set_features).
 */
#include <linux/delay.h>
#include <linux/ethtool.h>
#include <linux/mii.h>
#include <linux/netdevice.h>
#include <linux/pci.h>

#include "rtl8168sim.h"

/* DTCCR dump of the 64-byte tally block (r8169 rtl8169_do_counters) */
int rtl_tally_dump(struct rtl_priv *tp)
{
	int i;

	if (!(rtl_r8(tp, REG_CHIPCMD) & CMD_RXEN))
		return -ENETDOWN;
	rtl_w32(tp, REG_COUNTER_HI, upper_32_bits(tp->tally_phys));
	rtl_w32(tp, REG_COUNTER_LO, lower_32_bits(tp->tally_phys) | DTCCR_DUMP);
	for (i = 0; i < 1000; i++) {
		if (!(rtl_r32(tp, REG_COUNTER_LO) & DTCCR_DUMP))
			return 0;
		udelay(10);
	}
	return -ETIMEDOUT;
}

static void rtl_get_drvinfo(struct net_device *dev, struct ethtool_drvinfo *info)
{
	struct rtl_priv *tp = netdev_priv(dev);

	strscpy(info->driver, DRV_NAME, sizeof(info->driver));
	strscpy(info->bus_info, pci_name(tp->pdev), sizeof(info->bus_info));
	snprintf(info->fw_version, sizeof(info->fw_version), "XID %03x %s", tp->xid,
		 tp->pdev->msix_enabled ? "MSI-X" : tp->msi ? "MSI" : "INTx");
}

static const char rtl_tally_names[][ETH_GSTRING_LEN] = {
	"tx_packets", "rx_packets", "tx_errors", "rx_errors", "rx_missed", "align_errors",
	"tx_single_collisions", "tx_multi_collisions", "unicast", "broadcast", "multicast",
	"tx_aborted", "tx_underrun",
};

static const char rtl_sw_names[][ETH_GSTRING_LEN] = {
	"drv_irq_total", "drv_irq_none", "drv_irq_loops", "drv_napi_polls",
	"drv_txpoll_doorbell", "drv_txpoll_rekick", "drv_tx_queue_stop", "drv_tx_timeouts",
	"drv_resets", "drv_link_changes", "drv_rx_overflow", "drv_tx_pending",
	"drv_tx_pending_nic_owned", "drv_syserr", "drv_rx_fragments",
};

#define N_TALLY ARRAY_SIZE(rtl_tally_names)
#define N_SW ARRAY_SIZE(rtl_sw_names)
#define N_PER_QUEUE 2 /* rx_queue_<q>_packets, rx_queue_<q>_bytes */

/* the per-RX-queue counters: on the RTL8125 only (the 8168s' list is unchanged) */
static unsigned int rtl_n_queue_stats(struct rtl_priv *tp)
{
	return tp->r8125 ? N_PER_QUEUE * tp->num_rx_queues : 0;
}

static int rtl_get_sset_count(struct net_device *dev, int sset)
{
	struct rtl_priv *tp = netdev_priv(dev);

	return sset == ETH_SS_STATS ? N_TALLY + N_SW + rtl_n_queue_stats(tp) : -EOPNOTSUPP;
}

static void rtl_get_strings(struct net_device *dev, u32 sset, u8 *data)
{
	struct rtl_priv *tp = netdev_priv(dev);
	unsigned int q;

	if (sset != ETH_SS_STATS)
		return;
	memcpy(data, rtl_tally_names, sizeof(rtl_tally_names));
	data += sizeof(rtl_tally_names);
	memcpy(data, rtl_sw_names, sizeof(rtl_sw_names));
	data += sizeof(rtl_sw_names);
	if (!tp->r8125)
		return;
	for (q = 0; q < tp->num_rx_queues; q++) {
		ethtool_sprintf(&data, "rx_queue_%u_packets", q);
		ethtool_sprintf(&data, "rx_queue_%u_bytes", q);
	}
}

static void rtl_get_ethtool_stats(struct net_device *dev, struct ethtool_stats *stats, u64 *d)
{
	struct rtl_priv *tp = netdev_priv(dev);
	struct rtl_tally *t = tp->tally;
	const struct rtl_sw_stats *s = &tp->sw;
	unsigned int i, pending, owned = 0;

	if (netif_running(dev) && rtl_tally_dump(tp) == 0) {
		d[0] = le64_to_cpu(t->tx_packets);
		d[1] = le64_to_cpu(t->rx_packets);
		d[2] = le64_to_cpu(t->tx_errors);
		d[3] = le32_to_cpu(t->rx_errors);
		d[4] = le16_to_cpu(t->rx_missed);
		d[5] = le16_to_cpu(t->align_errors);
		d[6] = le32_to_cpu(t->tx_one_collision);
		d[7] = le32_to_cpu(t->tx_multi_collision);
		d[8] = le64_to_cpu(t->rx_unicast);
		d[9] = le64_to_cpu(t->rx_broadcast);
		d[10] = le32_to_cpu(t->rx_multicast);
		d[11] = le16_to_cpu(t->tx_aborted);
		d[12] = le16_to_cpu(t->tx_underrun);
	} else {
		memset(d, 0, N_TALLY * sizeof(*d));
	}
	d += N_TALLY;
	d[0] = s->irq_total;
	d[1] = s->irq_none;
	d[2] = s->irq_loops;
	d[3] = s->napi_polls;
	d[4] = s->txpoll_doorbell;
	d[5] = s->txpoll_rekick;
	d[6] = s->tx_queue_stop;
	d[7] = s->tx_timeouts;
	d[8] = s->resets;
	d[9] = s->link_changes;
	d[10] = s->rx_overflow;
	pending = READ_ONCE(tp->cur_tx) - READ_ONCE(tp->dirty_tx);
	if (tp->tx_ring)
		for (i = 0; i < pending; i++)
			if (le32_to_cpu(READ_ONCE(tp->tx_ring[(tp->dirty_tx + i) % NUM_TX_DESC].opts1)) &
			    DESC_OWN)
				owned++;
	d[11] = pending;
	d[12] = owned;
	d[13] = s->syserr;
	d[14] = s->rx_fragments;
	d += N_SW;
	for (i = 0; i < rtl_n_queue_stats(tp) / N_PER_QUEUE; i++) {
		*d++ = READ_ONCE(tp->rx[i].packets);
		*d++ = READ_ONCE(tp->rx[i].bytes);
	}
}

static int rtl_get_link_ksettings(struct net_device *dev, struct ethtool_link_ksettings *cmd)
{
	struct rtl_priv *tp = netdev_priv(dev);
	u32 sup = SUPPORTED_10baseT_Half | SUPPORTED_10baseT_Full | SUPPORTED_100baseT_Half |
		  SUPPORTED_100baseT_Full | SUPPORTED_1000baseT_Half | SUPPORTED_1000baseT_Full |
		  SUPPORTED_Autoneg | SUPPORTED_TP | SUPPORTED_MII;

	ethtool_convert_legacy_u32_to_link_mode(cmd->link_modes.supported, sup);
	ethtool_convert_legacy_u32_to_link_mode(cmd->link_modes.advertising, sup & ~SUPPORTED_MII);
	if (tp->r8125) { /* the integrated 2.5G PHY advertises 2500BASE-T from power-on */
		ethtool_link_ksettings_add_link_mode(cmd, supported, 2500baseT_Full);
		ethtool_link_ksettings_add_link_mode(cmd, advertising, 2500baseT_Full);
	}
	cmd->base.port = PORT_MII;
	cmd->base.phy_address = 0;
	cmd->base.autoneg = AUTONEG_ENABLE;
	cmd->base.speed = tp->link_up ? tp->speed : SPEED_UNKNOWN;
	cmd->base.duplex = tp->link_up ? tp->duplex : DUPLEX_UNKNOWN;
	return 0;
}

static int rtl_nway_reset(struct net_device *dev)
{
	struct rtl_priv *tp = netdev_priv(dev);
	int bmcr;

	if (!netif_running(dev))
		return -EAGAIN;
	bmcr = rtl_mdio_read(tp, MII_BMCR);
	if (bmcr < 0)
		return bmcr;
	return rtl_mdio_write(tp, MII_BMCR, bmcr | BMCR_ANENABLE | BMCR_ANRESTART);
}

static int rtl_get_regs_len(struct net_device *dev)
{
	return REG_SPACE_LEN;
}

static void rtl_get_regs(struct net_device *dev, struct ethtool_regs *regs, void *p)
{
	struct rtl_priv *tp = netdev_priv(dev);
	u32 *out = p;
	int i;

	regs->version = tp->xid;
	for (i = 0; i < REG_SPACE_LEN; i += 4)
		out[i / 4] = rtl_r32(tp, i);
}

static void rtl_get_ringparam(struct net_device *dev, struct ethtool_ringparam *ring,
			      struct kernel_ethtool_ringparam *kring,
			      struct netlink_ext_ack *extack)
{
	ring->rx_max_pending = NUM_RX_DESC;
	ring->tx_max_pending = NUM_TX_DESC;
	ring->rx_pending = NUM_RX_DESC;
	ring->tx_pending = NUM_TX_DESC;
}

const struct ethtool_ops rtl_ethtool_ops = {
	.get_drvinfo = rtl_get_drvinfo,
	.get_link = ethtool_op_get_link,
	.get_link_ksettings = rtl_get_link_ksettings,
	.nway_reset = rtl_nway_reset,
	.get_sset_count = rtl_get_sset_count,
	.get_strings = rtl_get_strings,
	.get_ethtool_stats = rtl_get_ethtool_stats,
	.get_regs_len = rtl_get_regs_len,
	.get_regs = rtl_get_regs,
	.get_ringparam = rtl_get_ringparam,
};
