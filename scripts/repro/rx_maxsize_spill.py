# SPDX-License-Identifier: GPL-2.0-or-later
"""Episode rx-maxsize-spill (2009, CVE-2009-1389 / CVE-2009-4537, docs/HISTORY.md §6): an
over-length frame spills over several RX descriptors, and a driver that takes each descriptor
for a frame delivers the pieces.

Lab case guest-tests/lab/rx-spill.sh. The partner (MTU 4000) sends 20 frames of 4000 bytes to
the DUT (MTU 1500): each a UDP datagram to port 7001 carrying, at frame offset 1536, a whole
second frame (a UDP datagram to port 7002, "INJECTED"). The model spills a frame longer than
its descriptor's buffer over the next descriptors, FS ... LS (model/src/rx_spill.cc).
old = rtl8168sim rx_spill_fix=0 (the 2.6.29 driver: 1536-byte buffers, RxMaxSize 16383, no
FS/LS check), fixed = rx_spill_fix=1 (c0cd884af045: 16383-byte buffers, fragments dropped),
stock = r8169.

Verdict (per run):
  REPRODUCED  the DUT's port 7002 received a datagram: a piece of a frame was delivered as a
              frame of its own (the frame inside the payload injected)
  CLEAN       port 7002 received nothing and port 7001 every datagram (the frame arrived whole)
  otherwise   UNEXPECTED
"""
from . import common
from .labrun import LabResult

NAME = "rx-maxsize-spill"
DRIVERS = ("old", "fixed", "stock")
ARGS = {"count": 20, "size": 4000, "inner_off": 1536, "mtu": 4000}


def judge(res: LabResult) -> tuple:
    num = common.num
    r, failed = common.lab_result(res, "no RESULT what=spill", what="spill")
    if failed:
        return None, {}, failed
    sent, outer, inner = common.counts(r, "sent", "outer", "inner")
    fig = {"injected": f"{inner}/{sent}", "outer": f"{outer}/{sent}",
           "rx_packets": num(r, "rx_packets"), "ip_truncated": num(r, "ip_truncated"),
           "rx_length_errors": num(r, "rx_length_errors")}
    if r.get("fragments", "-") != "-":
        fig["fragments"] = num(r, "fragments")
    if sent == 0:
        return None, fig, "the partner sent nothing"
    if inner > 0:
        return common.REPRODUCED, fig, "pieces of spilled frames delivered as frames"
    if outer == sent:
        return common.CLEAN, fig, ""
    return None, fig, f"nothing injected, but only {outer}/{sent} over-length frames arrived"


def run(ctx: common.Context, driver: str) -> list:
    return common.old_fixed_stock(ctx, driver, NAME, "rx-spill", "rx_spill_fix",
                                  lambda res, _sim: judge(res), args=ARGS)
