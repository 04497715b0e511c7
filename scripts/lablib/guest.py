# SPDX-License-Identifier: GPL-2.0-or-later
"""scripts/run-guest: boot a guest image, run one scenario with the host peers, judge it.

    rc = guest.main(argv)        # the command line (see scripts/run-guest --help)
    outcome = guest.run(spec)    # a result.Outcome; prints the run-guest lines on stdout

The guest speaks lablib.protocol (GUEST/STEP/RESULT lines, one end line
VERDICT PASS|FAIL <scenario> <reason>); the host acts on STEP lines over HMP (link-flap,
migrate), collects the peers' JSON and checks every stream's SHA-256 against the pattern's.
Last line: VERDICT PASS|FAIL|TIMEOUT <scenario> <kernel> <nic> <reason> (wall <s>s).
Exit status: 0 PASS, 1 FAIL or TIMEOUT, 2 ERROR (bad arguments or missing pieces: one line
on stderr, nothing run). See docs/GUEST.md."""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Mapping, NoReturn

from . import chips, faultctl, firmware, kernelpkg, launch, protocol, qemu, vfiouser
from .result import HarnessError, Kind, Outcome

REPO = qemu.REPO
SCENARIOS = REPO / "guest-tests" / "scenarios"
PROG = "run-guest"
NICS = {
    "rtl8168": "rtl8168",
    "e1000e": "e1000e",
    "rtl8139": "rtl8139",
    "virtio": "virtio-net-pci,speed=1000,duplex=full",
    # the model in rtl8168-vfio-user behind a distribution QEMU's vfio-user client
    # (lablib.vfiouser, docs/VFIO-USER.md): the guest sees the rtl8168
    "vfio-user": "vfio-user-pci",
}
# the NICs that are the RTL8168 model (chip profiles, the rtl8168 checks in the guest)
MODEL_NICS = ("rtl8168", "vfio-user")
MAC = "52:54:00:81:68:01"
# --iommu: where the NIC sits (q35: bus 0 has the root port rp1, the firmware numbers its
# secondary bus 1); the IOMMU's fault records and translation state name it so
NIC_BDF = "01:00.0"
BYTES_RE = re.compile(r"^[0-9]+[KMG]?$")


def scenario_names() -> list:
    return sorted(p.stem for p in SCENARIOS.glob("*.sh") if p.stem != "common")


def host_header(path: str | Path) -> tuple:
    """The scenario's '# host: sink=N source=M rr=R bytes=B timeout=T action=A net=N trace=E'
    line as a dict (first occurrence of a key wins)."""
    for line in Path(path).read_text(errors="replace").splitlines():
        m = re.match(r"^# host: *(.*)$", line)
        if m:
            d = {}
            for item in m.group(1).split():
                if "=" in item:
                    k, v = item.split("=", 1)
                    d.setdefault(k, v.split("=")[0])
            return d
    return {}


def chip_of(device_props: str) -> str:
    """The chip profile among the NIC's properties (chip=..., last wins; default 8168c)."""
    return chips.of_props(device_props) or "8168c"


def with_chip(device_props: str, chip: str | None, env: Mapping[str, str] = os.environ) -> str:
    """The NIC's properties for --chip CHIP: 'chip=CHIP' in front (the same -device value as
    --device-props chip=CHIP,...), nothing added when the properties name it already or CHIP is
    the model's default and they name no chip (the command line stays as without --chip)."""
    if chip is None or chips.of_props(device_props) == chip:
        return device_props
    if chips.of_props(device_props) is None and chip == chips.default_id(env):
        return device_props
    return f"chip={chip}" + (f",{device_props}" if device_props else "")


@dataclass
class Spec:
    kernel: str
    scenario: str
    nic: str = "rtl8168"
    device_props: str = ""
    machine: str = "q35"
    accel: str = "tcg"
    icount: bool = False
    net: str = None
    bytes: str = None
    qemu: str = None
    peer: str = None
    timeout: int = None
    out: str = None
    verbose: bool = False
    iommu: bool = False
    chip: str = None          # --chip: the rtl8168's profile (None: the properties' or default)
    firmware: bool = False    # --firmware: the chip's firmware file in the guest (lablib.firmware)
    boot: str = "vmlinux"     # the scenario's host line boot=: vmlinux (PVH entry) or bzimage
    vfio_server: str = None   # --vfio-server: rtl8168-vfio-user (--nic vfio-user)
    boots: int = 1            # --boots: runs of the scenario, each with a new QEMU (and server)


def guest_nic(nic: str) -> str:
    """The NIC as the guest's scenarios know it (rtl8168.nic=): the vfio-user device is the
    rtl8168 to them."""
    return "rtl8168" if nic == "vfio-user" else nic


def append_line(s: Spec, ports: dict, net_env: dict,
                env: Mapping[str, str] = os.environ) -> str:
    """The guest's kernel command line (rtl8168.<key>=<value> -> R_<key> in the guest)."""
    a = (f"console=ttyS0 quiet panic=-1 rtl8168.scenario={s.scenario} rtl8168.nic={guest_nic(s.nic)} "
         f"rtl8168.bytes={s.bytes}")
    for role in ("sink", "source", "rr"):
        if ports.get(role):
            a += f" rtl8168.{role}={ports[role]}"
    if s.net == "tap":
        a += f" rtl8168.peer={net_env['guest_peer']} rtl8168.ip={net_env['guest_ip']}"
    # the scenarios check that r8169 names this chip, with the identity the model lists
    # (guest-tests/scenarios/common.sh chip_expect; lablib.chips)
    a += f" rtl8168.chip={chip_of(s.device_props)}"
    if s.nic in MODEL_NICS:
        c = chips.chip(chip_of(s.device_props), env)
        a += (f" rtl8168.chip_name={c['name']} rtl8168.chip_xid={c['xid'][2:]}"
              f" rtl8168.chip_phy={c['phy_id'][2:]} rtl8168.chip_fw={c['firmware'] or '-'}")
        if s.firmware:
            a += " rtl8168.fw_present=1"   # R_fw_present: probe_checks expects it loaded
    if s.iommu:
        # rtl8168.iommu=1 -> R_iommu: the scenarios assert the NIC's DMA is translated
        a += f" {qemu.IOMMU_APPEND} rtl8168.iommu=1"
    if env.get("RTL8168_GUEST_APPEND"):
        a += " " + env["RTL8168_GUEST_APPEND"]
    return a


def command(s: Spec, img: Path, initrd: str | Path, append: str, tap: str | None = None,
            trace: Iterable[str] = (), env: Mapping[str, str] = os.environ,
            fw: list | None = None, vfio_sock: Path | None = None) -> list:
    """The QEMU arguments common to every instance of the run (without -serial/-monitor)."""
    netdev = "user,id=net0"
    if s.net == "tap":
        netdev = f"tap,id=net0,ifname={tap},script=no,downscript=no"
    args = ["-nodefaults", "-no-reboot", "-display", "none", "-m",
            env.get("RTL8168_GUEST_MEM") or "256", "-smp", "1",
            *(qemu.firmware_args() if fw is None else fw)]
    args += ["-accel", "tcg"] if s.accel == "tcg" else ["-accel", "kvm", "-cpu", "host"]
    if s.icount:
        args += ["-icount", qemu.ICOUNT, "-rtc", qemu.VM_RTC]
    bus = None
    if s.machine == "q35":
        args += ["-M", "q35"]
        if s.iommu:
            args += qemu.iommu_args()   # before the devices it translates
        args += ["-device", "pcie-root-port,id=rp1,chassis=1,slot=1"]
        bus = "rp1"
    else:
        args += ["-M", "pc"]
    if trace and s.nic == "rtl8168":
        for t in trace:
            args += ["-trace", t]
    args += ["-kernel", str(kernel_file(img, s.boot)), "-initrd", str(initrd), "-append", append]
    if s.nic == "vfio-user":
        # no -netdev: the server has the network (its libslirp, same addresses as QEMU's)
        args += vfiouser.qemu_args(vfio_sock, env.get("RTL8168_GUEST_MEM") or "256", bus)
    else:
        args += ["-netdev", netdev,
                 "-device", qemu.device(NICS[s.nic], "nic0", "net0", MAC, bus, s.device_props)]
    return [qemu.binary(s.qemu, env), *args]


# The kernel QEMU boots: the uncompressed vmlinux through its PVH entry (the default: faster),
# or, for a scenario whose host line says boot=bzimage, the distribution's bzImage through
# QEMU's linuxboot option ROM. S3 needs the latter: a PVH-entered kernel (6.1, 6.12, 7.2) resets
# the machine when SeaBIOS jumps to its ACPI waking vector, while the same kernel booted from its
# bzImage resumes (scripts/build-guest links both; docs/GUEST.md "Suspend and resume").
BOOTS = {"vmlinux": "vmlinux", "bzimage": "bzImage"}


def kernel_file(img: Path, boot: str) -> Path:
    f = img / BOOTS[boot]
    if boot != "vmlinux" and not f.exists():   # every image has its vmlinux (qemu.image)
        raise HarnessError(f"the image {img.name} has no {BOOTS[boot]} (rebuild it with "
                           f"scripts/build-guest; a kernel tree needs its bzImage)")
    return f


def validate(s: Spec) -> tuple:
    """Fill in the defaults from the scenario's host line; HarnessError on bad input."""
    s.kernel = qemu.kernel_name(s.kernel)
    names = " ".join(scenario_names())
    if not s.scenario:
        raise HarnessError(f"--scenario is required ({names})")
    sfile = SCENARIOS / f"{s.scenario}.sh"
    if s.scenario == "common" or "/" in s.scenario or not sfile.is_file():
        raise HarnessError(f"unknown scenario '{s.scenario}' ({names})")
    if s.nic not in NICS:
        raise HarnessError(f"unknown --nic '{s.nic}' (rtl8168, e1000e, rtl8139, virtio)")
    if s.machine not in ("q35", "pc"):
        raise HarnessError(f"unknown --machine '{s.machine}' (q35, pc)")
    if s.accel not in ("tcg", "kvm"):
        raise HarnessError(f"unknown --accel '{s.accel}' (tcg, kvm)")
    if s.bytes and not BYTES_RE.match(s.bytes):
        raise HarnessError("--bytes needs a number with optional K, M or G")
    if s.device_props and not qemu.PROPS_RE.match(s.device_props):
        raise HarnessError("--device-props needs key=value[,key=value...] without spaces, "
                           "e.g. timing=off")
    if s.chip is not None:
        if s.nic not in MODEL_NICS:
            raise HarnessError(f"--chip picks a profile of the rtl8168 model; --nic {s.nic} "
                               f"has none")
        chips.check_option(s.chip, s.device_props)
        s.device_props = with_chip(s.device_props, s.chip)
    elif s.nic in MODEL_NICS and chips.of_props(s.device_props) is not None:
        chips.check(chips.of_props(s.device_props))
    _, info = qemu.image(s.kernel)
    if s.iommu and s.machine != "q35":
        raise HarnessError("--iommu needs --machine q35 (intel-iommu is a q35 device)")
    if s.iommu and info.get("package") == "tree":
        raise HarnessError(f"--iommu: the image {s.kernel} is a kernel tree built from "
                           f"guest-tests/kernel/guest.config, which leaves the IOMMU out; use a "
                           f"Debian kernel (6.1, 6.12, latest)")
    if s.boots < 1 or (s.boots > 1 and s.nic != "vfio-user"):
        raise HarnessError("--boots N (N >= 1) restarts rtl8168-vfio-user between the runs: "
                           "--nic vfio-user only")
    if s.nic == "vfio-user":
        s.qemu = s.qemu or vfiouser.distro_qemu()
        s.vfio_server = vfiouser.server_binary(s.vfio_server)
        vfiouser.check(s.qemu, s.vfio_server)
        if s.iommu:
            raise HarnessError("--iommu: not with --nic vfio-user (untried: QEMU's "
                               "intel-iommu needs caching-mode=on for a VFIO device, and the "
                               "fault count reads the in-process device's trace)")
    else:
        s.qemu = qemu.binary(s.qemu)
        qemu.check_binary(s.qemu, need_rtl8168=(s.nic == "rtl8168"))
    h = host_header(sfile)
    s.boot = h.get("boot") or "vmlinux"
    if s.boot not in BOOTS:
        raise HarnessError(f"{sfile.name}: host line boot={s.boot} ({', '.join(BOOTS)})")
    if s.firmware:
        if s.nic not in MODEL_NICS:
            raise HarnessError(f"--firmware puts the rtl8168 chip's firmware file in the guest; "
                               f"--nic {s.nic} has none")
        if not chips.chip(chip_of(s.device_props)).get("firmware"):
            raise HarnessError(f"--firmware: r8169 loads no firmware file for the "
                               f"{chip_of(s.device_props)} (chips with one: "
                               f"{', '.join(c['id'] for c in chips.all_chips() if c.get('firmware'))})")
    # a debug kernel is several times slower: the scenario's own sizes and timeout are scaled
    # (kernelpkg.DEBUG_*), what the command line gives is taken as it is
    s.bytes = s.bytes or kernelpkg.bytes_for(s.kernel, h.get("bytes") or "64M")
    if s.timeout is None:
        s.timeout = kernelpkg.timeout_for(s.kernel, int(h.get("timeout") or 180))
    s.net = s.net or h.get("net") or "user"
    if s.net not in ("user", "tap"):
        raise HarnessError(f"unknown --net '{s.net}' (user, tap)")
    if s.nic == "vfio-user" and (s.net != "user" or h.get("action") in ("migrate", "faults")):
        # the server has libslirp only; QEMU's vfio-user client has no migration, and the
        # fault commands are the QEMU device's (docs/VFIO-USER.md)
        raise HarnessError(f"scenario {s.scenario} (net={s.net}, action={h.get('action')}) "
                           f"needs the in-process device: --nic vfio-user runs -netdev user "
                           f"scenarios without migration or fault commands")
    if s.net == "tap":
        if os.geteuid() != 0:
            raise HarnessError(f"--net tap (scenario {s.scenario}) needs root to create a tap "
                               f"device")
        if not os.path.exists("/dev/net/tun"):
            raise HarnessError("--net tap needs /dev/net/tun")
        if not shutil.which("ip"):
            raise HarnessError("--net tap needs ip (iproute2)")
    counts = {r: int(h.get(r) or 0) for r in ("sink", "source", "rr")}
    s.peer = s.peer or os.environ.get("RTL8168_PEER") or str(REPO / "build/bin/rtl8168-peer")
    if sum(counts.values()) and not os.access(s.peer, os.X_OK):
        raise HarnessError(f"host peer not found at {s.peer}: build it (cmake --build build), "
                           f"or pass --peer PATH")
    trace = [t for t in (h.get("trace") or "").split(",") if t]
    if h.get("action") == "faults" and s.nic != "rtl8168":
        raise HarnessError(f"scenario {s.scenario} injects faults through the rtl8168 model's "
                           f"properties: --nic rtl8168 only")
    if h.get("iommu") not in (None, "clean", "faults-allowed"):
        raise HarnessError(f"{sfile.name}: host line iommu={h['iommu']} (clean, faults-allowed)")
    return h, counts, h.get("action") or "", trace


class Run:
    """The processes and files of one run-guest invocation; close() cleans up."""

    def __init__(self, out):
        self.out = out
        self.procs = []
        self.ports = []
        self.tap = None
        self.sockdir = Path(tempfile.mkdtemp(prefix="rtl8168-run.",
                                             dir=os.environ.get("TMPDIR") or "/tmp"))

    def mon(self, n: int) -> Path:
        return self.sockdir / f"monitor-{n}.sock"

    def hmp(self, n: int, command: str) -> str:
        try:
            reply = launch.hmp(self.mon(n), command)
        except OSError as e:
            reply = f"(hmp {command!r}: {e})"
        return reply

    def hmp_log(self, n: int, command: str) -> None:
        with open(self.out / "monitor.log", "a") as f:
            f.write(self.hmp(n, command) + "\n")

    def close(self) -> None:
        for port in self.ports:
            port.close()
        for p in self.procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        if self.tap:
            subprocess.run(["ip", "link", "del", self.tap], capture_output=True)
        shutil.rmtree(self.sockdir, ignore_errors=True)


def _log(out, msg):
    with open(out / "monitor.log", "a") as f:
        f.write(msg + "\n")


def _say(msg):
    print(f"{PROG}: {msg}", file=sys.stderr, flush=True)


def _rc(p):
    rc = p.returncode
    return 128 - rc if rc is not None and rc < 0 else rc


def start_peer(run: Run, s: Spec, role: str, count: int, listen: str) -> tuple:
    out = run.out
    args = [s.peer, role, "--listen", f"{listen}:0", "--count", str(count)]
    if role == "sink":
        args += ["--expect-bytes", s.bytes, "--expect-pattern"]
    elif role == "source":
        args += ["--bytes", s.bytes]
    args += ["--timeout", str(s.timeout), "--json", str(out / f"peer-{role}.json"),
             "--ready-file", str(out / f"peer-{role}.ready")]
    log = open(out / f"peer-{role}.log", "w")
    p = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    log.close()
    run.procs.append(p)
    ready = out / f"peer-{role}.ready"
    for _ in range(100):
        if ready.is_file() and ready.stat().st_size:
            return p, ready.read_text().strip().rsplit(":", 1)[-1]
        if p.poll() is not None:
            break
        time.sleep(0.05)
    sys.stderr.write((out / f"peer-{role}.log").read_text(errors="replace"))
    what = {"sink": "sink", "source": "source", "rr": "rr server"}[role]
    raise HarnessError(f"the peer {what} did not start")


def run(s: Spec, say: Callable[[str], None] = _say) -> Outcome:
    """Run one scenario; prints the run-guest lines; returns the Outcome (HarnessError when
    nothing could be started)."""
    h, counts, action, trace = validate(s)
    chip = chips.of_props(s.device_props) if s.nic in MODEL_NICS else None
    out = Path(s.out) if s.out else REPO / "build" / "runs" / (
        f"{s.kernel}-{s.scenario}-{s.nic}{chips.dir_suffix(chip)}-"
        f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError:
        raise HarnessError(f"cannot create {out}")
    out = out.resolve()
    for pat in ("console*.log", "peer-*.json", "peer-*.ready", "peer-*.log", "qemu*.log",
                "monitor.log", "migration.state"):
        for f in out.glob(pat):
            f.unlink(missing_ok=True)
    if s.nic != "vfio-user":
        r = Run(out)
        try:
            return _run(s, r, counts, action, trace, say, h.get("iommu") or "clean")
        finally:
            r.close()
    # --nic vfio-user: a new server for each boot, on the same socket path (the previous one
    # left when its client did: --boots N checks that a restarted server serves a new QEMU)
    sockdir = Path(tempfile.mkdtemp(prefix="rtl8168-vfio.", dir=os.environ.get("TMPDIR") or "/tmp"))
    try:
        for n in range(1, s.boots + 1):
            r = Run(out if s.boots == 1 else out / f"boot-{n}")
            r.out.mkdir(parents=True, exist_ok=True)
            if s.boots > 1:
                say(f"boot {n} of {s.boots}")
            try:
                o = _run(s, r, counts, action, trace, say, h.get("iommu") or "clean",
                         sockdir / "rtl8168.sock")
            finally:
                r.close()
            if o.kind is not Kind.PASS:
                break
        return o
    finally:
        shutil.rmtree(sockdir, ignore_errors=True)


def _run(s, r, counts, action, trace, say, iommu_policy="clean", vfio_sock=None):
    out = r.out
    t0 = time.monotonic()
    net_env = {"listen": "127.0.0.1", "guest_peer": "10.0.2.2", "guest_ip": ""}
    if s.net == "tap":
        # a private /24 per run: 10.81.<n>.1 on the host's tap, 10.81.<n>.2 in the guest
        sub = f"10.81.{os.getpid() % 250 + 1}"
        tap = f"rtl8168t{os.getpid() % 10000000}"
        for cmd, what in ((["ip", "tuntap", "add", "dev", tap, "mode", "tap"],
                           f"ip tuntap add {tap}"),
                          (["ip", "addr", "add", f"{sub}.1/24", "dev", tap],
                           f"ip addr add {sub}.1/24 dev {tap}"),
                          (["ip", "link", "set", tap, "up"], f"ip link set {tap} up")):
            if subprocess.run(cmd).returncode != 0:
                raise HarnessError(f"{what} failed")
            r.tap = tap
        net_env = {"listen": f"{sub}.1", "guest_peer": f"{sub}.1", "guest_ip": f"{sub}.2/24"}
    peers, ports = {}, {}
    for role in ("sink", "source", "rr"):
        if counts[role] > 0:
            peers[role], ports[role] = start_peer(r, s, role, counts[role], net_env["listen"])

    img, _ = qemu.image(s.kernel)
    extras = qemu.initrd_append_env()
    if s.firmware:
        extras.append(str(firmware.archive(chips.chip(chip_of(s.device_props))["firmware"])))
    initrd = qemu.initrd(img / "initramfs.cpio", extras, r.sockdir / "initramfs.cpio")
    base = command(s, img, initrd, append_line(s, ports, net_env), r.tap, trace,
                   vfio_sock=vfio_sock)
    server = None
    if s.nic == "vfio-user":
        cmd = vfiouser.server_command(s.vfio_server, vfio_sock, s.device_props, MAC)
        (out / "vfio-user.cmdline").write_text(qemu.quote(cmd) + "\n")
        server = vfiouser.Server(cmd, out / "vfio-user.log")
        r.procs.append(server.proc)
        server.wait_listening()
    con = launch.Console()
    vms = {}

    ctl = None
    if action == "faults":
        # the control port (guest /dev/ttyS1) of the fault scenario: scripts/lablib/faultctl.py
        ctl = faultctl.Controller(s.scenario, faultctl.Port(r.sockdir / "ctl-1.sock"),
                                  lambda cmd: r.hmp(1, cmd), lambda m: _log(out, m))
        r.ports.append(ctl.port)

    def start_qemu(n, *extra):
        cmd = [*base, "-serial", f"file:{out}/console-{n}.log",
               "-monitor", f"unix:{r.mon(n)},server=on,wait=off", *extra]
        if ctl is not None:
            cmd += ["-serial", f"unix:{r.sockdir}/ctl-{n}.sock,server=on,wait=off"]
        (out / f"qemu-{n}.cmdline").write_text(qemu.quote(cmd) + "\n")
        vm = launch.Qemu(cmd, out / f"qemu-{n}.log")
        r.procs.append(vm.proc)
        con.add(out / f"console-{n}.log")
        vms[n] = vm
        return vm

    say(f"{s.kernel} {s.scenario} on {s.nic}{',' + s.device_props if s.device_props else ''} "
        f"({s.machine}{', intel-iommu' if s.iommu else ''}, {s.net}, {s.accel}"
        f"{', icount' if s.icount else ''}), logs in {out}, "
        f"monitor {r.mon(1)}")
    if kernelpkg.is_debug(s.kernel):
        say(f"debug kernel: transfers of {s.bytes}, timeout {s.timeout} s (the scenario's own "
            f"sizes / {kernelpkg.DEBUG_BYTES_DIVISOR} and timeout x {kernelpkg.DEBUG_TIMEOUT_FACTOR} "
            f"unless given)")
    vm = start_qemu(1)
    inst, acted = 1, ""
    watch = qemu.FaultWatch() if s.iommu else None
    stopped_on_fault = False
    deadline = launch.Deadline(s.timeout)
    press_at = None               # action=suspend: when the host next presses the power button
    end, host_fail = None, None   # host_fail: an Outcome (FAIL or TIMEOUT) of the host's own
    while True:
        text = con.text()
        if s.verbose:
            new = con.new_text()
            for l in new.splitlines():
                sys.stderr.write(f"  | {l}\n")
        c = protocol.parse(text)
        if c.end is not None:
            end = c
            break
        if not vm.alive():
            vm.wait()
            tail = " ".join((out / f"qemu-{inst}.log").read_text(errors="replace")
                            .splitlines()[-3:])
            host_fail = Outcome(Kind.FAIL, f"QEMU exited without a verdict ({tail} )")
            break
        if server is not None and not server.alive():
            host_fail = Outcome(Kind.FAIL, f"rtl8168-vfio-user exited {server.stop()} during the "
                                           f"run ({server.tail()})")
            break
        if deadline.expired():
            host_fail = Outcome(Kind.TIMEOUT, f"no VERDICT within {s.timeout}s")
            break
        if watch is not None and iommu_policy != "faults-allowed" and \
                watch.poll(out.glob("qemu-*.log")):
            # the run has failed already (a device DMA fault); a driver that lost its RX
            # buffer this way would otherwise only end at the timeout
            time.sleep(1)   # let QEMU log the faults that follow at once
            host_fail = Outcome(Kind.FAIL, "")
            stopped_on_fault = True
            break
        if action == "link-flap" and not acted and c.has_step(s.scenario, "transfer-running"):
            time.sleep(0.5)
            if server is not None:   # the server's link control (its SIGUSR1/SIGUSR2)
                say("rtl8168-vfio-user: link down")
                server.link(False)
            else:
                say("monitor: set_link nic0 off")
                r.hmp_log(inst, "set_link nic0 off")
            time.sleep(float(os.environ.get("RTL8168_FLAP_SECONDS") or 2))
            if server is not None:
                say("rtl8168-vfio-user: link up")
                server.link(True)
            else:
                say("monitor: set_link nic0 on")
                r.hmp_log(inst, "set_link nic0 on")
            acted = "flapped"
        elif ctl is not None:
            try:
                # Only lines the guest has finished: the console file is read while the guest
                # writes it, and a request cut short ("ctl 14 f" of "ctl 14 fault-list",
                # seen once under load) would otherwise be answered as an unknown request.
                ctl.serve(protocol.complete_steps(text))
            except OSError as e:
                host_fail = Outcome(Kind.FAIL, f"the control port failed: {e}")
                break
            acted = "faults" if ctl.count else acted
        elif action == "suspend" and c.has_step(s.scenario, "sleeping-s2idle") and \
                not c.has_step(s.scenario, "woken-s2idle"):
            # s2idle: the RTC alarm wakes only S3 in QEMU, the power button woke no guest; the
            # keyboard, armed as a wakeup source by the guest, does (scenarios/suspend.sh)
            now = time.monotonic()
            if press_at is None:
                press_at = now + 2
            elif now >= press_at:
                say("monitor: sendkey shift (the keyboard wakes the guest from s2idle)")
                r.hmp_log(inst, "sendkey shift")
                press_at, acted = now + 2, "woke"
        elif action == "migrate" and not acted and c.has_step(s.scenario, "transfer-running"):
            fail = _migrate(s, r, vm, out, say, t0)
            if isinstance(fail, Outcome):
                host_fail = fail
                break
            acted, inst = "migrated", 2
            vm = start_qemu(2, "-incoming", f"exec:cat {out}/migration.state")
            fail = _resume(r, vm)
            if fail:
                host_fail = fail
                break
        time.sleep(0.1)
    wall = time.monotonic() - t0

    # --- collect: give QEMU a moment to power off, then the peers to write their JSON
    if vm.wait(5) is None:
        vm.proc.terminate()
    server_rc = server.stop() if server is not None else None
    peer_fail = []
    for role in ("sink", "source", "rr"):
        p = peers.get(role)
        if p is None:
            continue
        try:
            p.wait(5)
        except subprocess.TimeoutExpired:
            p.send_signal(signal.SIGINT)
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        if p.returncode != 0:
            peer_fail.append(f"peer {role} exit {_rc(p)}")
        j = out / f"peer-{role}.json"
        if j.is_file() and j.stat().st_size:
            print(f"PEER {role} " + re.sub(" +", " ", j.read_text().replace("\n", "")))
        else:
            try:
                tail = " ".join((out / f"peer-{role}.log").read_text(errors="replace")
                                .splitlines()[-2:]) + " "
            except OSError:
                tail = ""
            print(f"PEER {role} (no JSON; log: {tail})")
    console = con.text()
    (out / "console.log").write_text(console)

    # SHA-256 of every stream against the pattern's (the peer checked the pattern bytewise too)
    sha_fail = []
    if counts["sink"] + counts["source"] > 0 and host_fail is None:
        want = ""
        p = subprocess.run([s.peer, "pattern", "--bytes", s.bytes], capture_output=True,
                           text=True)
        try:
            want = json.loads(p.stdout)["sha256"]
        except (ValueError, KeyError, TypeError):
            pass
        for role in ("sink", "source"):
            j = out / f"peer-{role}.json"
            if not (j.is_file() and j.stat().st_size):
                continue
            try:
                doc = json.loads(j.read_text())
                shas = ([c.get("sha256", "-") for c in doc.get("connections", [])]
                        if role == "sink" else [doc.get("sha256", "-")])
            except ValueError:
                shas = []
            n_ok = sum(1 for x in shas if x == want)
            print(f"HOST {role} sha256 {n_ok}/{len(shas)} match the pattern's ({want}, "
                  f"{s.bytes} bytes)")
            if not (want and n_ok == len(shas) and shas):
                sha_fail.append(f"{role} SHA-256 mismatch ({n_ok}/{len(shas)})")

    for l in protocol.lines(console):
        if re.match(r"^(GUEST|RESULT|STEP) ", l):
            print(l)
    trace_count = None
    if trace and s.nic == "rtl8168":
        pat = re.compile(r"(^|[ :])(" + "|".join(map(re.escape, trace)) + r")[ :]")
        trace_count = 0
        for f in sorted(out.glob("qemu-*.log")):
            trace_count += sum(1 for l in f.read_text(errors="replace").splitlines()
                               if pat.search(l))
        print(f"HOST trace={','.join(trace)} count={trace_count} (QEMU stderr: "
              f"{out}/qemu-N.log)")

    name = f"{s.scenario} {s.kernel} {s.nic}"
    dma = None
    if s.iommu:
        dma = qemu.dma_report(sorted(out.glob("qemu-*.log")))
        print(f"HOST iommu {dma.summary()}; {NIC_BDF} translated="
              f"{int(bool(dma.translated.get(NIC_BDF)))} (QEMU: {out}/qemu-N.log)")

    def verdict(o):
        o.wall_s = wall
        if dma is not None and dma.faults and o.kind is not Kind.PASS \
                and "IOMMU DMA fault" not in o.reason:
            o.reason += f"; {dma.summary()}"   # a failed run names its DMA faults too
        print(protocol.verdict_line(o.kind, s.scenario, s.kernel, s.nic, o.reason, wall),
              flush=True)
        return o

    if stopped_on_fault:
        host_fail.reason = f"{dma.summary()} (the run was stopped 1 s after the first)"
    if host_fail is not None:
        print("--- console tail")
        for l in console.splitlines()[-30:]:
            print(f"  | {l}")
        return verdict(host_fail)
    if not end.end.ok:
        print("--- console tail")
        rest = [l for l in console.splitlines() if not re.match(r"^(RESULT|STEP|GUEST) ", l)]
        for l in rest[-40:]:
            print(f"  | {l}")
        return verdict(Outcome(Kind.FAIL, f"guest: {end.end.reason}"))
    if peer_fail:
        return verdict(Outcome(Kind.FAIL, f"{'; '.join(peer_fail)} (see {out}/peer-*.log)"))
    if sha_fail:
        return verdict(Outcome(Kind.FAIL, "; ".join(sha_fail)))
    if trace_count == 0:
        return verdict(Outcome(Kind.FAIL, f"the device reported no {','.join(trace)} event"))
    if server is not None:
        last = [l for l in server.text().splitlines() if "exit (" in l]
        print(f"HOST vfio-user exit={server_rc} resets={server.resets()} "
              f"({last[-1] if last else server.tail(1)}; {out}/vfio-user.log)")
        if server_rc != 0:
            return verdict(Outcome(Kind.FAIL, f"rtl8168-vfio-user exited {server_rc} "
                                              f"({server.tail()})"))
        if action == "device-reset" and server.resets() < 2:
            return verdict(Outcome(Kind.FAIL, f"the server saw {server.resets()} device "
                                              f"reset(s): want the machine's and the guest's"))
    if action == "link-flap" and acted != "flapped":
        return verdict(Outcome(Kind.FAIL, "the host never flapped the link"))
    if action == "faults" and acted != "faults":
        return verdict(Outcome(Kind.FAIL, "the guest never asked for a fault"))
    if action == "migrate" and acted != "migrated":
        return verdict(Outcome(Kind.FAIL, "the host never migrated"))
    if dma is not None:
        if dma.faults and iommu_policy != "faults-allowed":
            # a stock driver's device must never fault: each one is a DMA to memory the
            # driver did not map (or no longer maps) for it
            return verdict(Outcome(Kind.FAIL, dma.summary()))
        if dma.untranslated([NIC_BDF]):
            return verdict(Outcome(Kind.FAIL, f"--iommu: QEMU never translated the NIC's "
                                              f"DMA ({NIC_BDF}; the guest did not enable DMA "
                                              f"remapping for it)"))
    (out / "migration.state").unlink(missing_ok=True)   # large; kept only when the run failed
    if dma is not None and dma.faults:   # faults-allowed (hostile): named, not judged
        return verdict(Outcome(Kind.PASS, f"{end.end.reason} ({dma.summary()}; allowed: the "
                                          f"scenario's guest program programs the device "
                                          f"itself)"))
    return verdict(Outcome(Kind.PASS, end.end.reason))


def _migrate(s, r, vm, out, say, t0):
    """stop, migrate to OUT/migration.state, quit the source. An Outcome on failure."""
    st = out / "migration.state"
    # stop first: the transfer is frozen mid-way for certain, and the state is written once
    r.hmp_log(1, "stop")
    j = out / "peer-sink.json"
    if j.is_file() and j.stat().st_size:
        return Outcome(Kind.FAIL, "the transfer ended before the migration started "
                                  "(use a larger --bytes)")
    say(f"monitor: stop; migrate to {st}")
    r.hmp_log(1, "migrate_set_parameter max-bandwidth 10G")
    r.hmp_log(1, f'migrate -d "exec:cat > {st}"')
    for _ in range(601):
        info = r.hmp(1, "info migrate")
        with open(out / "monitor.log", "a") as f:
            f.write(info + "\n")
        if re.search(r"Migration status: completed", info):
            break
        if re.search(r"Migration status: (failed|cancelled)", info):
            return Outcome(Kind.FAIL, "migration failed")
        time.sleep(0.1)
    else:
        return Outcome(Kind.FAIL, "migration did not complete")
    r.hmp(1, "quit")
    vm.wait()
    say(f"migrated ({st.stat().st_size} bytes) in {time.monotonic() - t0:.1f}s; "
        f"starting QEMU from it")
    return None


def _resume(r, vm):
    """The destination keeps the source's stopped run state: wait for the load, then cont."""
    for _ in range(301):
        time.sleep(0.2)
        now = r.hmp(2, "info status") if r.mon(2).exists() else ""
        if now.startswith("(hmp "):
            now = ""
        with open(r.out / "monitor.log", "a") as f:
            f.write(now + "\n")
        if "VM status: running" in now:
            return None
        if "VM status: paused" in now and "inmigrate" not in now:
            r.hmp_log(2, "cont")
            _say("monitor: cont on the new QEMU")
            return None
        if not vm.alive():
            return None
    return Outcome(Kind.FAIL, "the new QEMU did not load the migration state")


# ---- command line ---------------------------------------------------------------------------

EPILOG = """\
Environment: RTL8168_QEMU, RTL8168_PEER (defaults of --qemu, --peer), RTL8168_DISTRO_QEMU,
RTL8168_VFIO_SERVER (--nic vfio-user's QEMU and server), RTL8168_GUEST_APPEND
(more kernel parameters, e.g. rtl8168.debug=1), RTL8168_GUEST_MEM (MiB, default 256),
RTL8168_FLAP_SECONDS (link-flap down time, default 2), RTL8168_INITRD_APPEND=a.cpio[:b.cpio]
(newc archives appended to the image's initramfs; later files win).
Images come from scripts/build-guest, QEMU from scripts/build-qemu, the host traffic peer
from the CMake build (build/bin/rtl8168-peer). See docs/GUEST.md."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        print(f"{PROG}: error: {message} (see --help)", file=sys.stderr)
        sys.exit(2)


def _chip_ids() -> str:
    try:
        return ", ".join(chips.ids())
    except LookupError:
        return "build the model to list them"


def parser() -> argparse.ArgumentParser:
    ap = _Parser(prog="scripts/run-guest", formatter_class=argparse.RawDescriptionHelpFormatter,
                 description="Boot a guest image under QEMU, run one scenario, print its result "
                             "lines and a verdict.\nExit status: 0 PASS, 1 FAIL or TIMEOUT, 2 bad "
                             "arguments or missing pieces.",
                 epilog=EPILOG)
    ap.add_argument("--kernel", metavar="K", help="guest kernel: " + qemu.KERNEL_HELP +
                    " (images from scripts/build-guest; a tree's image is built on first use)")
    ap.add_argument("--scenario", metavar="S", help="one of: " + " ".join(scenario_names()))
    ap.add_argument("--nic", metavar="N", default="rtl8168",
                    help="rtl8168 (default), vfio-user (the model in rtl8168-vfio-user behind a "
                         "distribution QEMU's -device vfio-user-pci: scripts/fetch-distro-qemu, "
                         "docs/VFIO-USER.md), e1000e, rtl8139 or virtio (QEMU's own: comparison "
                         "and harness checks)")
    ap.add_argument("--device-props", metavar="P", default="",
                    help="extra properties appended to the NIC's -device option, e.g. "
                         "timing=off (comma-separated key=value list; see -device <nic>,help)")
    ap.add_argument("--chip", metavar="NAME",
                    help="the rtl8168's chip profile, one the model lists (rtl8168-bench chips "
                         "--ids: " + _chip_ids() + "); the same as --device-props chip=NAME, "
                         "which may name it too but no other chip")
    ap.add_argument("--machine", metavar="M", default="q35",
                    help="q35 (default; the NIC sits on a PCIe root port) or pc")
    ap.add_argument("--accel", metavar="A", default="tcg",
                    help="tcg (default) or kvm (needs a working /dev/kvm; not on these machines)")
    ap.add_argument("--net", metavar="user|tap",
                    help="-netdev user (libslirp, default) or a tap device created for the run "
                         "(root; the scenario's default, e.g. migrate uses tap)")
    ap.add_argument("--icount", action="store_true",
                    help="-icount shift=0,align=off,sleep=off and a VM-clock RTC (guest time "
                         "becomes deterministic; slower)")
    ap.add_argument("--bytes", metavar="N",
                    help="transfer size per stream (default from the scenario, e.g. 64M; divided by "
                         f"{kernelpkg.DEBUG_BYTES_DIVISOR} on a debug kernel X.Y-debug)")
    ap.add_argument("--qemu", metavar="PATH",
                    help="QEMU binary (default $RTL8168_QEMU or build/qemu/qemu-system-x86_64; "
                         "--nic vfio-user: $RTL8168_DISTRO_QEMU or scripts/fetch-distro-qemu's)")
    ap.add_argument("--peer", metavar="PATH",
                    help="host peer (default $RTL8168_PEER or build/bin/rtl8168-peer)")
    ap.add_argument("--timeout", metavar="SEC",
                    help="give up after SEC seconds of wall time (default from the scenario; times "
                         f"{kernelpkg.DEBUG_TIMEOUT_FACTOR} on a debug kernel X.Y-debug)")
    ap.add_argument("--out", metavar="DIR",
                    help="keep logs there (default build/runs/<kernel>-<scenario>-<nic>[-<chip>]-"
                         "<time>-<pid>; the chip when it is not the default)")
    ap.add_argument("--iommu", action="store_true",
                    help="run behind QEMU's intel-iommu (DMA remapping, guest: " +
                         qemu.IOMMU_APPEND + "): any DMA fault of the device FAILs the run and "
                         "is counted in the verdict (q35 only; docs/GUEST.md)")
    ap.add_argument("--firmware", action="store_true",
                    help="put the chip's firmware file (r8169's rtl_chip_infos name, e.g. "
                         "rtl_nic/rtl8168h-2.fw) from Debian's firmware-realtek into the guest: "
                         "r8169 then loads and applies it at open, and the scenario expects it "
                         "loaded (default: no file, as on boards without it)")
    ap.add_argument("--vfio-server", metavar="PATH",
                    help="--nic vfio-user: the server (default $RTL8168_VFIO_SERVER or "
                         "build/bin/rtl8168-vfio-user); started per boot with --chip and a "
                         "--param for each --device-props key, --netdev user")
    ap.add_argument("--boots", metavar="N", type=int, default=1,
                    help="--nic vfio-user: run the scenario N times, each with a new QEMU and a "
                         "new server on the same socket (the previous one exits with its "
                         "client); logs in OUT/boot-<n>")
    ap.add_argument("--verbose", action="store_true", help="echo the guest console while it runs")
    return ap


def main(argv: list) -> int:
    a = parser().parse_args(argv)
    if a.timeout is not None and not re.match(r"^[0-9]+$", a.timeout):
        print(f"{PROG}: error: --timeout needs whole seconds", file=sys.stderr)
        return 2
    s = Spec(kernel=a.kernel or "", scenario=a.scenario or "", nic=a.nic,
             device_props=a.device_props, machine=a.machine, accel=a.accel, icount=a.icount,
             net=a.net, bytes=a.bytes, qemu=a.qemu, peer=a.peer,
             timeout=int(a.timeout) if a.timeout is not None else None, out=a.out,
             verbose=a.verbose, iommu=a.iommu, chip=a.chip,
             firmware=a.firmware, vfio_server=a.vfio_server, boots=a.boots)

    def on_term(signum, frame):
        raise SystemExit(130)

    signal.signal(signal.SIGTERM, on_term)
    try:
        o = run(s)
    except HarnessError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return o.kind.exit_code
