# SPDX-License-Identifier: GPL-2.0-or-later
"""The timed closed-world lab (scripts/run-lab, scripts/reproduce, scripts/regress): one guest,
two rtl8168 NICs on one QEMU hub, -icount, run in this process.

    run = lab.run(lab.Spec(kernel="6.1", case="txpoll", params="txpoll_rekick=0"), out_dir)
    run.kind / run.status   result.Kind (PASS = the guest printed VERDICT PASS <case> ...)
    run.reason, run.results (dicts of the RESULT lines), run.result_lines, run.trace_hash,
    run.trace_events, run.inputs, run.wall_s, run.out_dir, run.report (run-lab's output)

The DUT NIC (QOM id "dut", MAC 52:54:00:00:00:01, 10.9.0.1) is bound to rtl8168sim (with
params) or to the stock r8169; the partner NIC ("partner", 52:54:00:00:00:02, 10.9.0.2) to
the stock r8169 in its own network namespace. The case guest-tests/lab/<case>.sh prints
RESULT lines, then the end line of every guest, VERDICT PASS|FAIL <case> <reason>
(lablib.protocol), and powers off;
then the model's trace hash and event count of both NICs are read over QMP. The command line
and the overlay archive must stay byte-identical for given inputs: the guest's timing, and
with it every figure and trace hash, depends on them."""
import json
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from . import chips, cpio, labmods, launch, protocol, qemu
from .result import HarnessError, Kind

REPO = qemu.REPO
LAB_DIR = REPO / "guest-tests" / "lab"
GUEST_LIB = REPO / "guest-tests" / "initramfs" / "guest-lib.sh"
DUT_MAC = "52:54:00:00:00:01"
PARTNER_MAC = "52:54:00:00:00:02"
KEY_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
CASE_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
VALUE_RE = re.compile(r"^[A-Za-z0-9_.:,+/@%=-]*$")
RESERVED_ARGS = {"case", "driver", "params"}


def case_names() -> list:
    return sorted(p.stem for p in LAB_DIR.glob("*.sh") if p.stem != "common")


@dataclass
class Spec:
    kernel: str
    case: str
    dut_driver: str = "rtl8168sim"
    params: str = ""
    dut_props: str = ""
    partner_props: str = ""
    args: dict = field(default_factory=dict)   # --arg KEY=VALUE -> lab.KEY=VALUE
    rr: str = None                             # "record" | "replay" | None
    rrfile: str = None
    timeout: float = 300
    trace: list = field(default_factory=list)  # -trace patterns
    verbose: bool = False
    qemu: str = None                           # None: $RTL8168_QEMU or build/qemu/...
    initrd_append: list = None                 # None: $RTL8168_INITRD_APPEND
    iommu: bool = False                        # --iommu: both NICs behind intel-iommu
    pcap: bool = False                         # --pcap: hub.pcap of every frame on the hub
    chip: str = None                           # --chip: the DUT's profile (None: the case's)

    def command_args(self) -> list:
        """The equivalent scripts/run-lab arguments (for reproduce-cmd.txt)."""
        a = ["--kernel", self.kernel, "--case", self.case, "--dut-driver", self.dut_driver]
        if self.chip is not None:
            a += ["--chip", self.chip]
        if self.params:
            a += ["--params", self.params]
        if self.dut_props:
            a += ["--dut-props", self.dut_props]
        if self.partner_props:
            a += ["--partner-props", self.partner_props]
        for k, v in self.args.items():
            a += ["--arg", f"{k}={v}"]
        if self.rr:
            a += [f"--{self.rr}", str(self.rrfile)]
        a += ["--timeout", f"{self.timeout:g}"]
        if self.iommu:
            a += ["--iommu"]
        if self.pcap:
            a += ["--pcap"]
        return a


class LabRun:
    """One lab run (also the LabResult of scripts/repro)."""

    def __init__(self):
        self.kind = Kind.ERROR
        self.reason = ""
        self.results = []
        self.result_lines = []
        self.trace_hash = {}
        self.trace_events = {}
        self.inputs = ""
        self.wall_s = 0.0
        self.out_dir = ""
        self.report = ""
        self.twice_diff = []
        self.second = None
        self.dma = None         # --iommu: qemu.DmaReport of the run (None without --iommu)
        # the model's counters of each NIC at the end ("dut"/"partner" -> the x-stats JSON;
        # {} when QEMU had gone): what the chip saw, beside what the guest reported
        self.model_stats = {}

    @property
    def status(self) -> Kind:
        return self.kind

    @property
    def ok(self) -> bool:
        return self.kind is Kind.PASS

    def result(self, **match: object) -> dict:
        for d in self.results:
            if all(d.get(k) == str(v) for k, v in match.items()):
                return d
        return {}

    def to_dict(self) -> dict:
        return {"status": str(self.kind), "reason": self.reason, "results": self.results,
                "trace_hash": self.trace_hash, "trace_events": self.trace_events,
                "inputs": self.inputs, "wall_s": round(self.wall_s, 1),
                "out_dir": self.out_dir, "iommu": self.dma.to_dict() if self.dma else None}


# ---- checks ---------------------------------------------------------------------------------

def validate(s: Spec) -> str:
    """HarnessError for bad arguments or missing pieces (nothing started yet)."""
    if not CASE_RE.match(s.case) or s.case == "common" or not (LAB_DIR / f"{s.case}.sh").is_file():
        raise HarnessError(f"no case '{s.case}' (guest-tests/lab/<case>.sh; available: "
                           f"{', '.join(case_names())})")
    s.kernel = qemu.kernel_name(s.kernel)
    chips.check_option(s.chip, s.dut_props, "--dut-props")
    if s.dut_driver not in ("rtl8168sim", "r8169"):
        raise HarnessError(f"unknown DUT driver '{s.dut_driver}' (rtl8168sim, r8169)")
    img = REPO / "build" / "guest" / s.kernel
    if not (img / "initramfs.cpio").is_file() or not (img / "vmlinux").is_file():
        raise HarnessError(f"no guest image in build/guest/{s.kernel}: "
                           f"scripts/build-guest --kernel {s.kernel}")
    if s.dut_driver == "rtl8168sim":
        if not (REPO / "build" / "driver" / s.kernel / "rtl8168sim.ko").is_file():
            raise HarnessError(f"no module build/driver/{s.kernel}/rtl8168sim.ko: "
                               f"scripts/build-driver --kernel {s.kernel}")
    elif s.params.strip():
        raise HarnessError("--params only applies to --dut-driver rtl8168sim")
    q = qemu.binary(s.qemu)
    if not os.access(q, os.X_OK):
        raise HarnessError(f"no QEMU at {q}: scripts/build-qemu (or set RTL8168_QEMU)")
    for p in s.params.split():
        if not re.match(r"^[a-z][a-z0-9_]*=[0-9A-Za-z_]+$", p):
            raise HarnessError(f"--params: '{p}' is not name=value")
    qemu.check_props(s.dut_props, "--dut-props")
    qemu.check_props(s.partner_props, "--partner-props")
    for k, v in s.args.items():
        if not KEY_RE.match(k) or k in RESERVED_ARGS:
            raise HarnessError(f"--arg: bad or reserved key '{k}' (reserved: "
                               f"{', '.join(sorted(RESERVED_ARGS))})")
        if not VALUE_RE.match(v):
            raise HarnessError(f"--arg {k}: value '{v}' has characters the kernel command "
                               f"line cannot carry")
    if s.rr == "replay" and not Path(s.rrfile).is_file():
        raise HarnessError(f"--replay: no file {s.rrfile}")
    _, info = qemu.image(s.kernel)
    if s.iommu and info.get("package") == "tree":
        raise HarnessError(f"--iommu: the image {s.kernel} is a kernel tree built from "
                           f"guest-tests/kernel/guest.config, which leaves the IOMMU out; use a "
                           f"Debian kernel (6.1, 6.12, latest)")
    if not info.get("release"):
        raise HarnessError(f"build/guest/{s.kernel}/info has no release=")
    return info["release"]


def parse_args_kv(items: list) -> dict:
    """['k=v', ...] (run-lab --arg) -> {k: v}; HarnessError on an item without '='."""
    out = {}
    for kv in items:
        if "=" not in kv:
            raise HarnessError(f"--arg '{kv}' is not KEY=VALUE")
        k, v = kv.split("=", 1)
        out[k] = v
    return out


# ---- guest programs and the overlay ---------------------------------------------------------

def build_programs() -> dict:
    """Compile guest-tests/lab/*.c and guest-tests/programs/rtl-traffic.c statically (cached in
    build/lab/bin by content hash); the overlay's copies override the image's."""
    progs = {}
    srcs = sorted(LAB_DIR.glob("*.c")) + [REPO / "guest-tests/programs/rtl-traffic.c"]
    gcc = shutil.which("gcc")
    if not gcc:
        raise HarnessError("gcc is needed to build the lab's guest programs (guest-tests/lab/*.c)")
    cache = REPO / "build" / "lab" / "bin"
    cache.mkdir(parents=True, exist_ok=True)
    headers = sorted(LAB_DIR.glob("*.h")) + sorted((REPO / "guest-tests/programs").glob("*.h"))
    hdr_hash = hashlib.sha256(b"".join(h.read_bytes() for h in headers if h.exists())).hexdigest()
    for src in srcs:
        h = hashlib.sha256(src.read_bytes() + hdr_hash.encode()).hexdigest()[:16]
        binp = cache / f"{src.stem}-{h}"
        if not binp.exists():
            tmp = cache / f".{src.stem}-{h}.{os.getpid()}"
            cmd = [gcc, "-static", "-O2", "-Wall", "-Wextra", "-I", str(LAB_DIR),
                   "-I", str(REPO / "guest-tests/programs"), "-o", str(tmp), str(src)]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0 or r.stderr.strip():
                raise HarnessError(f"building {src.relative_to(REPO)} failed:\n{r.stderr}")
            os.replace(tmp, binp)
        progs[src.stem] = binp
    return progs


def _header_lines(case_file):
    return case_file.read_text().splitlines()[:40]


def case_programs(case_file: Path, progs: dict) -> dict:
    """The programs a case declares ("# lab-programs: lab-tool rtl-traffic"); all by default.
    Only those go into the overlay, so editing another program does not change this case's run."""
    for line in _header_lines(case_file):
        m = re.match(r"^#\s*lab-programs:\s*(.*)$", line)
        if m:
            want = m.group(1).split()
            unknown = [w for w in want if w not in progs]
            if unknown:
                raise HarnessError(f"{case_file.name}: lab-programs names unknown program(s) "
                                   f"{', '.join(unknown)} (known: {', '.join(sorted(progs))})")
            return {k: v for k, v in progs.items() if k in want}
    return progs


def dut_chip_props(props: str, chip: str | None) -> str:
    """The DUT's merged ',k=v,...' properties with --chip CHIP: its chip= set to CHIP (in
    place of the case's own), nothing changed when they already give that chip or give none and
    CHIP is the model's default (so the command line is the one without --chip)."""
    have = chips.of_props(props)
    if chip is None or have == chip or (have is None and chip == chips.default_id()):
        return props
    return qemu.props(props.lstrip(","), f"chip={chip}")


def case_props(case_file: Path, which: str, extra: str) -> str:
    """-device properties of one NIC: the case's "# lab-dut-props: k=v,..." (or
    lab-partner-props, or lab-dut-port-props for the DUT's root port) line, then the command
    line's, merged by key (the command line wins)."""
    own = []
    for line in _header_lines(case_file):
        m = re.match(rf"^#\s*lab-{which}-props:\s*(\S*)\s*$", line)
        if m and m.group(1):
            if not qemu.PROPS_RE.match(m.group(1)):
                raise HarnessError(f"{case_file.name}: lab-{which}-props '{m.group(1)}' is not "
                                   f"key=val[,key=val...]")
            own.append(m.group(1))
    return qemu.props(*own, extra)


def image_project_files() -> set:
    """The image's files that scripts/build-guest copies from the project's guest side: init,
    guest-tests/initramfs's helpers in /etc (udhcpc.script as udhcpc's default script), the
    scenarios and the guest programs. The lab boots the image without them (system_part)."""
    ird = REPO / "guest-tests" / "initramfs"
    names = {"init", "scenarios", "usr/share/udhcpc/default.script"}
    names |= {f"etc/{p.name}" for p in ird.iterdir()
              if p.is_file() and p.name not in ("init", "modules.list", "udhcpc.script")
              and p.suffix != ".md"}
    names |= {f"usr/bin/{p.stem}" for p in (REPO / "guest-tests" / "programs").glob("*.c")}
    return names


def system_part(image_cpio: str | Path, dest: str | Path) -> None:
    """dest = the guest image's initramfs without the project's own guest files: busybox,
    ethtool, libraries, kernel modules and /etc basics stay; everything the lab needs of the
    project comes from its overlay (make_overlay). So a change to a scenario, the image's init
    or a guest program the case does not use leaves the lab's archive, and with it the guest's
    timing, every figure and every trace hash, as it was (2026-12-05: one scenario edit moved
    the dma-burst lab's largest deviation from the bench from 1.72 % to 2.04 %)."""
    drop = image_project_files()
    cpio.without(image_cpio, dest,
                 lambda n: n in drop or n.startswith("scenarios/"))


def make_overlay(path: str | Path, case: str, krel: str, ko: str | Path | None, params: str,
                 progs: dict, modules: list | None = None) -> None:
    """modules: [(path, bytes)] of the case's "# lab-modules:" (labmods.files), listed in load
    order in lab/modules, which is written (empty) also when the kernel has every one built in;
    None: a case without that line, which gets neither (its archive is as before)."""
    t = cpio.Tree()
    t.file("init", (LAB_DIR / "init").read_bytes(), 0o755)
    # only the shared helpers and this case: editing another case changes nothing here
    for sh in (LAB_DIR / "common.sh", LAB_DIR / f"{case}.sh"):
        t.file(f"lab/{sh.name}", sh.read_bytes(), 0o644)
    # the helpers every guest shares (common.sh sources it): the overlay's copy, not the image's
    t.file(f"etc/{GUEST_LIB.name}", GUEST_LIB.read_bytes(), 0o644)
    t.file("lab/params", (params.strip() + "\n").encode())
    if ko:
        t.file(f"lib/modules/{krel}/extra/rtl8168sim.ko", Path(ko).read_bytes())
    for name, binp in sorted(progs.items()):
        t.file(f"usr/bin/{name}", binp.read_bytes(), 0o755)
    for rel, data in modules or ():
        t.file(rel, data, 0o644)
    if modules is not None:
        t.file("lab/modules", "".join(f"/{rel}\n" for rel, _ in modules).encode(), 0o644)
    t.write(path)


# ---- the command line -----------------------------------------------------------------------

def pcap_path(console: str | Path) -> Path:
    """--pcap's capture, beside the console log in the run directory."""
    return Path(console).parent / "hub.pcap"


def command(s: Spec, img: Path, initrd: str | Path, console: str | Path, dut_props: str,
            partner_props: str, rrfile: str | Path | None = None,
            dut_port_props: str = "") -> list:
    """QEMU's command line of one lab run. dut_port_props: ",k=v,..." for the DUT's root port
    rp1 (a case's "# lab-dut-port-props:", e.g. x-aspm-l1=on of qemu-patches/0006); empty for
    every case that gives none, so their command lines stay as they were."""
    append = ["console=ttyS0", "panic=-1", "loglevel=4", "nokaslr", f"lab.case={s.case}",
              f"lab.driver={s.dut_driver}"]
    append += [f"lab.{k}={v}" for k, v in s.args.items()]
    if s.iommu:
        append += [qemu.IOMMU_APPEND, "lab.iommu=1"]
    return [qemu.binary(s.qemu), "-M", "q35", "-smp", "1", "-m", "512", "-nodefaults",
            "-no-shutdown", "-display", "none", "-accel", "tcg,thread=single",
            "-icount", qemu.icount(s.rr, rrfile), "-rtc", qemu.VM_RTC, *qemu.firmware_args(),
            *(qemu.iommu_args() if s.iommu else []),   # before the devices it translates
            "-device", "pcie-root-port,id=rp1,chassis=1,slot=1" + dut_port_props,
            "-device", "pcie-root-port,id=rp2,chassis=2,slot=2",
            "-netdev", "hubport,id=hp1,hubid=0",
            # --pcap: QEMU's filter-dump on the DUT's hubport sees every frame of both NICs
            # (the hub has no other port) before any queue; it changes nothing in the guest
            *(["-object", f"filter-dump,id=hubdump,netdev=hp1,file={pcap_path(console)}"]
              if s.pcap else []),
            "-device", qemu.device("rtl8168", "dut", "hp1", DUT_MAC, "rp1", dut_props),
            "-netdev", "hubport,id=hp2,hubid=0",
            "-device", qemu.device("rtl8168", "partner", "hp2", PARTNER_MAC, "rp2",
                                   partner_props),
            "-kernel", str(img / "vmlinux"), "-initrd", str(initrd),
            "-append", " ".join(append),
            "-serial", f"file:{console}",
            *[x for t in s.trace for x in ("-trace", t)],
            "-chardev", "stdio,id=qmp0,signal=off", "-mon", "chardev=qmp0,mode=control"]


def inputs_fingerprint(cmd: list, initrd: str | Path, console: str | Path, vmlinux: str | Path, qemu_bin: str,
                       rrfile: str | Path | None = None) -> str:
    """Everything the guest run depends on: two runs with the same inputs must give the same
    trace hashes and figures (reproduce --twice compares it first). Paths that differ run to
    run do not count, their contents do."""
    fp = hashlib.sha256()
    for part in cmd:
        part = part.replace(str(initrd), "INITRD").replace(f"file:{console}", "file:CONSOLE")
        part = part.replace(f"file={pcap_path(console)}", "file=PCAP")
        if rrfile:
            part = part.replace(str(rrfile), "RRFILE")
        fp.update(part.encode() + b"\0")
    for f in (initrd, vmlinux, Path(os.path.realpath(qemu_bin))):
        with open(f, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                fp.update(chunk)
    return fp.hexdigest()[:16]


# ---- running --------------------------------------------------------------------------------

def _stderr(msg):
    print(f"run-lab: {msg}", file=sys.stderr, flush=True)


def run(s: Spec, out_dir: str | Path | None = None, say: Callable[[str], None] = _stderr) -> "LabRun":
    """Run one lab case; never raises for the run itself (bad arguments give Kind.ERROR with
    the reason, nothing started)."""
    res = LabRun()
    t0 = time.monotonic()
    kernel = s.kernel   # the name as given (validate() resolves it): the directory's name
    res.out_dir = str(out_dir or "")
    try:
        krel = validate(s)
        out = Path(out_dir) if out_dir else REPO / "build" / "lab-runs" / (
            f"{kernel}{chips.dir_suffix(s.chip)}-{s.case}-{time.strftime('%Y%m%d-%H%M%S')}-"
            f"{os.getpid()}")
        res.out_dir = str(out)
        extras = qemu.initrd_append_env() if s.initrd_append is None else list(s.initrd_append)
        for x in extras:
            if not os.path.isfile(x):
                raise HarnessError(f"RTL8168_INITRD_APPEND: no file {x}")
        out.mkdir(parents=True, exist_ok=True)
        for f in ("console.log", "qemu.log", "qemu.cmdline", "qmp.log", "run-lab.txt",
                  "hang-diag.txt", "model-stats.json"):
            (out / f).unlink(missing_ok=True)
        progs = case_programs(LAB_DIR / f"{s.case}.sh", build_programs())
        wanted = labmods.case_modules(_header_lines(LAB_DIR / f"{s.case}.sh"))
        modules = labmods.files(qemu.image(s.kernel)[0], krel, wanted) if wanted else None
    except HarnessError as e:
        res.kind, res.reason = Kind.ERROR, str(e)
        res.wall_s = time.monotonic() - t0
        return res
    work = Path(tempfile.mkdtemp(prefix="rtl8168-lab."))
    try:
        _run(s, res, out, work, krel, extras, progs, say, modules)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return res


def _run(s, res, out, work, krel, extras, progs, say, modules=None):
    img, _ = qemu.image(s.kernel)
    ko = REPO / "build" / "driver" / s.kernel / "rtl8168sim.ko" if s.dut_driver == "rtl8168sim" \
        else None
    ov = work / "overlay.cpio"
    make_overlay(ov, s.case, krel, ko, s.params, progs, modules)
    system = work / "system.cpio"
    system_part(img / "initramfs.cpio", system)
    initrd = work / "initramfs.cpio"
    # the image's system part, the overlay, then $RTL8168_INITRD_APPEND (later files win, e.g.
    # scripts/regress's module under test); all part of the inputs fingerprint
    cpio.concat(initrd, [system, ov, *extras])
    rrfile = None
    if s.rr:
        rrfile = Path(s.rrfile).resolve()
        if s.rr == "record":
            rrfile.parent.mkdir(parents=True, exist_ok=True)
    case_file = LAB_DIR / f"{s.case}.sh"
    try:
        dut_props = dut_chip_props(case_props(case_file, "dut", s.dut_props), s.chip)
        partner_props = case_props(case_file, "partner", s.partner_props)
        dut_port_props = case_props(case_file, "dut-port", "")
    except HarnessError as e:
        res.kind, res.reason = Kind.ERROR, str(e)
        return
    console = out / "console.log"
    cmd = command(s, img, initrd, console, dut_props, partner_props, rrfile, dut_port_props)
    res.inputs = inputs_fingerprint(cmd, initrd, console, img / "vmlinux", cmd[0], rrfile)
    (out / "qemu.cmdline").write_text(qemu.quote(cmd) + "\n")
    desc = (f"{s.kernel} case={s.case} dut={s.dut_driver}"
            + (f" params='{s.params}'" if s.params else "")
            + (f" props={dut_props[1:]}" if dut_props else "")
            + (f" partner-props={partner_props[1:]}" if partner_props else "")
            + (f" dut-port-props={dut_port_props[1:]}" if dut_port_props else "")
            + "".join(f" {k}={v}" for k, v in s.args.items())
            + (f" rr={s.rr}" if s.rr else "")
            + (" iommu" if s.iommu else ""))
    say(f"{desc}; logs in {out}")
    deadline = launch.Deadline(s.timeout)
    vm = launch.Qemu(cmd, out / "qemu.log", qmp_stdio=True)
    con = launch.Console(console)
    try:
        kind, reason, stopped = _watch(s, vm, con, deadline, out)
        hashes, events, res.model_stats = _collect(vm, stopped, out)
    finally:
        vm.close()
    res.wall_s = deadline.elapsed()
    text = con.text()
    if s.verbose:
        sys.stderr.write(con.new_text())
    c = protocol.parse(text)
    kind, reason = judge_end(kind, reason, c.end)
    if s.iommu:
        res.dma = qemu.dma_report([out / "qemu.log"])
        kind, reason = judge_dma(kind, reason, res.dma)
    res.kind, res.reason = kind, reason
    res.result_lines = list(c.results)
    res.results = [protocol.parse_kv(l[len("RESULT "):]) for l in c.results]
    res.trace_hash = {k: hashes.get(k, "?") for k in ("dut", "partner")}
    res.trace_events = {}
    for k in ("dut", "partner"):
        v = events.get(k, "?")
        try:
            res.trace_events[k] = int(v)
        except (TypeError, ValueError):
            res.trace_events[k] = v
    lines = [f"HOST trace-hash dut={hashes.get('dut', '?')} partner={hashes.get('partner', '?')} "
             f"events={events.get('dut', '?')},{events.get('partner', '?')}",
             f"HOST inputs={res.inputs}"]
    if res.dma is not None:
        lines.append(f"HOST iommu {res.dma.summary()}; translated "
                     + " ".join(f"{n}({b})={int(bool(res.dma.translated.get(b)))}"
                                for n, b in NIC_BDFS.items()))
    lines += c.results
    # PASS comes only from the guest's end line; FAIL/TIMEOUT/ERROR carry the reason
    lines.append(protocol.end_line(kind, s.case, c.end.reason if kind is Kind.PASS else reason))
    lines.append(f"HOST wall={res.wall_s:.1f}s status={kind} out={out}")
    res.report = "\n".join(lines) + "\n"
    (out / "run-lab.txt").write_text(res.report)
    if kind is not Kind.PASS and not s.verbose:
        say("console tail:\n  " + "\n  ".join(text.splitlines()[-30:]))
        qerr = (out / "qemu.log").read_text(errors="replace").strip()
        qerr = "\n".join(l for l in qerr.splitlines()
                         if "is not connected to host network" not in l)
        if qerr:
            say("qemu.log:\n  " + qerr.replace("\n", "\n  "))


def judge_end(kind: Kind | None, reason: str, end) -> tuple:
    """The run's kind and reason from what the launcher saw (kind None: the guest powered off)
    and the guest's first end line `end` (protocol.Outcome or None). A guest that said FAIL and
    then hung on its way out (a broken driver's shutdown deadlocking: napi_disable of a NAPI it
    never re-enabled) is a FAIL with its own reason, the missing power-off after it."""
    if kind is None:
        if end is None:
            return Kind.FAIL, "the guest powered off without a VERDICT line"
        return end.kind, "" if end.kind is Kind.PASS else (end.reason or "the guest said FAIL")
    if kind is Kind.TIMEOUT and end is not None and end.kind is Kind.FAIL:
        return Kind.FAIL, f"{end.reason or 'the guest said FAIL'}; then {reason}"
    return kind, reason


# --iommu: where the NICs sit (rp1 -> bus 1, rp2 -> bus 2, as the firmware numbers them)
NIC_BDFS = {"dut": "01:00.0", "partner": "02:00.0"}


def judge_dma(kind: Kind, reason: str, dma: qemu.DmaReport) -> tuple:
    """--iommu: a run whose NICs took any IOMMU DMA fault FAILs with the count named (a stock
    driver never lets its device touch memory it did not map for it); a run in which QEMU
    did not translate both NICs' DMA FAILs too (the guest did not turn DMA remapping on)."""
    if kind is Kind.PASS and dma.faults:
        return Kind.FAIL, dma.summary()
    if kind is Kind.PASS and dma.untranslated(NIC_BDFS.values()):
        return Kind.FAIL, (f"--iommu: QEMU never translated the DMA of "
                           f"{', '.join(dma.untranslated(NIC_BDFS.values()))} (the guest did "
                           f"not enable DMA remapping for it)")
    if kind is not Kind.PASS and dma.faults and "IOMMU DMA fault" not in reason:
        return kind, (reason + "; " if reason else "") + dma.summary()
    return kind, reason


def _watch(s, vm, con, deadline, out):
    """Until the guest powers off (QMP SHUTDOWN/STOP), QEMU exits, or the deadline:
    (kind or None, reason, stopped)."""
    qmp = vm.qmp = launch.Qmp(vm)
    greeting = qmp.next(30)
    if not greeting or "QMP" not in greeting or not qmp.command("qmp_capabilities"):
        vm.wait(1)
        if not vm.alive():
            # QEMU refused its command line (e.g. a property this build does not have)
            vm.log.flush()
            first = (out / "qemu.log").read_text(errors="replace").strip().splitlines()[:1]
            return (Kind.ERROR, f"QEMU exited at start (rc {vm.proc.returncode}): "
                    f"{first[0] if first else 'see qemu.log'}", False)
        return Kind.ERROR, "no QMP greeting from QEMU (see qemu.log)", False
    while True:
        msg = qmp.next(0.2)
        if msg is None:
            return Kind.ERROR, f"QEMU exited early (rc {vm.proc.wait()}; see qemu.log)", False
        if msg and "event" in msg:
            qmp.events.append(msg)
            if msg["event"] in ("SHUTDOWN", "STOP"):
                return None, "", True
        if s.verbose:
            sys.stderr.write(con.new_text())
            sys.stderr.flush()
        if deadline.expired():
            return Kind.TIMEOUT, f"no guest power-off within {s.timeout:.0f} s wall", False


def _collect(vm, stopped, out):
    """The model's trace hash, event count and counters (x-stats, also written to
    model-stats.json) of both NICs, then quit."""
    hashes, events, stats = {}, {}, {}
    qmp = vm.qmp
    if vm.alive():
        if not stopped:
            qmp.command("stop")
            # where the guest was: for a post-mortem of a run that never ended
            diag = []
            for h in ("info registers", "info status", "info irq"):
                r = qmp.command("human-monitor-command", **{"command-line": h})
                diag.append(f"(qemu) {h}\n" + (r.get("return", "") if r else "?\n"))
            (out / "hang-diag.txt").write_text("".join(diag))
        for dev in ("dut", "partner"):
            r = qmp.command("qom-get", path=f"/machine/peripheral/{dev}", property="x-trace-hash")
            hashes[dev] = r.get("return") if r and "return" in r else "?"
            r = qmp.command("qom-get", path=f"/machine/peripheral/{dev}",
                            property="x-trace-events")
            events[dev] = r.get("return") if r and "return" in r else "?"
            r = qmp.command("qom-get", path=f"/machine/peripheral/{dev}", property="x-stats")
            try:
                stats[dev] = json.loads(r["return"])
            except (TypeError, KeyError, ValueError):
                pass
        if stats:
            (out / "model-stats.json").write_text(json.dumps(stats, indent=1, sort_keys=True)
                                                  + "\n")
        qmp.command("quit", timeout=10)
        if vm.wait(15) is None:
            vm.close()
    vm.log.close()
    (out / "qmp.log").write_text("".join(qmp.raw))
    return hashes, events, stats
