# SPDX-License-Identifier: GPL-2.0-or-later
"""Lab runs for the episode modules: each run is one lablib.lab.Spec, run in this process by
lablib.lab (the launcher of scripts/run-lab), once or twice and then compared.

    runner = Runner(kernel="6.1", out=path, timeout=300, twice=False, qemu=None, iommu=False,
                    initrd_base=None, log=print, chip=None)
    res = runner(case, dut_driver, params="", args=None, props="", timeout=None, tag=None,
                 iommu=None, initrd_append=())            # the ctx.lab of common.Context
    res = run_lab(spec, out_dir, twice=False, log=print)   # one Spec, in out_dir

A Runner is what scripts/reproduce and scripts/regress (regress_lib.runner) hand to
common.Context: it turns an episode module's ctx.lab call into a Spec (the run directory
<out>/<tag>, tag derived from the arguments unless given) and keeps every result in .runs.
initrd_base: newc archives appended before the episode's own (scripts/regress: its module
under test); None means $RTL8168_INITRD_APPEND when the episode appends nothing.
chip: the DUT's chip profile of every run (run-lab --chip: in place of the case's own); None
keeps each case's.

res is a lablib.lab.LabRun (LabResult): res.status / res.kind is the result kind (PASS,
FAIL, TIMEOUT, ERROR: lablib.result.Kind), res.ok is True for PASS. With twice=True the run is
repeated in <out_dir>-2 and the trace hashes, trace event counts and every RESULT field are
compared; differences land in res.twice_diff. With spec.iommu both NICs sit behind
intel-iommu (res.dma counts the DMA faults; any fault makes the run FAIL)."""
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Mapping, Optional, Union

from lablib import kernelpkg
from lablib import lab as lablab

LabResult = lablab.LabRun
Log = Callable[[str], None]


def _one(spec: lablab.Spec, out_dir: Path, log: Log) -> LabResult:
    out_dir.mkdir(parents=True, exist_ok=True)
    msgs: list = []
    res = lablab.run(spec, out_dir, say=msgs.append)
    if msgs:
        (out_dir / "run-lab.log").write_text("\n".join(msgs) + "\n")
    (out_dir / "reproduce-cmd.txt").write_text(
        " ".join([str(lablab.REPO / "scripts" / "run-lab"), *spec.command_args(),
                  "--out", str(out_dir)]) + "\n")
    log(f"  {spec.case} dut={spec.dut_driver}{' ' + spec.params if spec.params else ''}"
        f"{' ' + spec.dut_props if spec.dut_props else ''}{' iommu' if spec.iommu else ''}: "
        f"{res.status} in {res.wall_s:.0f} s"
        f" (hash dut={res.trace_hash.get('dut', '?')})")
    return res


def compare(a: LabResult, b: LabResult) -> list:
    """Differences between two runs of the same case (hashes, event counts, RESULT fields,
    the model's counters)."""
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
    for dev in ("dut", "partner"):   # the model's counters at the end (x-stats)
        x, y = a.model_stats.get(dev, {}), b.model_stats.get(dev, {})
        for k in sorted(set(x) | set(y)):
            if x.get(k) != y.get(k):
                diff.append(f"model_stats.{dev}.{k} {x.get(k)} != {y.get(k)}")
    return diff


def run_lab(spec: lablab.Spec, out_dir: Union[str, Path], twice: bool = False,
            log: Log = print) -> LabResult:
    """One lab run of `spec` in out_dir (with twice: again in <out_dir>-2, compared)."""
    out_dir = Path(out_dir)
    res = _one(spec, out_dir, log)
    if twice:
        second = _one(spec, Path(f"{out_dir}-2"), log)
        res.second = second
        res.twice_diff = compare(res, second)
        if res.twice_diff:
            log(f"  {spec.case}: the two runs differ: " + "; ".join(res.twice_diff[:6]))
        else:
            log(f"  {spec.case}: second run identical (hashes and {len(res.results)} RESULT lines)")
    return res


def run_tag(case: str, dut_driver: str, params: str = "", props: str = "") -> str:
    """The default run directory name: case, driver, params and props without '=', ' ', ','."""
    return "-".join(x for x in (case, dut_driver, params.replace(" ", "_").replace("=", ""),
                                props.replace(",", "_").replace("=", "")) if x)


@dataclass
class Runner:
    """The ctx.lab of the episode modules (common.Context): one Spec per call, in out/<tag>."""
    kernel: str
    out: Path
    timeout: float = 300
    twice: bool = False
    qemu: Optional[str] = None           # None: $RTL8168_QEMU or build/qemu/...
    iommu: bool = False                  # the default of a call that does not say
    initrd_base: Optional[list] = None   # archives before the episode's; None: see above
    log: Log = print
    runs: list = field(default_factory=list)   # every LabResult, in order
    chip: Optional[str] = None           # the DUT's profile (run-lab --chip); None: the case's

    def spec(self, case: str, dut_driver: str, params: str = "",
             args: Optional[Mapping] = None, props: str = "", timeout: Optional[float] = None,
             iommu: Optional[bool] = None, initrd_append: Iterable[str] = (),
             trace: Iterable[str] = ()) -> lablab.Spec:
        extra = list(initrd_append)
        initrd = (extra or None) if self.initrd_base is None else [*self.initrd_base, *extra]
        return lablab.Spec(kernel=self.kernel, case=case, dut_driver=dut_driver, params=params,
                           dut_props=props,
                           args={k: str(v) for k, v in (args or {}).items()},
                           # a debug kernel runs several times slower (kernelpkg)
                           timeout=kernelpkg.timeout_for(self.kernel, timeout or self.timeout),
                           initrd_append=initrd,
                           qemu=self.qemu, iommu=self.iommu if iommu is None else iommu,
                           chip=self.chip, trace=list(trace))

    def __call__(self, case: str, dut_driver: str, params: str = "",
                 args: Optional[Mapping] = None, props: str = "",
                 timeout: Optional[float] = None, tag: Optional[str] = None,
                 iommu: Optional[bool] = None, initrd_append: Iterable[str] = (),
                 trace: Iterable[str] = ()) -> LabResult:
        spec = self.spec(case, dut_driver, params, args, props, timeout, iommu, initrd_append,
                         trace)
        tag = tag if tag is not None else run_tag(case, dut_driver, params, props)
        res = run_lab(spec, Path(self.out) / tag, twice=self.twice, log=self.log)
        self.runs.append(res)
        return res
