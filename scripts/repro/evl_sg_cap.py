# SPDX-License-Identifier: GPL-2.0-or-later
"""Episode "evl-sg-cap" (docs/HISTORY.md section 4, 2019): on the RTL8168evl, scatter-gather
with TX checksum offload and TSO off capped TX near 780 Mbit/s; SG off restored full speed
(r8169 now leaves SG and TSO off by default on these chips).

The lab case is guest-tests/lab/offload-latency.sh with a TCP stream only (the transactions
are kept to a few: this episode measures throughput), DUT on the 8168evl profile
(-device rtl8168,chip=8168evl). The stack builds GSO packets; with SG on and TSO off the
guest segments them in software and hands the driver each MTU-sized frame as the linear
header plus one or two page fragments (2-3 descriptors), with SG off as one linear buffer.

Each lab figure is compared with the standalone bench at the same configuration
(`rtl8168-bench mtu-sweep --offloads sg-csum|csum --mtu 1500:1500 --param chip=8168evl`):
the lab with the real driver and TCP stack and the bench must agree within BENCH_TOL, so a
lab figure is the device's and not the guest CPU's.

  driver old    rtl8168sim, SG on / TSO off / TX csum on (the 2019 configuration):
                REPRODUCED when the stream is capped (at most CAP_RATIO of the SG-off bench
                figure) and agrees with the sg-csum bench
  driver fixed  rtl8168sim, SG off / TSO off / TX csum on: CLEAN when not capped and in
                agreement with the csum bench
  driver stock  r8169 with its own defaults on this chip (SG off since the fix): CLEAN as fixed
Anything else (a lab run that failed, a figure the bench does not explain) is UNEXPECTED
with the reason.
"""
import subprocess
from typing import Optional

from . import common
from . import dma_burst

NAME = "evl-sg-cap"
DRIVERS = ("old", "fixed", "stock")
LAB_CASE = "offload-latency"
PROPS = "chip=8168evl"
CHIPS = ("8168evl",)   # the cap is this chip's (r8169 leaves SG off on it by default)
MTU = 1500
HISTORY_MBPS = 780.0   # docs/HISTORY.md section 4: "capped TX near 780 Mbit/s"
CAP_RATIO = 0.92       # capped: at most 92 % of the SG-off figure (the report: 780 vs ~940)
BENCH_TOL = 0.02       # lab vs bench: 2 % (the bench's figure is the model's; the lab adds the guest)
# a short TCP_RR (its figures are the offload-latency episode's business) and a stream long
# enough that slow start is a small share of it: 24 MiB at ~800 Mbit/s is ~250 ms
ARGS = {"count": "12", "skip": "2", "req": "65536", "resp": "64", "stream": "24M"}

# driver -> (dut driver, combo, bench offloads, expected)
PLAN = {
    "old": ("rtl8168sim", "on:off:on", "sg-csum", common.REPRODUCED),
    "fixed": ("rtl8168sim", "off:off:on", "csum", common.CLEAN),
    "stock": ("r8169", "default", "csum", common.CLEAN),
}


def bench_mbps(offloads: str, bench: Optional[str] = None) -> Optional[float]:
    """The bench's figure for the 8168evl at MTU 1500 with these offloads (None without it)."""
    bench = bench or dma_burst.bench_path()
    if not bench:
        return None
    r = subprocess.run([bench, "mtu-sweep", "--offloads", offloads, "--mtu", f"{MTU}:{MTU}",
                        "--param", "chip=8168evl"], capture_output=True, text=True)
    if r.returncode != 0:
        return None
    for line in r.stdout.splitlines():
        f = line.split(",")
        if len(f) == 3 and f[0] == str(MTU):
            try:
                return float(f[2])
            except ValueError:
                return None
    return None


def judge(lab_mbps: Optional[float], features: dict, want_sg: bool, bench_own: Optional[float],
          bench_sg_off: Optional[float]) -> tuple:
    """(observed, figures, reason) from the lab's stream figure (pure, unit-tested)."""
    figs = {"mbps": lab_mbps, "bench": bench_own, "history": HISTORY_MBPS}
    if lab_mbps is None:
        return None, figs, "no stream figure"
    if features.get("sg") != ("on" if want_sg else "off") or features.get("tso") != "off":
        return None, figs, (f"offloads in force sg={features.get('sg')} "
                            f"tso={features.get('tso')}, not the case's")
    if bench_own is None or bench_sg_off is None:
        return None, figs, "no bench figure (build/bin/rtl8168-bench): agreement not checked"
    dev = abs(lab_mbps - bench_own) / bench_own
    figs["bench_dev"] = f"{dev * 100:.2f}%"
    ratio = lab_mbps / bench_sg_off
    figs["vs_sg_off"] = round(ratio, 3)
    if dev > BENCH_TOL:
        return None, figs, (f"lab {lab_mbps:.1f} vs bench {bench_own:.1f} Mbit/s: "
                            f"{dev * 100:.1f} % apart (> {BENCH_TOL * 100:.0f} %)")
    if ratio <= CAP_RATIO:
        return common.REPRODUCED, figs, (f"capped at {lab_mbps:.0f} Mbit/s, x{ratio:.2f} of "
                                         f"SG off (the report: about {HISTORY_MBPS:.0f})")
    return common.CLEAN, figs, f"{lab_mbps:.0f} Mbit/s, x{ratio:.2f} of SG off: no cap"


def run(ctx: common.Context, driver: str) -> list:
    dut, combo, offloads, expected = PLAN[driver]
    args = dict(ARGS, combos=combo)
    lab = ctx.lab(LAB_CASE, dut, args=args, props=PROPS, tag=f"{NAME}-{driver}")
    row = next((r for r in lab.results if r.get("kind") == "combo"), None)
    if not lab.ok or row is None:
        return [common.case(NAME, driver, combo, expected, None, {}, lab,
                            f"lab run {lab.status}: {lab.reason or 'no combination RESULT'}")]
    want_sg = offloads == "sg-csum"
    own = bench_mbps(offloads)
    sg_off = own if offloads == "csum" else bench_mbps("csum")
    observed, figs, reason = judge(common.num(row, "stream_mbps"), row, want_sg, own, sg_off)
    return [common.case(NAME, driver, f"sg-{'on' if want_sg else 'off'}", expected, observed,
                        figs, lab, reason)]
