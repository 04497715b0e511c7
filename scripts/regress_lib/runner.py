# SPDX-License-Identifier: GPL-2.0-or-later
"""Run one matrix entry with the module under test and judge it: one word of the launcher
library's vocabulary (scripts/lablib/result.py): PASS | FAIL | TIMEOUT | ERROR.

Guest scenarios go through scripts/run-guest (its VERDICT line, parsed by lablib.protocol),
lab episodes through the episode modules of scripts/repro/ (the same code as
scripts/reproduce, driver "stock" for r8169 or "fixed" for rtl8168sim), which run the lab in
this process (lablib.lab). The module reaches the guest as a newc archive appended to the
image's initramfs (run-guest: $RTL8168_INITRD_APPEND; the lab: initrd_append; see
driver.overlay). ERROR means the harness could not judge (QEMU did not start, bad arguments to
a tool): not the driver's fault. TIMEOUT: no verdict within the wall-clock limit."""
import importlib
import os
import re
import subprocess
import time
import traceback
from pathlib import Path
from typing import Callable

from lablib import kernelpkg, protocol, splat
from lablib.result import Kind
from repro import common, labrun

from . import kernels, matrix
from .driver import Module

REPO = kernels.REPO

LOG_TAIL = 150


def _tail(path, n=LOG_TAIL):
    try:
        lines = Path(path).read_text(errors="replace").splitlines()
    except OSError:
        return ""
    return "\n".join(lines[-n:])


class Result(dict):
    def __init__(self, name, kernel, driver, status, reason, wall_s, out_dir, log="",
                 metrics=None, baseline=None, cases=None):
        super().__init__(name=name, kernel=kernel, driver=driver, kind=matrix.kind(name),
                         status=status, reason=reason, wall_s=round(wall_s, 1),
                         out_dir=str(out_dir), log=log, metrics=metrics or {},
                         baseline=baseline or [], cases=cases or [], splats=[])


def _env(overlay_cpio):
    env = dict(os.environ)
    env.pop("RTL8168_INITRD_APPEND", None)
    if overlay_cpio:
        env["RTL8168_INITRD_APPEND"] = str(overlay_cpio)
    return env


# ---- guest scenarios ------------------------------------------------------------------------

def guest_cases(out: str) -> list:
    """The per-class lines of a scenario that judges several cases in one boot (faults:
    "RESULT scenario=faults class=dma-read verdict=PASS fired=1 ... why=ok") as the JSON's
    cases: {case, verdict, figures}."""
    cases = []
    for line in protocol.lines(out):
        if not line.startswith("RESULT "):
            continue
        kv = protocol.parse_kv(line)
        if "class" in kv and "verdict" in kv:
            figures = {k: v for k, v in kv.items() if k not in ("scenario", "class", "verdict")}
            cases.append({"case": kv["class"], "verdict": kv["verdict"], "figures": figures})
    return cases


def run_guest(name: str, kernel: str, module: Module, overlay_cpio: str | Path | None,
              out_dir: Path, peer: str | Path, iommu: bool = False,
              chip: str | None = None) -> Result:
    t0 = time.monotonic()
    timeout = kernelpkg.timeout_for(kernel, matrix.GUEST[name])
    cmd = [str(REPO / "scripts" / "run-guest"), "--kernel", kernel, "--scenario", name,
           "--peer", str(peer), "--timeout", str(timeout), "--out", str(out_dir)]
    if iommu:
        cmd.append("--iommu")
    if chip is not None:
        cmd += ["--chip", chip]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=_env(overlay_cpio),
                           timeout=timeout + 90)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc = None
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = "run-guest did not return"
    wall = time.monotonic() - t0
    log = "$ " + " ".join(cmd) + "\n" + out + ("\n--- stderr\n" + err if err.strip() else "")
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    (Path(out_dir) / "regress.log").write_text(log)
    o = protocol.parse_verdict_line(out)
    reason = o.reason if o else ""
    cases = guest_cases(out)
    if rc == 0 and o and o.kind is Kind.PASS:
        return Result(name, kernel, module.label, "PASS", reason or "ok", wall, out_dir, log,
                      cases=cases)
    if rc == 1:
        kind = o.kind if o and o.kind in (Kind.FAIL, Kind.TIMEOUT) else Kind.FAIL
        return Result(name, kernel, module.label, str(kind), reason or "run-guest: FAIL", wall,
                      out_dir, log, cases=cases)
    if rc is None:
        return Result(name, kernel, module.label, "TIMEOUT",
                      f"no verdict within {timeout + 90} s", wall, out_dir, log)
    last = (err.strip().splitlines() or [f"run-guest exit {rc}"])[-1]
    return Result(name, kernel, module.label, "ERROR", last, wall, out_dir, log)


# ---- lab episodes ---------------------------------------------------------------------------

def _num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def lab_metrics(name: str, cases: list) -> dict:
    """Throughput/latency figures of an episode's cases (keys of matrix.metric_specs)."""
    m = {}
    res = [r for c in cases for r in c.get("results", [])]
    if name == "txpoll-stall":   # (only the cases every chip runs; dma-burst's forced-burst
                                 # sweep of a non-default chip is judged by its verdict alone)
        for c in cases:
            if c["case"] == "txpoll" and c["observed"] == common.CLEAN:
                m["txpoll-stall.rr_mbps"] = _num(c["figures"].get("mbps"))
    elif name == "msi-lost-irq":
        for c in cases:
            if c["case"] == "msi" and c["observed"] == common.CLEAN:
                m["msi-lost-irq.recv_mbps"] = _num(c["figures"].get("recv_mbps"))
    elif name == "dma-burst":
        for r in (r for c in cases if c["case"] == "r8169" for r in c.get("results", [])):
            if r.get("kind") == "point" and r.get("mtu") in ("1500", "1076"):
                m[f"dma-burst.tcp_stream_mbps_{r['mtu']}"] = _num(r.get("mbps"))
    elif name == "offload-latency":
        for r in res:
            if r.get("kind") != "combo":
                continue
            if r.get("combo") == "default":
                m["offload-latency.rr_mean_us_default"] = _num(r.get("mean_us"))
            elif r.get("combo") == "on:on:on":
                m["offload-latency.rr_mean_us_offloads"] = _num(r.get("mean_us"))
                m["offload-latency.stream_mbps_offloads"] = _num(r.get("stream_mbps"))
    return {k: v for k, v in m.items() if v is not None}


def run_lab(name: str, kernel: str, module: Module, overlay_cpio: str | Path | None,
            out_dir: str | Path, baselines: dict, timeout: float = 300,
            log: Callable[[str], None] = lambda m: None, iommu: bool = False,
            chip: str | None = None) -> Result:
    t0 = time.monotonic()
    mod = importlib.import_module(f"repro.{matrix.LAB[name]}")
    episode_driver = "fixed" if module.name == "rtl8168sim" else "stock"
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    # the module under test goes in before any archive of the episode's own
    runner = labrun.Runner(kernel, out_dir, timeout=timeout, iommu=iommu, log=log,
                           initrd_base=[str(overlay_cpio)] if overlay_cpio else [], chip=chip)
    runs = runner.runs
    ctx = common.Context(kernel, out_dir, runner, iommu=iommu, chip=chip)
    ctx.log = lambda msg: log(msg)
    try:
        cases = mod.run(ctx, episode_driver)
    except Exception as e:  # a broken episode module is the harness's fault
        tb = traceback.format_exc()
        return Result(name, kernel, module.label, "ERROR", f"{type(e).__name__}: {e}",
                      time.monotonic() - t0, out_dir, tb)
    wall = time.monotonic() - t0
    logs = []
    for r in runs:
        logs.append(f"=== {r.out_dir}\n" + _tail(Path(r.out_dir) / "run-lab.txt", 60)
                    + "\n--- console tail\n" + _tail(Path(r.out_dir) / "console.log", 60))
    log_text = "\n".join([common.verdict_line(c) for c in cases] + logs)
    (out_dir / "regress.log").write_text(log_text + "\n")
    slim = [{k: c.get(k) for k in ("case", "expected", "observed", "verdict", "figures",
                                   "reason", "lab_status", "trace_hash", "wall_s", "out_dir")}
            for c in cases]
    bad = [c for c in cases if c["verdict"] == common.UNEXPECTED]
    if not cases:
        return Result(name, kernel, module.label, "ERROR", "the episode returned no case", wall,
                      out_dir, log_text)
    if any(c.get("lab_status") == Kind.ERROR for c in bad):
        c = next(c for c in bad if c.get("lab_status") == Kind.ERROR)
        return Result(name, kernel, module.label, "ERROR",
                      f"[{c['case']}] lab run error: {c['reason']}", wall, out_dir, log_text,
                      cases=slim)
    metrics = lab_metrics(name, cases)
    # the baselines are the stock r8169's: rtl8168sim runs other cases (e.g. a full sweep);
    # they are figures without the IOMMU, whose translations change the guest's timing
    cmp = matrix.compare(kernel, metrics, baselines, chip) \
        if module.name == "r8169" and not iommu else []
    base = [{"metric": n, "value": v, "baseline": b, "delta_pct": round(d, 2),
             "tolerance_pct": t, "ok": ok} for n, v, b, d, t, ok in cmp]
    if bad:
        why = "; ".join(f"[{c['case']}] expected {c['expected']}, observed "
                        f"{c['observed'] or 'nothing'}" + (f": {c['reason']}" if c['reason'] else "")
                        + (f" ({common.short_figures(c)})" if c.get("figures") else "")
                        for c in bad)
        return Result(name, kernel, module.label, "FAIL", why, wall, out_dir, log_text,
                      metrics, base, slim)
    worse = [x for x in base if not x["ok"]]
    verdicts = ", ".join(f"[{c['case']}] {c['verdict']}" for c in cases)
    if worse:
        why = "; ".join(f"{x['metric'].split('.', 1)[1]} {x['value']:g} vs baseline "
                        f"{x['baseline']:g} ({x['delta_pct']:+.1f} %, tolerance "
                        f"{x['tolerance_pct']:g} %)" for x in worse)
        return Result(name, kernel, module.label, "FAIL", f"{verdicts} but {why}", wall,
                      out_dir, log_text, metrics, base, slim)
    perf = ", ".join(f"{x['metric'].split('.', 1)[1]}={x['value']:g} ({x['delta_pct']:+.1f} %)"
                     for x in base)
    if metrics and not base:
        perf = ("no baseline for " + kernel + (f" on chip {chip}" if chip else "")) \
            if module.name == "r8169" else ""
        if iommu and module.name == "r8169":
            perf = "figures not compared with the baselines under --iommu"
    return Result(name, kernel, module.label, "PASS", verdicts + (f"; {perf}" if perf else ""),
                  wall, out_dir, log_text, metrics, base, slim)


# ---- kernel splats --------------------------------------------------------------------------

def console_groups(name: str, out_dir: str | Path) -> list:
    """The console logs of an entry's guests, one list per guest boot: a guest scenario's
    QEMU instances (console-N.log, several across a migration; console.log, their
    concatenation, when run-guest did not leave them), each lab run's console.log."""
    out_dir = Path(out_dir)
    if matrix.kind(name) == "guest":
        inst = sorted(out_dir.glob("console-*.log"),
                      key=lambda p: int(re.sub(r"\D", "", p.stem) or 0))
        return [inst or [out_dir / "console.log"]]
    return [[p] for p in sorted(out_dir.glob("**/console.log"))]


def judge_splats(r: Result, groups: list, expected=()) -> Result:
    """Scan the guests' console logs for kernel splats (lablib.splat): the splats not of an
    expected kind FAIL the entry, the first one's line is the reason (before the entry's own
    reason when it failed already; TIMEOUT and ERROR keep their word). Every splat found goes
    into the result's "splats" (the JSON), with its file and line."""
    base = Path(r["out_dir"])
    found = [s for g in groups for s in splat.scan_files(g)]
    bad = splat.unexpected(found, expected)
    bad_ids = {id(s) for s in bad}

    def rel(p):
        try:
            return str(Path(p).relative_to(base))
        except ValueError:
            return str(p)
    r["splats"] = [{"kind": s.kind, "line": s.text, "ts": s.ts, "log": rel(s.source),
                    "lineno": s.lineno, "expected": id(s) not in bad_ids} for s in found]
    if not bad:
        return r
    why = splat.reason(bad)
    listing = f"--- kernel splats ({len(bad)})\n" + "\n".join(
        f"{rel(s.source)}:{s.lineno}: [{s.kind}] {s.text}" for s in bad) + "\n"
    r["log"] = (r.get("log") or "") + "\n" + listing
    try:
        with open(base / "regress.log", "a") as f:
            f.write(listing)
    except OSError:
        pass
    if r["status"] == "PASS":
        r["status"], r["reason"] = "FAIL", why
    else:
        r["reason"] = f"{why}; {r['reason']}" if r["reason"] else why
    return r


def run_entry(name: str, kernel: str, module: Module, overlay_cpio: str | Path | None,
              out_dir: Path, baselines: dict, peer: str | Path, log: Callable[[str], None],
              iommu: bool = False, chip: str | None = None) -> list:
    """The entry's results: one, or one per test program for the selftests entry.
    chip: --chip NAME (None: each scenario's and case's own chip, as without the option).
    Every entry's guest logs are scanned for kernel splats afterwards (judge_splats)."""
    if matrix.kind(name) == "selftests":
        from . import selftests_run
        return selftests_run.run(kernel, module, overlay_cpio, out_dir, log, iommu, chip,
                                 matrix.expected_splats(name))
    if matrix.kind(name) == "guest":
        r = run_guest(name, kernel, module, overlay_cpio, out_dir, peer, iommu, chip)
    else:
        r = run_lab(name, kernel, module, overlay_cpio, out_dir, baselines, log=log,
                    iommu=iommu, chip=chip)
    return [judge_splats(r, console_groups(name, out_dir), matrix.expected_splats(name))]
