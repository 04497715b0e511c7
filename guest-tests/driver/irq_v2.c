// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtl8168sim: the RTL8125B's ISR v2 (isr_v2=1), after Realtek's r8125 (rtl8125_hw_set_isr_ver,
 * rtl8125_interrupt_msix, rtl8125_enable_hw_interrupt_v2 / _disable_hw_interrupt_v2,
 * rtl8125_clear_hw_isr_v2). r8169 never uses it: it runs ISR v1 on one vector (irq.c).
 *
 * INT_CFG0 bit 0 selects ISR v2. ISR_V2 (0xd04) then holds one bit per message and the chip
 * sends MSI-X entry n on a 0->1 edge of ISR_V2 & IMR_V2 bit n (docs/R8125.md "ISR v2 and
 * per-queue vectors"). The messages used here, as r8125 sets up its intr_mask:
 *   - n = q for RX queue q (ISRIMR_V2_ROK_Q0 << q): that ring's NAPI;
 *   - 16 for TX queue 0 (ISRIMR_TOK_Q0): ring 0's NAPI, which also reclaims TX (r8125 has a
 *     TX NAPI of its own there; one poll serving both keeps this driver's TX path unchanged);
 *   - 21 for the link (ISRIMR_V2_LINKCHG): the link work.
 * A vector's handler masks its message, acks it, then schedules the work; the poll unmasks the
 * messages it serves when it completes. An event that latches after the ack sets the bit again
 * and the unmask is its edge; one that comes while the poll is already scheduled is seen by it.
 * Vectors are requested for all 32 table entries (R8125_MAX_MSIX_VEC_8125B, as r8125 does),
 * and a handler for the messages above; the other entries' messages stay masked.
 */
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/netdevice.h>

#include "rtl8168sim.h"

int rtl_isr_v2;
module_param_named(isr_v2, rtl_isr_v2, int, 0444);
MODULE_PARM_DESC(isr_v2,
		 "RTL8125B: 1 = ISR v2 with MSI-X, a vector per RX queue (message q), TX queue 0 (16) and the link (21), as Realtek's r8125; 0 (default, as r8169) = ISR v1 on one vector. Ignored on the 8168s");

/* the messages this driver serves: every RX queue's, TX queue 0's and the link's */
u32 rtl_isr_v2_mask(struct rtl_priv *tp)
{
	return GENMASK(tp->num_rx_queues - 1, 0) | BIT(ISR_V2_MSG_TX0) | BIT(ISR_V2_MSG_LINK);
}

/* the end of ring q's poll: unmask its message (and TX queue 0's for ring 0) */
void rtl_isr_v2_unmask_ring(struct rtl_rx_ring *ring)
{
	u32 bits = BIT(ring->index);

	if (ring->index == 0)
		bits |= BIT(ISR_V2_MSG_TX0);
	rtl_w32(ring->tp, REG_IMR_V2_SET_8125, bits);
}

/* rtl8125_interrupt_msix: mask message n, ack it, serve it */
static irqreturn_t rtl_interrupt_msix(int irq, void *data)
{
	struct rtl_vector *v = data;
	struct rtl_priv *tp = v->tp;
	u32 bit = BIT(v->msg);

	tp->sw.irq_total++;
	rtl_w32(tp, REG_IMR_V2_CLEAR_8125, bit);
	rtl_w32(tp, REG_ISR_V2_8125, bit);
	if (unlikely(!netif_running(tp->dev)))
		return IRQ_HANDLED; /* left masked: the next start unmasks */
	if (v->msg == ISR_V2_MSG_LINK) {
		tp->sw.link_changes++;
		schedule_work(&tp->link_work);
		rtl_w32(tp, REG_IMR_V2_SET_8125, bit);
		return IRQ_HANDLED;
	}
	/* a busy NAPI leaves the message masked: its completion unmasks it */
	napi_schedule(&tp->rx[v->msg == ISR_V2_MSG_TX0 ? 0 : v->msg].napi);
	return IRQ_HANDLED;
}

/*
 * pci_alloc_irq_vectors for ISR v2: every MSI-X entry or nothing (r8125 falls back to ISR v1
 * on MSI; this driver refuses, so a test asking for ISR v2 never runs without it).
 */
int rtl_alloc_irq_v2(struct rtl_priv *tp)
{
	int n = pci_alloc_irq_vectors(tp->pdev, RTL_MSIX_VECTORS_8125, RTL_MSIX_VECTORS_8125,
				      PCI_IRQ_MSIX);

	if (n < 0) {
		dev_err(&tp->pdev->dev, "isr_v2=1 needs %d MSI-X vectors: %d\n",
			RTL_MSIX_VECTORS_8125, n);
		return n;
	}
	tp->msi = true;
	tp->isr_v2 = true;
	return 0;
}

/* ISR v2's vectors: RX queues 0..n-1, then TX queue 0, then the link */
static void rtl_setup_vectors(struct rtl_priv *tp)
{
	unsigned int i, q;

	for (q = 0; q < tp->num_rx_queues; q++) {
		tp->vec[q].msg = q;
		snprintf(tp->vec[q].name, sizeof(tp->vec[q].name), "%s-rx-%u", tp->dev->name, q);
	}
	tp->vec[q].msg = ISR_V2_MSG_TX0;
	snprintf(tp->vec[q].name, sizeof(tp->vec[q].name), "%s-tx-0", tp->dev->name);
	q++;
	tp->vec[q].msg = ISR_V2_MSG_LINK;
	snprintf(tp->vec[q].name, sizeof(tp->vec[q].name), "%s-link", tp->dev->name);
	tp->num_vectors = q + 1;
	for (i = 0; i < tp->num_vectors; i++)
		tp->vec[i].tp = tp;
}

/* at open: ISR v1's one vector (irq.c's handler) or ISR v2's vectors */
int rtl_request_irqs(struct rtl_priv *tp)
{
	unsigned int i;
	int ret;

	if (!tp->isr_v2) {
		tp->num_vectors = 1;
		return request_irq(pci_irq_vector(tp->pdev, 0), rtl_interrupt,
				   tp->msi ? 0 : IRQF_SHARED, tp->dev->name, tp->dev);
	}
	rtl_setup_vectors(tp);
	for (i = 0; i < tp->num_vectors; i++) {
		ret = request_irq(pci_irq_vector(tp->pdev, tp->vec[i].msg), rtl_interrupt_msix, 0,
				  tp->vec[i].name, &tp->vec[i]);
		if (ret) {
			while (i--)
				free_irq(pci_irq_vector(tp->pdev, tp->vec[i].msg), &tp->vec[i]);
			return ret;
		}
	}
	return 0;
}

void rtl_free_irqs(struct rtl_priv *tp)
{
	unsigned int i;

	if (!tp->isr_v2) {
		free_irq(pci_irq_vector(tp->pdev, 0), tp->dev);
		return;
	}
	for (i = 0; i < tp->num_vectors; i++)
		free_irq(pci_irq_vector(tp->pdev, tp->vec[i].msg), &tp->vec[i]);
}

/* wait for every handler in flight (rtl_down) */
void rtl_sync_irqs(struct rtl_priv *tp)
{
	unsigned int i;

	if (!tp->isr_v2) {
		synchronize_irq(pci_irq_vector(tp->pdev, 0));
		return;
	}
	for (i = 0; i < tp->num_vectors; i++)
		synchronize_irq(pci_irq_vector(tp->pdev, tp->vec[i].msg));
}
