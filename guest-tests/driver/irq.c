// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtl8168sim: interrupt handler and NAPI poll.
 *
 *  irq_ack_loop=1 (fixed, default): the handler of "r8169: avoid losing MSI interrupts"
 *    (David Dillow, 2009, merged for Linux 2.6.30; docs/HISTORY.md section 2): while NAPI runs,
 *    the NAPI events are masked in IntrMask (LinkChg stays enabled) and in the software
 *    mask tp->intr_mask; the handler acks everything it read and re-reads IntrStatus until
 *    it reads 0 (or 0xffff for a vanished device) - the chip sends a new MSI only once all
 *    active sources have been acknowledged, so anything that became active meanwhile must
 *    be acked too. The poll restores both masks; unmasking with events latched is a new
 *    0->1 edge of (IntrStatus & IntrMask), i.e. a new MSI.
 *
 *  irq_ack_loop=0 (old, before that fix): read IntrStatus once, ack status & tp->intr_mask,
 *    schedule NAPI, return - no re-read. NAPI masking is done in software only (the NAPI
 *    state and tp->intr_mask, which stays 0xffff here): IntrMask keeps every event enabled
 *    while NAPI runs, and every event raised during a poll is acked by the next interrupt.
 *
 * Why the old mode keeps IntrMask untouched. The model sends one MSI per 0->1 edge of
 * (IntrStatus & IntrMask), and an IntrMask write that uncovers latched events is such an
 * edge. With the 2.6.29 structure (mask the NAPI events in IntrMask in the handler, unmask
 * in the poll) the poll's unmask re-creates the edge for anything that latched while the
 * handler ran, so an event latched between the handler's read and its write-1-to-clear is
 * recovered at the end of the poll, and with one vCPU the old handler almost never hangs
 * (only when an interrupt with no NAPI event, e.g. LinkChg alone, races a NAPI event). The
 * 2009 reports came from SMP machines (an Atom 330, "depending on which CPU took the
 * interrupt"), where the handler can run on one CPU while the poll unmasks on another; the
 * lab's -smp 1 guest has no such interleaving. With IntrMask
 * left fully enabled nothing re-creates the edge: an event that latches between the read
 * and the ack keeps (IntrStatus & IntrMask) non-zero forever and no further MSI is sent -
 * exactly the condition the fix describes ("the AND never returns to zero"). The only
 * difference from the fixed handler is then the one the 2009 fix made: the re-read loop.
 * Under INTx the level stays asserted and the handler simply runs again (no hang), as with
 * pci=nomsi in the original reports.
 */
#include <linux/interrupt.h>
#include <linux/netdevice.h>

#include "rtl8168sim.h"

/*
 * The interrupt registers: 16-bit IntrMask 0x3c / IntrStatus 0x3e on the 8168s, 32-bit
 * IntrMask_8125 0x38 / IntrStatus_8125 0x3c on the RTL8125 (r8169 rtl_irq_enable,
 * rtl_irq_disable, rtl_get_events, rtl_ack_events). The 8125's low bits are the 8168's events.
 */
static void rtl_set_irq_mask(struct rtl_priv *tp, u32 mask)
{
	if (tp->r8125)
		rtl_w32(tp, REG_INTRMASK_8125, mask);
	else
		rtl_w16(tp, REG_INTRMASK, mask);
}

u32 rtl_get_irq_mask(struct rtl_priv *tp)
{
	return tp->r8125 ? rtl_r32(tp, REG_INTRMASK_8125) : rtl_r16(tp, REG_INTRMASK);
}

u32 rtl_get_events(struct rtl_priv *tp)
{
	return tp->r8125 ? rtl_r32(tp, REG_INTRSTATUS_8125) : rtl_r16(tp, REG_INTRSTATUS);
}

void rtl_ack_events(struct rtl_priv *tp, u32 bits)
{
	if (tp->r8125)
		rtl_w32(tp, REG_INTRSTATUS_8125, bits);
	else
		rtl_w16(tp, REG_INTRSTATUS, bits);
}

/* what a read of IntrStatus returns when the device is gone */
static u32 rtl_events_gone(struct rtl_priv *tp)
{
	return tp->r8125 ? 0xffffffff : 0xffff;
}

void rtl_irq_enable(struct rtl_priv *tp)
{
	tp->intr_mask = 0xffffffff;
	rtl_set_irq_mask(tp, INTR_EVENTS);
}

void rtl_irq_disable(struct rtl_priv *tp)
{
	rtl_set_irq_mask(tp, 0);
}

/*
 * Several RX rings behind one vector (the RTL8125B with rss_queues > 1, ISR v1: IntrStatus
 * RxOK stands for every queue, docs/R8125.md): the NAPI events are masked in IntrMask and
 * every ring's NAPI is scheduled; the last poll to complete unmasks, so a frame that reached a
 * ring whose poll had already finished latches RxOK and is a new edge at that unmask. The
 * hardware mask is used whatever irq_ack_loop says (that episode is an 8168c one).
 */
static void rtl_schedule_all_rings(struct rtl_priv *tp)
{
	unsigned int q;

	if (atomic_read(&tp->napi_pending))
		return; /* polls still running: they see the new frames or the unmask does */
	rtl_set_irq_mask(tp, INTR_EVENTS & ~NAPI_EVENTS);
	tp->intr_mask = ~(u32)NAPI_EVENTS;
	atomic_set(&tp->napi_pending, tp->num_rx_queues);
	for (q = 0; q < tp->num_rx_queues; q++) {
		if (napi_schedule_prep(&tp->rx[q].napi))
			__napi_schedule(&tp->rx[q].napi);
		else if (atomic_dec_and_test(&tp->napi_pending))
			rtl_irq_enable(tp);
	}
}

/* r8169 rtl8169_pcierr_interrupt (6.1): report and clear PCI_STATUS errors, reset the chip */
static void rtl_pcierr(struct rtl_priv *tp)
{
	struct pci_dev *pdev = tp->pdev;
	u16 cmd, status;

	pci_read_config_word(pdev, PCI_COMMAND, &cmd);
	pci_read_config_word(pdev, PCI_STATUS, &status);
	netdev_err(tp->dev, "PCI error (cmd = 0x%04x, status_errs = 0x%04x)\n", cmd,
		   status & PCI_STATUS_ERROR_BITS);
	pci_status_get_and_clear_errors(pdev);
	rtl_schedule_reset(tp);
}

irqreturn_t rtl_interrupt(int irq, void *dev_instance)
{
	struct net_device *dev = dev_instance;
	struct rtl_priv *tp = netdev_priv(dev);
	u32 gone = rtl_events_gone(tp);
	bool handled = false;
	u32 status;

	tp->sw.irq_total++;
	status = rtl_get_events(tp);
	while (status && status != gone) {
		u32 seen = status & tp->intr_mask;

		handled = true;
		/* old: ack what the software mask lets through; fixed: ack all that was read */
		rtl_ack_events(tp, rtl_irq_ack_loop ? status : seen);

		/*
		 * SYSErr (bit 15) is not enabled in IntrMask; it arrives with an enabled event.
		 * syserr_pcierr=1 (r8169 before "r8169: avoid unsolicited interrupts", 10ce0db78700):
		 * rtl8169_pcierr_interrupt() logs "PCI error", clears PCI_STATUS and schedules the
		 * reset task; the interrupt's other events wait for the reset. Fixed: only chips up
		 * to VER_06 (PCI, not PCIe) report bus errors there; this 8168c ignores the bit.
		 */
		if (unlikely(status & INT_SYSERR)) {
			tp->sw.syserr++;
			if (rtl_syserr_pcierr) {
				rtl_pcierr(tp);
				break;
			}
		}

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
		if ((seen & NAPI_EVENTS) && tp->num_rx_queues > 1) {
			rtl_schedule_all_rings(tp);
		} else if ((seen & NAPI_EVENTS) && napi_schedule_prep(&tp->rx[0].napi)) {
			if (rtl_irq_ack_loop) {
				/* fixed: mask the NAPI events in hardware until the poll ends */
				rtl_set_irq_mask(tp, INTR_EVENTS & ~NAPI_EVENTS);
				tp->intr_mask = ~(u32)NAPI_EVENTS;
			}
			/* old: IntrMask and tp->intr_mask stay as they are (software-only) */
			__napi_schedule(&tp->rx[0].napi);
		}
		if (!rtl_irq_ack_loop)
			break;
		status = rtl_get_events(tp);
		if (status && status != gone)
			tp->sw.irq_loops++;
	}
	if (!handled)
		tp->sw.irq_none++;
	return IRQ_RETVAL(handled);
}

/* one NAPI per RX ring; ring 0's also reclaims TX */
int rtl_napi_poll(struct napi_struct *napi, int budget)
{
	struct rtl_rx_ring *ring = container_of(napi, struct rtl_rx_ring, napi);
	struct rtl_priv *tp = ring->tp;
	int work;

	tp->sw.napi_polls++;
	if (ring->index == 0)
		rtl_tx_complete(tp, budget);
	work = rtl_rx_poll(ring, budget);
	if (work < budget && napi_complete_done(napi, work)) {
		/* unmasking with events latched gives the NIC a new 0->1 edge */
		if (tp->num_rx_queues == 1 || atomic_dec_and_test(&tp->napi_pending))
			rtl_irq_enable(tp);
	}
	return work;
}
