# SPDX-License-Identifier: GPL-2.0-or-later
"""The kernel's own drivers/net selftests as regress entries (`--scenarios selftests`): the
Python tests of tools/testing/selftests/drivers/net from the guest kernel's own source
(Debian's linux-source-X.Y at the guest kernel's version, the same tarball the debug kernel
is built from: lablib.debugkernel.source_tarball), run in the closed-world lab the way
netdev's CI runs them on hardware: NETIF the DUT, REMOTE_TYPE=netns with the partner NIC in
its named network namespace (guest-tests/lab/selftests.sh). One lab boot runs every test;
each test program is one result, judged from its KTAP output (lablib.ktap):

  PASS|FAIL|SKIP|TIMEOUT selftests.<test> <kernel> <driver> <reason>

The guest gets what the tests call from Debian packages (GUEST_PACKAGES and their
dependency closure, lablib.debpkgs): Python 3.11 with PyYAML (YNL reads the netlink specs),
iproute2 (`ip -j`, `ip netns`), iputils-ping, socat, bash. They, the tests, their lib/py,
tools/net/ynl and Documentation/netlink/specs go into one newc archive appended to the lab's
initramfs for this entry only: the guest image and every other entry stay byte-identical.
The archive is packed once per key of what it is built from (cached_overlay): a warm run
neither walks the 60 MiB tree nor writes the archive again.
Python's modules are compiled on the host (compileall, unchecked-hash .pyc) so the emulated
CPU does not compile the standard library at every test."""
import hashlib
import inspect
import os
import re
import shutil
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from lablib import cpio, debpkgs, debugkernel, kernelpkg, ktap, lab, splat
from lablib.result import HarnessError, Kind

from . import kernels
from .errors import BadInput

ENTRY = "selftests"
CASE = "selftests"
GUEST_ROOT = "opt/ksrc"          # KSRC of the tests' net/lib/py/consts.py in the guest
# Debian packages the tests call, as apt names them (the closure adds their libraries)
GUEST_PACKAGES = ("python3.11-minimal", "libpython3.11-stdlib", "python3-minimal",
                  "python3-yaml", "iproute2", "iputils-ping", "socat", "bash")
# what the tests need from the kernel's source tree (paths under linux-source-X.Y/)
TREE_PARTS = ("tools/testing/selftests/drivers/net", "tools/testing/selftests/net/lib",
              "tools/testing/selftests/kselftest", "tools/net/ynl",
              "Documentation/netlink/specs")
DRV_DIR = "tools/testing/selftests/drivers/net"
# the Python driver tests (lib/py NetDrvEnv / NetDrvEpEnv) came with 6.10
FIRST_SERIES = "6.10"
# kselftest's default per-test limit (tools/testing/selftests/kselftest/runner.sh); a
# directory's "settings" file (timeout=N) raises it. Virtual seconds in the lab.
DEFAULT_LIMIT_S = 45

# Tests of drivers/net that need what r8169 (or this lab) does not have: reported SKIP with
# the reason, not run. Every other Python test of the directory runs and judges itself (a
# missing feature it probes, e.g. pause stats or qstats, is its own SKIP/XFAIL).
NOT_RUN = {
    "gro.py": "needs its compiled gro helper (net/lib) and XDP programs; r8169 has no XDP",
    "hds.py": "header-data split (HDS, ethtool tcp-data-split) and XDP: r8169 has neither",
    "macsec.py": "needs the macsec module, which the guest image does not carry",
    "napi_id.py": "needs its compiled helper napi_id_helper",
    "napi_threaded.py": "changes the channel count (ethtool -L): r8169 has one queue pair "
                        "and no set_channels",
    "netcons_basic.sh": "needs the netconsole module and configfs, which the guest image "
                        "does not carry",
    "netpoll_basic.py": "needs bpftrace and the netconsole module",
    "psp.py": "PSP crypto offload: r8169 has none",
    "so_txtime.py": "needs its compiled helper so_txtime",
    "xdp.py": "XDP: r8169 has no XDP support (and the BPF programs are not built)",
}
# Cases that FAIL on the emulated NIC because r8169 lacks what they check (the test fails
# instead of skipping, on real hardware too): reported as a skip with the reason, the rest of
# the test still judged. Only a failure is excused: a pass stays a pass.
LACKS = {
    "stats.check_pause": (
        "r8169 reports no pause frame counters for an RTL8168 (6.12 has no get_pause_stats; "
        "later kernels fill them for the RTL8125 only, from its extended tally): the stats "
        "nest is empty", r"driver does not report stats"),
    **{f"ping.test_xdp_{m}_sb": (
        "loads net/lib's xdp_dummy.bpf.o, which is not built here (the image has no BPF "
        "toolchain; r8169 has no native XDP either)", r"Cannot initialize ELF context")
       for m in ("generic", "native")},
    # the multi-buffer variants first set MTU 9000 at both ends: the lab's partner (an
    # 8168c, jumbo frames up to 6 KiB) refuses it before the XDP program is loaded
    **{f"ping.test_xdp_{m}_mb": (
        "sets MTU 9000 at both ends (the partner's 8168c takes 6 KiB jumbo frames at most) "
        "and loads net/lib's BPF objects, which are not built here",
        r"mtu greater than device maximum|Cannot initialize ELF context")
       for m in ("generic", "native")},
    "queues.check_xsk": (
        "runs net/lib's compiled xdp_helper (AF_XDP), not built here; r8169 has no XDP",
        r"No such file or directory: \S*xdp_helper"),
    **{f"ring_reconfig.{c}": (
        "changes the channel count or the ring sizes through ethtool netlink: r8169 has no "
        "get/set_channels and no set_ringparam", r"Operation not supported")
       for c in ("channels", "ringparam", "reconfig_tx_stall")},
    "stats.procfs_downup_hammer": (
        "reads the channel count (ethtool channels_get): r8169 has no get_channels",
        r"channels_get[\s\S]*Operation not supported"),
}
# packed overlays kept in <cache>/selftests/overlays (60 MiB each; a new key comes with a new
# package version, kernel source or test list)
KEEP_OVERLAYS = 4
HW_REASON = ("drivers/net/hw holds hardware-feature tests (RSS, ntuple, devmem, io_uring "
             "zero-copy RX, timestamping, TSO/USO checks) most of which r8169 lacks or which "
             "need helper programs built from the tree; not run")


class SkipAll(Exception):
    """The kernel has no tests to run: one SKIP line with this reason."""


@dataclass
class Plan:
    tree: Path          # the extracted source tree (linux-source-X.Y/)
    origin: str         # linux-source-X.Y=<version>
    run: list           # [(path under tools/testing/selftests, limit s)]
    not_run: list       # [(path or group, reason)]


# ---- the source tree ------------------------------------------------------------------------

def image_version(ser: str) -> str:
    """The package version of the Debian image X.Y (build/guest/X.Y/info), "" without one."""
    try:
        return kernels.image_info(ser).get("version", "")
    except BadInput:
        return ""


def series_of(kernel: str) -> str:
    """The X.Y whose linux-source the guest kernel was built from (X.Y-debug: X.Y)."""
    if kernelpkg.is_debug(kernel):
        return debugkernel.series(kernel)
    info = kernels.image_info(kernel)
    if info.get("package") == "tree":
        raise SkipAll("a kernel tree of your own: run its selftests from the tree (this entry "
                      "takes Debian's linux-source of a Debian or X.Y-debug guest kernel)")
    return info.get("series") or kernel


def check_series(ser: str) -> None:
    """SkipAll for a series older than FIRST_SERIES, decided from its number (its source is
    not fetched: 139 MB only to find the directory without lib/py)."""
    if kernelpkg.version_key(ser) < kernelpkg.version_key(FIRST_SERIES):
        raise SkipAll(f"linux-source-{ser} has no Python tests in {DRV_DIR} (their lib/py "
                      f"NetDrvEnv came with {FIRST_SERIES})")


def _dir_version(version: str) -> str:
    """A package version as the tarball's directory names it: ':' and '~' made '_'."""
    return re.sub(r"[:~]", "_", version)


def extracted_dir(ser: str, version: str) -> Path:
    """<cache>/selftests/linux-source-<ser>_<version>: where source_tree extracts the source
    of that package version (the tarball's directory name)."""
    return kernels.cache_root() / "selftests" / f"linux-source-{ser}_{_dir_version(version)}"


def source_tree(ser: str, log: Callable[[str], None] = lambda m: None,
                version: str = "") -> tuple:
    """(tree, origin): the parts TREE_PARTS of linux-source-<ser> extracted once into
    <cache>/selftests/<tarball's directory>/ (the tarball is the debug kernel's, cached).
    version: the guest image's package version, to name the origin exactly (the directory
    name has ':' and '~' made '_'). When the source at that version is extracted already it
    is taken as it is: asking apt which tarball that is (lablib.kernelpkg.lookup, several
    apt-cache runs) costs 20 s on a loaded machine, at every run."""
    if version:
        done = extracted_dir(ser, version) / ".extracted"
        if done.is_file():
            return done.parent / f"linux-source-{ser}", done.read_text().strip()
    try:
        tar = debugkernel.source_tarball(ser)
    except debugkernel.DebugKernelError as e:
        raise BadInput(str(e))
    # the directory's name is the package and its version with ':' and '~' made '_'
    pkg, _, mangled = tar.parent.name.partition("_")
    origin = f"{pkg}={version if _dir_version(version) == mangled else mangled}"
    base = kernels.cache_root() / "selftests" / tar.parent.name
    top = base / f"linux-source-{ser}"
    if (base / ".extracted").is_file():
        return top, origin
    log(f"extracting the selftests of {tar.name} ({origin})")
    shutil.rmtree(base, ignore_errors=True)
    base.mkdir(parents=True)
    # a directory member brings its contents; kselftest* its directory and headers
    members = [f"linux-source-{ser}/{p}" + ("*" if p.endswith("kselftest") else "")
               for p in TREE_PARTS]
    p = subprocess.run(["tar", "-xJf", str(tar), "-C", str(base), "--wildcards", *members],
                       capture_output=True, text=True)
    if not (top / DRV_DIR).is_dir():
        raise BadInput(f"{tar.name} has no {DRV_DIR} "
                       f"({(p.stderr.strip().splitlines() or ['?'])[-1]})")
    compile_python([top / "tools"])
    (base / ".extracted").write_text(origin + "\n")
    return top, origin


def settings_limit(d: Path) -> int:
    """The directory's kselftest limit (its settings file's timeout=N), else the default."""
    f = d / "settings"
    m = re.search(r"^timeout=(\d+)", f.read_text(), re.M) if f.is_file() else None
    return max(DEFAULT_LIMIT_S, int(m.group(1))) if m else DEFAULT_LIMIT_S


def plan(tree: Path, origin: str) -> Plan:
    """Which tests of drivers/net (its own *.py and *.sh; the subdirectories are other
    drivers' tests, hw/ aside) run and which are reported as not run."""
    d = tree / DRV_DIR
    if not (d / "lib" / "py" / "env.py").is_file():
        raise SkipAll(f"{origin} has no Python tests in {DRV_DIR} (their lib/py NetDrvEnv "
                      f"came with {FIRST_SERIES})")
    limit = settings_limit(d)
    run, not_run = [], []
    for f in sorted(list(d.glob("*.py")) + list(d.glob("*.sh"))):
        rel = f"drivers/net/{f.name}"
        if f.name in NOT_RUN:
            not_run.append((rel, NOT_RUN[f.name]))
        else:
            run.append((rel, limit))
    hw = sorted((d / "hw").glob("*.py"))
    if hw:
        not_run.append(("drivers/net/hw", f"{len(hw)} Python tests: {HW_REASON}"))
    return Plan(tree, origin, run, not_run)


# ---- the guest's userland -------------------------------------------------------------------

def compile_python(dirs: list, root: Path | None = None) -> None:
    """Byte-compile the .py files under dirs (unchecked-hash .pyc: valid whatever the mtimes
    the archive gives them). root: an unpacked Debian tree whose own python3.11 compiles
    them (the guest's interpreter); else this Python, which must be 3.11 too."""
    exe = [str(root / "usr/bin/python3.11")] if root else [shutil.which("python3.11") or ""]
    env = dict(os.environ, PYTHONHOME=str(root / "usr")) if root else dict(os.environ)
    if not exe[0]:
        return     # no 3.11 on the host: the guest compiles at import (slower, same result)
    for d in dirs:
        args = [*exe, "-E", "-s", "-m", "compileall", "-q", "-j", "1",
                "--invalidation-mode", "unchecked-hash"]
        if root:
            args += ["-s", str(root), "-p", "/"]
        subprocess.run([*args, str(d)], capture_output=True, env=env)


def userland(log: Callable[[str], None] = lambda m: None) -> Path:
    """The unpacked Debian packages of GUEST_PACKAGES and their closure, compiled."""
    try:
        pkgs = debpkgs.closure_cached(list(GUEST_PACKAGES), kernels.cache_root())
        root = debpkgs.unpacked(pkgs, kernels.cache_root(), log)
    except HarnessError as e:
        raise BadInput(str(e))
    done = root.parent / ".compiled"
    if not done.is_file():
        log("compiling the guest's Python modules (once)")
        compile_python([root / "usr/lib/python3.11", root / "usr/lib/python3/dist-packages"],
                       root)
        done.touch()
    return root


def test_list(p: Plan) -> str:
    """/selftests/tests of the guest: "<path under tools/testing/selftests> <limit s>" a line."""
    return "".join(f"{path} {limit}\n" for path, limit in p.run)


def overlay(p: Plan, root: Path, dest: Path) -> Path:
    """One newc archive: the Debian tree at /, the source parts at /opt/ksrc, the test list
    /selftests/tests, and /usr/bin/env (busybox: the tests' "#!/usr/bin/env python3"); in
    sorted order, parents first, so the same inputs give the same bytes."""
    files = {e[0]: e for e in cpio.tree_entries(root) if e[0] != "."}
    for part in TREE_PARTS:
        src = p.tree / part
        if src.exists():
            for e in cpio.tree_entries(src):
                name = f"{GUEST_ROOT}/{part}" + ("" if e[0] == "." else f"/{e[0]}")
                files[name] = (name, *e[1:])
    files.setdefault("usr/bin/env", ("usr/bin/env", stat.S_IFLNK | 0o777, b"/bin/busybox"))
    files["selftests/tests"] = ("selftests/tests", stat.S_IFREG | 0o644, test_list(p).encode())
    for name in list(files):
        parts = name.split("/")
        for i in range(1, len(parts)):
            d = "/".join(parts[:i])
            files.setdefault(d, (d, cpio.DIR, None))
    cpio.write_entries(dest, [files[n] for n in sorted(files, key=os.fsencode)])
    return dest


# the code that packs the overlay, part of its cache key (overlay_key)
_PACKER = inspect.getsource(test_list) + inspect.getsource(overlay)


def overlay_key(p: Plan, root: Path) -> str:
    """The cache key of the overlay of plan p on the userland root: what overlay() builds it
    from. The unpacked packages' directory is the key of their versions
    (<cache>/debpkgs/<key>/root), the source tree's names the package version
    (<cache>/selftests/linux-source-X.Y_<version>/linux-source-X.Y), the test list with
    its limits, and the code that packs them (overlay() and test_list(), GUEST_ROOT,
    TREE_PARTS, lablib's cpio writer): an edit of any of them is a new key."""
    h = hashlib.sha256()
    for part in (root.parent.name, root.name, p.tree.parent.name, p.tree.name, test_list(p),
                 GUEST_ROOT, repr(TREE_PARTS), _PACKER, Path(cpio.__file__).read_text()):
        h.update(part.encode() + b"\0")
    return h.hexdigest()[:16]


def cached_overlay(p: Plan, root: Path, log: Callable[[str], None] = lambda m: None,
                   keep: int = KEEP_OVERLAYS) -> tuple:
    """(archive, key): overlay() of p and root, packed once per overlay_key into
    <cache>/selftests/overlays/<key>.cpio (60 MiB read and written at every run otherwise).
    The `keep` most recently used archives stay, older ones are removed."""
    d = kernels.cache_root() / "selftests" / "overlays"
    key = overlay_key(p, root)
    path = d / f"{key}.cpio"
    if path.is_file():
        os.utime(path)          # most recently used: the last to be pruned
        return path, key
    d.mkdir(parents=True, exist_ok=True)
    log(f"packing the selftests overlay {key} (once for these packages, sources and tests)")
    overlay(p, root, path)
    for old in sorted(d.glob("*.cpio"), key=lambda f: f.stat().st_mtime, reverse=True)[keep:]:
        old.unlink(missing_ok=True)
    return path, key


# ---- the guest's output ---------------------------------------------------------------------

_BEGIN_RE = re.compile(r"^SELFTEST BEGIN name=(\S+)\s*$")
_END_RE = re.compile(r"^SELFTEST END name=(\S+) rc=(-?\d+) ms=(\d+)\s*$")


@dataclass
class Section:
    path: str
    text: str = ""
    rc: int | None = None
    ms: int | None = None
    first_line: int = 0       # console line numbers (1-based) of BEGIN and END
    last_line: int = 0


def sections(console: str) -> dict:
    """{path: Section} of every test the console shows begun (rc None: it never ended)."""
    out, cur, buf = {}, None, []
    lines = console.splitlines()
    for i, line in enumerate(lines, 1):
        s = line.rstrip("\r")
        m = _BEGIN_RE.match(s)
        if m:
            cur, buf = Section(m.group(1), first_line=i), []
            out[cur.path] = cur
            continue
        m = _END_RE.match(s)
        if m and cur is not None and m.group(1) == cur.path:
            cur.text, cur.rc, cur.ms, cur.last_line = ("\n".join(buf), int(m.group(2)),
                                                       int(m.group(3)), i)
            cur = None
            continue
        if cur is not None:
            buf.append(s)
    if cur is not None:
        cur.text, cur.last_line = "\n".join(buf), len(lines)
    return out


def short_name(path: str) -> str:
    """drivers/net/ping.py -> selftests.ping; drivers/net/hw -> selftests.hw"""
    rel = path[len("drivers/net/"):] if path.startswith("drivers/net/") else path
    return f"{ENTRY}." + re.sub(r"\.(py|sh)$", "", rel).replace("/", ".")


KILLED_RC = 137    # busybox timeout -s KILL: the test was killed at its limit


def verdicts(p: Plan, console: str, run_kind: Kind, run_reason: str) -> list:
    """[(name, status, reason, ms, section)] for every test of the plan, in its order: the
    ones run judged from their KTAP (ktap.judge), a test the guest never reached named with
    the lab run's end, and the NOT_RUN ones as SKIP."""
    secs = sections(console)
    out = []
    for path, limit in p.run:
        s = secs.get(path)
        if s is None:
            why = run_reason or str(run_kind)
            out.append((short_name(path), "TIMEOUT" if run_kind is Kind.TIMEOUT else "FAIL",
                        f"not run: the guest stopped before it ({why})", None, None))
            continue
        if s.rc is None:
            v = ktap.judge(s.text, None)
            why = f"{v.reason}; lab run: {run_kind} {run_reason}".rstrip()
            out.append((short_name(path), "TIMEOUT" if run_kind is Kind.TIMEOUT else "FAIL",
                        why, None, s))
            continue
        v = ktap.judge(s.text, s.rc, timed_out=s.rc == KILLED_RC, limit_s=limit, lacks=LACKS)
        out.append((short_name(path), v.status, v.reason, s.ms, s))
    for path, why in p.not_run:
        out.append((short_name(path), "SKIP", why, None, None))
    return out


def test_of_line(secs: dict, lineno: int) -> str | None:
    """The test whose output holds console line `lineno`."""
    for s in secs.values():
        if s.first_line <= lineno <= s.last_line:
            return s.path
    return None


def splats_by_test(console_path: Path, expected=()) -> dict:
    """{test path or None (outside any test): [unexpected splats]} of the lab run's console."""
    text = console_path.read_text(errors="replace") if console_path.is_file() else ""
    secs = sections(text)
    found = splat.unexpected(splat.scan_files([console_path]), expected)
    out = {}
    for s in found:
        out.setdefault(test_of_line(secs, s.lineno), []).append(s)
    return out


def lab_spec(kernel: str, p: Plan, extras: list, iommu: bool, chip: str | None,
             driver: str) -> lab.Spec:
    """The lab run: the case with a guest deadline (virtual s) covering every test's limit."""
    deadline = sum(limit for _, limit in p.run) + 120
    timeout = kernelpkg.timeout_for(kernel, 3 * deadline + 180)
    return lab.Spec(kernel=kernel, case=CASE, dut_driver=driver, args={"deadline": str(deadline)},
                    timeout=timeout, initrd_append=extras, iommu=iommu, chip=chip)

