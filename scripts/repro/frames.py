# SPDX-License-Identifier: GPL-2.0-or-later
"""Check "frames" of the regress matrix (not a historical episode; scripts/reproduce does not
list it): the DUT receives full-size frames at MTU 1500 and at the largest jumbo MTU both
drivers accept, pinged and streamed to by the partner (guest-tests/lab/frames.sh: the guest
scenarios' slirp traffic never carries a full-size frame to the guest). A driver carrying every fix must come out CLEAN: every echo reply back, the stream
delivered in frames of at least 90 % of the MTU, no receive error counted.

Verdict: CLEAN when the lab case passes; otherwise UNEXPECTED with the case's reason (there is
no "old" behaviour to reproduce)."""
from . import common
from .labrun import LabResult

NAME = "frames"
DRIVERS = ("fixed", "stock")


def judge(res: LabResult) -> tuple:
    rows = [r for r in res.results if r.get("mtu")]
    fig = {f"mtu{r['mtu']}": f"{r.get('ping', '?')} mean={r.get('mean_frame', '?')}" for r in rows}
    summary = res.result(what="summary")
    if summary:
        fig["jumbo_mtu"] = summary.get("jumbo_mtu", "?")
    if res.ok and rows:
        return common.CLEAN, fig, ""
    return None, fig, f"lab run {res.status}: {res.reason or 'no RESULT'}"


def run(ctx: common.Context, driver: str) -> list:
    dut = "r8169" if driver == "stock" else "rtl8168sim"
    res = ctx.lab("frames", dut)
    observed, fig, reason = judge(res)
    return [common.case(NAME, driver, "frames", common.CLEAN, observed, fig, res, reason)]
