# SPDX-License-Identifier: GPL-2.0-or-later
"""Episode "dma-burst" (docs/HISTORY.md section 3, 2012): TX DMA burst size versus MTU.

TCP_STREAM from the DUT to the partner with TSO on, an MTU sweep per TX DMA burst, in the
timed closed-world lab (guest-tests/lab/dma-burst.sh, one guest boot per burst). Goodput is
the receiver's steady-state figure in virtual time (warm-up excluded).

  driver old    rtl8168sim tx_dma_burst=6 (1024-byte reads)     expected REPRODUCED
                rtl8168sim tx_dma_burst=5 (512-byte reads)      expected REPRODUCED (extra curve)
  driver fixed  rtl8168sim tx_dma_burst=7 (unlimited)           expected CLEAN
                lab ceiling: the same with the DUT model's timing=off (an infinitely fast
                DUT), a few MTUs: what the rest of the lab (the guest CPU) allows
                                                                expected CLEAN
  driver stock  r8169 (writes MXDMA 7), a few MTUs              expected CLEAN
                on a chip given by --chip other than the model's default, where rtl8168sim
                cannot show the 2012 curve: also r8169 with the DUT's burst forced to 1024
                bytes (-device tx-mxdma=6), MTUs around the peak 1076 = 1024 + 52
                                                                expected REPRODUCED

Rules (every threshold is a constant below; docs/REPRODUCE.md explains them):
  sawtooth   at every peak MTU P = k*burst + 52 of the sweep: goodput(P+1) <= 0.95 goodput(P)
             and goodput(P) >= (1 - 1.5 %) * max(goodput(P-2), goodput(P-1))
  monotonic  no point more than 1.5 % below the best point at a smaller MTU, and no drop of
             more than 5 % one byte after P = k*512 + 52 or k*1024 + 52
  line rate  no point above the Ethernet goodput limit 1000 * (MTU - 52) / (MTU + 38) Mbit/s
             (+0.5 % for the edges of the timed window)
  targets    MTU 1500: burst 1024 -> 842 +-3 %, unlimited -> 940 +-3 % (docs/HISTORY.md),
             burst 512 -> the standalone bench's figure +-3 % (no history figure)
  limits     every point is compared with two bounds: the DUT's TX path (the standalone
             bench, rtl8168-bench mtu-sweep, same MTU and burst, Linux TSO layout: header in
             its own descriptor, payload in 32 KiB page fragments; it includes the wire) and
             the Ethernet wire. The partner NIC receives in functional mode (the case's
             lab-partner-props: timing=off), so it bounds nothing. limit= names the lower bound
             when the point is within 2 % of it (dut-tx or wire); a point further below is
             "cpu" when the guest CPU was >= 95 % busy, else "other".
  agreement  every point within 2 % of the bench (bench_dev_max = the largest deviation):
             the lab with the real guest driver and TCP stack and the bench must tell the same
             story at every MTU of the sweep; a point that does not makes the case
             inconclusive.
  REPRODUCED = sawtooth at every peak in range and the MTU-1500 target met;
  CLEAN      = monotonic, never above line rate, and the MTU-1500 target met;
  anything else is inconclusive (observed None -> UNEXPECTED) with the reason.

Outputs in ctx.out (merged over the drivers run so far): dma-burst.csv (mtu,burst_bytes,mbps
of the rtl8168sim sweeps), dma-burst-all.csv (every series with bench/wire/limit columns),
dma-burst.png (gnuplot; also scripts/plot-sweep).
"""
import csv
import os
import shutil
import subprocess
from pathlib import Path
from typing import Iterable, Optional, Union

from . import common
from .labrun import LabResult

HERE = Path(__file__).resolve().parent

NAME = "dma-burst"
DRIVERS = ("old", "fixed", "stock")
LAB_CASE = "dma-burst"
REPO = HERE.parent.parent

# ---- thresholds --------------------------------------------------------------------------
HEADER = 52                 # IPv4 20 + TCP 20 + timestamp option 12: payload = MTU - 52
WIRE_OVERHEAD = 38          # Ethernet 14 + FCS 4 + preamble/SFD 8 + inter-frame gap 12
LINE_RATE_TOL = 0.005       # window-edge slack above the Ethernet goodput limit
TARGET_TOL = 0.03           # +-3 % (the tolerance)
TARGETS = {"1024": 842.0, "unlimited": 940.0}   # docs/HISTORY.md section 3, MTU 1500
HISTORY_LINK_MBPS = 1000    # the link of those figures: on a chip that links faster (the
                            # RTL8125B at 2500, the model's chip list link_mbps) the MTU-1500
                            # target is the bench's figure for the chip
SAW_DROP = 0.95             # one byte after a peak: at most 95 % of the peak
SAW_PEAK_TOL = 0.015        # the peak may sit 1.5 % below its left neighbours
MONO_TOL = 0.015            # unlimited burst: 1.5 % (TCP/ACK timing and page-fragment
                            # boundaries move single wire-bound points by up to ~0.8 %, e.g.
                            # 912 vs 919 at MTU 1076 depending on the build; the drop after a
                            # peak is 20-25 %)
BENCH_TOL = 0.02            # lab vs bench at every point; a point further below its
                            # bound is not the DUT's figure. The bench sizes TSO super-packets
                            # as r8169 lets the stack (64000 bytes, 64 segments); what remains
                            # below MTU ~760 is the guest's TX ring running dry between TSO
                            # packets (docs/REPRODUCE.md "dma-burst", measured from the trace)
CPU_BUSY = 95.0             # below every bound with the guest CPU at least this busy: cpu
CEILING_HEADROOM = 0.03     # lab ceiling at MTU 1500 at least 3 % above the DUT's figure
DUT_LIMITS = ("dut-tx", "wire")
PEAK_BURSTS = (512, 1024)
FORCED_MXDMA = 6            # stock r8169 on a non-default chip: the DUT's burst forced to 1024

# ---- sweeps ------------------------------------------------------------------------------
GRID = "576,600:1500:50"          # the old/fixed sweeps
GRID_EXTRA = "576,600:1500:100"   # the burst-512 curve (an extra)
LAB_BYTES = "20M"   # 16 MiB timed window: window-edge backlog stays well under 0.5 %, and
LAB_WARMUP = "4M"   # the TCP stack's episodic dips (a drained TX ring while the one guest CPU
                    # runs sender and receiver) average out: with 8 MiB single points at MTU
                    # 576-750 fell up to 3.1 % below the bench, with 16 MiB within 1.2 %


def peak_mtus(burst: int, lo: int = 560, hi: int = 1500) -> list:
    """MTUs whose TCP payload is an exact multiple of the burst, within [lo, hi]."""
    return [k * burst + HEADER for k in range(1, 64) if lo <= k * burst + HEADER <= hi]


def around(peaks: list, before: int = 2, after: int = 2) -> list:
    out = []
    for p in peaks:
        out += list(range(p - before, p + after + 1))
    return out


def expand_mtus(spec: Union[str, int]) -> list:
    """'576,600:1500:100,1076' -> sorted unique ints (FROM:TO[:STEP] ranges inclusive)."""
    out = set()
    for item in str(spec).split(","):
        item = item.strip()
        if not item:
            continue
        parts = item.split(":")
        if len(parts) == 1:
            out.add(int(parts[0]))
        else:
            a, b = int(parts[0]), int(parts[1])
            step = int(parts[2]) if len(parts) > 2 else 1
            if step <= 0 or b < a:
                raise ValueError(f"bad MTU range '{item}'")
            out.update(range(a, b + 1, step))
    return sorted(out)


def mtu_spec(mtus: Iterable[int]) -> str:
    return ",".join(str(m) for m in sorted(set(mtus)))


def burst_name(mxdma: Union[int, str]) -> str:
    return "unlimited" if int(mxdma) == 7 else str(16 << int(mxdma))


def wire_goodput(mtu: int, link_mbps: float = HISTORY_LINK_MBPS) -> float:
    """TCP goodput at the line rate (1 Gbit/s unless the DUT links faster), payload MTU - 52
    per MTU + 38 bytes on the wire."""
    return float(link_mbps) * (mtu - HEADER) / (mtu + WIRE_OVERHEAD)


# Runs per driver: (case, dut_driver, params, props, mxdma, mtus, expected, kind)
def runs_for(driver: str, chip: Optional[str] = None) -> list:
    """chip: the DUT's chip when a tool's --chip names one other than the model's default."""
    grid = expand_mtus(GRID)
    p512, p1024 = peak_mtus(512), peak_mtus(1024)
    if driver == "old":
        return [
            ("burst1024", "rtl8168sim", "tx_dma_burst=6", "", 6, grid + around(p1024),
             common.REPRODUCED, "sawtooth"),
            ("burst512", "rtl8168sim", "tx_dma_burst=5", "", 5,
             expand_mtus(GRID_EXTRA) + around(p512),
             common.REPRODUCED, "sawtooth"),
        ]
    if driver == "fixed":
        return [
            ("unlimited", "rtl8168sim", "tx_dma_burst=7", "", 7, grid + around(p1024),
             common.CLEAN, "monotonic"),
            ("lab-ceiling", "rtl8168sim", "tx_dma_burst=7", "timing=off", 7,
             [576, 800, 1076, 1500], common.CLEAN, "ceiling"),
        ]
    if driver == "stock":
        runs = [("r8169", "r8169", "", "", 7, [1000, 1075, 1076, 1077, 1500], common.CLEAN,
                 "monotonic")]
        if chip:
            # the 2012 shape on this chip with the driver that drives it: r8169 writes MXDMA 7,
            # the model's tx-mxdma property makes the DUT read in 1024-byte requests anyway
            runs.append(("r8169-burst1024", "r8169", "", f"tx-mxdma={FORCED_MXDMA}",
                         FORCED_MXDMA, [1000] + around(peak_mtus(1024)) + [1500],
                         common.REPRODUCED, "sawtooth"))
        return runs
    raise ValueError(f"unknown driver {driver}")


# ---- the standalone bench (device-limited figures) ---------------------------------------
def bench_path() -> Optional[str]:
    p = os.environ.get("RTL8168_BENCH") or str(REPO / "build" / "bin" / "rtl8168-bench")
    return p if os.access(p, os.X_OK) else None


def bench_sweep(burst: str, mtus: Iterable[int], bench: Optional[str] = None,
                chip: Optional[str] = None) -> dict:
    """{mtu: mbps} from rtl8168-bench mtu-sweep (it takes MTUs 68..9000); chip: the DUT's
    profile when not the model's default (--param chip=)."""
    bench = bench or bench_path()
    mtus = sorted(m for m in set(mtus) if 68 <= m <= 9000)
    if not bench or not mtus:
        return {}
    out = {}
    # one invocation per run of consecutive MTUs
    runs, start = [], mtus[0]
    for a, b in zip(mtus, mtus[1:] + [None]):
        if b != a + 1:
            runs.append((start, a))
            start = b
    for lo, hi in runs:
        r = subprocess.run([bench, "mtu-sweep", "--burst", str(burst), "--layout", "linux",
                            "--mtu", f"{lo}:{hi}", *(["--param", f"chip={chip}"] if chip else [])],
                           capture_output=True, text=True)
        if r.returncode != 0:
            return out
        for line in r.stdout.splitlines():
            f = line.split(",")
            if len(f) == 3:
                try:
                    out[int(f[0])] = float(f[2])
                except ValueError:
                    pass
    return out


# ---- analysis (pure) ---------------------------------------------------------------------
def classify(mbps: Optional[float], bench: Optional[float], busy: Optional[float],
             mtu: int, link_mbps: float = HISTORY_LINK_MBPS) -> str:
    """Which bound limits a point: 'dut-tx' | 'wire' (within BENCH_TOL of it), 'cpu'
    (further below, guest CPU >= CPU_BUSY % busy), 'other', or '?' when there is no figure."""
    if mbps is None:
        return "?"
    bounds = {"wire": wire_goodput(mtu, link_mbps)}
    if bench is not None:
        # the bench includes the wire: call it wire when it sits on the Ethernet limit
        bounds["wire" if bench >= wire_goodput(mtu, link_mbps) * 0.999 else "dut-tx"] = bench
    name, low = min(bounds.items(), key=lambda kv: kv[1])
    if mbps >= low * (1 - BENCH_TOL):
        return name
    if bench is None:
        return "?"      # no DUT figure (bench not built): the DUT may well be what limits
    if busy is not None and busy >= CPU_BUSY:
        return "cpu"
    return "other"


def sawtooth(points: dict, burst: int, mtus: Optional[Iterable[int]] = None) -> list:
    """Peaks P = k*burst + 52 present with P+1 in `points` ({mtu: mbps}).
    Returns a list of dicts: peak, left (best of P-2, P-1 or None), peak_mbps, drop_mbps,
    ratio (drop/peak), ok."""
    found = []
    for p in peak_mtus(burst, lo=min(points) if points else 0, hi=max(points) if points else 0):
        if p not in points or p + 1 not in points:
            continue
        left = [points[m] for m in (p - 2, p - 1) if m in points]
        lmax = max(left) if left else None
        ratio = points[p + 1] / points[p] if points[p] else 0.0
        ok = ratio <= SAW_DROP and (lmax is None or points[p] >= lmax * (1 - SAW_PEAK_TOL))
        found.append({"peak": p, "left": lmax, "peak_mbps": points[p],
                      "drop_mbps": points[p + 1], "ratio": ratio, "ok": ok})
    return found


def monotonic_violations(points: dict, tol: float = MONO_TOL) -> list:
    """[(mtu, mbps, best_before)] where a point falls more than tol below the best point at
    a smaller MTU."""
    bad, best = [], None
    for m in sorted(points):
        v = points[m]
        if best is not None and v < best * (1 - tol):
            bad.append((m, v, best))
        best = v if best is None else max(best, v)
    return bad


def above_line_rate(points: dict, tol: float = LINE_RATE_TOL,
                    link_mbps: float = HISTORY_LINK_MBPS) -> list:
    return [(m, v, wire_goodput(m, link_mbps)) for m, v in sorted(points.items())
            if v > wire_goodput(m, link_mbps) * (1 + tol)]


def bench_deviation(points: dict, bench: dict) -> tuple:
    """(largest |lab - bench| / bench, its MTU) over the points the bench has a figure for,
    or (None, None) without any."""
    devs = [(abs(v - bench[m]) / bench[m], m) for m, v in points.items() if bench.get(m)]
    return max(devs) if devs else (None, None)


def target_for(burst: str, bench: Optional[dict] = None, history: bool = True) -> tuple:
    """MTU-1500 target: docs/HISTORY.md figures (history: the DUT links at their 1 Gbit/s),
    else the bench's figure."""
    if history and burst in TARGETS:
        return TARGETS[burst], "history"
    if bench and 1500 in bench:
        return bench[1500], "bench"
    return None, None


def within(v: Optional[float], t: Optional[float], tol: float = TARGET_TOL) -> bool:
    return v is not None and t is not None and abs(v - t) <= t * tol


def evaluate(kind: str, burst: str, points: dict, bench: dict, limits: dict,
             link_mbps: float = HISTORY_LINK_MBPS) -> tuple:
    """observed (REPRODUCED|CLEAN|None), figures, reason for one sweep.
    points {mtu: mbps}, bench {mtu: mbps}, limits {mtu: 'device'|'cpu'|'?'}; link_mbps: the
    DUT's link speed (the line rate, and whether the history's figures apply)."""
    figs, notes = {}, []
    v1500 = points.get(1500)
    target, tsrc = target_for(burst, bench, history=link_mbps == HISTORY_LINK_MBPS)
    figs["mbps_1500"] = round(v1500, 1) if v1500 is not None else None
    if target is not None:
        figs["target_1500"] = round(target, 1)
    if bench.get(1500) is not None:
        figs["bench_1500"] = round(bench[1500], 1)
    target_ok = within(v1500, target)
    if v1500 is None:
        notes.append("no MTU 1500 point")
    elif target is not None and not target_ok:
        notes.append(f"MTU 1500: {v1500:.1f} Mbit/s outside {target:.0f} +-{TARGET_TOL * 100:.0f} % ({tsrc})")
    not_dut = sorted(m for m, l in limits.items() if l not in DUT_LIMITS)
    figs["not_dut_limited"] = len(not_dut)
    dev, dev_mtu = bench_deviation(points, bench)
    agree = dev is not None and dev <= BENCH_TOL
    if dev is None:
        notes.append("no bench figures: lab/bench agreement not checked")
    else:
        figs["bench_dev_max"] = f"{dev * 100:.2f}%"
        if not agree:
            notes.append(f"MTU {dev_mtu}: lab {points[dev_mtu]:.1f} vs bench {bench[dev_mtu]:.1f} "
                         f"Mbit/s, {dev * 100:.1f} % apart (> {BENCH_TOL * 100:.1f} %)")
    bad1500 = 1500 in not_dut
    if bad1500:
        notes.append(f"MTU 1500 is limited by {limits[1500]}, not by the DUT")
    over = above_line_rate(points, link_mbps=link_mbps)
    if over:
        figs["above_line_rate"] = len(over)
        m, v, w = over[0]
        notes.append(f"above line rate at MTU {m}: {v:.1f} > {w:.1f}")

    saws = []
    for b in PEAK_BURSTS:
        saws += [dict(s, burst=b) for s in sawtooth(points, b)]
    if kind == "sawtooth":
        own = [s for s in saws if str(s["burst"]) == burst]
        for s in own:
            figs[f"peak{s['peak']}"] = round(s["peak_mbps"], 1)
            figs[f"drop{s['peak'] + 1}"] = round(s["drop_mbps"], 1)
        if not own:
            notes.append(f"no peak of burst {burst} with its +1 point in the sweep")
        bad = [s for s in own if not s["ok"]]
        for s in bad:
            notes.append(f"no sawtooth at MTU {s['peak']}: {s['peak_mbps']:.1f} -> "
                         f"{s['drop_mbps']:.1f} (left {s['left']})")
        for s in own:
            if limits.get(s["peak"] + 1) not in DUT_LIMITS + ("?",):
                bad.append(s)
                notes.append(f"the drop point {s['peak'] + 1} is limited by "
                             f"{limits.get(s['peak'] + 1)}, not by the DUT")
        if own and not bad and target_ok and not bad1500 and not over and agree:
            return common.REPRODUCED, figs, "sawtooth at " + ", ".join(
                f"{s['peak']} ({s['peak_mbps']:.0f} -> {s['drop_mbps']:.0f})" for s in own)
        if not any(s["ok"] for s in own) and not monotonic_violations(points):
            return (common.CLEAN if target_ok and agree else None), figs, "; ".join(notes) or "monotonic"
        return None, figs, "; ".join(notes)
    # monotonic / ceiling
    drops = [s for s in saws if s["ratio"] <= SAW_DROP]
    viol = monotonic_violations(points)
    if 1077 in points and 1076 in points:
        figs["ratio_1077_1076"] = round(points[1077] / points[1076], 3)
    figs["mono_violations"] = len(viol)
    for m, v, best in viol[:3]:
        notes.append(f"MTU {m}: {v:.1f} < {best:.1f} - {MONO_TOL * 100:.0f} %")
    if drops:
        return common.REPRODUCED, figs, "sawtooth drop at " + ", ".join(
            f"{s['peak'] + 1} ({s['ratio']:.2f})" for s in drops)
    if not viol and not over and target_ok and not bad1500 and agree:
        return common.CLEAN, figs, f"monotonic, MTU 1500 {v1500:.1f} Mbit/s"
    return None, figs, "; ".join(notes)


def evaluate_ceiling(ceiling: dict, device: dict) -> tuple:
    """lab-ceiling case: CLEAN when the lab with an infinitely fast DUT (timing=off) allows at
    least 3 % more than the DUT-limited figure at MTU 1500: the 1500 figures measure the DUT,
    not the partner NIC or the guest CPU."""
    figs = {f"ceiling_{m}": round(v, 1) for m, v in sorted(ceiling.items())}
    c, d = ceiling.get(1500), device.get(1500)
    if c is None:
        return None, figs, "no MTU 1500 point in the ceiling run"
    if d is None:
        d = TARGETS["unlimited"]
    figs["headroom_1500"] = round(c / d, 3)
    if c >= d * (1 + CEILING_HEADROOM):
        return common.CLEAN, figs, (f"the lab allows {c:.0f} Mbit/s at MTU 1500 with an "
                                    f"infinitely fast DUT, {(c / d - 1) * 100:.0f} % above the "
                                    f"DUT's {d:.0f}")
    return None, figs, (f"lab ceiling {c:.0f} Mbit/s at MTU 1500 is within "
                        f"{CEILING_HEADROOM * 100:.0f} % of the DUT figure {d:.0f}: the lab, not the DUT, limits")


# ---- CSV and plot ------------------------------------------------------------------------
ALL_FIELDS = ("series", "driver", "mtu", "burst_bytes", "mbps", "bench_mbps", "wire_mbps",
              "busy_pct", "limit", "retrans", "partner_missed", "tx_frames", "payload_per_frame", "total_mbps")


def read_rows(path: Union[str, Path]) -> list:
    path = Path(path)
    if not path.is_file():
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def write_rows(path: Union[str, Path], rows: list, fields: Iterable[str]) -> None:
    tmp = Path(f"{path}.tmp")
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(fields), extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow(r)
    os.replace(tmp, path)


def merge_series(path: Union[str, Path], series: str, rows: list) -> list:
    """Replace the rows of `series` in the CSV at path by `rows` (others kept)."""
    keep = [r for r in read_rows(path) if r.get("series") != series]
    allr = keep + rows
    allr.sort(key=lambda r: (r["series"], int(r["mtu"])))
    write_rows(path, allr, ALL_FIELDS)
    return allr


def write_simple_csv(path: Union[str, Path], all_rows: list) -> None:
    """mtu,burst_bytes,mbps for the rtl8168sim sweeps (one series per burst)."""
    rows = [{"mtu": r["mtu"], "burst_bytes": r["burst_bytes"], "mbps": r["mbps"]}
            for r in all_rows if r["series"].startswith("rtl8168sim-burst")]
    rows.sort(key=lambda r: (r["burst_bytes"], int(r["mtu"])))
    write_rows(path, rows, ("mtu", "burst_bytes", "mbps"))


SERIES_TITLES = {
    "rtl8168sim-burst512": "rtl8168sim tx_dma_burst=5 (512 B)",
    "rtl8168sim-burst1024": "rtl8168sim tx_dma_burst=6 (1024 B, old)",
    "rtl8168sim-burstunlimited": "rtl8168sim tx_dma_burst=7 (unlimited, fixed)",
    "r8169": "stock r8169 (MXDMA 7)",
    "r8169-burst1024": "stock r8169, DUT burst forced to 1024 B (tx-mxdma=6)",
    "lab-ceiling": "lab ceiling: DUT timing=off (the guest CPU)",
}


def plot(all_csv: Union[str, Path], png: Union[str, Path], title: Optional[str] = None,
         gnuplot: Optional[str] = None) -> tuple:
    """Goodput vs MTU per series (lab: lines+points; bench: dashed; Ethernet limit: dotted).
    Returns (ok, message). Writes <png>.gp next to the PNG (re-plot with gnuplot FILE)."""
    gnuplot = gnuplot or shutil.which("gnuplot")
    if not gnuplot:
        return False, "gnuplot not installed (scripts/setup model installs gnuplot-nox)"
    rows = read_rows(all_csv)
    if not rows:
        return False, f"no rows in {all_csv}"
    # a plain mtu,burst_bytes,mbps CSV (or the bench's mtu,burst,mbps): one series per burst
    for r in rows:
        if not r.get("series"):
            burst = r.get("burst_bytes") or r.get("burst") or "?"
            r["series"] = f"rtl8168sim-burst{burst}" if "burst_bytes" in r else f"bench-burst{burst}"
            r["burst_bytes"] = burst
        if "mtu" not in r or "mbps" not in r:
            return False, f"{all_csv}: needs columns mtu and mbps"
    png = Path(png)
    datadir = Path(f"{png}.data")
    datadir.mkdir(parents=True, exist_ok=True)
    for old in datadir.glob("*.dat"):
        old.unlink()
    series = sorted({r["series"] for r in rows},
                    key=lambda s: list(SERIES_TITLES).index(s) if s in SERIES_TITLES else 99)
    plots = []
    lo = min(int(r["mtu"]) for r in rows)
    hi = max(int(r["mtu"]) for r in rows)
    bench_done = set()
    for i, s in enumerate(series, 1):
        pts = sorted((int(r["mtu"]), r) for r in rows if r["series"] == s)
        dat = datadir / f"{s}.dat"
        dat.write_text("".join(f"{m} {r['mbps']}\n" for m, r in pts))
        style = "points pt 7 ps 1.2" if s in ("r8169", "lab-ceiling") else "linespoints pt 7 ps 0.6 lw 2"
        plots.append(f"'{dat}' using 1:2 with {style} lc {i} title \"{SERIES_TITLES.get(s, s)}\"")
        burst = pts[0][1]["burst_bytes"]
        if s.startswith("rtl8168sim-burst") and burst not in bench_done:
            bpts = [(m, r["bench_mbps"]) for m, r in pts if r.get("bench_mbps") not in (None, "", "-")]
            if bpts:
                bench_done.add(burst)
                bdat = datadir / f"bench-{burst}.dat"
                bdat.write_text("".join(f"{m} {v}\n" for m, v in bpts))
                plots.append(f"'{bdat}' using 1:2 with lines dt 2 lw 1 lc {i} "
                             f"title \"bench, burst {burst}\"")
    wdat = datadir / "wire.dat"
    wdat.write_text("".join(f"{m} {wire_goodput(m):.2f}\n" for m in range(lo, hi + 1, 4)))
    plots.append(f"'{wdat}' using 1:2 with lines dt 3 lc rgb 'black' title \"Ethernet limit (MTU-52)/(MTU+38)\"")
    gp = Path(f"{png}.gp")
    gp.write_text(
        "set terminal pngcairo size 1100,760 noenhanced\n"
        f"set output '{png}'\n"
        f"set title \"{title or 'rtl8168 lab: TSO TCP goodput vs MTU per TX DMA burst (virtual time)'}\"\n"
        "set xlabel 'MTU (bytes); TCP payload per segment = MTU - 52'\n"
        "set ylabel 'goodput (Mbit/s of virtual time)'\n"
        "set key outside below center horizontal maxrows 4 samplen 3; set grid\n"
        f"set xrange [{lo - 10}:{hi + 10}]\n"
        "plot " + ", \\\n     ".join(plots) + "\n")
    r = subprocess.run([gnuplot, str(gp)], capture_output=True, text=True)
    if r.returncode != 0 or not png.is_file():
        return False, f"gnuplot failed: {r.stderr.strip()[:300]}"
    return True, str(png)


# ---- the episode -------------------------------------------------------------------------
def other_chip(ctx: common.Context) -> Optional[str]:
    """The chip --chip asked for when it is not the model's default, else None (the default
    runs, and their bench figures, stay as they were)."""
    chip = getattr(ctx, "chip", None)
    if chip is None:
        return None
    from lablib import chips   # the same import root (docs/ARCHITECTURE.md "Python tooling")
    return None if chip == chips.default_id() else chip


def link_mbps_of(chip: Optional[str]) -> float:
    """The DUT's line rate: its PHY's best mode as the model's chip list says (link_mbps; the
    lab's partner link has every mode), the history's 1 Gbit/s for the default chip."""
    if chip is None:
        return HISTORY_LINK_MBPS
    from lablib import chips
    return float(chips.chip(chip).get("link_mbps") or HISTORY_LINK_MBPS)


def point_rows(lab: LabResult, series: str, driver: str, bench: dict,
               link_mbps: float = HISTORY_LINK_MBPS) -> list:
    rows = []
    for r in lab.results:
        if r.get("kind") != "point":
            continue
        mtu = common.num(r, "mtu")
        mbps = common.num(r, "mbps")
        if mtu is None or mbps is None:
            continue
        busy = common.num(r, "busy_pct")
        b = bench.get(mtu)
        rows.append({
            "series": series, "driver": driver, "mtu": mtu, "burst_bytes": r.get("burst_bytes"),
            "mbps": round(float(mbps), 3), "bench_mbps": "" if b is None else round(b, 2),
            "wire_mbps": round(wire_goodput(mtu, link_mbps), 2), "busy_pct": r.get("busy_pct", ""),
            "limit": "-" if series == "lab-ceiling" else classify(float(mbps), b, busy, mtu,
                                                                  link_mbps),
            "retrans": r.get("retrans", ""), "partner_missed": r.get("partner_missed", ""), "tx_frames": r.get("tx_frames", ""),
            "payload_per_frame": r.get("payload_per_frame", ""),
            "total_mbps": r.get("total_mbps", ""),
        })
    return rows


def run(ctx: common.Context, driver: str) -> list:
    out = Path(ctx.out)
    out.mkdir(parents=True, exist_ok=True)
    all_csv = out / "dma-burst-all.csv"
    cases = []
    if not bench_path():
        ctx.log("dma-burst: no build/bin/rtl8168-bench: no device-limited reference, "
                "CPU-limited points cannot be told apart (cmake --build build)")
    chip = other_chip(ctx)
    link = link_mbps_of(chip)
    for name, dut, params, props, mxdma, mtus, expected, kind in runs_for(driver, chip):
        burst = burst_name(mxdma)
        series = {"ceiling": "lab-ceiling", "monotonic": None, "sawtooth": None}[kind] \
            or (name if dut == "r8169" else f"rtl8168sim-burst{burst}")
        args = {"mtus": mtu_spec(mtus), "bytes": LAB_BYTES, "warmup": LAB_WARMUP}
        ctx.log(f"dma-burst {driver}/{name}: {dut} {params} {props} {len(mtus)} MTUs")
        lab = ctx.lab(LAB_CASE, dut, params=params, args=args, props=props,
                      tag=f"dma-burst-{driver}-{name}")
        bench = bench_sweep(burst, mtus, chip=chip) if kind != "ceiling" else {}
        rows = point_rows(lab, series, driver, bench, link)
        feats = lab.result(kind="features") if lab.results else {}
        if not lab.ok or not rows:
            cases.append(common.case(NAME, driver, name, expected, None, {"points": len(rows)},
                                     lab, f"lab run {lab.status}: {lab.reason}"))
            continue
        got = feats.get("burst_bytes")
        points = {r["mtu"]: r["mbps"] for r in rows}
        limits = {r["mtu"]: r["limit"] for r in rows}
        all_rows = merge_series(all_csv, series, rows)
        write_simple_csv(out / "dma-burst.csv", all_rows)
        forced = "tx-mxdma=" in props   # the register keeps the driver's MXDMA
        if got and got != burst and kind != "ceiling" and not forced:
            cases.append(common.case(NAME, driver, name, expected, None, {"burst": got}, lab,
                                     f"TxConfig MXDMA gives burst {got}, wanted {burst}"))
            continue
        if kind == "ceiling":
            dev = {int(r["mtu"]): float(r["mbps"]) for r in all_rows
                   if r["series"] == "rtl8168sim-burstunlimited"}
            observed, figs, reason = evaluate_ceiling(points, dev)
        else:
            observed, figs, reason = evaluate(kind, burst, points, bench, limits, link)
        figs = dict(figs, points=len(rows))
        cases.append(common.case(NAME, driver, name, expected, observed, figs, lab, reason))
    ok, msg = plot(all_csv, out / "dma-burst.png")
    ctx.log(f"dma-burst: CSV {out / 'dma-burst.csv'} (all series: {all_csv}); "
            + (f"plot {msg}" if ok else f"no plot: {msg}"))
    return cases
