# SPDX-License-Identifier: GPL-2.0-or-later
"""QEMU command-line pieces shared by every launcher.

  binary(explicit)      --qemu PATH, else $RTL8168_QEMU, else build/qemu/qemu-system-x86_64
  firmware_args()       -L for the firmware directories that exist (SeaBIOS, QEMU, iPXE)
  device(model, ...)    a -device value: model,id=..,netdev=..,mac=..,romfile=,bus=..<props>
  props(*sources)       key=value[,...] lists merged by key (later wins) -> ",k=v,..."
  icount(rr, rrfile)    the lab's deterministic -icount value, optionally with record/replay
  initrd(image, extras, dest)  the image's initramfs with newc archives appended
  kernel_name(spec)     the build/guest/<name> of a --kernel value (latest -> its series, a kernel
                        tree PATH -> tree-<hash>, its image built by scripts/build-guest)
  image(kernel)         build/guest/<K>/{vmlinux,initramfs.cpio,info} (scripts/build-guest)
  iommu_args()          --iommu: QEMU's intel-iommu (DMA remapping) and the trace events that
                        count device DMA faults; IOMMU_APPEND is the guest's side
  dma_report(texts)     --iommu: the DMA faults and translated devices of a run's QEMU logs
"""
import os
import re
import subprocess
from pathlib import Path
from typing import Callable, Iterable, Mapping

from . import cpio, kernelpkg
from .result import HarnessError

REPO = Path(__file__).resolve().parent.parent.parent
DEFAULT_QEMU = REPO / "build" / "qemu" / "qemu-system-x86_64"
FW_DIRS = ("/usr/share/seabios", "/usr/share/qemu", "/usr/lib/ipxe/qemu")
# a value may hold QEMU's escaped comma ",," (e.g. faults=spurious-irq:bits=0x8001,,at=20s)
PROPS_RE = re.compile(r"^[A-Za-z0-9_.-]+=(?:[^,\s]|,,)*(,[A-Za-z0-9_.-]+=(?:[^,\s]|,,)*)*$")
ICOUNT = "shift=0,align=off,sleep=off"
VM_RTC = "base=2024-01-01T00:00:00,clock=vm"
KERNELS = kernelpkg.KERNELS
KERNEL_HELP = ("6.1, 6.12, 7.2, latest (the newest Debian kernel), X.Y.Z, X.Y-debug (the debug "
               "kernel built from Debian's source: KASAN, lockdep, DMA-API debug, kmemleak), or "
               "the path of a built kernel tree")


def binary(explicit: str | Path | None = None, env: Mapping[str, str] = os.environ) -> str:
    """The QEMU binary every launcher uses (a str)."""
    if explicit:
        return str(explicit)
    return env.get("RTL8168_QEMU") or str(DEFAULT_QEMU)


def check_binary(path: str, need_rtl8168: bool = False) -> None:
    if not os.access(path, os.X_OK):
        raise HarnessError(f"QEMU not found at {path}: run scripts/build-qemu, or set "
                           f"RTL8168_QEMU / pass --qemu PATH")
    if need_rtl8168:
        p = subprocess.run([path, "-device", "help"], capture_output=True, text=True)
        if '"rtl8168"' not in p.stdout + p.stderr:
            raise HarnessError(f"{path} has no -device rtl8168: run scripts/build-qemu")


def firmware_args(dirs: Iterable[str] = FW_DIRS,
                  isdir: Callable[[str], bool] = os.path.isdir) -> list:
    out = []
    for d in dirs:
        if isdir(d):
            out += ["-L", d]
    return out


def check_props(text: str, what: str = "--device-props") -> str:
    if text and not PROPS_RE.match(text):
        raise HarnessError(f"{what}: '{text}' is not key=value[,key=value...] without spaces")
    return text


def props(*sources: str) -> str:
    """Merge key=value lists by key (a later source wins, the first position stays) into the
    ',k=v,...' suffix of a -device value ('' when empty)."""
    d = {}
    for s in sources:
        if s:
            # split at single commas only: ",," is a comma inside a value (QEMU's escape)
            d.update(kv.replace("\0", ",,").split("=", 1)
                     for kv in s.replace(",,", "\0").split(","))
    return "".join(f",{k}={v}" for k, v in d.items())


def device(model: str, id: str | None, netdev: str, mac: str, bus: str | None = None,
           extra: str = "") -> str:
    """A NIC's -device value (id None: no QOM id). extra: ',k=v...' (from props()) or 'k=v,...'."""
    v = model + (f",id={id}" if id else "") + f",netdev={netdev},mac={mac},romfile="
    if bus:
        v += f",bus={bus}"
    if extra:
        v += extra if extra.startswith(",") else "," + extra
    return v


def icount(rr: str | None = None, rrfile: str | Path | None = None) -> str:
    v = ICOUNT
    if rr:
        v += f",rr={rr},rrfile={rrfile}"
    return v


def kernel_name(spec: str, build: bool = True, env: Mapping[str, str] = os.environ) -> str:
    """The image name (build/guest/<name>) of a --kernel value: a Debian name as given, latest as
    the series it means today, a kernel tree PATH as tree-<hash>; for a PATH the image is built
    or refreshed first (scripts/build-guest: cached by the tree's contents, so a no-op when the
    tree did not change). HarnessError, one line, for a bad value."""
    if not spec:
        raise HarnessError(f"--kernel is required ({KERNEL_HELP})")
    try:
        name = kernelpkg.image_name(spec)
    except kernelpkg.LookupError_ as e:
        raise HarnessError(str(e))
    if (kernelpkg.is_path(spec) or kernelpkg.is_debug(spec)) and build:
        p = subprocess.run([str(REPO / "scripts" / "build-guest"), "--kernel", spec, "--quiet"],
                           capture_output=True, text=True, env=env)
        if p.returncode != 0:
            lines = p.stderr.strip().splitlines() or [f"build-guest exited {p.returncode}"]
            raise HarnessError(lines[-1].replace("build-guest: error: ", ""))
    return name


def image(kernel: str) -> tuple:
    """(dir, info dict) of build/guest/<K>; HarnessError when it is not built."""
    d = REPO / "build" / "guest" / kernel
    if not (d / "vmlinux").exists() or not (d / "initramfs.cpio").exists():
        raise HarnessError(f"no guest image for {kernel} in build/guest/{kernel}: "
                           f"run scripts/build-guest --kernel {kernel}")
    info = {}
    if (d / "info").is_file():
        info = dict(l.split("=", 1) for l in (d / "info").read_text().split() if "=" in l)
    return d, info


def initrd_append_env(env: Mapping[str, str] = os.environ) -> list:
    """$RTL8168_INITRD_APPEND=a.cpio[:b.cpio]: archives appended after the image (and overlay);
    later files win (scripts/regress puts the module under test there)."""
    extras = [x for x in env.get("RTL8168_INITRD_APPEND", "").split(":") if x]
    for x in extras:
        if not os.path.isfile(x):
            raise HarnessError(f"RTL8168_INITRD_APPEND: no file {x}")
    return extras


def initrd(base: str | Path, extras: list, dest: str | Path) -> str:
    """base when nothing is appended, else dest = base + extras (newc archives in order)."""
    if not extras:
        return str(base)
    cpio.concat(dest, [base, *extras])
    return str(dest)


def quote(cmd: Iterable[str]) -> str:
    """A command line as one printable line (for qemu.cmdline files)."""
    return " ".join(f"'{c}'" if " " in c else c for c in cmd)


# ---- --iommu: the NIC's DMA behind QEMU's intel-iommu (docs/GUEST.md "DMA behind an IOMMU") ---
# intel-iommu must be created before the PCI devices it translates (QEMU resolves a device's
# DMA address space at realize), so iommu_args() goes before the root ports. intremap=on as on
# real VT-d platforms (MSIs are then remapped: /proc/interrupts shows IR-PCI-MSI); caching-mode
# and device-iotlb are for assigned devices and ATS and not needed by an emulated NIC.
IOMMU_DEVICE = "intel-iommu,intremap=on"
# iommu.strict=1: every dma_unmap invalidates the IOTLB at once (no flush queue), so a buffer
# the chip still owns faults on its next access; iommu.passthrough=0: translated, not identity
IOMMU_APPEND = "intel_iommu=on iommu.strict=1 iommu.passthrough=0"
# vtd_dmar_fault: every DMA remapping fault the IOMMU records (QEMU hw/i386/intel_iommu.c
# vtd_report_dmar_fault); vtd_fault_disabled: one the context entry suppressed (FPD);
# vtd_switch_address_space: which devices' DMA is translated; rtl8168_dma_error: every DMA
# transaction the shim saw refused (also with bus mastering off, which is no IOMMU fault)
IOMMU_TRACE = ("vtd_dmar_fault", "vtd_fault_disabled", "vtd_switch_address_space",
               "rtl8168_dma_error")
VTD_FAULT_REASONS = {1: "root entry not present", 2: "context entry not present",
                     3: "invalid context entry", 4: "address beyond MGAW",
                     5: "no write permission", 6: "no read permission",
                     7: "invalid paging entry"}
_FAULT_RE = re.compile(r"(?:^|[ :])vtd_dmar_fault sid 0x([0-9a-fA-F]+) fault (\d+) "
                       r"addr 0x([0-9a-fA-F]+) write (\d)")
_SWITCH_RE = re.compile(r"(?:^|[ :])vtd_switch_address_space Device "
                        r"([0-9a-f]{2}:[0-9a-f]{2}\.[0-9a-f]+) .*enabled=(\d)")
_FPD_RE = re.compile(r"(?:^|[ :])vtd_fault_disabled ")
_REFUSED_RE = re.compile(r"(?:^|[ :])rtl8168_dma_error ")


def iommu_args() -> list:
    return ["-device", IOMMU_DEVICE, *[x for t in IOMMU_TRACE for x in ("-trace", t)]]


def sid_bdf(sid: int) -> str:
    """A PCI requester id (bus << 8 | devfn) as bus:slot.fn."""
    return f"{sid >> 8:02x}:{(sid >> 3) & 0x1f:02x}.{sid & 7:x}"


class DmaReport:
    """What QEMU's log says about DMA under --iommu.
    faults        DMA remapping faults the IOMMU recorded (vtd_dmar_fault), all devices
    by_device     {bdf: count} of those
    suppressed    faults suppressed by a context entry's FPD bit (vtd_fault_disabled)
    refused       DMA transactions the rtl8168 shim saw refused (rtl8168_dma_error)
    translated    {bdf: bool}: whether QEMU translated the device's DMA at some point (the
                  guest's shutdown turns translation off again, so the last state says nothing)
    first         the first fault, as text ('' when none)"""

    def __init__(self):
        self.faults = 0
        self.by_device = {}
        self.suppressed = 0
        self.refused = 0
        self.translated = {}
        self.first = ""

    def add_text(self, text: str) -> None:
        for line in text.splitlines():
            m = _FAULT_RE.search(line)
            if m:
                sid, reason, addr, write = (int(m.group(1), 16), int(m.group(2)),
                                            int(m.group(3), 16), m.group(4) == "1")
                bdf = sid_bdf(sid)
                self.faults += 1
                self.by_device[bdf] = self.by_device.get(bdf, 0) + 1
                if not self.first:
                    self.first = (f"{bdf} DMA {'write' if write else 'read'} of 0x{addr:x}: "
                                  f"{VTD_FAULT_REASONS.get(reason, f'fault reason {reason}')}")
                continue
            m = _SWITCH_RE.search(line)
            if m:
                self.translated[m.group(1)] = self.translated.get(m.group(1), False) or \
                    m.group(2) == "1"
            elif _FPD_RE.search(line):
                self.suppressed += 1
            elif _REFUSED_RE.search(line):
                self.refused += 1
        return self

    def summary(self) -> str:
        """One line: 'N IOMMU DMA faults (...)' or 'no IOMMU DMA fault'."""
        if self.faults or self.suppressed:
            per = ", ".join(f"{k}: {v}" for k, v in sorted(self.by_device.items()))
            s = (f"{self.faults} IOMMU DMA fault{'s' if self.faults != 1 else ''} "
                 f"(vtd_dmar_fault; {per or 'none recorded'}; first: {self.first or '-'})")
            if self.suppressed:
                s += f", {self.suppressed} suppressed by FPD"
        else:
            s = "no IOMMU DMA fault"
        return s + f"; {self.refused} DMA transaction{'s' if self.refused != 1 else ''} " \
                   f"refused to the rtl8168 (rtl8168_dma_error)"

    def untranslated(self, bdfs: Iterable[str]) -> list:
        """The devices among bdfs whose DMA QEMU never translated during the run."""
        return [b for b in bdfs if not self.translated.get(b)]

    def to_dict(self) -> dict:
        return {"faults": self.faults, "by_device": dict(self.by_device),
                "suppressed": self.suppressed, "refused": self.refused,
                "translated": dict(self.translated), "first": self.first}


class FaultWatch:
    """Counts vtd_dmar_fault lines in growing QEMU logs while a run goes on (reads only what
    was appended since the last poll), so a run that has already failed can stop early."""

    def __init__(self):
        self.offsets = {}
        self.partial = {}
        self.faults = 0

    def poll(self, paths: Iterable[str | Path]) -> int:
        for p in paths:
            p = Path(p)
            try:
                with open(p, "rb") as f:
                    f.seek(self.offsets.get(p, 0))
                    data = f.read()
            except OSError:
                continue
            self.offsets[p] = self.offsets.get(p, 0) + len(data)
            text = self.partial.get(p, "") + data.decode(errors="replace")
            lines = text.split("\n")
            self.partial[p] = lines.pop()
            self.faults += sum(1 for line in lines if _FAULT_RE.search(line))
        return self.faults


def dma_report(paths: Iterable[str | Path]) -> DmaReport:
    """DmaReport of QEMU log files (missing files count as empty)."""
    r = DmaReport()
    for p in paths:
        try:
            r.add_text(Path(p).read_text(errors="replace"))
        except OSError:
            pass
    return r
