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
"""
import os
import re
import subprocess
from pathlib import Path

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
KERNEL_HELP = ("6.1, 6.12, 7.2, latest (the newest Debian kernel), X.Y.Z, or the path of a "
               "built kernel tree")


def binary(explicit=None, env=os.environ):
    """The QEMU binary every launcher uses (a str)."""
    if explicit:
        return str(explicit)
    return env.get("RTL8168_QEMU") or str(DEFAULT_QEMU)


def check_binary(path, need_rtl8168=False):
    if not os.access(path, os.X_OK):
        raise HarnessError(f"QEMU not found at {path}: run scripts/build-qemu, or set "
                           f"RTL8168_QEMU / pass --qemu PATH")
    if need_rtl8168:
        p = subprocess.run([path, "-device", "help"], capture_output=True, text=True)
        if '"rtl8168"' not in p.stdout + p.stderr:
            raise HarnessError(f"{path} has no -device rtl8168: run scripts/build-qemu")


def firmware_args(dirs=FW_DIRS, isdir=os.path.isdir):
    out = []
    for d in dirs:
        if isdir(d):
            out += ["-L", d]
    return out


def check_props(text, what="--device-props"):
    if text and not PROPS_RE.match(text):
        raise HarnessError(f"{what}: '{text}' is not key=value[,key=value...] without spaces")
    return text


def props(*sources):
    """Merge key=value lists by key (a later source wins, the first position stays) into the
    ',k=v,...' suffix of a -device value ('' when empty)."""
    d = {}
    for s in sources:
        if s:
            # split at single commas only: ",," is a comma inside a value (QEMU's escape)
            d.update(kv.replace("\0", ",,").split("=", 1)
                     for kv in s.replace(",,", "\0").split(","))
    return "".join(f",{k}={v}" for k, v in d.items())


def device(model, id, netdev, mac, bus=None, extra=""):
    """A NIC's -device value (id None: no QOM id). extra: ',k=v...' (from props()) or 'k=v,...'."""
    v = model + (f",id={id}" if id else "") + f",netdev={netdev},mac={mac},romfile="
    if bus:
        v += f",bus={bus}"
    if extra:
        v += extra if extra.startswith(",") else "," + extra
    return v


def icount(rr=None, rrfile=None):
    v = ICOUNT
    if rr:
        v += f",rr={rr},rrfile={rrfile}"
    return v


def kernel_name(spec, build=True, env=os.environ):
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
    if kernelpkg.is_path(spec) and build:
        p = subprocess.run([str(REPO / "scripts" / "build-guest"), "--kernel", spec, "--quiet"],
                           capture_output=True, text=True, env=env)
        if p.returncode != 0:
            lines = p.stderr.strip().splitlines() or [f"build-guest exited {p.returncode}"]
            raise HarnessError(lines[-1].replace("build-guest: error: ", ""))
    return name


def image(kernel):
    """(dir, info dict) of build/guest/<K>; HarnessError when it is not built."""
    d = REPO / "build" / "guest" / kernel
    if not (d / "vmlinux").exists() or not (d / "initramfs.cpio").exists():
        raise HarnessError(f"no guest image for {kernel} in build/guest/{kernel}: "
                           f"run scripts/build-guest --kernel {kernel}")
    info = {}
    if (d / "info").is_file():
        info = dict(l.split("=", 1) for l in (d / "info").read_text().split() if "=" in l)
    return d, info


def initrd_append_env(env=os.environ):
    """$RTL8168_INITRD_APPEND=a.cpio[:b.cpio]: archives appended after the image (and overlay);
    later files win (scripts/regress puts the module under test there)."""
    extras = [x for x in env.get("RTL8168_INITRD_APPEND", "").split(":") if x]
    for x in extras:
        if not os.path.isfile(x):
            raise HarnessError(f"RTL8168_INITRD_APPEND: no file {x}")
    return extras


def initrd(base, extras, dest):
    """base when nothing is appended, else dest = base + extras (newc archives in order)."""
    if not extras:
        return str(base)
    cpio.concat(dest, [base, *extras])
    return str(dest)


def quote(cmd):
    """A command line as one printable line (for qemu.cmdline files)."""
    return " ".join(f"'{c}'" if " " in c else c for c in cmd)
