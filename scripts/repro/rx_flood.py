# SPDX-License-Identifier: GPL-2.0-or-later
"""Check "rx-flood" of the regress matrix (guest-tests/lab/rx-flood.sh): pktgen in the partner's
namespace floods the DUT with 60-byte frames, so r8169's NAPI poll uses its whole budget poll
after poll and the RX ring runs dry. Every frame sent must be received or counted missed by
the driver, its missed count must equal the chip's tally, no poll may return more than its
budget, and traffic must pass after. On the host the model's own drop counters of the DUT are
compared with what the driver reported: every RX frame the chip dropped was a frame without a
descriptor (rx_dropped_no_desc), and their number is the tally's RxMissed the driver read.
CLEAN when both hold (repro/conform.py)."""
from . import conform

NAME = "rx-flood"
DRIVERS = conform.DRIVERS
# model counters of RX frames dropped for another reason than a missing descriptor. Not
# rx_dropped_disabled: a frame the partner sends before the DUT's receiver is on (the partner's
# link comes up first; seen once on 6.12 and 7.2) is dropped so, as on the hardware, and is no
# RxMissed; the flood itself is covered in the guest (sent == received + missed + dropped)
OTHER_DROPS = ("rx_dropped_dma", "rx_dropped_too_long", "rx_dropped_runt")


def figures(res) -> dict:
    r = res.result(what="flood")
    return {k: r.get(k, "?") for k in ("sent", "driver_rx", "driver_missed", "polls", "full",
                                        "longest_full_run")} if r else {}


def drops_agree(res) -> str:
    """'' when the model dropped only for want of descriptors, as many frames as the driver
    counted missed (the tally's RxMissed is 16 bits wide)."""
    dut = (getattr(res, "model_stats", None) or {}).get("dut") or {}
    r = res.result(what="end") or {}
    nodesc = dut.get("rx_dropped_no_desc")
    if not isinstance(nodesc, int):
        return "no model counters (x-stats) of the DUT"
    other = [f"{k} {dut[k]}" for k in OTHER_DROPS if isinstance(dut.get(k), int) and dut[k]]
    if other:
        return "the DUT's chip dropped RX frames for other reasons: " + ", ".join(other)
    try:
        missed = int(r.get("tally_total", ""))
    except ValueError:
        return "the case reported no tally_total"
    if nodesc % 65536 != missed:
        return (f"the model dropped {nodesc} frames for want of a descriptor, the chip's tally "
                f"(RxMissed, 16 bits) the driver read says {missed}")
    return ""


def run(ctx, driver: str) -> list:
    return conform.run_check(ctx, driver, NAME, figures, drops_agree)
