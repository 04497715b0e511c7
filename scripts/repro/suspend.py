# SPDX-License-Identifier: GPL-2.0-or-later
"""Check "suspend" of the regress matrix (guest-tests/lab/suspend.sh): the guest suspends to
RAM (S3) with TCP streams running both ways through the DUT and is woken by the host (QMP
system_wakeup), twice: Wake-on-LAN off, then on (the Config registers r8169 writes for it
checked first). After each resume the link is back at its speed, both streams complete with
every byte checked, ping answers both ways, and no TX timeout fired. CLEAN when the case passes
(repro/conform.py)."""
from . import conform

NAME = "suspend"
DRIVERS = conform.DRIVERS


def figures(res) -> dict:
    """Per phase: the streams still running when the guest suspended (of 2)."""
    return {f"{r['phase']}_flowing": r["flowing_at_suspend"] for r in res.results
            if "flowing_at_suspend" in r and "phase" in r}


def run(ctx, driver: str) -> list:
    return conform.run_check(ctx, driver, NAME, figures)
