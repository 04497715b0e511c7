# SPDX-License-Identifier: GPL-2.0-or-later
"""Shared pieces of scripts/reproduce: the episode-module interface, case results, verdicts,
the verdict table and the JSON report.

EPISODE MODULE INTERFACE (scripts/repro/<episode>.py, one module per episode)
-----------------------------------------------------------------------------
Each module defines

    NAME = "txpoll-stall"            # the episode name used on the command line
    DRIVERS = ("old", "fixed", "stock")   # optional: drivers it supports (default all three)
    CHIPS = ("8168evl",)             # optional: the only chips the episode exists on (a defect
                                     # of theirs); default every chip. reproduce/regress --chip
                                     # of another chip leave it out and say so

    def run(ctx, driver) -> list[dict]

`driver` is one of "old", "fixed", "stock" (stock = the unmodified r8169, which carries every
fix and is expected CLEAN). `ctx` is a common.Context:

    ctx.kernel        "6.1" | "6.12"
    ctx.out           pathlib.Path: a directory the module may use (one sub-directory per
                      lab run is made by ctx.lab itself)
    ctx.twice         bool (informational: ctx.lab already runs each case twice and compares)
    ctx.log(msg)      progress message to stderr
    ctx.iommu         bool: the lab runs behind intel-iommu (reproduce/regress --iommu, or the
                      episode's IOMMU = True)
    ctx.chip          the DUT's chip profile of every lab run (reproduce/regress --chip), or
                      None: each case's own (its '# lab-dut-props: chip=' line, else the
                      model's default); ctx.lab applies it, an episode that compares with the
                      bench passes it on (rtl8168-bench --param chip=)
    ctx.lab(case, dut_driver, params="", args=None, props="", timeout=None, tag=None,
            iommu=None, initrd_append=None)
                      -> labrun.LabResult (ctx.lab is a labrun.Runner)
        case        guest-tests/lab/<case>.sh
        dut_driver  "rtl8168sim" | "r8169"
        params      module parameters for rtl8168sim, e.g. "txpoll_rekick=0"
        args        dict {k: v} -> run-lab --arg k=v (LAB_k in the guest)
        props       extra -device properties for the DUT, "key=val,key=val"
        tag         name of the run directory (default: derived from the arguments)
        iommu       None: ctx.iommu; True/False: this run behind intel-iommu or not
        initrd_append  newc archives appended for this run (e.g. an episode's patched r8169,
                    regress_lib.driver.overlay), after any the caller appends itself
        trace       QEMU -trace patterns for this run (e.g. ["rtl8168_tx_stopped"]: the model's
                    trace events of that kind, both NICs, go to <out_dir>/qemu.log)

    labrun.LabResult (lablib.lab.LabRun) fields:
        ok          True when the guest printed VERDICT PASS <case> ...
        status      lablib.result.Kind: PASS | FAIL | TIMEOUT | ERROR (a str: "PASS", ...)
        reason      the VERDICT FAIL reason / error text ("" on PASS)
        results     list of dicts, one per guest "RESULT k=v ..." line (values are str)
        result(key=value...) -> first RESULT dict whose fields match (or {})
        trace_hash  {"dut": "0x...", "partner": "0x..."}
        trace_events {"dut": int, "partner": int}
        inputs      fingerprint of everything the run depends on (QEMU binary, kernel, initramfs
                    + overlay, command line); equal inputs must give equal hashes and figures
        wall_s      host wall time of the run
        out_dir     the run's directory (console.log, qemu.cmdline, run-lab.txt)
        twice_diff  list of str: differences between the two runs when --twice (else [])
        dma         with iommu: lablib.qemu.DmaReport (.faults, .by_device, .refused,
                    .summary()); an IOMMU DMA fault makes the run FAIL; None without iommu

Most episodes are one lab run per driver (rtl8168sim with one module parameter at its old or
fixed value, or r8169): their run() is common.old_fixed_stock(ctx, driver, NAME, case, param,
judge, ...), which makes the call to ctx.lab and the case dict below.

run() returns one dict per case, built with common.case():

    common.case(episode=NAME, driver=driver, case="msi", expected="REPRODUCED"|"CLEAN",
                observed="REPRODUCED"|"CLEAN"|None, figures={...}, lab=LabResult,
                reason="short text")

  -> {"episode", "driver", "case", "expected", "observed", "verdict", "figures",
      "trace_hash", "trace_events", "reason", "wall_s", "out_dir", "twice_diff"}

  verdict = observed when observed == expected, else "UNEXPECTED" (observed None means the
  run failed: UNEXPECTED). With --twice any difference between the two runs (trace hashes or
  the guest's RESULT figures) makes the verdict UNEXPECTED and is listed in "twice_diff".
  `figures` should hold the few numbers that justify the observation (they are printed on the
  VERDICT line as k=v, in insertion order; keep it short).

The dispatcher (scripts/reproduce) prints for every case
    VERDICT <episode> driver=<d> [case] <REPRODUCED|CLEAN|UNEXPECTED> <short figures>
then one table, writes the JSON, and exits 0 only when no case is UNEXPECTED.
"""
import json
import sys
import time
from pathlib import Path
from typing import Any, Callable, Optional, Union

REPRODUCED = "REPRODUCED"
CLEAN = "CLEAN"
UNEXPECTED = "UNEXPECTED"

DRIVERS = ("old", "fixed", "stock")


class Context:
    def __init__(self, kernel: str, out: Path, lab_fn: Callable[..., Any], twice: bool = False,
                 verbose: bool = False, iommu: bool = False, chip: Optional[str] = None):
        self.kernel = kernel
        self.iommu = iommu
        self.chip = chip
        self.out = out
        self.twice = twice
        self.verbose = verbose
        self._lab = lab_fn

    def lab(self, case: str, dut_driver: str, params: str = "", args: Optional[dict] = None,
            props: str = "", timeout: Optional[float] = None, tag: Optional[str] = None,
            iommu: Optional[bool] = None, initrd_append: Optional[list] = None,
            trace: Optional[list] = None) -> Any:
        kw = {}
        # only when asked for, so a lab_fn without these keywords keeps working
        if iommu is not None or self.iommu:
            kw["iommu"] = self.iommu if iommu is None else iommu
        if initrd_append:
            kw["initrd_append"] = list(initrd_append)
        if trace:
            kw["trace"] = list(trace)
        return self._lab(case, dut_driver, params=params, args=args or {}, props=props,
                         timeout=timeout, tag=tag, **kw)

    def log(self, msg: str) -> None:
        print(f"reproduce: {msg}", file=sys.stderr, flush=True)


# The planted r8169 patches of the episodes' "old" drivers.
R8169_PATCHES = Path(__file__).resolve().parent.parent.parent / "guest-tests" / "r8169-patches"


def patched_overlay(ctx: Context, patch: Path) -> Path:
    """The newc archive with r8169 built from `patch` for ctx.kernel (built once, cached by
    content: regress_lib.driver)."""
    from regress_lib import driver   # the same import root (docs/ARCHITECTURE.md "Python tooling")
    return driver.overlay(driver.resolve(str(patch), ctx.kernel, ctx.log), ctx.kernel)


def fmt_value(v: Any) -> str:
    if isinstance(v, float):
        if v == 0:
            return "0"
        if abs(v) >= 100:
            return f"{v:.0f}"
        if abs(v) >= 1:
            return f"{v:.2f}"
        return f"{v:.3g}"
    return str(v)


def case(episode: str, driver: str, case: str, expected: str, observed: Optional[str],
         figures: Optional[dict] = None, lab: Any = None, reason: str = "") -> dict:
    figures = dict(figures or {})
    twice_diff = list(getattr(lab, "twice_diff", []) or []) if lab is not None else []
    if observed is None:
        verdict = UNEXPECTED
    elif observed != expected:
        verdict = UNEXPECTED
    else:
        verdict = observed
    if twice_diff:
        verdict = UNEXPECTED
        reason = (reason + "; " if reason else "") + "not deterministic: " + "; ".join(twice_diff)
    return {
        "episode": episode,
        "driver": driver,
        "case": case,
        "expected": expected,
        "observed": observed,
        "verdict": verdict,
        "figures": figures,
        "trace_hash": dict(getattr(lab, "trace_hash", {}) or {}) if lab is not None else {},
        "trace_events": dict(getattr(lab, "trace_events", {}) or {}) if lab is not None else {},
        "reason": reason,
        "wall_s": round(getattr(lab, "wall_s", 0.0) or 0.0, 1) if lab is not None else 0.0,
        "out_dir": str(getattr(lab, "out_dir", "") or "") if lab is not None else "",
        "lab_status": getattr(lab, "status", "") if lab is not None else "",
        "inputs": getattr(lab, "inputs", "") if lab is not None else "",
        "results": list(getattr(lab, "results", []) or []) if lab is not None else [],
        "twice_diff": twice_diff,
    }


def old_fixed_stock(ctx: Context, driver: str, episode: str, lab_case: str, param: str,
                    judge: Callable[[Any, bool], tuple], old: int = 0, fixed: int = 1,
                    args: Optional[dict] = None, props: str = "", tagged: bool = True,
                    stock_expected: str = CLEAN) -> list:
    """The run() of an episode whose cases are one lab run each: "old" and "fixed" are
    rtl8168sim with module parameter `param` at `old` / `fixed` (expected REPRODUCED / CLEAN),
    "stock" is r8169 (expected `stock_expected`: CLEAN, the stock driver carries every fix).
    `judge(res, sim)` -> (observed, figures, reason); sim is True for rtl8168sim. The run
    directory is "<episode>-<driver>" (tagged=False: derived from the arguments by ctx.lab).
    Returns the one case dict, in a list (the episode-module interface above)."""
    sim = driver != "stock"
    if sim:
        dut, params = "rtl8168sim", f"{param}={old if driver == 'old' else fixed}"
        expected = REPRODUCED if driver == "old" else CLEAN
    else:
        dut, params, expected = "r8169", "", stock_expected
    res = ctx.lab(lab_case, dut, params=params, args=args, props=props,
                  tag=f"{episode}-{driver}" if tagged else None)
    observed, fig, reason = judge(res, sim)
    return [case(episode, driver, lab_case, expected, observed, fig, res, reason)]


def applies_to_chip(mod: Any, chip: Optional[str]) -> bool:
    """Whether an episode module runs on chip `chip` (None: each case's own chip, always)."""
    only = getattr(mod, "CHIPS", None)
    return chip is None or not only or chip in only


def not_on_chip(name: str, mod: Any, chip: str) -> str:
    """The line that says an episode was left out on `chip` (CHIPS of its module)."""
    return (f"{name}: not applicable on chip {chip}: a defect of the "
            f"{', '.join(getattr(mod, 'CHIPS', ()))} (the episode's CHIPS), left out")


def short_figures(c: dict, limit: int = 6) -> str:
    items = list(c["figures"].items())[:limit]
    return " ".join(f"{k}={fmt_value(v)}" for k, v in items)


def verdict_line(c: dict) -> str:
    line = f"VERDICT {c['episode']} driver={c['driver']} [{c['case']}] {c['verdict']} {short_figures(c)}"
    if c["verdict"] == UNEXPECTED:
        line += f" (expected {c['expected']}, observed {c['observed']}"
        line += f": {c['reason']})" if c["reason"] else ")"
    return line.rstrip()


def table(cases: list) -> str:
    head = ("episode", "driver", "case", "expected", "verdict", "wall s", "figures")
    rows = [(c["episode"], c["driver"], c["case"], c["expected"], c["verdict"],
             f"{c['wall_s']:.0f}", short_figures(c, 4)) for c in cases]
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(head)]
    out = []
    fmt = "  ".join("{:<%d}" % w for w in widths[:-1]) + "  {}"
    out.append(fmt.format(*head))
    out.append(fmt.format(*("-" * w for w in widths[:-1]), "-" * len(head[-1])))
    for r in rows:
        out.append(fmt.format(*r))
    return "\n".join(out)


def write_json(path: Union[str, Path], meta: dict, cases: list) -> None:
    doc = dict(meta)
    doc["cases"] = cases
    doc["unexpected"] = sum(1 for c in cases if c["verdict"] == UNEXPECTED)
    doc["written"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    tmp = f"{path}.tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=2, sort_keys=False)
        f.write("\n")
    import os
    os.replace(tmp, path)


def lab_result(res: Any, missing: str, **match: Any) -> tuple:
    """(the first RESULT dict of lab run `res` whose fields match, "") - or (None, why) when
    the run did not pass or printed no such line (why: "lab run <status>: <reason or
    missing>", the episodes' UNEXPECTED reason)."""
    r = res.result(**match)
    if not res.ok or not r:
        return None, f"lab run {res.status}: {res.reason or missing}"
    return r, ""


def counts(d: Optional[dict], *keys: str) -> list:
    """RESULT fields as numbers, 0 when missing or not a number (one per key, in order)."""
    return [num(d, k, 0) or 0 for k in keys]


def num(d: Optional[dict], key: str, default: Any = None) -> Any:
    """A RESULT field as int/float (None/default when missing or not a number)."""
    v = d.get(key) if d else None
    if v is None:
        return default
    try:
        return int(v)
    except ValueError:
        try:
            return float(v)
        except ValueError:
            return default
