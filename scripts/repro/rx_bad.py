# SPDX-License-Identifier: GPL-2.0-or-later
"""Check "rx-bad" of the regress matrix (guest-tests/lab/rx-bad.sh): the partner sends frames
with wrong IPv4 header, TCP and UDP (IPv4 and IPv6) checksums through a raw socket, interleaved
with good ones; the DUT's sockets get every good one and no bad one, the stack counts every bad
one, the driver's RX count moves as the chip's tally. CLEAN when the case passes
(repro/conform.py)."""
from . import conform

NAME = "rx-bad"
DRIVERS = conform.DRIVERS


def figures(res) -> dict:
    r = res.result(what="summary")
    return {"pairs": r.get("pairs", "?"), "driver_rx": r.get("driver_rx", "?"),
            "chip_rx": r.get("chip_rx", "?")} if r else {}


def run(ctx, driver: str) -> list:
    return conform.run_check(ctx, driver, NAME, figures)
