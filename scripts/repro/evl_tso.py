# SPDX-License-Identifier: GPL-2.0-or-later
"""Episode evl-tso: see scripts/repro/evl_tx.py."""
from . import common, evl_tx

NAME = "evl-tso"
DRIVERS = ("old", "fixed", "stock")
CHIPS = ("8168evl",)   # the RTL8168evl's own defect (evl-tx.sh pins chip=8168evl)


def run(ctx: common.Context, driver: str) -> list:
    return evl_tx._run(ctx, driver, NAME, "tso", "evl_fix_tso")
