// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtl8168sim: PCI probe/remove, chip start/stop, netdev ops, module parameters.
 *
 * The driver does not auto-bind: its static PCI ID table is empty unless the module is
 * loaded with auto_bind=1. Bind a device explicitly with
 *   echo rtl8168sim > /sys/bus/pci/devices/<BDF>/driver_override
 *   echo <BDF> > /sys/bus/pci/drivers_probe
 * or `echo 10ec 8168 > /sys/bus/pci/drivers/rtl8168sim/new_id` (see docs/DRIVER.md).
 */
#include <linux/crc32.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/rtnetlink.h>

#include "rtl8168sim.h"

static bool use_intx;
module_param(use_intx, bool, 0444);
MODULE_PARM_DESC(use_intx, "1: never use MSI, use legacy INTx (default 0: MSI, INTx fallback)");

int rtl_txpoll_rekick = 1;
module_param_named(txpoll_rekick, rtl_txpoll_rekick, int, 0644);
MODULE_PARM_DESC(txpoll_rekick,
		 "1 (fixed, 2007): re-ring TxPoll NPQ after TX reclaim while unsent descriptors remain; 0: doorbell only in start_xmit");

int rtl_irq_ack_loop = 1;
module_param_named(irq_ack_loop, rtl_irq_ack_loop, int, 0644);
MODULE_PARM_DESC(irq_ack_loop,
		 "1 (fixed, 2009): ack and re-read IntrStatus until 0; 0: old handler (read once, ack what was seen)");

int rtl_tx_dma_burst = 7;
module_param_named(tx_dma_burst, rtl_tx_dma_burst, int, 0644);
MODULE_PARM_DESC(tx_dma_burst,
		 "MXDMA field of TxConfig (0..7, burst 16<<n bytes, 7 = unlimited; default 7 = 2012 fix; 6 = old 1024 bytes). Applied at ifup/reset");

/* RTL8168evl TX defects (the model's evl-short-csum / evl-tso-defects quirks). */
int rtl_evl_sw_pad = 1;
module_param_named(evl_sw_pad, rtl_evl_sw_pad, int, 0644);
MODULE_PARM_DESC(evl_sw_pad,
		 "8168evl: 1 (fixed, r8169 rtl_quirk_packet_padto): pad short frames to 60 bytes and checksum them in software; 0: hand them to the chip with checksum offload");

int rtl_evl_fix_tso = 1;
module_param_named(evl_fix_tso, rtl_evl_fix_tso, int, 0644);
MODULE_PARM_DESC(evl_fix_tso,
		 "8168evl: 1 (fixed, r8169 rtl8168evl_fix_tso): software GSO when the IPv4/TCP header has options or the last fragment is <= 6 bytes; 0: always TSO");

/* SYSErr handling (docs/HISTORY.md section 5, "r8169: avoid unsolicited interrupts", 10ce0db78700) */
int rtl_syserr_pcierr;
module_param_named(syserr_pcierr, rtl_syserr_pcierr, int, 0644);
MODULE_PARM_DESC(syserr_pcierr,
		 "1 (old, r8169 before 10ce0db78700): SYSErr in IntrStatus is a PCI error: log it and reset the chip; 0 (fixed): SYSErr is ignored on PCIe chips (newer than VER_06)");

/* over-length RX frames (docs/HISTORY.md section 6, CVE-2009-1389 / CVE-2009-4537) */
int rtl_rx_spill_fix = 1;
module_param_named(rx_spill_fix, rtl_rx_spill_fix, int, 0644);
MODULE_PARM_DESC(rx_spill_fix,
		 "1 (fixed, c0cd884af045): 16383-byte RX buffers, RxMaxSize 16384, descriptors without FS|LS dropped; 0 (old, 2.6.29): 1536-byte buffers, RxMaxSize 16383, every descriptor taken for a frame. Applied at ifup");

/* TX-timeout recovery (docs/HISTORY.md section 7) */
int rtl_tx_reset_bql = 1;
module_param_named(tx_reset_bql, rtl_tx_reset_bql, int, 0644);
MODULE_PARM_DESC(tx_reset_bql,
		 "1 (fixed, r8169 rtl8169_tx_clear): the reset path that drops the TX ring also resets the byte queue limits (netdev_reset_queue); 0 (old): it does not, so BQL still counts the dropped bytes in flight");

/* RTL8125B RX queues with RSS (r8125's multi-queue mode; r8169 uses one queue) */
int rtl_rss_queues = 1;
module_param_named(rss_queues, rtl_rss_queues, int, 0444);
MODULE_PARM_DESC(rss_queues,
		 "RTL8125B: RX queues, 1..4 (default 1, as r8169); more than one spreads flows over the queues with RSS (IPv4/IPv6 TCP/UDP hash types), one NAPI per queue. Ignored on the 8168s");

static bool auto_bind;
module_param(auto_bind, bool, 0444);
MODULE_PARM_DESC(auto_bind, "1: claim every 10ec:8168 and 10ec:8125 device on load (default 0: bind only via driver_override/new_id)");

/* ---- chip start / stop ---- */

static bool rtl_wait_cmd_reset(struct rtl_priv *tp)
{
	int i;

	for (i = 0; i < 100; i++) { /* r8169: 100 x 100 us */
		if (!(rtl_r8(tp, REG_CHIPCMD) & CMD_RESET))
			return true;
		udelay(100);
	}
	return false;
}

static void rtl_chip_reset(struct rtl_priv *tp)
{
	rtl_w8(tp, REG_CHIPCMD, CMD_RESET);
	if (!rtl_wait_cmd_reset(tp))
		netdev_warn(tp->dev, "chip reset did not complete\n");
}

/* rtl8169_cleanup(): quiesce interrupts and DMA, then reset */
void rtl_hw_stop(struct rtl_priv *tp)
{
	rtl_irq_disable(tp);
	rtl_ack_events(tp, 0xffffffff);
	rtl_w32(tp, REG_RXCONFIG, rtl_r32(tp, REG_RXCONFIG) & ~RX_ACCEPT_MASK);
	if (tp->g_class || tp->r8125) {
		/* VER_40..: RXDV gate and FIFO-empty waits instead of StopReq (ocp.c) */
		rtl_cleanup_8168g(tp);
	} else {
		rtl_w8(tp, REG_CHIPCMD, rtl_r8(tp, REG_CHIPCMD) | CMD_STOPREQ);
		udelay(100);
	}
	rtl_chip_reset(tp);
}

/* r8169 _rtl_eri_write (ERIAR_EXGMAC, mask 1111): wait for the flag to clear */
static void rtl_eri_write(struct rtl_priv *tp, int addr, u32 val)
{
	int i;

	rtl_w32(tp, REG_ERIDR, val);
	rtl_w32(tp, REG_ERIAR, 0x80000000u | 0xf << 12 | addr);
	for (i = 0; i < 100 && (rtl_r32(tp, REG_ERIAR) & 0x80000000u); i++)
		udelay(100);
}

/* r8169 rtl_rar_set: IDR, and on the 8168evl the ExGMAC copy the chip filters on */
static void rtl_write_mac(struct rtl_priv *tp, const u8 *a)
{
	rtl_w8(tp, REG_CFG9346, CFG9346_UNLOCK);
	rtl_w32(tp, REG_MAC4, a[4] | a[5] << 8);
	rtl_r8(tp, REG_CHIPCMD);
	rtl_w32(tp, REG_MAC0, a[0] | a[1] << 8 | a[2] << 16 | (u32)a[3] << 24);
	rtl_r8(tp, REG_CHIPCMD);
	if (tp->evl) { /* rtl_rar_exgmac_set */
		rtl_eri_write(tp, 0xe0, a[0] | a[1] << 8 | a[2] << 16 | (u32)a[3] << 24);
		rtl_eri_write(tp, 0xe4, a[4] | a[5] << 8);
		rtl_eri_write(tp, 0xf0, (u32)(a[0] | a[1] << 8) << 16);
		rtl_eri_write(tp, 0xf4, a[2] | a[3] << 8 | a[4] << 16 | (u32)a[5] << 24);
	}
	rtl_w8(tp, REG_CFG9346, CFG9346_LOCK);
}

static u32 rtl_txconfig(struct rtl_priv *tp)
{
	u32 burst = clamp(rtl_tx_dma_burst, 0, 7);

	/* rtl_set_tx_config_registers: TXCFG_AUTO_FIFO on VER_34..53 (here: the 8168h only, the
	 * 8168evl path keeps the register traffic it always had) */
	if (tp->g_class)
		return TXCFG_IFG | burst << TXCFG_MXDMA_SHIFT | TXCFG_AUTO_FIFO;
	return TXCFG_IFG | burst << TXCFG_MXDMA_SHIFT;
}

/*
 * rtl_init_rxcfg: RX_EARLY_OFF on VER_40..53 (RxConfig 0xCF00), the 8125's fetch/burst/pause
 * value on VER_63, else 0xC700. On the 8125 RX VLAN tag removal is RxConfig bits 22/23
 * (rtl_set_rx_config_features), not CPlusCmd.
 */
static u32 rtl_rxcfg_base(struct rtl_priv *tp)
{
	if (tp->r8125)
		return RXCFG_BASE_8125 |
		       (tp->dev->features & NETIF_F_HW_VLAN_CTAG_RX ? RXCFG_VLAN_8125 : 0);
	return tp->g_class ? RXCFG_BASE | RXCFG_EARLY_OFF : RXCFG_BASE;
}

static void rtl_hw_start_common(struct rtl_priv *tp);

/* rtl_hw_start_8168() / rtl_hw_start_8125() reduced to what these chips need; rings armed */
void rtl_hw_start(struct rtl_priv *tp)
{
	rtl_w8(tp, REG_CFG9346, CFG9346_UNLOCK);
	rtl_w16(tp, REG_CPLUSCMD, tp->cp_cmd);
	if (tp->r8125) {
		/* rtl_hw_config -> rtl_hw_start_8125 (r8125.c); no IntrMitigate (a status there) */
		rtl_hw_start_8125(tp);
		rtl_hw_start_common(tp);
		return;
	}
	if (tp->g_class) {
		/* rtl_hw_start_8168: EarlySize; rtl_hw_config -> rtl_hw_start_8168h_1 (ocp.c),
		 * which opens the RXDV gate that rtl_hw_init_8168g / rtl8169_cleanup closed */
		rtl_w8(tp, REG_MAXTXPKTSIZE, EARLY_SIZE);
		rtl_hw_start_8168h_1(tp);
	}
	rtl_w16(tp, REG_INTRMITIGATE, 0);
	if (tp->g_class)
		r8168_mac_ocp_modify(tp, 0xc0ac, 0, 0x1f80); /* rtl_enable_exit_l1 */
	rtl_hw_start_common(tp);
}

/* the rest of rtl_hw_start, common to every chip: rings, ChipCmd, RxConfig, TxConfig, IRQs */
static void rtl_hw_start_common(struct rtl_priv *tp)
{
	/* r8169 rtl_set_rx_max_size: R8169_RX_BUF_SIZE + 1; the 2009 driver: 16383 */
	rtl_w16(tp, REG_RXMAXSIZE, rtl_rx_spill_fix ? RX_BUF_SIZE + 1 : RX_MAXSIZE_2009);
	/* high word first, then low (r8169 rtl_set_rx_tx_desc_registers) */
	rtl_w32(tp, REG_TXDESC_HI, upper_32_bits(tp->tx_phys));
	rtl_w32(tp, REG_TXDESC_LO, lower_32_bits(tp->tx_phys));
	rtl_w32(tp, REG_RXDESC_HI, upper_32_bits(tp->rx[0].phys));
	rtl_w32(tp, REG_RXDESC_LO, lower_32_bits(tp->rx[0].phys));
	if (tp->r8125)
		rtl_rx_rings_8125(tp);
	rtl_w8(tp, REG_CFG9346, CFG9346_LOCK);

	rtl_r8(tp, REG_CHIPCMD);
	rtl_w8(tp, REG_CHIPCMD, CMD_TXEN | CMD_RXEN);
	rtl_w32(tp, REG_RXCONFIG, rtl_rxcfg_base(tp));
	rtl_w32(tp, REG_TXCONFIG, rtl_txconfig(tp));
	rtl_set_rx_mode(tp->dev);

	rtl_ack_events(tp, 0xffffffff);
	rtl_irq_enable(tp);
}

void rtl_set_rx_mode(struct net_device *dev)
{
	struct rtl_priv *tp = netdev_priv(dev);
	u32 mc[2] = { 0, 0 };
	u32 mode = RX_ACCEPT_BROADCAST | RX_ACCEPT_MYPHYS;
	u32 tmp;

	if (dev->flags & IFF_PROMISC) {
		mode |= RX_ACCEPT_ALLPHYS | RX_ACCEPT_MULTICAST;
		mc[0] = mc[1] = 0xffffffff;
	} else if (dev->flags & IFF_ALLMULTI || netdev_mc_count(dev) > 32) {
		mode |= RX_ACCEPT_MULTICAST;
		mc[0] = mc[1] = 0xffffffff;
	} else if (!netdev_mc_empty(dev)) {
		struct netdev_hw_addr *ha;

		mode |= RX_ACCEPT_MULTICAST;
		netdev_for_each_mc_addr(ha, dev) {
			u32 bit = ether_crc(ETH_ALEN, ha->addr) >> 26;

			mc[bit >> 5] |= BIT(bit & 31);
		}
	}
	/* the 8168 wants the two words swapped and byte-reversed (r8169 rtl_set_rx_mode) */
	tmp = mc[0];
	mc[0] = swab32(mc[1]);
	mc[1] = swab32(tmp);
	rtl_w32(tp, REG_MAR0 + 4, mc[1]);
	rtl_w32(tp, REG_MAR0, mc[0]);
	rtl_w32(tp, REG_RXCONFIG, (rtl_r32(tp, REG_RXCONFIG) & ~RX_ACCEPT_MASK) | mode);
}

/* ---- open / stop / reset ---- */

static void rtl_down(struct rtl_priv *tp)
{
	unsigned int q;

	netif_stop_queue(tp->dev);
	for (q = 0; q < tp->num_rx_queues; q++)
		napi_disable(&tp->rx[q].napi);
	rtl_hw_stop(tp);
	synchronize_irq(pci_irq_vector(tp->pdev, 0));
	rtl_tx_clear(tp);
}

static void rtl_up(struct rtl_priv *tp)
{
	unsigned int q;

	rtl_rx_rearm(tp);
	atomic_set(&tp->napi_pending, 0);
	for (q = 0; q < tp->num_rx_queues; q++)
		napi_enable(&tp->rx[q].napi);
	rtl_hw_start(tp);
	netif_wake_queue(tp->dev);
}

static void rtl_reset_work(struct work_struct *work)
{
	struct rtl_priv *tp = container_of(work, struct rtl_priv, reset_work);

	rtnl_lock();
	if (netif_running(tp->dev)) {
		netdev_warn(tp->dev, "resetting the chip\n");
		tp->sw.resets++;
		rtl_down(tp);
		/* a stall may come from lost bus mastering (config space poked, PCIe error) */
		pci_set_master(tp->pdev);
		rtl_up(tp);
		rtl_phy_start(tp);
	}
	rtnl_unlock();
}

void rtl_schedule_reset(struct rtl_priv *tp)
{
	schedule_work(&tp->reset_work);
}

static int rtl_open(struct net_device *dev)
{
	struct rtl_priv *tp = netdev_priv(dev);
	int ret;

	ret = rtl_tx_init(tp);
	if (ret)
		return ret;
	ret = rtl_rx_init(tp);
	if (ret)
		goto err_tx;
	ret = request_irq(pci_irq_vector(tp->pdev, 0), rtl_interrupt,
			  tp->msi ? 0 : IRQF_SHARED, dev->name, dev);
	if (ret)
		goto err_rx;

	netif_carrier_off(dev);
	tp->link_up = false;
	rtl_chip_reset(tp);
	rtl_up(tp);
	rtl_phy_start(tp);
	return 0;

err_rx:
	rtl_rx_free(tp);
err_tx:
	rtl_tx_free(tp);
	return ret;
}

static int rtl_stop(struct net_device *dev)
{
	struct rtl_priv *tp = netdev_priv(dev);

	rtl_down(tp);
	cancel_work_sync(&tp->link_work);
	rtl_phy_stop(tp);
	netif_carrier_off(dev);
	tp->link_up = false;
	free_irq(pci_irq_vector(tp->pdev, 0), dev);
	rtl_rx_free(tp);
	rtl_tx_free(tp);
	return 0;
}

static int rtl_set_mac_address(struct net_device *dev, void *p)
{
	struct rtl_priv *tp = netdev_priv(dev);
	int ret = eth_mac_addr(dev, p);

	if (ret)
		return ret;
	rtl_write_mac(tp, dev->dev_addr);
	return 0;
}

static int rtl_set_features(struct net_device *dev, netdev_features_t features)
{
	struct rtl_priv *tp = netdev_priv(dev);
	u16 cp = tp->cp_cmd & ~(CPCMD_RXCHKSUM | CPCMD_RXVLAN);

	if (features & NETIF_F_RXCSUM)
		cp |= CPCMD_RXCHKSUM;
	if (tp->r8125) {
		/* rtl_set_rx_config_features: RX_VLAN_8125 in RxConfig */
		u32 rxcfg = rtl_r32(tp, REG_RXCONFIG) & ~RXCFG_VLAN_8125;

		if (features & NETIF_F_HW_VLAN_CTAG_RX)
			rxcfg |= RXCFG_VLAN_8125;
		rtl_w32(tp, REG_RXCONFIG, rxcfg);
	} else if (features & NETIF_F_HW_VLAN_CTAG_RX) {
		cp |= CPCMD_RXVLAN;
	}
	tp->cp_cmd = cp;
	rtl_w16(tp, REG_CPLUSCMD, cp);
	rtl_r16(tp, REG_CPLUSCMD);
	return 0;
}

static void rtl_get_stats64(struct net_device *dev, struct rtnl_link_stats64 *s)
{
	struct rtl_priv *tp = netdev_priv(dev);
	unsigned int q;

	netdev_stats_to_stats64(s, &dev->stats);
	for (q = 0; q < tp->num_rx_queues; q++) {
		s->rx_packets += READ_ONCE(tp->rx[q].packets);
		s->rx_bytes += READ_ONCE(tp->rx[q].bytes);
		s->multicast += READ_ONCE(tp->rx[q].multicast);
	}
}

static const struct net_device_ops rtl_netdev_ops = {
	.ndo_open = rtl_open,
	.ndo_stop = rtl_stop,
	.ndo_start_xmit = rtl_start_xmit,
	.ndo_features_check = rtl_features_check,
	.ndo_tx_timeout = rtl_tx_timeout,
	.ndo_set_rx_mode = rtl_set_rx_mode,
	.ndo_set_mac_address = rtl_set_mac_address,
	.ndo_validate_addr = eth_validate_addr,
	.ndo_set_features = rtl_set_features,
	.ndo_get_stats64 = rtl_get_stats64,
};

/* ---- PCI probe / remove ---- */

static int rtl_alloc_irq(struct rtl_priv *tp)
{
#ifdef PCI_IRQ_INTX
	const unsigned int intx = PCI_IRQ_INTX;
#else
	const unsigned int intx = PCI_IRQ_LEGACY;
#endif
	unsigned int types = use_intx ? intx : (PCI_IRQ_MSI | intx);
	int n;

	/* the RTL8125 offers MSI-X (r8169 PCI_IRQ_ALL_TYPES): one vector, ISR v1 */
	if (tp->r8125 && !use_intx)
		types |= PCI_IRQ_MSIX;
	if (use_intx)
		pci_intx(tp->pdev, 1);
	n = pci_alloc_irq_vectors(tp->pdev, 1, 1, types);
	if (n < 0)
		return n;
	tp->msi = tp->pdev->msi_enabled || tp->pdev->msix_enabled;
	return 0;
}

static int rtl_init_one(struct pci_dev *pdev, const struct pci_device_id *ent)
{
	struct net_device *dev;
	struct rtl_priv *tp;
	u8 mac[ETH_ALEN];
	u32 txcfg;
	int region, ret, i;
	unsigned int q;

	if (pdev->vendor != PCI_VENDOR_ID_REALTEK ||
	    (pdev->device != 0x8168 && pdev->device != 0x8125))
		return -ENODEV;

	dev = devm_alloc_etherdev_mqs(&pdev->dev, sizeof(*tp), 1, RTL_MAX_RX_QUEUES);
	if (!dev)
		return -ENOMEM;
	SET_NETDEV_DEV(dev, &pdev->dev);
	tp = netdev_priv(dev);
	tp->dev = dev;
	tp->pdev = pdev;
	mutex_init(&tp->phy_lock);
	spin_lock_init(&tp->mac_ocp_lock);
	INIT_WORK(&tp->reset_work, rtl_reset_work);
	INIT_WORK(&tp->link_work, rtl_link_work);

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	region = ffs(pci_select_bars(pdev, IORESOURCE_MEM)) - 1;
	if (region < 0) {
		dev_err(&pdev->dev, "no memory BAR\n");
		return -ENODEV;
	}
	ret = pcim_iomap_regions(pdev, BIT(region), DRV_NAME);
	if (ret)
		return ret;
	tp->mmio = pcim_iomap_table(pdev)[region];

	txcfg = rtl_r32(tp, REG_TXCONFIG);
	if (txcfg == ~0u) {
		dev_err(&pdev->dev, "TxConfig reads ~0: device gone?\n");
		return -EIO;
	}
	tp->xid = (txcfg >> 20) & 0xfcf;
	/* r8169: {0x7c8, 0x3c0} = RTL8168c/8111c, {0x7c8, 0x2c8} = RTL8168evl/8111evl,
	 * {0x7cf, 0x541} = RTL8168h/8111h (VER_46) */
	if (pdev->device == 0x8125) {
		/* r8169 {0x7cf, 0x641} = RTL8125B (VER_63) */
		tp->r8125 = (tp->xid & 0x7cf) == 0x641;
		if (!tp->r8125) {
			dev_err(&pdev->dev, "unsupported chip XID %03x (RTL8125B 641)\n", tp->xid);
			return -ENODEV;
		}
	} else {
		tp->evl = (tp->xid & 0x7c8) == 0x2c8;
		tp->g_class = (tp->xid & 0x7cf) == 0x541;
		if ((tp->xid & 0x7c8) != 0x3c0 && !tp->evl && !tp->g_class) {
			dev_err(&pdev->dev,
				"unsupported chip XID %03x (RTL8168c 3c4, RTL8168evl 2c8, RTL8168h 541)\n",
				tp->xid);
			return -ENODEV;
		}
	}
	tp->num_rx_queues = tp->r8125 ? rtl_rss_queues : 1;
	for (q = 0; q < tp->num_rx_queues; q++) {
		tp->rx[q].tp = tp;
		tp->rx[q].index = q;
	}

	ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(32));
	if (ret)
		return ret;
	pci_set_master(pdev);

	rtl_w32(tp, REG_RXCONFIG, rtl_rxcfg_base(tp));
	rtl_irq_disable(tp);
	rtl_ack_events(tp, 0xffffffff);
	if (tp->g_class)
		rtl_hw_init_8168g(tp); /* rtl_hw_initialize (ocp.c) */
	else if (tp->r8125)
		rtl_hw_init_8125(tp); /* rtl_hw_initialize (r8125.c) */
	rtl_chip_reset(tp);

	ret = rtl_alloc_irq(tp);
	if (ret) {
		dev_err(&pdev->dev, "cannot allocate an IRQ vector: %d\n", ret);
		return ret;
	}

	/* rtl_init_mac_address: the 8168h keeps it in ERI 0xe0/0xe4, IDR0-5 is the fallback */
	if (tp->g_class)
		rtl_read_mac_8168h(tp, mac);
	else if (tp->r8125)
		rtl_read_mac_8125(tp, mac);
	if (!(tp->g_class || tp->r8125) || !is_valid_ether_addr(mac))
		for (i = 0; i < ETH_ALEN; i++)
			mac[i] = rtl_r8(tp, REG_MAC0 + i);
	if (!is_valid_ether_addr(mac)) {
		eth_random_addr(mac);
		dev_warn(&pdev->dev, "no valid MAC in IDR, using a random one\n");
	}
	eth_hw_addr_set(dev, mac);
	rtl_write_mac(tp, mac);

	/* the 8125 keeps RxVlan out of CPlusCmd (RxConfig bits 22/23 instead) */
	tp->cp_cmd = tp->r8125 ? CPCMD_RXCHKSUM : CPCMD_RXCHKSUM | CPCMD_RXVLAN;
	rtl_w16(tp, REG_CPLUSCMD, tp->cp_cmd);

	ret = rtl_phy_probe(tp);
	if (ret)
		goto err_irq;

	tp->tally = dmam_alloc_coherent(&pdev->dev, sizeof(*tp->tally), &tp->tally_phys,
					GFP_KERNEL);
	if (!tp->tally) {
		ret = -ENOMEM;
		goto err_irq;
	}

	dev->netdev_ops = &rtl_netdev_ops;
	dev->ethtool_ops = &rtl_ethtool_ops;
	dev->watchdog_timeo = TX_TIMEOUT;
	for (q = 0; q < tp->num_rx_queues; q++)
		netif_napi_add(dev, &tp->rx[q].napi, rtl_napi_poll);
	netif_set_real_num_rx_queues(dev, tp->num_rx_queues);

	dev->hw_features = NETIF_F_SG | NETIF_F_IP_CSUM | NETIF_F_IPV6_CSUM | NETIF_F_TSO |
			   NETIF_F_TSO6 | NETIF_F_RXCSUM | NETIF_F_HW_VLAN_CTAG_TX |
			   NETIF_F_HW_VLAN_CTAG_RX | NETIF_F_RXALL | NETIF_F_RXFCS;
	/* r8169 defaults on this chip: checksums on, SG and TSO off */
	dev->features = NETIF_F_IP_CSUM | NETIF_F_IPV6_CSUM | NETIF_F_RXCSUM |
			NETIF_F_HW_VLAN_CTAG_TX | NETIF_F_HW_VLAN_CTAG_RX | NETIF_F_HIGHDMA;
	dev->vlan_features = NETIF_F_SG | NETIF_F_IP_CSUM | NETIF_F_IPV6_CSUM | NETIF_F_TSO |
			     NETIF_F_TSO6 | NETIF_F_HIGHDMA;
	dev->priv_flags |= IFF_LIVE_ADDR_CHANGE;
	netif_set_tso_max_size(dev, GSO_MAX_SIZE_V2);
	netif_set_tso_max_segs(dev, GSO_MAX_SEGS_V2);
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = ETH_DATA_LEN;

	pci_set_drvdata(pdev, dev);
	ret = register_netdev(dev);
	if (ret)
		goto err_irq;

	netdev_info(dev, "%s, XID %03x, %pM, IRQ %d (%s)\n",
		    tp->r8125 ? "RTL8125B" : tp->g_class ? "RTL8168h/8111h" :
		    tp->evl ? "RTL8168evl/8111evl" : "RTL8168c/8111c",
		    tp->xid, dev->dev_addr, pci_irq_vector(pdev, 0),
		    pdev->msix_enabled ? "MSI-X" : tp->msi ? "MSI" : "INTx");
	if (tp->r8125)
		netdev_info(dev, "rss_queues=%u (%s)\n", tp->num_rx_queues,
			    tp->num_rx_queues > 1 ? "RSS over IPv4/IPv6 TCP/UDP, ISR v1" : "RSS off");
	if (tp->evl)
		netdev_info(dev, "evl_sw_pad=%d evl_fix_tso=%d\n", rtl_evl_sw_pad, rtl_evl_fix_tso);
	netdev_info(dev, "txpoll_rekick=%d irq_ack_loop=%d tx_dma_burst=%d\n", rtl_txpoll_rekick,
		    rtl_irq_ack_loop, rtl_tx_dma_burst);
	return 0;

err_irq:
	pci_free_irq_vectors(pdev);
	return ret;
}

static void rtl_remove_one(struct pci_dev *pdev)
{
	struct net_device *dev = pci_get_drvdata(pdev);
	struct rtl_priv *tp = netdev_priv(dev);
	unsigned int q;

	unregister_netdev(dev); /* calls ndo_stop if running */
	cancel_work_sync(&tp->reset_work);
	cancel_work_sync(&tp->link_work);
	for (q = 0; q < tp->num_rx_queues; q++)
		netif_napi_del(&tp->rx[q].napi);
	rtl_chip_reset(tp);
	pci_free_irq_vectors(pdev);
	pci_clear_master(pdev);
}

static void rtl_shutdown(struct pci_dev *pdev)
{
	struct net_device *dev = pci_get_drvdata(pdev);

	rtnl_lock();
	if (netif_running(dev))
		dev_close(dev);
	rtnl_unlock();
}

/* matched only when auto_bind=1; otherwise bind through driver_override or new_id */
static const struct pci_device_id rtl_auto_ids[] = {
	{ PCI_DEVICE(PCI_VENDOR_ID_REALTEK, 0x8168) },
	{ PCI_DEVICE(PCI_VENDOR_ID_REALTEK, 0x8125) },
	{}
};
/*
 * new_id only accepts driver_data values found in a non-empty table, so the default table
 * holds one entry that matches no device (vendor 0xffff means "no device").
 */
static const struct pci_device_id rtl_no_ids[] = {
	{ PCI_DEVICE(0xffff, 0xffff) },
	{}
};

static struct pci_driver rtl_pci_driver = {
	.name = DRV_NAME,
	.id_table = rtl_no_ids,
	.probe = rtl_init_one,
	.remove = rtl_remove_one,
	.shutdown = rtl_shutdown,
};

static int __init rtl_mod_init(void)
{
	if (rtl_tx_dma_burst < 0 || rtl_tx_dma_burst > 7) {
		pr_err(DRV_NAME ": tx_dma_burst must be 0..7 (got %d)\n", rtl_tx_dma_burst);
		return -EINVAL;
	}
	if (rtl_rss_queues < 1 || rtl_rss_queues > RTL_MAX_RX_QUEUES) {
		pr_err(DRV_NAME ": rss_queues must be 1..%d (got %d)\n", RTL_MAX_RX_QUEUES,
		       rtl_rss_queues);
		return -EINVAL;
	}
	if (auto_bind)
		rtl_pci_driver.id_table = rtl_auto_ids;
	return pci_register_driver(&rtl_pci_driver);
}

static void __exit rtl_mod_exit(void)
{
	pci_unregister_driver(&rtl_pci_driver);
}

module_init(rtl_mod_init);
module_exit(rtl_mod_exit);

MODULE_AUTHOR("rtl8168-sim project");
MODULE_DESCRIPTION("Driver for the emulated RTL8168c/evl/h and RTL8125B of rtl8168-sim (old/fixed r8169 episodes)");
MODULE_LICENSE("GPL");
