# SPDX-License-Identifier: GPL-2.0-or-later
"""The driver under test: --driver SPEC -> Module.

SPEC is one of
  stock        the guest kernel's own r8169 (nothing is built or injected)
  DIR          r8169 sources (the files of drivers/net/ethernet/realtek/, or a kernel tree that
               has them there) or the project's guest-tests/driver (rtl8168sim), built out of
               tree against the kernel's headers (scripts/build-driver --print-headers)
  FILE.patch   a patch (git diff / diff -u, paths relative to the kernel tree or to the
  FILE.diff    realtek directory) applied to the stock r8169 sources of the kernel, which come
               from Debian's linux-source-<K> package of the image's version
  FILE.ko      a prebuilt module; its vermagic must be the guest kernel's release

Built modules are cached by content hash (sources + kernel release + headers version +
compiler) in <cache>/regress/modules/<K>/<hash>/, stock sources by version in
<cache>/r8169-src/<version>/realtek/. Every failure is a BadInput (one line, exit 2); a
build failure is a BuildFailed (scripts/bisect: skip the revision).
"""
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from lablib import cpio

from . import kernels
from .errors import BadInput, BuildFailed

REALTEK = "drivers/net/ethernet/realtek"
SRC_SUFFIXES = (".c", ".h")
SRC_NAMES = ("Makefile", "Kbuild")


class Module:
    """kind: stock|src|patch|ko; name: r8169|rtl8168sim; ko: Path or None; sha: 16 hex."""

    def __init__(self, kind, name, ko=None, sha="", label="stock", desc="", vermagic=""):
        self.kind, self.name, self.ko, self.sha = kind, name, ko, sha
        self.label, self.desc, self.vermagic = label, desc, vermagic

    def to_dict(self) -> dict:
        return {"kind": self.kind, "module": self.name, "ko": str(self.ko or ""),
                "sha": self.sha, "label": self.label, "desc": self.desc,
                "vermagic": self.vermagic}


@contextmanager
def locked(path: str | Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


# ---- stock sources --------------------------------------------------------------------------

def stock_sources(kernel: str, log: Callable[[str], None] = lambda m: None) -> Path:
    """drivers/net/ethernet/realtek/ of Debian's linux-source-<K> at the image's version."""
    info = kernels.image_info(kernel)
    if info.get("package") == "tree":
        # a kernel tree of your own: its stock r8169 is the one in its own sources
        from lablib import kerneltree
        try:
            src = Path(kerneltree.check(info.get("path", ""))["source"]) / REALTEK
        except kerneltree.BadTree as e:
            raise BadInput(str(e))
        if not (src / "r8169_main.c").is_file():
            raise BadInput(f"kernel tree {info.get('path')}: no {REALTEK}/r8169_main.c in its sources")
        return src
    version = info.get("version") or kernels.headers(kernel)["version"]
    base = kernels.cache_root() / "r8169-src" / re.sub(r"[:~]", "_", version)
    done = base / "realtek"
    if (done / "r8169_main.c").is_file():
        return done
    with locked(base.parent / ".lock"):
        if (done / "r8169_main.c").is_file():
            return done
        pkg = f"linux-source-{info.get('series') or kernel}"   # 7.2.13 -> linux-source-7.2
        log(f"fetching {pkg}={version} (Debian archive; only {REALTEK}/ is kept)")
        base.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=".fetch-", dir=base))
        try:
            p = _run(["apt-get", "download", "-q", f"{pkg}={version}"], cwd=work)
            debs = list(work.glob("*.deb"))
            if p.returncode != 0 or not debs:
                why = (p.stderr.strip().splitlines() or ["no .deb"])[-1]
                raise BadInput(f"cannot download {pkg}={version} for the stock r8169 sources: "
                               f"{why} (apt-get update? scripts/setup)")
            # the deb holds usr/src/linux-source-K.tar.xz; stream only the realtek directory out
            sh = (f"dpkg-deb --fsys-tarfile '{debs[0]}' | tar -xO ./usr/src/{pkg}.tar.xz "
                  f"| xz -dc | tar -x -C '{work}' --wildcards '{pkg}/{REALTEK}/*'")
            p = _run(["bash", "-o", "pipefail", "-c", sh])
            got = work / pkg / REALTEK
            if p.returncode != 0 or not (got / "r8169_main.c").is_file():
                raise BadInput(f"{debs[0].name} has no {REALTEK}/r8169_main.c "
                               f"({(p.stderr.strip().splitlines() or ['?'])[-1]})")
            keep = Path(tempfile.mkdtemp(prefix=".realtek-", dir=base))
            for f in sorted(got.iterdir()):
                if f.name.startswith("r8169") or f.name in ("Makefile", "Kconfig"):
                    shutil.copy2(f, keep / f.name)
            (keep / ".origin").write_text(f"{pkg}={version}\n")
            os.replace(keep, done)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return done


# ---- building -------------------------------------------------------------------------------

def find_sources(path: Path) -> tuple:
    """(directory, module name) of the driver sources under path."""
    path = Path(path)
    if not path.is_dir():
        raise BadInput(f"--driver {path}: no such directory")
    for d in (path, path / REALTEK):
        if (d / "r8169_main.c").is_file():
            return d, "r8169"
    if (path / "rtl8168sim.h").is_file() or "rtl8168sim" in _read(path / "Makefile"):
        return path, "rtl8168sim"
    raise BadInput(f"--driver {path}: neither r8169 sources (r8169_main.c, or {REALTEK}/ of a "
                   f"kernel tree) nor the project's rtl8168sim driver")


def _read(p):
    try:
        return Path(p).read_text(errors="replace")
    except OSError:
        return ""


def source_files(d: str | Path) -> list:
    return sorted(f for f in Path(d).iterdir()
                  if f.is_file() and (f.suffix in SRC_SUFFIXES or f.name in SRC_NAMES)
                  and f.name != "regpoke.c")  # a guest tool of the driver's smoke test


def module_files(d: str | Path, name: str) -> list:
    """The files a module's build needs: its sources, and for rtl8168sim the register map it
    shares with the guest tools (rtl8168-regs.h, kept in guest-tests/programs/ beside the
    driver's directory; scripts/build-driver copies it in the same way) unless the directory
    has its own copy."""
    files = source_files(d)
    if name == "rtl8168sim" and not (Path(d) / SHARED_REGS).is_file():
        for cand in (Path(d).resolve().parent / "programs" / SHARED_REGS,
                     Path(__file__).resolve().parents[2] / "guest-tests" / "programs" /
                     SHARED_REGS):
            if cand.is_file():
                files.append(cand)
                break
    return files


SHARED_REGS = "rtl8168-regs.h"


def kbuild_for(d: str | Path, name: str) -> str | None:
    """The Kbuild text that builds only the module (the realtek Makefile also builds 8139cp,
    8139too, atp from the kernel's config)."""
    if name == "rtl8168sim":
        return None  # its Makefile is kbuild-ready
    mk = _read(Path(d) / "Makefile")
    lines = [l for l in mk.splitlines() if re.match(r"^\s*r8169-", l)]
    if not lines:
        lines = ["r8169-objs := " + " ".join(
            f.stem + ".o" for f in source_files(d) if f.suffix == ".c")]
    return "\n".join(lines + ["obj-m += r8169.o", ""])


def build_key(kernel: str, d: str | Path, name: str) -> str:
    hd = kernels.headers(kernel)
    h = hashlib.sha256()
    cc = _run([hd["cc"], "--version"]).stdout.splitlines()[:1]
    for part in (name, hd["release"], hd["version"], " ".join(cc)):
        h.update(part.encode() + b"\0")
    for f in module_files(d, name):
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def build(kernel: str, srcdir: str | Path, log: Callable[[str], None] = lambda m: None, kind: str = "src",
          label: str | None = None, desc: str | None = None) -> Module:
    d, name = find_sources(srcdir)
    if not source_files(d):
        raise BadInput(f"--driver {srcdir}: no sources")
    hd = kernels.headers(kernel)
    key = build_key(kernel, d, name)
    store = kernels.cache_root() / "regress" / "modules" / kernel
    final = store / key
    label = label or f"{Path(srcdir).resolve().name}@{key[:8]}"
    desc = desc or f"{name} built from {d}"
    ko = final / f"{name}.ko"
    if not ko.is_file():
        with locked(store / ".lock"):
            if not ko.is_file():
                _build_into(kernel, d, name, key, store, hd, log)
    meta = json.loads((final / "info.json").read_text())
    return Module(kind, name, ko, key, label, desc, meta.get("vermagic", ""))


def _build_into(kernel, d, name, key, store, hd, log):
    store.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".build-{key}-", dir=store))
    try:
        src = work / "src"
        src.mkdir()
        for f in module_files(d, name):
            shutil.copy2(f, src / f.name)
        kb = kbuild_for(d, name)
        if kb is not None:
            (src / "Makefile").unlink(missing_ok=True)
            (src / "Kbuild").write_text(kb)
        log(f"building {name}.ko for {hd['release']} from {d} (key {key})")
        cmd = ["nice", "-n", "10", "make", "-C", hd["kdir"], f"M={src}", f"CC={hd['cc']}",
               "PAHOLE=true", f"KCFLAGS=-ffile-prefix-map={src}/={name}/", "-j2", "modules"]
        p = _run(cmd)
        logtext = " ".join(cmd) + "\n" + p.stdout + p.stderr
        if p.returncode != 0 or not (src / f"{name}.ko").is_file():
            failed = store / "failed"
            failed.mkdir(exist_ok=True)
            flog = failed / f"{key}.log"
            flog.write_text(logtext)
            errs = [l.strip() for l in logtext.splitlines() if re.search(r"\berror\b", l)]
            first = (errs or [l for l in logtext.splitlines() if l.strip()][-1:] or ["?"])[0]
            first = first.replace(str(src) + "/", "")
            raise BuildFailed(f"the {name} sources in {d} do not build against "
                              f"{hd['release']}: {first} (log: {flog})")
        vm = _run(["modinfo", "-F", "vermagic", str(src / f"{name}.ko")]).stdout.split()
        if not vm or vm[0] != hd["release"]:
            raise BuildFailed(f"built {name}.ko has vermagic {vm[:1]}, not {hd['release']}")
        out = work / "out"
        out.mkdir()
        # like Debian's modules: no debug info (the image stays small, the code is the same)
        p = _run(["strip", "--strip-debug", "-o", str(out / f"{name}.ko"), str(src / f"{name}.ko")])
        if p.returncode != 0:
            shutil.copy2(src / f"{name}.ko", out / f"{name}.ko")
        (out / "build.log").write_text(logtext)
        (out / "info.json").write_text(json.dumps({
            "module": name, "kernel": kernel, "release": hd["release"],
            "headers_version": hd["version"], "sources": str(d), "key": key,
            "vermagic": " ".join(vm),
            "files": {f.name: hashlib.sha256(f.read_bytes()).hexdigest()
                      for f in source_files(d)}}, indent=2) + "\n")
        final = store / key
        shutil.rmtree(final, ignore_errors=True)
        os.replace(out, final)
    finally:
        shutil.rmtree(work, ignore_errors=True)


# ---- patches --------------------------------------------------------------------------------

def apply_patch(kernel: str, patch: str | Path, dest: Path, log: Callable[[str], None] = lambda m: None) -> Path:
    """Copy the stock sources to dest (a kernel-tree layout) and apply the patch there.
    Returns the realtek directory. Paths in the patch may be relative to the kernel tree
    (a/drivers/net/ethernet/realtek/r8169_main.c) or to the realtek directory."""
    stock = stock_sources(kernel, log)
    tree = Path(dest)
    rt = tree / REALTEK
    rt.mkdir(parents=True)
    for f in sorted(stock.iterdir()):
        if f.is_file() and not f.name.startswith("."):
            shutil.copy2(f, rt / f.name)
    text = Path(patch).read_text(errors="replace")
    if not re.search(r"^(---|\+\+\+|diff --git) ", text, re.M):
        raise BadInput(f"--driver {patch}: not a patch (no diff headers)")
    errors = []
    # git apply inside a repository applies relative to its top: the cache may live inside one
    # (CI puts RTL8168_CACHE in the workspace), so stop repository discovery at dest
    env = dict(os.environ, GIT_CEILING_DIRECTORIES=str(tree.resolve().parent))
    for where, strip in ((tree, 1), (rt, 1), (tree, 0), (rt, 0)):
        check = _run(["git", "apply", "--check", f"-p{strip}", str(Path(patch).resolve())],
                     cwd=where, env=env)
        if check.returncode == 0:
            p = _run(["git", "apply", f"-p{strip}", str(Path(patch).resolve())], cwd=where,
                     env=env)
            if p.returncode == 0:
                return rt
        errors.append((check.stderr.strip().splitlines() or ["?"])[0])
    origin = _read(stock / ".origin").strip() or "the stock sources"
    best = next((e for e in errors if "No such file" not in e and "can't find" not in e),
                errors[0])
    raise BadInput(f"patch {patch} does not apply to the stock r8169 of {origin}: {best}")


# ---- prebuilt modules -----------------------------------------------------------------------

def check_ko(kernel: str, ko: Path) -> Module:
    ko = Path(ko)
    if not ko.is_file():
        raise BadInput(f"--driver {ko}: no such file")
    rel = kernels.image_info(kernel)["release"]
    p = _run(["modinfo", "-F", "vermagic", str(ko)])
    vm = p.stdout.split()
    if p.returncode != 0 or not vm:
        raise BadInput(f"--driver {ko}: not a kernel module (modinfo: "
                       f"{(p.stderr.strip().splitlines() or ['no vermagic'])[-1]})")
    if vm[0] != rel:
        raise BadInput(f"--driver {ko}: vermagic {vm[0]} does not match the {kernel} guest "
                       f"kernel {rel}")
    name = _run(["modinfo", "-F", "name", str(ko)]).stdout.strip()
    if name not in ("r8169", "rtl8168sim"):
        raise BadInput(f"--driver {ko}: module '{name or '?'}' is neither r8169 nor rtl8168sim")
    sha = hashlib.sha256(ko.read_bytes()).hexdigest()[:16]
    return Module("ko", name, ko.resolve(), sha, f"{ko.name}@{sha[:8]}",
                  f"prebuilt {name} {ko.resolve()}", " ".join(vm))


# ---- SPEC -----------------------------------------------------------------------------------

def resolve(spec: str, kernel: str, log: Callable[[str], None] = lambda m: None) -> Module:
    if spec == "stock":
        rel = kernels.image_info(kernel)["release"]
        return Module("stock", "r8169", None, "", "stock",
                      f"the {rel} image's own r8169", rel)
    p = Path(spec)
    if p.is_dir():
        return build(kernel, p, log)
    if not p.exists():
        raise BadInput(f"--driver {spec}: no such file or directory (stock, a source "
                       f"directory, a .patch/.diff or a .ko)")
    if p.suffix == ".ko":
        return check_ko(kernel, p)
    if p.suffix in (".patch", ".diff") or p.name.endswith((".patch", ".diff")):
        store = kernels.cache_root() / "regress" / "patched"
        store.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=".patch-", dir=store))
        try:
            rt = apply_patch(kernel, p, work / "tree", log)
            m = build(kernel, rt, log, kind="patch", label=None,
                      desc=f"stock r8169 + {p.resolve()}")
            m.label = f"{p.name}@{m.sha[:8]}"
            return m
        finally:
            shutil.rmtree(work, ignore_errors=True)
    raise BadInput(f"--driver {spec}: a file must be a .patch/.diff or a .ko")


def overlay(module: Module, kernel: str) -> Path | None:
    """The newc archive that puts the module into the guest (None for stock). r8169 replaces
    the image's own file (modprobe loads it from there); rtl8168sim goes where run-lab keeps it."""
    if module.ko is None:
        return None
    rel = kernels.image_info(kernel)["release"]
    if module.name == "r8169":
        dest = kernels.module_path(kernel, "r8169")
    else:
        dest = f"lib/modules/{rel}/extra/rtl8168sim.ko"
    store = kernels.cache_root() / "regress" / "overlays"
    store.mkdir(parents=True, exist_ok=True)
    path = store / f"{kernel}-{module.name}-{module.sha}.cpio"
    if not path.is_file():
        cpio.write(path, {dest: (Path(module.ko).read_bytes(), 0o644)})
    return path
