# SPDX-License-Identifier: GPL-2.0-or-later
"""The conformance checks of the regress matrix (not historical episodes; scripts/reproduce does
not list them): ipv6, vlan, rx-bad and rx-filter, each one lab case (guest-tests/lab/<case>.sh) that checks
a driver feature from the other end of the link and ends PASS or FAIL with the reason. A driver
carrying every fix comes out CLEAN; a FAIL is UNEXPECTED with the case's reason, to which the
model's own counters of the DUT add what the chip saw (a TX frame it refused, an RX frame it
dropped), read over QMP after the run (lablib.lab's x-stats).

Only for r8169 (DRIVERS "stock"): the project's rtl8168sim was not run through them."""
from . import common

DRIVERS = ("stock",)

# model counters of the DUT (rtl8168/stats.def) that a correct run leaves at 0, and what each says
CHIP_NOTES = {
    "tx_bad_descriptors": "TX frames the chip refused (bad offload request)",
    "tx_errors": "TxErr events",
    "rx_dropped_too_long": "RX frames over RxMaxSize",
    "rx_dropped_no_desc": "RX frames lost for want of a descriptor",
}


def chip_note(res) -> str:
    dut = (getattr(res, "model_stats", None) or {}).get("dut") or {}
    seen = [f"{v} {CHIP_NOTES[k]} ({k})" for k, v in ((k, dut.get(k)) for k in CHIP_NOTES)
            if isinstance(v, int) and v > 0]
    return ("; the DUT's chip counted " + ", ".join(seen)) if seen else ""


def run_check(ctx: common.Context, driver: str, name: str, figures, host_check=None) -> list:
    """One run of lab case `name` with the DUT on r8169: CLEAN when it passes and
    host_check(res) (a check of the model's counters on the host, if any) says nothing."""
    res = ctx.lab(name, "r8169")
    fig = figures(res)
    why = host_check(res) if host_check and res.ok else ""
    if res.ok and not why:
        return [common.case(name, driver, name, common.CLEAN, common.CLEAN, fig, res, "")]
    reason = (f"lab run PASS but {why}" if res.ok else
              f"lab run {res.status}: {res.reason or 'no RESULT'}{chip_note(res)}")
    return [common.case(name, driver, name, common.CLEAN, None, fig, res, reason)]
