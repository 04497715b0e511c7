# SPDX-License-Identifier: GPL-2.0-or-later
"""Check "rx-filter" of the regress matrix (guest-tests/lab/rx-filter.sh): frames to the DUT's
MAC and to a joined group reach its stack and socket, frames to another unicast MAC and to a
group it did not join do not, until promiscuous mode lets every kind up; the driver's RX and
multicast counts move as the chip's tally does. On the host, the model's rx_dropped_filter of
the DUT must count at least the frames the filter phase kept out. CLEAN when both hold
(repro/conform.py)."""
from . import conform

NAME = "rx-filter"
DRIVERS = conform.DRIVERS
PER_KIND = 8   # the case's LAB_count default: frames of each kind per phase


def figures(res) -> dict:
    r = res.result(phase="filter")
    return {"filter_stack": r.get("stack", "?")} if r else {}


def filtered(res) -> str:
    """'' when the DUT's chip kept out at least the 'other' and 'notjoined' frames of the filter
    phase (the model's rx_dropped_filter), else why not."""
    got = ((getattr(res, "model_stats", None) or {}).get("dut") or {}).get("rx_dropped_filter")
    if not isinstance(got, int):
        return "no model counters (x-stats) of the DUT"
    if got >= 2 * PER_KIND:
        return ""
    return (f"the DUT's chip filtered out {got} frames (rx_dropped_filter), fewer than the "
            f"{2 * PER_KIND} sent to addresses it does not listen to")


def run(ctx, driver: str) -> list:
    return conform.run_check(ctx, driver, NAME, figures, filtered)
