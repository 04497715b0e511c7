# SPDX-License-Identifier: GPL-2.0-or-later
"""Check "rx-bad" of the regress matrix (guest-tests/lab/rx-bad.sh): the partner sends frames
with wrong IPv4 header, TCP and UDP (IPv4 and IPv6) checksums through a raw socket, interleaved
with good ones; the DUT's sockets get every good one and no bad one, the stack counts every bad
one, the driver's RX count moves as the chip's tally. Then frames the DUT's chip receives with a
wire error (bad FCS, runt, too long: its faults select them by length), with rx-all off and on:
the driver's rx_errors, rx_crc_errors and rx_length_errors move exactly as the chip reported,
and the model's own counters (x-stats, read on the host) agree with what the partner sent.
CLEAN when the case passes and the counters agree (repro/conform.py)."""
from . import conform

NAME = "rx-bad"
DRIVERS = conform.DRIVERS


def figures(res) -> dict:
    r = res.result(what="summary")
    fig = {"pairs": r.get("pairs", "?"), "driver_rx": r.get("driver_rx", "?"),
           "chip_rx": r.get("chip_rx", "?")} if r else {}
    on = res.result(what="wire", rx_all="on")
    if on:
        fig.update({"wire_per_kind": on.get("per_kind", "?"),
                    "wire_rx_crc_errors": on.get("rx_crc_errors", "?"),
                    "wire_rx_length_errors": on.get("rx_length_errors", "?")})
    return fig


def wire_check(res) -> str:
    """The DUT's model counters against the wire errors the partner sent: with rx-all off the
    chip discards each kind into its own counter (rx_dropped_bad_fcs, rx_dropped_short,
    rx_dropped_too_long: rx_wire_errors.cc), with rx-all on it writes every one with RxRES
    (rx_error_frames). Empty when they agree."""
    dut = (getattr(res, "model_stats", None) or {}).get("dut") or {}
    off, on = res.result(what="wire", rx_all="off"), res.result(what="wire", rx_all="on")
    if not dut:
        return "no model counters of the DUT (x-stats) to check the wire errors against"
    if not off or not on:
        return "the case printed no wire-error results"
    try:
        w_off, w_on = int(off["per_kind"]), int(on["per_kind"])
    except (KeyError, ValueError):
        return "the case's wire-error results carry no per_kind"
    want = {"rx_dropped_bad_fcs": w_off, "rx_dropped_short": w_off,
            "rx_dropped_too_long": w_off, "rx_error_frames": 3 * w_on,
            "faults_fired": 3 * (w_off + w_on)}
    wrong = [f"{k} {dut.get(k)} (sent {v})" for k, v in want.items() if dut.get(k) != v]
    return ("the DUT's chip counted wire errors other than the partner sent: " + ", ".join(wrong)
            if wrong else "")


def run(ctx, driver: str) -> list:
    return conform.run_check(ctx, driver, NAME, figures, wire_check)
