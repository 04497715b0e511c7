// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtl8168sim: RX rings (one 16 KiB page buffer per descriptor, as r8169) and the RX half
 * of the NAPI poll: copy into a fresh skb, checksum and VLAN from the status bits. One ring
 * on the 8168s; on the RTL8125B one per RX queue (rss_queues), each polled by its own NAPI.
 */
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>

#include "rtl8168sim.h"

#define RX_PAGE_ORDER get_order(RX_BUF_SIZE + 1)

static void rtl_rx_give(struct rtl_rx_ring *ring, unsigned int entry)
{
	struct rtl_desc *d = ring->desc + entry;
	u32 eor = entry == NUM_RX_DESC - 1 ? DESC_EOR : 0;

	/* rx_spill_fix=0: the 2009 rx_buf_sz (the page behind it is still 16 KiB) */
	u32 size = rtl_rx_spill_fix ? RX_BUF_SIZE : RX_BUF_SIZE_2009;

	d->opts2 = 0;
	/* the address and opts2 are visible before the NIC may own the descriptor */
	dma_wmb();
	WRITE_ONCE(d->opts1, cpu_to_le32(DESC_OWN | eor | size));
}

static void rtl_rx_ring_free(struct rtl_rx_ring *ring)
{
	struct device *d = &ring->tp->pdev->dev;
	unsigned int i;

	if (!ring->desc)
		return;
	for (i = 0; i < NUM_RX_DESC; i++) {
		if (!ring->page[i])
			continue;
		dma_unmap_page(d, le64_to_cpu(ring->desc[i].addr), RX_BUF_SIZE + 1,
			       DMA_FROM_DEVICE);
		__free_pages(ring->page[i], RX_PAGE_ORDER);
		ring->page[i] = NULL;
	}
	dma_free_coherent(d, RING_BYTES(NUM_RX_DESC), ring->desc, ring->phys);
	ring->desc = NULL;
}

void rtl_rx_free(struct rtl_priv *tp)
{
	unsigned int q;

	for (q = 0; q < tp->num_rx_queues; q++)
		rtl_rx_ring_free(&tp->rx[q]);
}

static int rtl_rx_ring_init(struct rtl_rx_ring *ring)
{
	struct device *d = &ring->tp->pdev->dev;
	unsigned int i;

	ring->desc = dma_alloc_coherent(d, RING_BYTES(NUM_RX_DESC), &ring->phys, GFP_KERNEL);
	if (!ring->desc)
		return -ENOMEM;
	for (i = 0; i < NUM_RX_DESC; i++) {
		struct page *pg = alloc_pages_node(dev_to_node(d), GFP_KERNEL, RX_PAGE_ORDER);
		dma_addr_t mapping;

		if (!pg)
			goto fail;
		mapping = dma_map_page(d, pg, 0, RX_BUF_SIZE + 1, DMA_FROM_DEVICE);
		if (dma_mapping_error(d, mapping)) {
			__free_pages(pg, RX_PAGE_ORDER);
			goto fail;
		}
		ring->page[i] = pg;
		ring->desc[i].addr = cpu_to_le64(mapping);
	}
	ring->cur = 0;
	return 0;
fail:
	rtl_rx_ring_free(ring);
	return -ENOMEM;
}

int rtl_rx_init(struct rtl_priv *tp)
{
	unsigned int q;
	int ret;

	for (q = 0; q < tp->num_rx_queues; q++) {
		ret = rtl_rx_ring_init(&tp->rx[q]);
		if (ret) {
			rtl_rx_free(tp);
			return ret;
		}
	}
	return 0;
}

/* give every descriptor of every ring back to the NIC (after a chip reset) */
void rtl_rx_rearm(struct rtl_priv *tp)
{
	unsigned int q, i;

	for (q = 0; q < tp->num_rx_queues; q++) {
		for (i = 0; i < NUM_RX_DESC; i++)
			rtl_rx_give(&tp->rx[q], i);
		tp->rx[q].cur = 0;
	}
}

static void rtl_rx_errors(struct rtl_priv *tp, u32 status)
{
	struct net_device_stats *st = &tp->dev->stats;

	st->rx_errors++;
	if (status & (RD1_RWT | RD1_RUNT))
		st->rx_length_errors++;
	if (status & RD1_CRC)
		st->rx_crc_errors++;
}

int rtl_rx_poll(struct rtl_rx_ring *ring, int budget)
{
	struct rtl_priv *tp = ring->tp;
	struct net_device *dev = tp->dev;
	struct device *d = &tp->pdev->dev;
	int count;

	for (count = 0; count < budget; count++, ring->cur++) {
		unsigned int entry = ring->cur % NUM_RX_DESC;
		struct rtl_desc *desc = ring->desc + entry;
		dma_addr_t addr = le64_to_cpu(desc->addr);
		struct sk_buff *skb;
		u32 status, opts2;
		unsigned int len;

		status = le32_to_cpu(READ_ONCE(desc->opts1));
		if (status & DESC_OWN)
			break;
		/* nothing else in the descriptor is read before Own was seen clear */
		dma_rmb();

		if (unlikely(status & RD1_RES)) {
			rtl_rx_errors(tp, status);
			if (!(dev->features & NETIF_F_RXALL))
				goto release;
		}
		len = status & RD1_LEN_MASK;
		if (likely(!(dev->features & NETIF_F_RXFCS)))
			len = len >= ETH_FCS_LEN ? len - ETH_FCS_LEN : 0;
		/*
		 * A frame longer than its buffer is spilled by the chip over several descriptors,
		 * FS on the first, LS on the last (docs/HISTORY.md §6). Fixed (c0cd884af045, r8169
		 * rtl8169_fragmented_frame): such a descriptor is dropped. Old (rx_spill_fix=0, the
		 * 2.6.29 rtl8169_rx_interrupt): every descriptor is a frame of (status & 0x1fff) - 4
		 * bytes, whatever FS/LS say (the LS one reports the whole frame's length, longer
		 * than its buffer: here the copy reads on into the rest of the 16 KiB page).
		 */
		if (unlikely((status & (DESC_FS | DESC_LS)) != (DESC_FS | DESC_LS))) {
			tp->sw.rx_fragments++;
			if (rtl_rx_spill_fix) {
				dev->stats.rx_length_errors++;
				dev->stats.rx_errors++;
				goto release;
			}
		}
		if (unlikely(!len)) {
			dev->stats.rx_length_errors++;
			dev->stats.rx_errors++;
			goto release;
		}

		skb = napi_alloc_skb(&ring->napi, len);
		if (unlikely(!skb)) {
			dev->stats.rx_dropped++;
			goto release;
		}
		dma_sync_single_for_cpu(d, addr, len, DMA_FROM_DEVICE);
		skb_copy_to_linear_data(skb, page_address(ring->page[entry]), len);
		dma_sync_single_for_device(d, addr, len, DMA_FROM_DEVICE);
		skb_put(skb, len);
		skb->protocol = eth_type_trans(skb, dev);

		if (dev->features & NETIF_F_RXCSUM) {
			u32 cs = status & (RD1_PROTO_MASK | RD1_CSFAIL_MASK);

			if (cs == RD1_PROTO_TCP || cs == RD1_PROTO_UDP)
				skb->ip_summed = CHECKSUM_UNNECESSARY;
		}
		opts2 = le32_to_cpu(desc->opts2);
		if (opts2 & RD2_VLAN_TAG)
			__vlan_hwaccel_put_tag(skb, htons(ETH_P_8021Q), swab16(opts2 & 0xffff));
		skb_record_rx_queue(skb, ring->index);
		if (skb->pkt_type == PACKET_MULTICAST)
			ring->multicast++;
		ring->packets++;
		ring->bytes += len;
		napi_gro_receive(&ring->napi, skb);
release:
		rtl_rx_give(ring, entry);
	}
	return count;
}
