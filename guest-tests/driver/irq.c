// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtl8168sim: interrupt handler and NAPI poll.
 *
 * Both handler variants follow the 2.6.29 r8169 structure: while NAPI runs, the NAPI
 * events are masked in IntrMask (which stays non-zero: LinkChg remains enabled) and in
 * the software mask tp->intr_mask; the poll restores both.
 *
 *  irq_ack_loop=0 (old, before "r8169: avoid losing MSI interrupts", 2.6.29.4):
 *    read IntrStatus once, ack only status & tp->intr_mask, schedule NAPI, return.
 *    An event that latches between the read and the ack stays set, so
 *    (IntrStatus & IntrMask) may never return to zero and an edge-triggered MSI never
 *    fires again.
 *  irq_ack_loop=1 (the 2009 fix): ack everything seen and re-read IntrStatus until it
 *    reads 0 (or 0xffff for a vanished device).
 */
#include <linux/interrupt.h>
#include <linux/netdevice.h>

#include "rtl8168sim.h"

void rtl_irq_enable(struct rtl_priv *tp)
{
	tp->intr_mask = 0xffff;
	rtl_w16(tp, REG_INTRMASK, INTR_EVENTS);
}

void rtl_irq_disable(struct rtl_priv *tp)
{
	rtl_w16(tp, REG_INTRMASK, 0);
}

irqreturn_t rtl_interrupt(int irq, void *dev_instance)
{
	struct net_device *dev = dev_instance;
	struct rtl_priv *tp = netdev_priv(dev);
	bool handled = false;
	u16 status;

	tp->sw.irq_total++;
	status = rtl_r16(tp, REG_INTRSTATUS);
	while (status && status != 0xffff) {
		u16 seen = status & tp->intr_mask;

		handled = true;
		/* old: ack what the software mask lets through; fixed: ack all that was read */
		rtl_w16(tp, REG_INTRSTATUS, rtl_irq_ack_loop ? status : seen);

		if (unlikely(!netif_running(dev))) {
			rtl_irq_disable(tp);
			break;
		}
		if (seen & INT_LINKCHG) {
			tp->sw.link_changes++;
			schedule_work(&tp->link_work);
		}
		if (seen & INT_RXOVERFLOW)
			tp->sw.rx_overflow++;
		if ((seen & NAPI_EVENTS) && napi_schedule_prep(&tp->napi)) {
			rtl_w16(tp, REG_INTRMASK, INTR_EVENTS & ~NAPI_EVENTS);
			tp->intr_mask = (u16)~NAPI_EVENTS;
			__napi_schedule(&tp->napi);
		}
		if (!rtl_irq_ack_loop)
			break;
		status = rtl_r16(tp, REG_INTRSTATUS);
		if (status && status != 0xffff)
			tp->sw.irq_loops++;
	}
	if (!handled)
		tp->sw.irq_none++;
	return IRQ_RETVAL(handled);
}

int rtl_napi_poll(struct napi_struct *napi, int budget)
{
	struct rtl_priv *tp = container_of(napi, struct rtl_priv, napi);
	int work;

	tp->sw.napi_polls++;
	rtl_tx_complete(tp, budget);
	work = rtl_rx_poll(tp, budget);
	if (work < budget && napi_complete_done(napi, work)) {
		/* unmasking with events latched gives the NIC a new 0->1 edge */
		rtl_irq_enable(tp);
	}
	return work;
}
