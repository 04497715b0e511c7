# SPDX-License-Identifier: GPL-2.0-or-later
"""Episodes evl-short-csum and evl-tso: the RTL8168evl's TX defects (docs/REPRODUCE.md).

Lab case guest-tests/lab/evl-tx.sh, DUT on the 8168evl profile (-device rtl8168,chip=8168evl;
its quirks evl-short-csum and evl-tso-defects on, as on silicon), partner an 8168c under r8169
that verifies every checksum in software (its Udp/Tcp InCsumErrors, Ip InHdrErrors count what
arrived wrong).

  evl-short-csum  200 UDP datagrams of 8 bytes (50-byte frames the chip pads, TX checksum
                  offload on). old = rtl8168sim evl_sw_pad=0 (short frames handed to the chip
                  with checksum offload), fixed = evl_sw_pad=1 (pad to 60 and checksum in
                  software, r8169 rtl_quirk_packet_padto), stock = r8169.
  evl-tso         a 1 s TCP stream with sg/tso on (every Linux segment carries the timestamp
                  option). old = evl_fix_tso=0 (always TSO), fixed = evl_fix_tso=1 (software
                  GSO in rtl8168evl_fix_tso's three cases), stock = r8169.

Verdict: REPRODUCED when the partner counted checksum errors; CLEAN when it counted none and
the traffic arrived (every datagram / at least 100 Mbit/s); otherwise UNEXPECTED.
"""
from . import common
from .labrun import LabResult


def _judge(res: LabResult, what: str) -> tuple:
    num = common.num
    r, failed = common.lab_result(res, "no RESULT", what=what)
    if failed:
        return None, {}, failed
    errors = (num(r, "udp_csum_errors", 0) or 0) + (num(r, "tcp_csum_errors", 0) or 0) + \
        (num(r, "ip_hdr_errors", 0) or 0)
    fig = {"csum_errors": errors}
    # the receiver's own fields (received=, mbps=) are part of the RESULT line
    if what == "short":
        got = num(r, "received", 0) or 0
        fig["received"] = f"{got}/{num(r, 'sent', 0)}"
        arrived = got == num(r, "sent", -1)
    else:
        mbps = float(num(r, "mbps", 0) or 0)
        fig["mbps"] = mbps
        arrived = mbps >= 100
    if errors > 0:
        return common.REPRODUCED, fig, "the partner counted checksum errors"
    if arrived:
        return common.CLEAN, fig, ""
    return None, fig, "no checksum error, but the traffic did not arrive"


def _run(ctx: common.Context, driver: str, name: str, what: str, param: str) -> list:
    return common.old_fixed_stock(ctx, driver, name, "evl-tx", param,
                                  lambda res, _sim: _judge(res, what), args={"what": what})
