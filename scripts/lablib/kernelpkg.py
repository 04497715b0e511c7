# SPDX-License-Identifier: GPL-2.0-or-later
"""Which kernel a guest kernel name means: the one lookup of scripts/build-guest (the Debian
packages it unpacks), scripts/build-driver (the headers of the same release, so a module's
vermagic is the image's) and every launcher (the build/guest/<name> image they boot).

A kernel name (--kernel) is one of
  6.1     the ABI linux-image-amd64 depends on (apt-cache depends), e.g. linux-image-6.1.0-57-amd64;
          else the newest linux-image-6.1.0-N-amd64 apt knows
  X.Y     the newest linux-image-X.Y.N[+debNN]-amd64 apt knows: 6.12 (bookworm-security),
          7.2 (Debian unstable, whose lines scripts/setup adds)
  X.Y.Z   exactly that upstream version (linux-image-X.Y.Z[+debNN]-amd64); its image is
          build/guest/X.Y.Z
  latest  the newest X.Y series apt knows (Debian unstable's kernel); its image is build/guest/X.Y
  X.Y-debug  the debug kernel: Debian's linux-source-X.Y at the X.Y image's version, built
          with guest-tests/kernel/debug.config (scripts/lablib/debugkernel.py); its image is
          build/guest/X.Y-debug
  PATH    a kernel build tree of the user's (anything with a '/', or an existing directory):
          not a Debian package; scripts/lablib/kerneltree.py checks it, its image is
          build/guest/tree-<hash of the resolved path>
$RTL8168_KERNEL_PKG overrides the linux-image package name for every Debian name.
The version is apt's candidate (apt-cache policy), else the newest apt-cache show lists.
Debian unstable moves on: a series or version apt no longer lists is refused with one line
naming what the archive has now (exit 2).

KERNELS are the Debian kernels the project tests (CTest, stored regress baselines); LATEST is
the alias for the newest.

Command line (for the shell scripts):
  python3 scripts/lablib/kernelpkg.py NAME          ->  name=, series=, package=, version=,
                                                        release=, debs= lines
  python3 scripts/lablib/kernelpkg.py --name NAME   ->  the image name only (build/guest/<it>)
  python3 scripts/lablib/kernelpkg.py --is-path NAME  exit 0 for a kernel tree PATH, 1 otherwise
  python3 scripts/lablib/kernelpkg.py --is-debug NAME exit 0 for a debug kernel name X.Y-debug
  python3 scripts/lablib/kernelpkg.py --available   ->  the series apt knows, newest last
exit 2 with a one-line error on stderr for a name apt knows nothing of."""
import hashlib
import os
import re
import subprocess
import sys
from typing import Callable, Mapping

KERNELS = ("6.1", "6.12", "7.2")
LATEST = "latest"
SERIES_RE = re.compile(r"^([0-9]+)\.([0-9]+)$")
VERSION_RE = re.compile(r"^([0-9]+)\.([0-9]+)\.([0-9]+)$")
# linux-image-X.Y.Z[+debNN]-amd64 (6.12 and later); 6.1's ABI names are linux-image-6.1.0-N-amd64
IMAGE_RE = re.compile(r"^linux-image-([0-9]+)\.([0-9]+)\.([0-9]+)(\+deb[0-9]+)?-amd64$")
IMAGE_61_RE = re.compile(r"^linux-image-6\.1\.0-[0-9]+-amd64$")
DEBUG_RE = re.compile(r"^([0-9]+\.[0-9]+)-debug$")


class LookupError_(Exception):
    pass


def _apt(*args):
    p = subprocess.run(["apt-cache", *args], capture_output=True, text=True)
    return p.stdout if p.returncode == 0 else ""


def version_key(s: str) -> list:
    """Sort key close to `sort -V` for package names and versions."""
    return [(0, int(x), "") if x.isdigit() else (1, 0, x) for x in re.findall(r"\d+|\D+", s)]


def newest(names: list) -> str:
    return sorted(names, key=version_key)[-1] if names else ""


def is_path(name: str) -> bool:
    """A kernel tree rather than a Debian kernel name."""
    return "/" in name or name.startswith(".") or (bool(name) and os.path.isdir(name)
                                                   and not SERIES_RE.match(name))


def is_debug(name: str) -> bool:
    """A debug kernel name (X.Y-debug): a tree built from Debian's source, not a package."""
    return bool(DEBUG_RE.match(name or ""))


# The debug kernel (KASAN, lockdep, DMA-API debugging, kmemleak) runs its instrumented code
# under TCG several times slower than a Debian kernel: measured on 2 cores (docs/KERNELS.md "The
# debug kernel"), its boot to the first scenario line takes about 8x as long and a TCP stream
# through the NIC runs about 6x slower. A scenario run on it therefore gets DEBUG_TIMEOUT_FACTOR
# times its timeout and 1/DEBUG_BYTES_DIVISOR of its transfer sizes: the entry still moves every
# frame size and both directions through the driver (what KASAN and the DMA-API checks watch),
# in a time CI can afford.
DEBUG_TIMEOUT_FACTOR = 4
DEBUG_BYTES_DIVISOR = 8


def timeout_for(name: str, seconds: int) -> int:
    """A scenario's timeout on kernel name: DEBUG_TIMEOUT_FACTOR times longer on a debug kernel."""
    return seconds * DEBUG_TIMEOUT_FACTOR if is_debug(name) else seconds


def bytes_for(name: str, size: str) -> str:
    """A transfer size ('64M', '512K', '1000') on kernel name: divided by DEBUG_BYTES_DIVISOR on
    a debug kernel (never below 64K, or the size itself when smaller), in the largest unit that
    divides it."""
    if not is_debug(name):
        return size
    m = re.match(r"^([0-9]+)([KMG]?)$", size)
    if not m:
        raise ValueError(f"transfer size '{size}': a number with optional K, M or G")
    n = int(m.group(1)) * {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}[m.group(2)]
    n = max(n // DEBUG_BYTES_DIVISOR, min(n, 64 << 10))
    for unit, mul in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if n % mul == 0:
            return f"{n // mul}{unit}"
    return str(n)


def tree_name(path: str) -> str:
    real = os.path.realpath(path)
    return "tree-" + hashlib.sha256(real.encode()).hexdigest()[:12]


def _image_names(run):
    return [n for n in run("pkgnames", "linux-image-").split()
            if IMAGE_RE.match(n) or IMAGE_61_RE.match(n)]


def available(run: Callable[..., str] = _apt) -> list:
    """The X.Y series apt lists a linux-image package for, oldest first."""
    series = set()
    for n in _image_names(run):
        m = IMAGE_RE.match(n)
        series.add(f"{m.group(1)}.{m.group(2)}" if m else "6.1")
    return sorted(series, key=version_key)


def _available_text(run):
    a = available(run)
    return "the archive has " + (", ".join(a) if a else "no linux-image-*-amd64 (apt-get update? "
                                 "scripts/setup)")


def series_of(name: str, run: Callable[..., str] = _apt) -> str:
    """latest -> the newest series; X.Y and X.Y.Z -> X.Y; refuses anything else."""
    if name == LATEST:
        a = available(run)
        if not a:
            raise LookupError_(f"'{LATEST}': {_available_text(run)}")
        return a[-1]
    m = SERIES_RE.match(name) or VERSION_RE.match(name)
    if not m:
        raise LookupError_(f"unsupported kernel '{name}' (a series such as "
                           f"{', '.join(KERNELS)}, an exact version X.Y.Z, '{LATEST}', or the "
                           f"path of a built kernel tree)")
    return f"{m.group(1)}.{m.group(2)}"


def image_name(name: str, run: Callable[..., str] = _apt) -> str:
    """The build/guest/<name> directory a kernel name boots."""
    if is_path(name):
        return tree_name(name)
    if is_debug(name):
        return name
    return series_of(name, run) if name == LATEST else name


def package(name: str, run: Callable[..., str] = _apt,
            env: Mapping[str, str] = os.environ) -> str:
    """The linux-image package of a Debian kernel name."""
    series = series_of(name, run)
    pkg = env.get("RTL8168_KERNEL_PKG", "")
    if pkg:
        return pkg
    if series == "6.1":
        pkg = newest(re.findall(r"linux-image-6\.1\.0-[0-9]+-amd64", run("depends",
                                                                        "linux-image-amd64")))
        if not pkg:
            pkg = newest([n for n in _image_names(run) if IMAGE_61_RE.match(n)])
    else:
        exact = VERSION_RE.match(name)
        names = []
        for n in _image_names(run):
            m = IMAGE_RE.match(n)
            if not m or f"{m.group(1)}.{m.group(2)}" != series:
                continue
            if exact and m.group(3) != exact.group(3):
                continue
            names.append(n)
        pkg = newest(names)
    if not pkg:
        if VERSION_RE.match(name):
            same = sorted({".".join(IMAGE_RE.match(n).group(1, 2, 3)) for n in _image_names(run)
                           if IMAGE_RE.match(n) and IMAGE_RE.match(n).group(1, 2) ==
                           tuple(series.split("."))}, key=version_key)
            if same:
                raise LookupError_(f"version {name} is not in the archive (any more?): it has "
                                   f"{', '.join(same)} of {series}")
            what = f"version {name}"
        else:
            what = f"kernel {series}"
        raise LookupError_(f"{what} is not in the archive (any more?): {_available_text(run)}")
    return pkg


def version(pkg: str, run: Callable[..., str] = _apt) -> str:
    m = re.search(r"Candidate:\s*(\S+)", run("policy", pkg))
    v = m.group(1) if m else ""
    if not v or v == "(none)":
        v = newest(re.findall(r"^Version:\s*(\S+)", run("show", pkg), re.M))
    if not v:
        raise LookupError_(f"{pkg} has left the archive (apt knows no version of it): "
                           f"{_available_text(run)}")
    return v


def release(pkg: str) -> str:
    """The kernel release a linux-image package name carries (6.1.0-57-amd64)."""
    r = pkg[len("linux-image-"):] if pkg.startswith("linux-image-") else pkg
    return r[:-len("-unsigned")] if r.endswith("-unsigned") else r


def debs(pkg: str, run: Callable[..., str] = _apt) -> list:
    """The packages whose files make the image: since Debian's 7.x the linux-image package is
    an empty dependency of linux-binary-<release> (vmlinuz), linux-modules-<release> and
    linux-base-<release> (modules.builtin, modules.order: depmod needs them)."""
    rel = release(pkg)
    deps = re.findall(r"Depends:\s*(\S+)", run("depends", pkg))
    split = [d for d in (f"linux-binary-{rel}", f"linux-modules-{rel}", f"linux-base-{rel}")
             if d in deps]
    return split if split else [pkg]


def lookup(name: str, run: Callable[..., str] = _apt,
           env: Mapping[str, str] = os.environ) -> dict:
    if is_path(name):
        raise LookupError_(f"'{name}' is a kernel tree, not a Debian kernel name")
    if is_debug(name):
        raise LookupError_(f"'{name}' is a debug kernel built from source "
                           f"(scripts/lablib/debugkernel.py), not a Debian kernel package")
    pkg = package(name, run, env)
    return {"name": image_name(name, run), "series": series_of(name, run), "package": pkg,
            "version": version(pkg, run), "release": release(pkg),
            "debs": " ".join(debs(pkg, run))}


def main(argv: list) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.split("Command line", 1)[1].split("\n", 1)[1].rstrip())
        return 0 if argv else 2
    try:
        if argv[0] == "--available" and len(argv) == 1:
            print(" ".join(available()))
            return 0
        if argv[0] == "--is-path" and len(argv) == 2:
            return 0 if is_path(argv[1]) else 1
        if argv[0] == "--is-debug" and len(argv) == 2:
            return 0 if is_debug(argv[1]) else 1
        if argv[0] == "--name" and len(argv) == 2:
            print(image_name(argv[1]))
            return 0
        if len(argv) != 1:
            print("kernelpkg: error: one kernel name (see --help)", file=sys.stderr)
            return 2
        d = lookup(argv[0])
    except LookupError_ as e:
        print(f"kernelpkg: error: {e}", file=sys.stderr)
        return 2
    for k in ("name", "series", "package", "version", "release", "debs"):
        print(f"{k}={d[k]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
