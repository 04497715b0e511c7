# SPDX-License-Identifier: GPL-2.0-or-later
"""guest-tests/driver/smoke-test: the guest driver's boot test (docs/DRIVER.md).

One guest with two rtl8168 NICs on one QEMU hub: NIC 1 bound to rtl8168sim (driver_override),
NIC 2 to the stock r8169 in its own network namespace. The guest's /init is
guest-tests/driver/smoke-init (end line VERDICT PASS|FAIL smoke <reason>, lablib.protocol); it,
the module, its parameters and a
static regpoke go into an overlay archive appended to the image's initramfs (nothing of
scripts/build-guest changes)."""
import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import chips, cpio, launch, protocol, qemu
from .result import HarnessError, Kind

REPO = qemu.REPO
DRIVER = REPO / "guest-tests" / "driver"
PROG = "smoke-test"

DESCRIPTION = """\
Boot one guest with two emulated rtl8168 NICs on one QEMU hub: NIC 1 bound to rtl8168sim
(driver_override), NIC 2 to the stock r8169 in its own network namespace; check probe,
link, ping, TCP streams both ways with offloads toggled (ethtool -K), a request/response
run, ethtool -i/-k/-S, the TX watchdog reset (Bus Master cleared with regpoke), rmmod,
insmod without binding, bind with new_id, ping again.
Needs: scripts/build-guest --kernel K, scripts/build-driver --kernel K, build/qemu (or
$RTL8168_QEMU). The guest's /init is guest-tests/driver/smoke-init, appended to the image's
initramfs in an overlay archive (the kernel unpacks concatenated archives in order).
Prints the guest console; exit 0 when the guest prints "VERDICT PASS smoke ...", 1 on
VERDICT FAIL or a timeout, 2 on bad arguments or missing pieces."""


def command(qemu_bin: str, img: Path, initrd: str | Path, console: str | Path,
            chip: str | None = None) -> list:
    """chip: NIC A's profile (rtl8168sim's NIC; NIC B, r8169's, stays the default), None for the
    model's default: the command line without --chip is unchanged."""
    a_props = f",chip={chip}" if chip and chip != chips.default_id() else ""
    return [qemu_bin, "-nodefaults", "-no-reboot", "-display", "none", "-m", "512", "-smp", "1",
            *qemu.firmware_args(), "-accel", "tcg", "-M", "q35",
            "-device", "pcie-root-port,id=rp1,chassis=1,slot=1",
            "-device", "pcie-root-port,id=rp2,chassis=2,slot=2",
            "-netdev", "hubport,id=a,hubid=0",
            "-device", qemu.device("rtl8168", None, "a", "52:54:00:00:00:01", "rp1", a_props),
            "-netdev", "hubport,id=b,hubid=0",
            "-device", qemu.device("rtl8168", None, "b", "52:54:00:00:00:02", "rp2"),
            "-kernel", str(img / "vmlinux"), "-initrd", str(initrd),
            "-append", "console=ttyS0 panic=-1 loglevel=4", "-serial", f"file:{console}"]


def overlay(path: str | Path, krel: str, ko: str | Path, params: str, regpoke: str | Path) -> None:
    t = cpio.Tree()
    t.file("init", (DRIVER / "smoke-init").read_bytes(), 0o755)
    # the helpers every guest shares (smoke-init sources it): the overlay's copy, not the image's
    t.file("etc/guest-lib.sh", (REPO / "guest-tests/initramfs/guest-lib.sh").read_bytes(), 0o644)
    t.file(f"lib/modules/{krel}/extra/rtl8168sim.ko", Path(ko).read_bytes())
    t.file("rtl8168sim.params", (params + "\n").encode())
    t.file("usr/bin/regpoke", Path(regpoke).read_bytes(), 0o755)
    t.write(path)


def run(kernel: str, params: str, timeout: float, chip: str | None = None) -> tuple:
    kernel = qemu.kernel_name(kernel)
    img, info = qemu.image(kernel)
    ko = REPO / "build" / "driver" / kernel / "rtl8168sim.ko"
    if not ko.is_file():
        raise HarnessError(f"no module: scripts/build-driver --kernel {kernel}")
    q = qemu.binary()
    if not Path(q).is_file():
        raise HarnessError(f"no QEMU at {q}: scripts/build-qemu")
    work = Path(tempfile.mkdtemp(prefix="rtl8168sim-smoke."))
    try:
        regpoke = work / "regpoke"
        p = subprocess.run(["gcc", "-static", "-O2", "-Wall", "-o", str(regpoke),
                            str(DRIVER / "regpoke.c")])
        if p.returncode != 0:
            raise HarnessError("gcc -static regpoke.c failed")
        overlay(work / "ov.cpio", info["release"], ko, params, regpoke)
        initrd = qemu.initrd(img / "initramfs.cpio", [work / "ov.cpio"], work / "initramfs.cpio")
        console = work / "console.log"
        deadline = launch.Deadline(timeout)
        vm = launch.Qemu(command(q, img, initrd, console, chip), work / "qemu.log", nice=19)
        try:
            while vm.alive() and not deadline.expired():
                time.sleep(0.2)
            timed_out = vm.alive()
            rc = vm.stop(grace=0) if timed_out else vm.wait()
        finally:
            vm.close()
        text = launch.Console(console).text()
        sys.stdout.write(text)
        for l in (work / "qemu.log").read_text(errors="replace").splitlines():
            if "is not connected to host network" not in l:
                print(l, file=sys.stderr)
        end = protocol.parse(text).end
        if timed_out:
            return Kind.TIMEOUT, f"no power-off within {timeout:g} s"
        if end is not None and end.ok:
            return Kind.PASS, ""
        return Kind.FAIL, f"qemu rc {rc}" + (f": {end.reason}" if end else "")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list) -> int:
    ap = argparse.ArgumentParser(prog="guest-tests/driver/smoke-test", description=DESCRIPTION,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernel", required=True, metavar="K", help="guest kernel: " + qemu.KERNEL_HELP)
    ap.add_argument("--params", default="", metavar='"k=v ..."',
                    help='rtl8168sim module parameters, e.g. "irq_ack_loop=0"')
    ap.add_argument("--use-intx", action="store_true", help="adds use_intx=1 to --params")
    ap.add_argument("--timeout", type=float, default=300, metavar="SEC",
                    help="wall-clock limit (default 300)")
    ap.add_argument("--chip", metavar="NAME",
                    help="chip profile of rtl8168sim's NIC (one the model lists, e.g. 8168h; "
                         "default the model's); r8169's NIC keeps the default")
    try:
        a = ap.parse_args(argv)
    except SystemExit as e:
        return 0 if e.code == 0 else 2
    params = a.params + (" use_intx=1" if a.use_intx else "")
    try:
        if a.chip is not None:
            chips.check(a.chip)
        kind, reason = run(a.kernel, params, a.timeout, a.chip)
    except HarnessError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    what = f"{a.kernel}, params '{params}'" + (f", chip {a.chip}" if a.chip else "") + \
        (f", {reason}" if reason else "")
    print(f"{PROG}: {kind} ({what})")
    return kind.exit_code
