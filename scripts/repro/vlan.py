# SPDX-License-Identifier: GPL-2.0-or-later
"""Check "vlan" of the regress matrix (guest-tests/lab/vlan.sh): VLAN 291 traffic both ways with
the DUT's tag insertion/stripping on (partner's off) and off (partner's on), every tag read at the
other end (TCI 0xa123), every byte checked. CLEAN when the case passes (repro/conform.py)."""
from . import conform

NAME = "vlan"
DRIVERS = conform.DRIVERS


def figures(res) -> dict:
    out = {}
    for phase in ("dut-hw", "dut-sw"):
        r = res.result(phase=phase, capture="partner")
        if r:
            out[f"{phase}_partner_tcis"] = r.get("tcis", "?")
    return out


def run(ctx, driver: str) -> list:
    return conform.run_check(ctx, driver, NAME, figures)
