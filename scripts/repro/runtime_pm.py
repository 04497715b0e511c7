# SPDX-License-Identifier: GPL-2.0-or-later
"""Check "runtime-pm" of the regress matrix (guest-tests/lab/runtime-pm.sh): with its PM
capability advertising PME (x-pme=on) the DUT runtime-suspends while its cable is out and must
be resumed by the PME of the link coming back (r8169 arms Config3 LinkUp), carrying TCP both
ways after; then, Wake-on-LAN g and the interface down, it suspends again and must be resumed
by a magic packet from the partner, not by another station's. The model raises PME for the
events the driver armed (model/src/wake.h). CLEAN when the case passes (repro/conform.py)."""
from . import conform

NAME = "runtime-pm"
DRIVERS = conform.DRIVERS


def figures(res) -> dict:
    """How long the device took to suspend and to wake, per phase (ms, virtual)."""
    out = {}
    for r in res.results:
        if r.get("phase") in ("link", "magic"):
            for k in ("suspended_after_ms", "woke_after_ms"):
                if k in r:
                    out[f"{r['phase']}_{k}"] = r[k]
    return out


def run(ctx, driver: str) -> list:
    return conform.run_check(ctx, driver, NAME, figures)
