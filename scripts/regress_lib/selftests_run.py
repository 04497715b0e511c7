# SPDX-License-Identifier: GPL-2.0-or-later
"""Run the selftests entry (regress_lib/selftests.py): plan the tests of the guest kernel's
source, build the overlay, one lab run of guest-tests/lab/selftests.sh, then one Result per
test program. A kernel splat in the console between a test's BEGIN and END lines FAILs that
test (its first line the reason); one outside every test FAILs the first. A lab run that
hangs or panics ends at its deadline: the test it was in gets TIMEOUT (or FAIL) with the lab
run's reason, the tests after it "not run" with the same."""
import time
from pathlib import Path
from typing import Callable

from lablib import lab, splat
from lablib.result import Kind

from . import selftests
from .driver import Module
from .errors import BadInput
from .runner import Result

ENTRY = selftests.ENTRY


def _write_log(out_dir: Path, text: str) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "regress.log").write_text(text + "\n")


def run(kernel: str, module: Module, overlay_cpio: str | Path | None, out_dir: str | Path,
        log: Callable[[str], None] = lambda m: None, iommu: bool = False,
        chip: str | None = None, expected_splats: tuple = ()) -> list:
    t0 = time.monotonic()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)

    def one(status, reason, text=""):
        r = Result(ENTRY, kernel, module.label, status, reason, time.monotonic() - t0,
                   out_dir, text or reason)
        _write_log(out_dir, f"{status} {ENTRY}: {reason}\n{text}")
        return [r]

    if module.name != "r8169":
        return one("ERROR", "the selftests entry runs with r8169 drivers only")
    try:
        ser = selftests.series_of(kernel)
        selftests.check_series(ser)
        p = selftests.plan(*selftests.source_tree(ser, log, selftests.image_version(ser)))
    except selftests.SkipAll as e:
        return one("SKIP", str(e))
    except BadInput as e:
        return one("ERROR", str(e))
    try:
        root = selftests.userland(log)
    except BadInput as e:
        return one("ERROR", str(e))
    ov, key = selftests.cached_overlay(p, root, log)
    extras = ([str(overlay_cpio)] if overlay_cpio else []) + [str(ov)]
    spec = selftests.lab_spec(kernel, p, extras, iommu, chip, "r8169")
    log(f"{len(p.run)} tests of {p.origin} in one lab run (limit {spec.timeout:.0f} s wall, "
        f"guest deadline {spec.args['deadline']} s virtual; overlay "
        f"{ov.stat().st_size >> 20} MiB, {key})")
    res = lab.run(spec, out_dir / "lab", say=log)
    console_path = out_dir / "lab" / "console.log"
    console = console_path.read_text(errors="replace") if console_path.is_file() else ""
    if res.kind is Kind.ERROR and "SELFTEST BEGIN" not in console:
        return one("ERROR", f"lab run: {res.reason}", res.report)
    wall = time.monotonic() - t0
    by_test = selftests.splats_by_test(console_path, expected_splats)
    results, logs = [], []
    results_src = selftests.verdicts(p, console, res.kind, res.reason)
    for k, (name, status, reason, ms, sec) in enumerate(results_src):
        path = sec.path if sec else None
        bad = by_test.get(path, []) if path else []
        if k == 0:
            bad = bad + by_test.get(None, [])
        if bad:
            why = splat.reason(bad)
            status, reason = ("FAIL", why) if status in ("PASS", "SKIP") else \
                (status, f"{why}; {reason}")
        secs = ms / 1000.0 if ms is not None else 0.0
        text = (sec.text if sec else "") + "".join(
            f"\n--- kernel splat [{s.kind}] console.log:{s.lineno}: {s.text}" for s in bad)
        r = Result(name, kernel, module.label, status, reason, secs, out_dir / "lab", text)
        r["kind"] = "selftests"
        r["virtual_s"] = round(secs, 1)
        r["splats"] = [{"kind": s.kind, "line": s.text, "ts": s.ts, "log": "lab/console.log",
                        "lineno": s.lineno, "expected": False} for s in bad]
        results.append(r)
        logs.append(f"{status} {name} ({secs:.1f} s virtual): {reason}")
    ended = all(x[4] is not None and x[4].rc is not None for x in results_src
                if x[0] in {selftests.short_name(t) for t, _ in p.run})
    if res.kind is not Kind.PASS and ended:
        # every test ended, yet the lab run did not pass (its own end checks, e.g. the lab's
        # reordering check, or a hang after the last test): one line of its own
        r = Result(ENTRY, kernel, module.label, str(res.kind), f"lab run: {res.reason}", wall,
                   out_dir / "lab", res.report)
        r["kind"] = "selftests"
        results.append(r)
        logs.append(f"{res.kind} {ENTRY}: lab run: {res.reason}")
    _write_log(out_dir, f"lab run {res.kind} in {wall:.0f} s wall: {res.reason}\n"
               + "\n".join(logs))
    return results
