# SPDX-License-Identifier: GPL-2.0-or-later
"""The debug guest kernels: the kernel name X.Y-debug (`--kernel 6.12-debug` of build-guest,
build-driver, run-guest, run-lab and regress) is Debian's linux-source-X.Y at the version of
the X.Y guest kernel (the same source the Debian image X.Y was built from), built by
scripts/build-kernel with guest-tests/kernel/guest.config (and pre-6.13.config for the series
before 6.13) and debug.config (KASAN, lockdep,
DMA-API debugging, kmemleak: docs/KERNELS.md "The debug kernel"). Its image is
build/guest/X.Y-debug; its own r8169 is the stock driver.

The source package is fetched with `apt-get download` into the cache (never installed) and
its tarball kept there: <cache>/kernel-src/debian/linux-source-X.Y_<version>/. build-kernel
keys its output by the tarball's sha256, the fragments and the compiler, so a second run is
a no-op and a new Debian version or an edited debug.config builds anew.

  python3 scripts/lablib/debugkernel.py tree 6.12-debug     build if needed, print the tree
  python3 scripts/lablib/debugkernel.py tree 6.12-debug --if-built
                                                           print it only if built (exit 3 if not)
exit 2 with one line on stderr for a bad name or a source apt cannot fetch; 1 when the build
fails (build-kernel's error lines)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    from . import firmware, kernelpkg
except ImportError:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from lablib import firmware, kernelpkg   # noqa: E402

REPO = Path(__file__).resolve().parent.parent.parent
DEBUG_RE = kernelpkg.DEBUG_RE
FRAGMENT = REPO / "guest-tests" / "kernel" / "debug.config"
# guest.config's preemption model (PREEMPT_LAZY) came with 6.13: older series get this too
PRE_613 = REPO / "guest-tests" / "kernel" / "pre-6.13.config"


class DebugKernelError(Exception):
    """One line for the user; .code is the exit status (2 bad input, 1 build failure, 3 not
    built with --if-built)."""

    def __init__(self, msg: str, code: int = 2):
        super().__init__(msg)
        self.code = code


is_debug = kernelpkg.is_debug


def series(name: str) -> str:
    m = DEBUG_RE.match(name or "")
    if not m:
        raise DebugKernelError(f"'{name}' is not a debug kernel name (X.Y-debug, e.g. 6.12-debug)")
    return m.group(1)


def source_tarball(ser: str, env=os.environ) -> Path:
    """linux-source-<ser>.tar.xz at the version of the <ser> guest kernel, cached."""
    try:
        version = kernelpkg.lookup(ser)["version"]
    except kernelpkg.LookupError_ as e:
        raise DebugKernelError(str(e))
    pkg = f"linux-source-{ser}"
    d = firmware.cache_root(env) / "kernel-src" / "debian" / f"{pkg}_{re.sub(r'[:~]', '_', version)}"
    tar = d / f"{pkg}.tar.xz"
    if tar.is_file():
        return tar
    d.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".fetch-", dir=d))
    try:
        p = subprocess.run(["apt-get", "download", "-q", f"{pkg}={version}"], cwd=work,
                           capture_output=True, text=True)
        debs = sorted(work.glob("*.deb"))
        if p.returncode != 0 or not debs:
            why = (p.stderr.strip().splitlines() or ["no .deb"])[-1]
            raise DebugKernelError(f"cannot download {pkg}={version} for the debug kernel: {why}")
        member = f"./usr/src/{pkg}.tar.xz"
        with open(work / "fsys.tar", "wb") as out:
            subprocess.run(["dpkg-deb", "--fsys-tarfile", str(debs[0])], stdout=out, check=True)
        subprocess.run(["tar", "-xf", "fsys.tar", member], cwd=work, check=True,
                       capture_output=True)
        os.replace(work / member, tar)
    except subprocess.CalledProcessError as e:
        raise DebugKernelError(f"cannot unpack {pkg}={version}: {e}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return tar


def tree(name: str, if_built: bool = False, env=os.environ) -> Path:
    """The build-kernel output directory of the debug kernel `name` (built first unless
    if_built, which raises code 3 when it is not built yet)."""
    ser = series(name)
    tar = source_tarball(ser, env)
    cmd = [str(REPO / "scripts" / "build-kernel"), str(tar)]
    if kernelpkg.version_key(ser) < kernelpkg.version_key("6.13"):
        cmd += ["--config", str(PRE_613)]
    cmd += ["--config", str(FRAGMENT), "--quiet"]
    if if_built:
        cmd.append("--if-built")
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    last = (p.stdout.strip().splitlines() or [""])[-1]
    if p.returncode == 3 and if_built:
        raise DebugKernelError(f"the debug kernel {name} is not built yet "
                               f"(scripts/build-guest --kernel {name} builds it)", 3)
    if p.returncode != 0 or not last.startswith("build-kernel: "):
        lines = p.stderr.strip().splitlines() or [f"build-kernel exited {p.returncode}"]
        raise DebugKernelError(lines[-1].replace("build-kernel: error: ", ""),
                               2 if p.returncode == 2 else 1)
    return Path(last[len("build-kernel: "):])


def main(argv: list) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    try:
        if argv[0] == "tree" and len(argv) in (2, 3) and argv[2:] in ([], ["--if-built"]):
            print(tree(argv[1], if_built=argv[2:] == ["--if-built"]))
            return 0
        raise DebugKernelError("usage: debugkernel.py tree X.Y-debug [--if-built] (see --help)")
    except DebugKernelError as e:
        print(f"debugkernel: error: {e}", file=sys.stderr)
        return e.code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
