# SPDX-License-Identifier: GPL-2.0-or-later
"""KTAP, the output of the kernel's selftests (Documentation/dev-tools/ktap.rst; the Python
tests of tools/testing/selftests/drivers/net print it through net/lib/py/ksft.py):

    KTAP version 1
    1..3
    # a comment (ksft_pr, a failed check's "Check|" lines, an exception's traceback)
    ok 1 ping.test_v4
    ok 2 stats.check_fec # XFAIL FEC not supported by the device
    not ok 3 stats.qstat_by_ifindex
    # Totals: pass:1 fail:1 xfail:1 xpass:0 skip:0 error:0

parse() reads one test program's output into its plan and cases; judge() gives the program
one verdict: PASS, FAIL, SKIP or TIMEOUT with a one-line reason taken from what the test
printed. Lines that are not KTAP (kernel messages on a shared console) are ignored, and so is
the "# " prefix of a nested (kselftest runner) level."""
import re
from dataclasses import dataclass, field

# kselftest's exit codes (tools/testing/selftests/kselftest.h)
KSFT_PASS, KSFT_FAIL, KSFT_XFAIL, KSFT_XPASS, KSFT_SKIP = 0, 1, 2, 3, 4

_RESULT_RE = re.compile(r"^(ok|not ok)\s+(\d+)\s*(?:-\s*)?([^#]*?)\s*(?:#\s*(.*))?$")
_PLAN_RE = re.compile(r"^1\.\.(\d+)\s*(?:#\s*(.*))?$")
_VERSION_RE = re.compile(r"^(?:K|)TAP version (\d+)$")
_DIRECTIVE_RE = re.compile(r"^(SKIP|XFAIL|TODO|XPASS|TIMEOUT)\b\s*(.*)$", re.I)


@dataclass
class Case:
    num: int
    name: str
    ok: bool
    directive: str = ""      # SKIP, XFAIL, TODO, XPASS, TIMEOUT (upper case) or ""
    reason: str = ""         # the directive's text
    comments: list = field(default_factory=list)   # the "#" lines printed before the result

    @property
    def failed(self) -> bool:
        return not self.ok and self.directive not in ("SKIP", "TODO", "XFAIL")

    @property
    def skipped(self) -> bool:
        return self.directive in ("SKIP", "XFAIL")


@dataclass
class Report:
    version: int | None = None
    plan: int | None = None
    plan_skip: str = ""       # "1..0 # SKIP reason": the whole program skipped
    cases: list = field(default_factory=list)
    totals: dict = field(default_factory=dict)
    comments: list = field(default_factory=list)   # comments after the last case
    other: list = field(default_factory=list)      # lines that are not KTAP


# SGR colour sequences: newer kselftests (net/lib/py ksft.py) colour their result lines when
# stdout is a terminal, as the guest's serial console is
_SGR_RE = re.compile(r"\x1b\[[0-9;]*m")


def _strip(line: str) -> str:
    line = _SGR_RE.sub("", line.rstrip("\r\n"))
    # a kselftest runner indents its children's output with "# "
    while line.startswith("# ") and (_RESULT_RE.match(line[2:]) or _PLAN_RE.match(line[2:])
                                     or _VERSION_RE.match(line[2:])):
        line = line[2:]
    return line


def parse(text: str) -> Report:
    r = Report()
    pending = []
    for raw in text.splitlines():
        line = _strip(raw)
        s = line.strip()
        m = _VERSION_RE.match(s)
        if m:
            r.version = int(m.group(1))
            continue
        m = _PLAN_RE.match(s)
        if m and r.plan is None:
            r.plan = int(m.group(1))
            d = _DIRECTIVE_RE.match(m.group(2) or "")
            if d and d.group(1).upper() == "SKIP":
                r.plan_skip = d.group(2).strip() or "skipped"
            continue
        m = _RESULT_RE.match(s)
        if m:
            c = Case(int(m.group(2)), m.group(3).strip(), m.group(1) == "ok",
                     comments=pending)
            d = _DIRECTIVE_RE.match((m.group(4) or "").strip())
            if d:
                c.directive, c.reason = d.group(1).upper(), d.group(2).strip()
            elif m.group(4):
                c.reason = m.group(4).strip()
            r.cases.append(c)
            pending = []
            continue
        if s.startswith("#"):
            body = s[1:].strip()
            t = re.match(r"^Totals:\s*(.*)$", body)
            if t:
                r.totals = {k: int(v) for k, v in re.findall(r"(\w+):(\d+)", t.group(1))}
                continue
            pending.append(body)
            continue
        if s:
            r.other.append(s)
    r.comments = pending
    return r


def _why_failed(c: Case) -> str:
    """The most telling line a failed case printed: a failed check, else the last line of the
    exception's traceback, else its last comment."""
    lines = [re.sub(r"^(Exception|Check|EXCEPTION)\|\s*", "", x) for x in c.comments]
    lines = [x.strip() for x in lines if x.strip()]
    for x in lines:
        if x.startswith("Check failed"):
            return x
    for x in reversed(lines):
        if re.match(r"^[A-Za-z_.]*(Error|Exception|Ex)\b", x) or ": " in x and not x.startswith(
                ("File ", "At ", "Traceback")):
            return x
    return lines[-1] if lines else ""


@dataclass
class Verdict:
    status: str       # PASS, FAIL, SKIP, TIMEOUT
    reason: str
    counts: dict = field(default_factory=dict)


def _counts(r: Report) -> dict:
    n = {"pass": 0, "fail": 0, "xfail": 0, "skip": 0}
    for c in r.cases:
        if c.failed:
            n["fail"] += 1
        elif c.directive == "SKIP":
            n["skip"] += 1
        elif c.directive == "XFAIL":
            n["xfail"] += 1
        else:
            n["pass"] += 1
    return n


def _short(name: str) -> str:
    return name.split(".", 1)[1] if "." in name else name


def judge(text: str, rc: int | None, timed_out: bool = False, limit_s: float | None = None,
          lacks: dict | None = None) -> Verdict:
    """One verdict for a test program from its output and exit code (rc None: it never
    ended, e.g. the guest died). SKIP when every case skipped (or xfailed) or the program
    said so (exit 4, "1..0 # SKIP"); FAIL for a failed case, a program that stopped before
    its plan, or a non-zero exit; TIMEOUT when it was killed at its limit.
    lacks: {case name: (why, pattern)}, cases that fail on the device under test because it
    lacks what they check (the test fails instead of skipping): a failure whose output matches
    the pattern (a regular expression searched in the case's comment lines, e.g. the error the
    missing operation gives) counts as a skip with that reason, and the exit status it causes
    is not held against the program; the same case failing any other way still fails."""
    r = parse(text)
    lacks = lacks or {}
    excused = []
    for c in r.cases:
        if c.failed and c.name in lacks:
            why, pattern = lacks[c.name]
            if not re.search(pattern, "\n".join(c.comments)):
                continue
            c.ok, c.directive = True, "SKIP"
            c.reason = f"{why} (the test failed: {_why_failed(c) or 'not ok'})"
            excused.append(c)
    if rc == KSFT_FAIL and excused and not any(c.failed for c in r.cases):
        rc = KSFT_PASS
    n = _counts(r)
    last = (r.other or r.comments or [""])[-1]
    failed = [c for c in r.cases if c.failed]
    summary = ", ".join(f"{v} {k}" for k, v in n.items() if v)
    skips = "; ".join(f"{_short(c.name)}: {c.directive} {c.reason}".rstrip()
                      for c in r.cases if c.skipped)
    if timed_out or rc is None:
        what = (f"killed at its limit of {limit_s:g} s" if timed_out and limit_s
                else "killed at its limit" if timed_out else "never ended (the guest stopped)")
        running = f" after {len(r.cases)} of {r.plan} cases" if r.plan is not None else \
            " before its KTAP plan"
        return Verdict("TIMEOUT", f"{what}{running}" + (f"; last line: {last}" if last else ""),
                       n)
    if failed:
        why = "; ".join(f"{_short(c.name)}: {_why_failed(c) or 'not ok'}" for c in failed[:3])
        return Verdict("FAIL", f"{len(failed)} of {len(r.cases)} cases failed: {why}", n)
    if r.plan_skip:
        return Verdict("SKIP", r.plan_skip, n)
    if r.plan is None and not r.cases:
        if rc == KSFT_SKIP:
            return Verdict("SKIP", last or "the test skipped itself (exit 4)", n)
        return Verdict("FAIL", f"no KTAP output (exit {rc})" + (f": {last}" if last else ""), n)
    if r.plan is not None and len(r.cases) < r.plan:
        return Verdict("FAIL", f"stopped after {len(r.cases)} of {r.plan} cases (exit {rc})"
                       + (f": {last}" if last else ""), n)
    if rc not in (KSFT_PASS, KSFT_SKIP, KSFT_XFAIL):
        return Verdict("FAIL", f"exit {rc} although no case failed ({summary})"
                       + (f": {last}" if last else ""), n)
    if r.cases and n["pass"] == 0:
        return Verdict("SKIP", skips or "every case skipped", n)
    return Verdict("PASS", summary + (f" ({skips})" if skips else ""), n)
