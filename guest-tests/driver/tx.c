// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtl8168sim: TX ring, start_xmit with SG / checksum / TSO (v2 descriptors), TX reclaim
 * with the optional 2007 TxPoll re-kick, and the TX watchdog.
 */
#include <linux/dma-mapping.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/ip6_checksum.h>

#include "rtl8168sim.h"

int rtl_tx_init(struct rtl_priv *tp)
{
	tp->tx_ring = dma_alloc_coherent(&tp->pdev->dev, RING_BYTES(NUM_TX_DESC), &tp->tx_phys,
					 GFP_KERNEL);
	if (!tp->tx_ring)
		return -ENOMEM;
	memset(tp->tx_info, 0, sizeof(tp->tx_info));
	tp->cur_tx = 0;
	tp->dirty_tx = 0;
	return 0;
}

static void rtl_tx_unmap(struct rtl_priv *tp, unsigned int entry)
{
	struct rtl_desc *d = tp->tx_ring + entry;
	struct rtl_tx_info *ti = tp->tx_info + entry;

	dma_unmap_single(&tp->pdev->dev, le64_to_cpu(d->addr), ti->len, DMA_TO_DEVICE);
	d->opts1 = 0;
	d->opts2 = 0;
	d->addr = 0;
	ti->len = 0;
}

/* drop everything still queued (chip must be stopped) */
void rtl_tx_clear(struct rtl_priv *tp)
{
	unsigned int i;

	if (!tp->tx_ring)
		return;
	for (i = tp->dirty_tx; i != tp->cur_tx; i++) {
		unsigned int entry = i % NUM_TX_DESC;
		struct rtl_tx_info *ti = tp->tx_info + entry;

		if (ti->len)
			rtl_tx_unmap(tp, entry);
		if (ti->skb) {
			dev_kfree_skb_any(ti->skb);
			ti->skb = NULL;
			tp->dev->stats.tx_dropped++;
		}
	}
	tp->cur_tx = 0;
	tp->dirty_tx = 0;
	memset(tp->tx_ring, 0, RING_BYTES(NUM_TX_DESC));
	/*
	 * The skbs dropped above were reported to BQL (netdev_sent_queue) but never completed:
	 * without the reset BQL keeps their bytes in flight, above its limit, and the stack never
	 * hands the queue another packet (tx_reset_bql=0, the old behaviour; docs/HISTORY.md §7).
	 */
	if (rtl_tx_reset_bql)
		netdev_reset_queue(tp->dev);
}

void rtl_tx_free(struct rtl_priv *tp)
{
	if (!tp->tx_ring)
		return;
	rtl_tx_clear(tp);
	dma_free_coherent(&tp->pdev->dev, RING_BYTES(NUM_TX_DESC), tp->tx_ring, tp->tx_phys);
	tp->tx_ring = NULL;
}

static unsigned int rtl_tx_slots_avail(struct rtl_priv *tp)
{
	unsigned int dirty = READ_ONCE(tp->dirty_tx);
	unsigned int cur = READ_ONCE(tp->cur_tx);

	return NUM_TX_DESC - (cur - dirty);
}

static unsigned int rtl_last_frag_len(struct sk_buff *skb)
{
	struct skb_shared_info *info = skb_shinfo(skb);

	if (!info->nr_frags)
		return UINT_MAX;
	return skb_frag_size(info->frags + info->nr_frags - 1);
}

/* r8169 rtl8168evl_fix_tso(): "Workaround for hw issues with TSO on RTL8168evl" */
static netdev_features_t rtl_evl_tso_check(struct sk_buff *skb, netdev_features_t features)
{
	if (vlan_get_protocol(skb) == htons(ETH_P_IP) && ip_hdrlen(skb) > sizeof(struct iphdr))
		features &= ~NETIF_F_ALL_TSO;
	else if (skb_shinfo(skb)->gso_type & SKB_GSO_TCPV4 &&
		 tcp_hdrlen(skb) > sizeof(struct tcphdr))
		features &= ~NETIF_F_ALL_TSO;
	else if (rtl_last_frag_len(skb) <= 6)
		features &= ~NETIF_F_ALL_TSO;
	return features;
}

/* r8169 rtl8169_features_check(), v2 limits, plus the 8168evl fixes */
netdev_features_t rtl_features_check(struct sk_buff *skb, struct net_device *dev,
				     netdev_features_t features)
{
	struct rtl_priv *tp = netdev_priv(dev);

	/* the transport offset only exists for GSO and CHECKSUM_PARTIAL skbs (an ARP request has
	 * none: CONFIG_DEBUG_NET warns in skb_transport_header()), as in r8169 */
	if (skb_is_gso(skb)) {
		if (tp->evl && rtl_evl_fix_tso)
			features = rtl_evl_tso_check(skb, features);
		if (skb_transport_offset(skb) > TD1_GTTCPHO_MAX ||
		    skb_shinfo(skb)->gso_size > TD2_MSS_MAX)
			features &= ~NETIF_F_GSO_MASK;
	} else if (skb->ip_summed == CHECKSUM_PARTIAL) {
		/* rtl_quirk_packet_padto (ETH_ZLEN on VER_34): checksum in software */
		if (tp->evl && rtl_evl_sw_pad)
			features &= ~NETIF_F_CSUM_MASK;
		if (skb_transport_offset(skb) > TD2_TCPHO_MAX)
			features &= ~NETIF_F_CSUM_MASK;
	}
	return vlan_features_check(skb, features);
}

/* r8169 rtl8169_tso_csum_v2(): fill opts[] for TSO or checksum offload */
static bool rtl_tso_csum(struct rtl_priv *tp, struct sk_buff *skb, u32 *opts)
{
	u32 mss = skb_shinfo(skb)->gso_size;
	u8 proto;

	if (mss) {
		switch (vlan_get_protocol(skb)) {
		case htons(ETH_P_IP):
			opts[0] |= TD1_GTSENV4;
			break;
		case htons(ETH_P_IPV6):
			if (skb_cow_head(skb, 0))
				return false;
			tcp_v6_gso_csum_prep(skb);
			opts[0] |= TD1_GTSENV6;
			break;
		default:
			WARN_ON_ONCE(1);
			break;
		}
		opts[0] |= skb_transport_offset(skb) << TD1_GTTCPHO_SHIFT;
		opts[1] |= mss << TD2_MSS_SHIFT;
		return true;
	}
	if (skb->ip_summed != CHECKSUM_PARTIAL) {
		/* r8169 rtl8169_tso_csum_v2: __skb_put_padto(skb, rtl_quirk_packet_padto()) */
		if (tp->evl && rtl_evl_sw_pad)
			return !__skb_put_padto(skb, ETH_ZLEN, false);
		return true; /* the device pads short frames itself */
	}

	switch (vlan_get_protocol(skb)) {
	case htons(ETH_P_IP):
		opts[1] |= TD2_IPV4_CS;
		proto = ip_hdr(skb)->protocol;
		break;
	case htons(ETH_P_IPV6):
		opts[1] |= TD2_IPV6_CS;
		proto = ipv6_hdr(skb)->nexthdr;
		break;
	default:
		proto = IPPROTO_RAW;
		break;
	}
	if (proto == IPPROTO_TCP)
		opts[1] |= TD2_TCP_CS;
	else if (proto == IPPROTO_UDP)
		opts[1] |= TD2_UDP_CS;
	else {
		/* not TCP/UDP: checksum in software, no offload bits */
		opts[1] &= TD2_VLAN_TAG | 0xffff;
		return skb_checksum_help(skb) == 0;
	}
	opts[1] |= skb_transport_offset(skb) << TD2_TCPHO_SHIFT;
	return true;
}

/* r8169 rtl8169_doorbell: TxPoll NPQ on the 8168s, a 16-bit BIT(0) to TxPoll_8125 on the 8125 */
static void rtl_doorbell(struct rtl_priv *tp)
{
	if (tp->r8125)
		rtl_w16(tp, REG_TXPOLL_8125, TXPOLL_8125_Q0);
	else
		rtl_w8(tp, REG_TXPOLL, TXPOLL_NPQ);
}

/* map one buffer into descriptor entry; Own is set except on the first descriptor */
static void rtl_tx_map(struct rtl_priv *tp, unsigned int entry, dma_addr_t mapping, u32 len,
		       const u32 *opts, bool first, bool last)
{
	struct rtl_desc *d = tp->tx_ring + entry;
	u32 o1 = opts[0] | len;

	if (entry == NUM_TX_DESC - 1)
		o1 |= DESC_EOR;
	if (first)
		o1 |= DESC_FS;
	else
		o1 |= DESC_OWN;
	if (last)
		o1 |= DESC_LS;
	tp->tx_info[entry].len = len;
	d->addr = cpu_to_le64(mapping);
	d->opts2 = cpu_to_le32(opts[1]);
	d->opts1 = cpu_to_le32(o1);
}

netdev_tx_t rtl_start_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct rtl_priv *tp = netdev_priv(dev);
	struct device *d = &tp->pdev->dev;
	unsigned int nfrags = skb_shinfo(skb)->nr_frags;
	unsigned int first = tp->cur_tx % NUM_TX_DESC;
	unsigned int entry, i, len;
	dma_addr_t mapping;
	bool stop;
	u32 opts[2] = { 0, 0 };

	if (unlikely(rtl_tx_slots_avail(tp) < nfrags + 1)) {
		netif_stop_queue(dev);
		tp->sw.tx_queue_stop++;
		return NETDEV_TX_BUSY;
	}
	if (skb_vlan_tag_present(skb))
		opts[1] = TD2_VLAN_TAG | swab16(skb_vlan_tag_get(skb));
	if (!rtl_tso_csum(tp, skb, opts))
		goto drop;

	len = skb_headlen(skb);
	mapping = dma_map_single(d, skb->data, len, DMA_TO_DEVICE);
	if (dma_mapping_error(d, mapping))
		goto drop;
	rtl_tx_map(tp, first, mapping, len, opts, true, nfrags == 0);

	for (i = 0; i < nfrags; i++) {
		const skb_frag_t *frag = &skb_shinfo(skb)->frags[i];

		entry = (tp->cur_tx + 1 + i) % NUM_TX_DESC;
		len = skb_frag_size(frag);
		mapping = skb_frag_dma_map(d, frag, 0, len, DMA_TO_DEVICE);
		if (dma_mapping_error(d, mapping)) {
			unsigned int j;

			for (j = 0; j <= i; j++)
				rtl_tx_unmap(tp, (tp->cur_tx + j) % NUM_TX_DESC);
			goto drop;
		}
		rtl_tx_map(tp, entry, mapping, len, opts, false, i == nfrags - 1);
	}
	entry = (tp->cur_tx + nfrags) % NUM_TX_DESC;
	tp->tx_info[entry].skb = skb;

	skb_tx_timestamp(skb);
	/* every other descriptor is visible before the first one changes owner */
	dma_wmb();
	tp->tx_ring[first].opts1 |= cpu_to_le32(DESC_OWN);
	netdev_sent_queue(dev, skb->len);

	/* descriptors and cur_tx are visible before the reclaim path looks (r8169) */
	smp_wmb();
	WRITE_ONCE(tp->cur_tx, tp->cur_tx + nfrags + 1);

	stop = rtl_tx_slots_avail(tp) < TX_SLOTS_NEEDED;
	if (unlikely(stop)) {
		netif_stop_queue(dev);
		tp->sw.tx_queue_stop++;
		/* pairs with the barrier in rtl_tx_complete() */
		smp_mb();
		if (rtl_tx_slots_avail(tp) >= TX_SLOTS_NEEDED)
			netif_start_queue(dev);
	}
	if (!netdev_xmit_more() || stop || netif_xmit_stopped(netdev_get_tx_queue(dev, 0))) {
		rtl_doorbell(tp);
		tp->sw.txpoll_doorbell++;
	}
	return NETDEV_TX_OK;

drop:
	dev_kfree_skb_any(skb);
	dev->stats.tx_dropped++;
	return NETDEV_TX_OK;
}

/* called from NAPI poll */
void rtl_tx_complete(struct rtl_priv *tp, int budget)
{
	struct net_device *dev = tp->dev;
	unsigned int dirty = tp->dirty_tx, cur, pkts = 0, bytes = 0;

	smp_rmb();
	cur = READ_ONCE(tp->cur_tx);
	while (dirty != cur) {
		unsigned int entry = dirty % NUM_TX_DESC;
		struct rtl_tx_info *ti = tp->tx_info + entry;
		u32 status = le32_to_cpu(READ_ONCE(tp->tx_ring[entry].opts1));

		if (status & DESC_OWN)
			break;
		dma_rmb();
		rtl_tx_unmap(tp, entry);
		if (ti->skb) {
			pkts++;
			bytes += ti->skb->len;
			napi_consume_skb(ti->skb, budget);
			ti->skb = NULL;
		}
		dirty++;
	}
	if (dirty == tp->dirty_tx)
		return;

	dev->stats.tx_packets += pkts;
	dev->stats.tx_bytes += bytes;
	netdev_completed_queue(dev, pkts, bytes);
	WRITE_ONCE(tp->dirty_tx, dirty);
	/* pairs with the barrier in rtl_start_xmit() */
	smp_mb();
	if (netif_queue_stopped(dev) && rtl_tx_slots_avail(tp) >= TX_SLOTS_NEEDED)
		netif_wake_queue(dev);

	/*
	 * The 2007 fix ("8168 hack: TxPoll requests are lost when the Tx packets are too
	 * close"): a doorbell written while the chip was still dequeuing may have been
	 * ignored, so ring it again while descriptors remain queued.
	 */
	if (rtl_txpoll_rekick && READ_ONCE(tp->cur_tx) != dirty) {
		rtl_doorbell(tp);
		tp->sw.txpoll_rekick++;
	}
}

void rtl_tx_timeout(struct net_device *dev, unsigned int txqueue)
{
	struct rtl_priv *tp = netdev_priv(dev);
	unsigned int own = 0, i;

	for (i = tp->dirty_tx; i != tp->cur_tx; i++)
		if (le32_to_cpu(tp->tx_ring[i % NUM_TX_DESC].opts1) & DESC_OWN)
			own++;
	netdev_warn(dev,
		    "TX timeout: cur_tx %u dirty_tx %u, %u descriptors owned by the NIC, IntrStatus %04x IntrMask %04x\n",
		    tp->cur_tx, tp->dirty_tx, own, rtl_get_events(tp), rtl_get_irq_mask(tp));
	tp->sw.tx_timeouts++;
	rtl_schedule_reset(tp);
}
