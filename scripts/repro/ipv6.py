# SPDX-License-Identifier: GPL-2.0-or-later
"""Check "ipv6" of the regress matrix (guest-tests/lab/ipv6.sh): IPv6 TCP, UDP and ICMPv6 both
ways with the DUT's TX checksum offload + TSO6 on, then off, every byte checked at the receiving
end, the partner verifying checksums in software; with TSO on the wire carries at least twice
the frames the driver queued. CLEAN when the case passes (repro/conform.py)."""
from . import conform

NAME = "ipv6"
DRIVERS = conform.DRIVERS


def figures(res) -> dict:
    r = res.result(phase="on", dir="dut-to-partner", proto="tcp6")
    return {"tso6_frames": f"{r.get('wire_frames', '?')}/{r.get('driver_tx_packets', '?')}"} if r else {}


def run(ctx, driver: str) -> list:
    return conform.run_check(ctx, driver, NAME, figures)
