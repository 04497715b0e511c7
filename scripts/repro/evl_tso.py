# SPDX-License-Identifier: GPL-2.0-or-later
"""Episode evl-tso: see scripts/repro/evl_tx.py."""
from . import common, evl_tx

NAME = "evl-tso"
DRIVERS = ("old", "fixed", "stock")


def run(ctx: common.Context, driver: str) -> list:
    return evl_tx._run(ctx, driver, NAME, "tso", "evl_fix_tso")
