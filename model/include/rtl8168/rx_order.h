/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RX hand-off order for a host whose network layer can hold frames for the
 * device in more than one queue (QEMU: the NIC's own incoming queue and,
 * behind a hub, the sending port's queue) and would otherwise let a new
 * frame, or a frame from a queue flushed first, overtake older ones.
 * A NIC never reorders frames; this gate keeps the host from doing it.
 *
 * The host (hw/net/rtl8168.c) wires it like this:
 *   - every model call made from a host callback (register access, timer,
 *     link change, reset) is bracketed by begin()/end(); end() runs a drain
 *     (ops.flush) when the outermost call returns and one was asked for;
 *   - the model's rx_ready() callback calls rtl8168_rx_order_rx_ready();
 *   - the net layer's "can you take a frame?" is rtl8168_rx_order_can_receive()
 *     (it asks the model through ops.ready);
 *   - the net layer's receive is bracketed by begin() and
 *     end_receive(taken): a refusal (taken == 0) marks a backlog, and a
 *     receive never drains (the host is delivering that very queue).
 *
 * The invariant: while a frame may wait in any queue for the device
 * (backlog), can_receive() says no until a drain has emptied the queues in
 * order, and during a drain or any model call every frame offered anew is
 * refused, i.e. queued behind the ones already waiting. ops.flush must hand
 * over the host's queued frames (QEMU: qemu_flush_queued_packets()); the
 * frames a hub's queue hands over are refused (busy), join the device's own
 * queue behind the older ones, and that queue's flush then delivers every
 * frame oldest first. Deterministic: no clock, no deferred work.
 * docs/QEMU.md "RX order" has the history (1025 of 2000 datagrams out of
 * order before it).
 */
#ifndef RTL8168_RX_ORDER_H
#define RTL8168_RX_ORDER_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rtl8168_rx_order rtl8168_rx_order;

typedef struct rtl8168_rx_order_ops {
  void *opaque;
  /* Can the device take a frame now? (rtl8168_can_receive; called between
   * begin and end, so callbacks it triggers see a busy gate) */
  bool (*ready)(void *opaque);
  /* Hand over every frame the host holds for the device, oldest queue
   * last (QEMU: qemu_flush_queued_packets); may re-enter can_receive and
   * the receive bracket. */
  void (*flush)(void *opaque);
} rtl8168_rx_order_ops;

/* `ops` is copied. Never NULL. */
rtl8168_rx_order *rtl8168_rx_order_new(const rtl8168_rx_order_ops *ops);
void rtl8168_rx_order_free(rtl8168_rx_order *o);

/* A model call starts / ends; end() drains when the outermost call ends
 * and a drain was asked for (rx_ready, or a refusal while busy). */
void rtl8168_rx_order_begin(rtl8168_rx_order *o);
void rtl8168_rx_order_end(rtl8168_rx_order *o);
/* The end of a receive call: `taken` == 0 is a refusal (backlog); never
 * drains. */
void rtl8168_rx_order_end_receive(rtl8168_rx_order *o, size_t taken);

/* The model's rx_ready() callback: drain once the current call returns. */
void rtl8168_rx_order_rx_ready(rtl8168_rx_order *o);

/* The net layer's can_receive: true only when a frame offered now is the
 * oldest one waiting. Every false may leave a frame queued (backlog). */
bool rtl8168_rx_order_can_receive(rtl8168_rx_order *o);

/* Introspection for tests and traces. */
bool rtl8168_rx_order_backlog(const rtl8168_rx_order *o);
bool rtl8168_rx_order_flush_pending(const rtl8168_rx_order *o);
unsigned rtl8168_rx_order_depth(const rtl8168_rx_order *o);

#ifdef __cplusplus
}
#endif

#endif /* RTL8168_RX_ORDER_H */
