/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtl8168sim: a small network driver for the RTL8168c (XID 0x3c4), RTL8168evl (XID 0x2c8),
 * RTL8168h (XID 0x541) and RTL8125B (XID 0x641) as emulated by rtl8168-sim. Shared
 * definitions. Register and descriptor facts follow the project's docs/R8169.md (itself
 * checked against r8169_main.c 6.1/6.12); the RTL8168h's (8168g class: MAC OCP, PHY through
 * GPHY_OCP) follow docs/R8168H.md and r8169's VER_46 paths; the RTL8125B's follow
 * docs/R8125.md, r8169's VER_63 paths and, for the RX queues and RSS, Realtek's r8125.
 *
 * The driver carries both the historical ("old") and the fixed behaviour of three
 * r8169 episodes, selected by module parameters (see docs/DRIVER.md).
 */
#ifndef RTL8168SIM_H
#define RTL8168SIM_H

#include <linux/bits.h>
#include <linux/io.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#define DRV_NAME "rtl8168sim"

/* ---- registers: offsets and register bits (shared with the guest tools) ---- */
#include "rtl8168-regs.h"

/* events this driver enables, and those handled by NAPI (2.6.29 intr_event/napi_event) */
#define INTR_EVENTS (INT_LINKCHG | INT_RXOVERFLOW | INT_TXERR | INT_TXOK | INT_RXERR | INT_RXOK)
#define NAPI_EVENTS (INT_RXOVERFLOW | INT_TXERR | INT_TXOK | INT_RXERR | INT_RXOK)

/* TxConfig: interframe gap 24:25, MXDMA 10:8 (r8169 writes 0x03000700) */
#define TXCFG_IFG (3u << 24)
#define TXCFG_MXDMA_SHIFT 8
/* RxConfig: r8169 writes 0xC700 (RX128_INT_EN | RX_MULTI_EN | MXDMA 7) */
#define RXCFG_BASE 0xc700
#define RX_ACCEPT_ALLPHYS 0x01
#define RX_ACCEPT_MYPHYS 0x02
#define RX_ACCEPT_MULTICAST 0x04
#define RX_ACCEPT_BROADCAST 0x08
#define RX_ACCEPT_MASK 0x3f

/*
 * ---- RTL8168h (r8169 "8168g class", VER_40 and later) ----
 * Kept here rather than in rtl8168-regs.h: that header is part of the guest image and of the
 * lab's programs, whose bytes (and so the lab's timing) must not move for these.
 */
#define REG_OCPDR 0xb0 /* MAC OCP: OCPAR_FLAG | reg << 15 | data (r8169 OCPDR) */
#define REG_GPHY_OCP 0xb8 /* PHY OCP, the same layout, bit 31 handshake (r8169 GPHY_OCP) */
#define REG_MCU 0xd3
#define REG_MAXTXPKTSIZE 0xec /* r8169 MaxTxPacketSize, EarlySize 0x27 on 8168evl and later */
#define REG_MISC 0xf0
#define OCPAR_FLAG BIT(31)
#define OCP_STD_PHY_BASE 0xa400 /* C22 register r at 0xa400 + 2r (r8168g_mdio_read) */
#define MCU_NOW_IS_OOB BIT(7)
#define MCU_TX_EMPTY BIT(5)
#define MCU_RX_EMPTY BIT(4)
#define MCU_RXTX_EMPTY (MCU_TX_EMPTY | MCU_RX_EMPTY)
#define MCU_LINK_LIST_RDY BIT(1)
#define MISC_RXDV_GATED_EN BIT(19)
#define TXCFG_EMPTY BIT(11)     /* TxConfig: the TX path is idle (read only) */
#define TXCFG_AUTO_FIFO BIT(7)  /* r8169 rtl_set_tx_config_registers, VER_34..53 but VER_39 */
#define RXCFG_EARLY_OFF BIT(11) /* r8169 rtl_init_rxcfg, VER_40..53: RxConfig 0xCF00 */
#define EARLY_SIZE 0x27         /* r8169 rtl_hw_start_8168: MaxTxPacketSize on 8168evl_up */

/*
 * ---- RTL8125B (r8169 VER_63; r8169 enum rtl8125_registers, r8125 enum RTL8125_registers) ----
 */
#define REG_INT_CFG0_8125 0x34 /* 8 bits; bit 0 INT_CFG0_ENABLE_8125 (ISR v2), left 0 here */
#define REG_INTRMASK_8125 0x38 /* 32 bits */
#define REG_INTRSTATUS_8125 0x3c /* 32 bits, write 1 to clear */
#define REG_INT_CFG1_8125 0x7a
#define REG_TXPOLL_8125 0x90 /* 16 bits, bit q rings TX queue q */
#define REG_PCIE_382_8125 0x382
#define REG_INT_MITI_8125 0xa00 /* moderation block, 0xa00-0xa7f on VER_63 */
#define INT_MITI_8125_LEN 0x80
#define REG_MISC_1880_8125 0x1880
#define REG_MAC0_BKP 0x19e0 /* the station address the chip autoloaded */
#define REG_RDSAR_Q1_LOW_8125 0x4000 /* RX queue q > 0: 0x4000 + 8 (q - 1), low then high */
#define REG_RSS_CTRL_8125 0x4500
#define REG_RSS_KEY_8125 0x4600
#define REG_RSS_INDIR_8125 0x4700 /* r8125 RSS_INDIRECTION_TBL_8125_V2: 128 one-byte entries */
#define REG_Q_NUM_CTRL_8125 0x4800
#define RSS_KEY_SIZE_8125 40
#define RSS_INDIR_ENTRIES_8125 128
/* RSS_CTRL_8125 (r8125 enum rtl8125_rss_register_content) */
#define RSS_CTRL_TCP_IPV4 BIT(0)
#define RSS_CTRL_IPV4 BIT(1)
#define RSS_CTRL_TCP_IPV6 BIT(2)
#define RSS_CTRL_IPV6 BIT(3)
#define RSS_CTRL_UDP_IPV4 BIT(11)
#define RSS_CTRL_UDP_IPV6 BIT(12)
#define RSS_MASK_BITS_SHIFT 8 /* 10:8 ilog2 of the indirection entries in use */
#define RSS_CPU_NUM_SHIFT 16  /* 18:16 ilog2 of the RX rings */
/* RxConfig (r8169 rtl_init_rxcfg, VER_63): RX_FETCH_DFLT_8125 | RX_DMA_BURST | RX_PAUSE_SLOT_ON */
#define RXCFG_BASE_8125 (8u << 27 | 7u << 8 | BIT(11))
#define RXCFG_VLAN_8125 (BIT(22) | BIT(23)) /* RX_VLAN_INNER_8125 | RX_VLAN_OUTER_8125 */
#define TXPOLL_8125_Q0 BIT(0)
#define RTL_MAX_RX_QUEUES 4 /* the RTL8125B's RX queues (docs/R8125.md "RX queues and RSS") */

/* DTCCR */
#define DTCCR_DUMP BIT(3)

/* PHYAR */
#define PHYAR_FLAG BIT(31)

/* ---- descriptors (16 bytes, v2 layout for the 8168c) ---- */
struct rtl_desc {
	__le32 opts1;
	__le32 opts2;
	__le64 addr;
};

#define DESC_OWN BIT(31)
#define DESC_EOR BIT(30)
#define DESC_FS BIT(29)
#define DESC_LS BIT(28)

/* TX opts1 (v2) */
#define TD1_GTSENV4 BIT(26)
#define TD1_GTSENV6 BIT(25)
#define TD1_GTTCPHO_SHIFT 18 /* L4 header offset for TSO, 24:18 */
#define TD1_GTTCPHO_MAX 0x7f
#define TD_LEN_MASK 0xffff
/* TX opts2 (v2) */
#define TD2_UDP_CS BIT(31)
#define TD2_TCP_CS BIT(30)
#define TD2_IPV4_CS BIT(29)
#define TD2_IPV6_CS BIT(28)
#define TD2_MSS_SHIFT 18 /* 28:18 */
#define TD2_MSS_MAX 0x7ff
#define TD2_TCPHO_SHIFT 18 /* 27:18 */
#define TD2_TCPHO_MAX 0x3ff
#define TD2_VLAN_TAG BIT(17)

/* RX opts1 */
#define RD1_RES BIT(21)
#define RD1_RWT BIT(22)
#define RD1_RUNT BIT(20)
#define RD1_CRC BIT(19)
#define RD1_PROTO_UDP BIT(18)
#define RD1_PROTO_TCP BIT(17)
#define RD1_PROTO_MASK (RD1_PROTO_UDP | RD1_PROTO_TCP)
#define RD1_IPF BIT(16)
#define RD1_UDPF BIT(15)
#define RD1_TCPF BIT(14)
#define RD1_CSFAIL_MASK (RD1_IPF | RD1_UDPF | RD1_TCPF)
#define RD1_LEN_MASK 0x3fff
/* RX opts2 */
#define RD2_VLAN_TAG BIT(16)

#define NUM_TX_DESC 256
#define NUM_RX_DESC 256
#define RING_BYTES(n) ((n) * sizeof(struct rtl_desc))
#define RX_BUF_SIZE (SZ_16K - 1) /* as r8169: one 16 KiB buffer per descriptor */
/* rx_spill_fix=0: the 2009 driver's rx_buf_sz at MTU 1500 (ETH_FRAME_LEN + VLAN + FCS,
 * rounded up to 1536: rtl8169_set_rxbufsize) with RxMaxSize at the hardware limit */
#define RX_BUF_SIZE_2009 1536
#define RX_MAXSIZE_2009 0x3fff
#define TX_SLOTS_NEEDED (MAX_SKB_FRAGS + 1)
#define GSO_MAX_SIZE_V2 64000
#define GSO_MAX_SEGS_V2 64
#define TX_TIMEOUT (6 * HZ)

/* 64-byte tally block (DTCCR dump), as r8169's struct rtl8169_counters */
struct rtl_tally {
	__le64 tx_packets;
	__le64 rx_packets;
	__le64 tx_errors;
	__le32 rx_errors;
	__le16 rx_missed;
	__le16 align_errors;
	__le32 tx_one_collision;
	__le32 tx_multi_collision;
	__le64 rx_unicast;
	__le64 rx_broadcast;
	__le32 rx_multicast;
	__le16 tx_aborted;
	__le16 tx_underrun;
};

/* driver-side counters shown by ethtool -S (after the tally counters) */
struct rtl_sw_stats {
	u64 irq_total;      /* handler invocations */
	u64 irq_none;       /* IRQ_NONE returns */
	u64 irq_loops;      /* extra IntrStatus re-reads (irq_ack_loop=1) */
	u64 napi_polls;
	u64 txpoll_doorbell; /* NPQ writes from start_xmit */
	u64 txpoll_rekick;  /* NPQ writes from TX completion (the 2007 fix) */
	u64 tx_queue_stop;
	u64 tx_timeouts;
	u64 resets;
	u64 link_changes;
	u64 rx_overflow;
	u64 syserr;         /* interrupts that read SYSErr (bit 15) in IntrStatus */
	u64 rx_fragments;   /* RX descriptors without both FS and LS (a spilled frame) */
};

struct rtl_tx_info {
	struct sk_buff *skb; /* set on the last descriptor of a frame */
	u32 len;             /* mapped length of this descriptor */
};

/*
 * One RX ring and its NAPI context. Ring 0 is the only one on the 8168s (its base at
 * RDSAR 0xe4) and also reclaims TX; on the RTL8125B with rss_queues > 1, ring q > 0 has its
 * base at RDSAR_Q1_LOW_8125 + 8 (q - 1) and RSS picks a frame's ring.
 */
struct rtl_rx_ring {
	struct rtl_priv *tp;
	struct napi_struct napi;
	struct rtl_desc *desc;
	dma_addr_t phys;
	struct page *page[NUM_RX_DESC];
	unsigned int cur; /* next descriptor to look at (free-running) */
	unsigned int index;
	/* written only by this ring's NAPI poll */
	u64 packets;
	u64 bytes;
	u64 multicast;
};

struct rtl_priv {
	void __iomem *mmio;
	struct pci_dev *pdev;
	struct net_device *dev;

	struct rtl_desc *tx_ring;
	dma_addr_t tx_phys;
	struct rtl_tx_info tx_info[NUM_TX_DESC];
	unsigned int cur_tx; /* next descriptor to fill (free-running) */
	unsigned int dirty_tx; /* next descriptor to reclaim (free-running) */

	struct rtl_rx_ring rx[RTL_MAX_RX_QUEUES];
	unsigned int num_rx_queues; /* 1, or rss_queues on the RTL8125B */
	/* rings whose NAPI is scheduled and not yet complete; the last one unmasks (ISR v1) */
	atomic_t napi_pending;

	struct rtl_tally *tally;
	dma_addr_t tally_phys;

	u32 intr_mask; /* software mask, as in the 2.6.29 driver (old handler) */
	u16 cp_cmd;
	u32 xid;
	bool evl; /* RTL8168evl/8111evl (XID 0x2c8, r8169 VER_34) */
	bool g_class; /* RTL8168h/8111h (XID 0x541, r8169 VER_46): MAC OCP, GPHY_OCP, MCU */
	bool r8125; /* RTL8125B (10ec:8125, XID 0x641, r8169 VER_63) */
	bool msi; /* MSI or MSI-X */
	bool link_up;
	int speed; /* SPEED_* */
	int duplex;

	struct work_struct reset_work;
	struct work_struct link_work;
	struct mutex phy_lock; /* PHYAR / GPHY_OCP sequence */
	spinlock_t mac_ocp_lock; /* OCPDR write-then-read (r8169 mac_ocp_lock) */

	struct rtl_sw_stats sw;
};

/* module parameters (main.c) */
extern int rtl_txpoll_rekick;
extern int rtl_irq_ack_loop;
extern int rtl_tx_dma_burst;
extern int rtl_evl_sw_pad;
extern int rtl_evl_fix_tso;
extern int rtl_syserr_pcierr;
extern int rtl_rx_spill_fix;
extern int rtl_tx_reset_bql;
extern int rtl_rss_queues;

static inline u8 rtl_r8(struct rtl_priv *tp, int reg) { return readb(tp->mmio + reg); }
static inline u16 rtl_r16(struct rtl_priv *tp, int reg) { return readw(tp->mmio + reg); }
static inline u32 rtl_r32(struct rtl_priv *tp, int reg) { return readl(tp->mmio + reg); }
static inline void rtl_w8(struct rtl_priv *tp, int reg, u8 v) { writeb(v, tp->mmio + reg); }
static inline void rtl_w16(struct rtl_priv *tp, int reg, u16 v) { writew(v, tp->mmio + reg); }
static inline void rtl_w32(struct rtl_priv *tp, int reg, u32 v) { writel(v, tp->mmio + reg); }

/* the PHY is reached through GPHY_OCP (8168g class and the RTL8125), not PHYAR */
static inline bool rtl_phy_ocp(struct rtl_priv *tp) { return tp->g_class || tp->r8125; }

/* main.c */
void rtl_hw_stop(struct rtl_priv *tp);
void rtl_hw_start(struct rtl_priv *tp);
void rtl_set_rx_mode(struct net_device *dev);
void rtl_schedule_reset(struct rtl_priv *tp);

/* tx.c */
int rtl_tx_init(struct rtl_priv *tp);
void rtl_tx_clear(struct rtl_priv *tp);
void rtl_tx_free(struct rtl_priv *tp);
netdev_tx_t rtl_start_xmit(struct sk_buff *skb, struct net_device *dev);
netdev_features_t rtl_features_check(struct sk_buff *skb, struct net_device *dev,
				     netdev_features_t features);
void rtl_tx_complete(struct rtl_priv *tp, int budget);
void rtl_tx_timeout(struct net_device *dev, unsigned int txqueue);

/* rx.c */
int rtl_rx_init(struct rtl_priv *tp);
void rtl_rx_rearm(struct rtl_priv *tp);
void rtl_rx_free(struct rtl_priv *tp);
int rtl_rx_poll(struct rtl_rx_ring *ring, int budget);

/* irq.c */
irqreturn_t rtl_interrupt(int irq, void *dev_instance);
int rtl_napi_poll(struct napi_struct *napi, int budget);
void rtl_irq_enable(struct rtl_priv *tp);
void rtl_irq_disable(struct rtl_priv *tp);
u32 rtl_get_events(struct rtl_priv *tp);
void rtl_ack_events(struct rtl_priv *tp, u32 bits);
u32 rtl_get_irq_mask(struct rtl_priv *tp);

/* phy.c */
int rtl_mdio_read(struct rtl_priv *tp, int reg);
int rtl_mdio_write(struct rtl_priv *tp, int reg, u16 val);
int rtl_phy_probe(struct rtl_priv *tp);
void rtl_phy_start(struct rtl_priv *tp);
void rtl_phy_stop(struct rtl_priv *tp);
void rtl_link_work(struct work_struct *work);
void rtl_link_check(struct rtl_priv *tp);

/* ocp.c: the RTL8168h (8168g class) paths, r8169 VER_46 */
void r8168_mac_ocp_write(struct rtl_priv *tp, u32 reg, u32 data);
u16 r8168_mac_ocp_read(struct rtl_priv *tp, u32 reg);
void r8168_mac_ocp_modify(struct rtl_priv *tp, u32 reg, u16 mask, u16 set);
int r8168_phy_ocp_read(struct rtl_priv *tp, u32 reg);
int r8168_phy_ocp_write(struct rtl_priv *tp, u32 reg, u32 data);
int r8168g_mdio_read(struct rtl_priv *tp, int reg);
int r8168g_mdio_write(struct rtl_priv *tp, int reg, u16 val);
u32 rtl_eri_read(struct rtl_priv *tp, int addr);
void rtl_enable_rxdvgate(struct rtl_priv *tp);
void rtl_disable_rxdvgate(struct rtl_priv *tp);
void r8168g_wait_ll_share_fifo_ready(struct rtl_priv *tp);
void r8125_wait_mac_ocp_e00e(struct rtl_priv *tp);
void rtl_hw_init_ocp_start(struct rtl_priv *tp);
void rtl_hw_init_8168g(struct rtl_priv *tp);
void rtl_cleanup_8168g(struct rtl_priv *tp);
void rtl_hw_start_8168h_1(struct rtl_priv *tp);
void rtl_read_mac_8168h(struct rtl_priv *tp, u8 *mac);
void rtl8168h_hw_phy_config(struct rtl_priv *tp);
void rtl8168g_read_physr(struct rtl_priv *tp);

/* r8125.c: the RTL8125B paths, r8169 VER_63, and its RX queues with RSS (r8125) */
void rtl_hw_init_8125(struct rtl_priv *tp);
void rtl_hw_start_8125(struct rtl_priv *tp);
void rtl_rx_rings_8125(struct rtl_priv *tp);
void rtl_read_mac_8125(struct rtl_priv *tp, u8 *mac);

/* ethtool.c */
extern const struct ethtool_ops rtl_ethtool_ops;
int rtl_tally_dump(struct rtl_priv *tp);

#endif /* RTL8168SIM_H */
