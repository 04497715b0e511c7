# SPDX-License-Identifier: GPL-2.0-or-later
"""Run scripts/run-lab and parse its output (HOST trace-hash line, RESULT lines, LAB DONE/FAIL).

    res = run_lab(repo, kernel, case, dut_driver, params="", args=None, props="",
                  out_dir=path, timeout=300, twice=False, log=print)

With twice=True the run is repeated in <out_dir>-2 and the trace hashes, trace event counts and
every RESULT field are compared; differences land in res.twice_diff.
"""
import re
import subprocess
import sys
import time
from pathlib import Path

HOST_RE = re.compile(r"^HOST trace-hash dut=(\S+) partner=(\S+) events=(\S+),(\S+)")
INPUTS_RE = re.compile(r"^HOST inputs=(\S+)")
KV_RE = re.compile(r"(\w[\w.-]*)=(\S*)")


def parse_kv(line):
    return {m.group(1): m.group(2) for m in KV_RE.finditer(line)}


class LabResult:
    def __init__(self):
        self.ok = False
        self.status = "error"
        self.reason = ""
        self.results = []
        self.result_lines = []
        self.trace_hash = {}
        self.trace_events = {}
        self.inputs = ""
        self.wall_s = 0.0
        self.out_dir = ""
        self.rc = None
        self.twice_diff = []
        self.second = None

    def result(self, **match):
        for d in self.results:
            if all(d.get(k) == str(v) for k, v in match.items()):
                return d
        return {}

    def to_dict(self):
        return {"status": self.status, "reason": self.reason, "results": self.results,
                "trace_hash": self.trace_hash, "trace_events": self.trace_events,
                "inputs": self.inputs,
                "wall_s": round(self.wall_s, 1), "out_dir": self.out_dir, "rc": self.rc}


def parse_output(text, res):
    for line in text.splitlines():
        m = HOST_RE.match(line)
        if m:
            res.trace_hash = {"dut": m.group(1), "partner": m.group(2)}
            res.trace_events = {}
            for k, v in (("dut", m.group(3)), ("partner", m.group(4))):
                try:
                    res.trace_events[k] = int(v)
                except ValueError:
                    res.trace_events[k] = v
        elif INPUTS_RE.match(line):
            res.inputs = INPUTS_RE.match(line).group(1)
        elif line.startswith("RESULT "):
            res.result_lines.append(line)
            res.results.append(parse_kv(line[len("RESULT "):]))
        elif line.startswith("LAB DONE"):
            res.status, res.ok = "done", True
        elif line.startswith("LAB FAIL"):
            res.ok = False
            res.reason = line[len("LAB FAIL"):].strip()
            res.status = "timeout" if "within" in res.reason and "wall" in res.reason else "fail"
    return res


def _one(repo, kernel, case, dut_driver, params, args, props, out_dir, timeout, log):
    cmd = [sys.executable, str(Path(repo) / "scripts" / "run-lab"), "--kernel", kernel,
           "--case", case, "--dut-driver", dut_driver, "--out", str(out_dir),
           "--timeout", str(timeout)]
    if params:
        cmd += ["--params", params]
    if props:
        cmd += ["--dut-props", props]
    for k, v in (args or {}).items():
        cmd += ["--arg", f"{k}={v}"]
    res = LabResult()
    res.out_dir = str(out_dir)
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 60)
        res.rc = p.returncode
        out, err = p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        res.rc = None
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = "run-lab did not return"
    res.wall_s = time.monotonic() - t0
    parse_output(out, res)
    if res.rc == 2:
        res.status = "error"
        res.reason = (err.strip().splitlines() or ["run-lab: bad arguments"])[-1]
    elif not res.ok and not res.reason:
        res.reason = (err.strip().splitlines() or [f"run-lab exit {res.rc}"])[-1]
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    (Path(out_dir) / "reproduce-cmd.txt").write_text(" ".join(cmd) + "\n")
    log(f"  {case} dut={dut_driver}{' ' + params if params else ''}"
        f"{' ' + props if props else ''}: {res.status} in {res.wall_s:.0f} s"
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
            timeout=300, twice=False, log=print):
    res = _one(repo, kernel, case, dut_driver, params, args, props, out_dir, timeout, log)
    if twice:
        second = _one(repo, kernel, case, dut_driver, params, args, props,
                      Path(str(out_dir) + "-2"), timeout, log)
        res.second = second
        res.twice_diff = compare(res, second)
        if res.twice_diff:
            log(f"  {case}: the two runs differ: " + "; ".join(res.twice_diff[:6]))
        else:
            log(f"  {case}: second run identical (hashes and {len(res.results)} RESULT lines)")
    return res
