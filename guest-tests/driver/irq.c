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

void rtl_irq_enable(struct rtl_priv *tp)
{
	tp->intr_mask = 0xffff;
	rtl_w16(tp, REG_INTRMASK, INTR_EVENTS);
}

void rtl_irq_disable(struct rtl_priv *tp)
{
	rtl_w16(tp, REG_INTRMASK, 0);
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
	bool handled = false;
	u16 status;

	tp->sw.irq_total++;
	status = rtl_r16(tp, REG_INTRSTATUS);
	while (status && status != 0xffff) {
		u16 seen = status & tp->intr_mask;

		handled = true;
		/* old: ack what the software mask lets through; fixed: ack all that was read */
		rtl_w16(tp, REG_INTRSTATUS, rtl_irq_ack_loop ? status : seen);

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
		if ((seen & NAPI_EVENTS) && napi_schedule_prep(&tp->napi)) {
			if (rtl_irq_ack_loop) {
				/* fixed: mask the NAPI events in hardware until the poll ends */
				rtl_w16(tp, REG_INTRMASK, INTR_EVENTS & ~NAPI_EVENTS);
				tp->intr_mask = (u16)~NAPI_EVENTS;
			}
			/* old: IntrMask and tp->intr_mask stay as they are (software-only) */
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
