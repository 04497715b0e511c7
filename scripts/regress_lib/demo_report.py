# SPDX-License-Identifier: GPL-2.0-or-later
"""The closing lines both bisection demos print: stage timings, then DEMO PASS or DEMO FAIL.

CTest (guest-tests/regress.cmake) passes a demo on its exit status and on the DEMO PASS line.
"""
import time


def finish(tag: str, timings: dict, t_start: float, out, fails: list, pass_line: str) -> int:
    """Print the timings and the verdict; return the demo's exit status (0 PASS, 1 FAIL)."""
    total = time.monotonic() - t_start
    print(f"{tag}: timings: " + ", ".join(f"{k} {v:.0f} s" for k, v in timings.items())
          + f", total {total:.0f} s; logs in {out}", flush=True)
    if fails:
        print("DEMO FAIL " + "; ".join(fails))
        return 1
    print("DEMO PASS " + pass_line)
    return 0
