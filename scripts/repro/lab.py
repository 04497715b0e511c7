# SPDX-License-Identifier: GPL-2.0-or-later
"""Run one lab case for an episode module (through scripts/lablib/lab.py, in this process: the
same launcher as scripts/run-lab) and compare two runs.

    res = run_lab(repo, kernel, case, dut_driver, params="", args=None, props="",
                  out_dir=path, timeout=300, twice=False, log=print, initrd_append=None,
                  iommu=False)

res is a lablib.lab.LabRun (LabResult here): res.status / res.kind is the result kind (PASS,
FAIL, TIMEOUT, ERROR: lablib.result.Kind), res.ok is True for PASS. With twice=True the run is
repeated in <out_dir>-2 and the trace hashes, trace event counts and every RESULT field are
compared; differences land in res.twice_diff. initrd_append: newc archives appended after the
overlay (None: $RTL8168_INITRD_APPEND; scripts/regress passes its module under test); iommu:
both NICs behind intel-iommu (res.dma counts the DMA faults; any fault makes the run FAIL)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from lablib import lab as lablab  # noqa: E402
from lablib.protocol import parse_kv  # noqa: E402,F401  (episode modules import it from here)

LabResult = lablab.LabRun


def _one(repo, kernel, case, dut_driver, params, args, props, out_dir, timeout, log,
         initrd_append=None, qemu=None, iommu=False):
    spec = lablab.Spec(kernel=kernel, case=case, dut_driver=dut_driver, params=params,
                       dut_props=props,
                       args={k: str(v) for k, v in (args or {}).items()}, timeout=timeout,
                       initrd_append=initrd_append, qemu=qemu, iommu=iommu)
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    msgs = []
    res = lablab.run(spec, out_dir, say=msgs.append)
    if msgs:
        (Path(out_dir) / "run-lab.log").write_text("\n".join(msgs) + "\n")
    (Path(out_dir) / "reproduce-cmd.txt").write_text(
        " ".join([str(Path(repo) / "scripts" / "run-lab"), *spec.command_args(),
                  "--out", str(out_dir)]) + "\n")
    log(f"  {case} dut={dut_driver}{' ' + params if params else ''}"
        f"{' ' + props if props else ''}{' iommu' if iommu else ''}: {res.status} in "
        f"{res.wall_s:.0f} s"
        f" (hash dut={res.trace_hash.get('dut', '?')})")
    return res


def compare(a, b):
    """Differences between two runs of the same case (hashes, event counts, RESULT fields)."""
    diff = []
    if a.inputs != b.inputs:
        diff.append(f"inputs changed between the two runs ({a.inputs} != {b.inputs}: a file the "
                    f"run depends on was rebuilt or edited meanwhile; not a determinism verdict)")
    for k in ("dut", "partner"):
        if a.trace_hash.get(k) != b.trace_hash.get(k):
            diff.append(f"trace_hash.{k} {a.trace_hash.get(k)} != {b.trace_hash.get(k)}")
        if a.trace_events.get(k) != b.trace_events.get(k):
            diff.append(f"trace_events.{k} {a.trace_events.get(k)} != {b.trace_events.get(k)}")
    if a.status != b.status:
        diff.append(f"status {a.status} != {b.status}")
    if len(a.results) != len(b.results):
        diff.append(f"{len(a.results)} RESULT lines != {len(b.results)}")
    for i, (x, y) in enumerate(zip(a.results, b.results)):
        for k in sorted(set(x) | set(y)):
            if x.get(k) != y.get(k):
                diff.append(f"RESULT[{i}].{k} {x.get(k)} != {y.get(k)}")
    return diff


def run_lab(repo, kernel, case, dut_driver, params="", args=None, props="", out_dir=None,
            timeout=300, twice=False, log=print, initrd_append=None, qemu=None, iommu=False):
    res = _one(repo, kernel, case, dut_driver, params, args, props, out_dir, timeout, log,
               initrd_append, qemu, iommu)
    if twice:
        second = _one(repo, kernel, case, dut_driver, params, args, props,
                      Path(str(out_dir) + "-2"), timeout, log, initrd_append, qemu, iommu)
        res.second = second
        res.twice_diff = compare(res, second)
        if res.twice_diff:
            log(f"  {case}: the two runs differ: " + "; ".join(res.twice_diff[:6]))
        else:
            log(f"  {case}: second run identical (hashes and {len(res.results)} RESULT lines)")
    return res
