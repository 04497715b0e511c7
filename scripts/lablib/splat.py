# SPDX-License-Identifier: GPL-2.0-or-later
"""Kernel splats in a guest's console log: what counts as one, in one place.

A splat is a kernel report that something went wrong, whatever the scenario's own verdict
says: an Oops or BUG, a WARN, a panic, lockdep, KASAN/KFENCE/UBSAN, DMA-API debugging, an RCU
stall, a hung task, the TX watchdog (NETDEV WATCHDOG), a memory leak kmemleak found (the debug
kernel scans at the end of each entry). scripts/regress fails an entry on any
splat its guests printed (regress_lib/runner.py), unless the entry declares that kind as
provoked on purpose (regress_lib/matrix.py EXPECTED_SPLATS; docs/REGRESS.md "Kernel splats").

Only kernel log lines are looked at: a line whose message carries the printk timestamp
("[   12.345678] ...", every guest kernel has CONFIG_PRINTK_TIME), after an optional raw
level prefix ("<4>", the end-of-run dump of guest_kmsg_dump in
guest-tests/initramfs/guest-lib.sh) and indentation. What a scenario prints itself (RESULT
lines, tool output) never counts. A record that is on the console twice (printed live at
level <= 3 and again in the dump) is one splat: records are told apart by timestamp and text.

  scan(text) -> [Splat]            every splat line of a console log, in order
  scan_files(paths) -> [Splat]     the same over several files (Splat.source names the file)
  unexpected(splats, kinds)        the splats not of a kind in `kinds`
  KINDS                            the kinds, for declarations (matrix.EXPECTED_SPLATS)
"""
import re
from dataclasses import dataclass
from pathlib import Path

# indentation, an optional "| " (a scenario quoting the log), the raw level ("<4>"), the
# timestamp, an optional caller id ("[    T1]", "[  C0]", CONFIG_PRINTK_CALLER)
_PREFIX = re.compile(r"^\s*(?:\|\s*)?(?:<(?P<level>\d+)>)?"
                     r"\[\s*(?P<ts>\d+\.\d+)\]\s?(?:\[\s*[TC]\d+\]\s?)?")

# kind -> patterns on the message (after the prefix). The first kind that matches names the
# line, so the specific kinds come before the general ones ("WARNING: " of a lockdep report is
# lockdep, the WARN of dev_watchdog is tx-timeout).
PATTERNS = [
    ("tx-timeout", [r"NETDEV WATCHDOG",
                    r"\btransmit queue \d+ timed out",
                    # 6.1's WARN_ONCE in dev_watchdog; either format of the WARNING line
                    r"^WARNING: .*\bsch_generic\.c:\d+ .*\bdev_watchdog\b"]),
    ("panic", [r"^Kernel panic - not syncing"]),
    ("lockdep", [r"possible circular locking dependency",
                 r"inconsistent lock state",
                 r"possible recursive locking",
                 r"possible irq lock inversion",
                 r"-safe -> \S+-unsafe lock order detected",
                 r"bad unlock balance detected",
                 r"suspicious RCU usage",
                 r"^WARNING: (?:held lock freed|lock held when returning|Nested lock was not taken)"]),
    ("kasan", [r"\bBUG: (?:KASAN|KFENCE|KMSAN): "]),
    # the debug kernel's kmemleak scan at the end of each entry (guest-lib.sh
    # guest_kmemleak_scan): an info record, passed on by guest_kmsg_dump
    ("kmemleak", [r"^kmemleak: \d+ new suspected memory leaks?\b"]),
    ("ubsan", [r"^UBSAN: "]),
    ("dma-api", [r"^(?:\S+ \S+: )?DMA-API: (?!preallocated \d+ debug entries|debugging enabled"
                 r"|cacheline tracking|dma_debug_entry pool grown)"]),
    ("rcu-stall", [r"^rcu: INFO: ", r"\bdetected stalls? on CPU", r"self-detected stall on CPU"]),
    ("hung-task", [r"^INFO: task \S.* blocked for more than \d+ seconds"]),
    ("oops", [r"^Oops: ", r"^general protection fault", r"^kernel BUG at ",
              r"^Internal error: Oops"]),
    ("bug", [r"\bBUG: "]),
    ("warning", [r"^WARNING: "]),
]
KINDS = tuple(k for k, _ in PATTERNS)
_COMPILED = [(k, [re.compile(p) for p in ps]) for k, ps in PATTERNS]


@dataclass(frozen=True)
class Splat:
    kind: str          # one of KINDS
    text: str          # the message, without level, timestamp and indentation
    ts: str            # the printk timestamp, seconds since boot
    lineno: int        # 1-based line of the console log
    source: str = ""   # the file (scan_files)

    def __str__(self) -> str:
        return self.text


def message(line: str):
    """(timestamp, message) of a kernel log line, or None for any other line."""
    m = _PREFIX.match(line)
    if not m:
        return None
    return m.group("ts"), line[m.end():].rstrip()


def classify(msg: str) -> str | None:
    """The kind of a kernel message, or None when it is no splat line."""
    for kind, pats in _COMPILED:
        if any(p.search(msg) for p in pats):
            return kind
    return None


def scan(text: str, source: str = "") -> list:
    out, seen = [], set()
    for n, line in enumerate(text.replace("\r", "").splitlines(), 1):
        tm = message(line)
        if tm is None:
            continue
        ts, msg = tm
        kind = classify(msg)
        if kind is None or (ts, msg) in seen:
            continue
        seen.add((ts, msg))
        out.append(Splat(kind, msg, ts, n, source))
    return out


def scan_files(paths) -> list:
    """The console files of one guest (e.g. the QEMU instances before and after a migration):
    a record in two of them is one splat. Files that do not exist are skipped."""
    out, seen = [], set()
    for p in paths:
        try:
            text = Path(p).read_text(errors="replace")
        except OSError:
            continue
        for s in scan(text, str(p)):
            if (s.ts, s.text) not in seen:
                seen.add((s.ts, s.text))
                out.append(s)
    return out


def unexpected(splats: list, kinds=()) -> list:
    kinds = set(kinds)
    bad = set(kinds) - set(KINDS)
    if bad:
        raise ValueError(f"unknown splat kind(s) {', '.join(sorted(bad))} (known: {', '.join(KINDS)})")
    return [s for s in splats if s.kind not in kinds]


def reason(splats: list) -> str:
    """One line for a verdict: the first splat's line, and how many more there were."""
    if not splats:
        return ""
    more = f" (+{len(splats) - 1} more splat line{'s' if len(splats) > 2 else ''})" \
        if len(splats) > 1 else ""
    return f"kernel splat: {splats[0].text}{more}"
