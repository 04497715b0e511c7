# SPDX-License-Identifier: GPL-2.0-or-later
"""Check "tx-ring-full" of the regress matrix (guest-tests/lab/tx-ring-full.sh): with BQL's
minimum limit raised through sysfs, four flows from the DUT (two TCP streams of many small
zerocopy fragments, every byte verified; two UDP sequence streams) keep r8169's TX ring full,
so only the driver's own ring check stops and wakes the queue. The driver must never find the
ring full with the queue awake, drop nothing and time out nothing; every missing datagram is a
drop the partner counted. On the host, the DUT's chip must have refused no descriptor. CLEAN
when both hold (repro/conform.py)."""
from . import conform

NAME = "tx-ring-full"
DRIVERS = conform.DRIVERS


def figures(res) -> dict:
    r = res.result(what="summary")
    return {k: r.get(k, "?") for k in ("inflight_peak", "bql_limit_before", "udp_lost",
                                        "zerocopy_sends", "copied")} if r else {}


def chip_refused(res) -> str:
    """'' when the DUT's chip took every descriptor the driver gave it."""
    dut = (getattr(res, "model_stats", None) or {}).get("dut") or {}
    bad = dut.get("tx_bad_descriptors")
    if not isinstance(bad, int):
        return "no model counters (x-stats) of the DUT"
    return "" if bad == 0 else f"the DUT's chip refused {bad} TX descriptors (tx_bad_descriptors)"


def run(ctx, driver: str) -> list:
    return conform.run_check(ctx, driver, NAME, figures, chip_refused)
