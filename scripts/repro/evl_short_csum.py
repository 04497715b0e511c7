# SPDX-License-Identifier: GPL-2.0-or-later
"""Episode evl-short-csum: see scripts/repro/evl_tx.py."""
from . import common, evl_tx

NAME = "evl-short-csum"
DRIVERS = ("old", "fixed", "stock")


def run(ctx: common.Context, driver: str) -> list:
    return evl_tx._run(ctx, driver, NAME, "short", "evl_sw_pad")
