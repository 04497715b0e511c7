# SPDX-License-Identifier: GPL-2.0-or-later
"""A user's own built kernel tree as a guest kernel: is it built, does it have what the
project's guests need, where are its image and modules (docs/KERNELS.md).

    info = kerneltree.check(path)      # dict, or raises kerneltree.BadTree (one line)
    mdir = kerneltree.install_modules(path, dest)   # dest/lib/modules/<release>, or None
    k = kerneltree.key(path)           # content key for images built from the tree

PATH is a source tree built in place (make; make modules) or a `make O=DIR` output directory
(its own Makefile includes the source's; scripts/build-kernel makes those). Built means: a
.config, include/config/kernel.release and an image, arch/x86/boot/bzImage and/or vmlinux.
The image the project boots is vmlinux when it is an ELF with the PVH entry note (QEMU
-kernel takes it directly), else bzImage.

The .config must have every option of ESSENTIAL (the essentials of
guest-tests/kernel/guest.config); BadTree names each one that is missing, with why, in one
line. r8169 and the Realtek PHY driver may be modules or built in; as modules their .ko
files must be built.

Command line:
  python3 scripts/lablib/kerneltree.py check PATH           -> key=value lines (kind=tree,
                                                              release=, image=, r8169=, ...)
  python3 scripts/lablib/kerneltree.py key PATH             -> the key
  python3 scripts/lablib/kerneltree.py install-modules PATH DEST  -> the lib/modules dir
exit 2 with one line "kerneltree: error: ..." on stderr for a tree that does not qualify.
Standard library only."""
import hashlib
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

PROG = "kerneltree"

# option -> (accepted values, why the guests need it); guest-tests/kernel/guest.config sets
# each of these (and more that are useful but not required)
ESSENTIAL = {
    "CONFIG_X86_64": ("y", "the guests are x86_64: qemu-system-x86_64 -M q35/pc"),
    "CONFIG_PVH": ("y", "QEMU -kernel boots the uncompressed vmlinux through its PVH note"),
    "CONFIG_PCI": ("y", "the NICs are PCI(e) devices"),
    "CONFIG_PCI_MSI": ("y", "r8169 runs the 8168 on MSI, lab case msi"),
    "CONFIG_ACPI": ("y", "poweroff -f ends every guest run; q35's PCIe config space"),
    "CONFIG_TTY": ("y", "console=ttyS0"),
    "CONFIG_SERIAL_8250": ("y", "console=ttyS0 carries every guest line to the host"),
    "CONFIG_SERIAL_8250_CONSOLE": ("y", "console=ttyS0 carries every guest line to the host"),
    "CONFIG_PRINTK": ("y", "the scenarios read r8169's probe lines from dmesg"),
    "CONFIG_BLK_DEV_INITRD": ("y", "the initramfs is the guest's root"),
    "CONFIG_DEVTMPFS": ("y", "/init mounts devtmpfs on /dev"),
    "CONFIG_PROC_FS": ("y", "/init mounts /proc; the scenarios read /proc/net"),
    "CONFIG_SYSFS": ("y", "/init mounts /sys; the scenarios read /sys/class/net"),
    "CONFIG_BINFMT_ELF": ("y", "busybox and the guest programs are ELF"),
    "CONFIG_BINFMT_SCRIPT": ("y", "/init and the scenarios are #!/bin/sh scripts"),
    "CONFIG_NET": ("y", "networking"),
    "CONFIG_INET": ("y", "TCP/UDP to the host peer and between the lab's NICs"),
    "CONFIG_PACKET": ("y", "udhcpc needs packet sockets"),
    "CONFIG_NET_NS": ("y", "the lab puts the partner NIC in its own network namespace"),
    "CONFIG_R8169": ("ym", "the driver under test"),
    "CONFIG_REALTEK_PHY": ("ym", "r8169's PHY driver, RTL8211B of the 8168c"),
}
# needed only when CONFIG_MODULES=y
ESSENTIAL_WITH_MODULES = {
    "CONFIG_MODULE_UNLOAD": ("y", "hostile.sh and scripts/regress unload and reload r8169"),
}
# module name -> (ESSENTIAL option, dict key in check()'s result)
DRIVERS = {"r8169": ("CONFIG_R8169", "r8169"), "realtek": ("CONFIG_REALTEK_PHY", "realtek_phy")}

VMLINUX = "vmlinux"
BZIMAGE = "arch/x86/boot/bzImage"
RELEASE = "include/config/kernel.release"
XEN_ELFNOTE_PHYS32_ENTRY = 18


class BadTree(Exception):
    """PATH is not a usable built kernel tree (the message is one line)."""


def read_config(path: str | Path) -> dict:
    """{CONFIG_X: value} of a .config ("is not set" lines are absent)."""
    opts = {}
    for line in Path(path).read_text(errors="replace").splitlines():
        if line.startswith("CONFIG_") and "=" in line:
            k, v = line.split("=", 1)
            opts[k] = v.strip('"') if v.startswith('"') else v
    return opts


def has_pvh_note(path: str | Path) -> bool:
    """True when PATH is an x86_64 ELF whose PT_NOTE segments hold Xen's PHYS32_ENTRY note
    (the PVH entry point QEMU -kernel uses for an uncompressed vmlinux)."""
    try:
        with open(path, "rb") as f:
            eh = f.read(64)
            if len(eh) < 64 or eh[:4] != b"\x7fELF" or eh[4] != 2 or eh[5] != 1:
                return False
            phoff, = struct.unpack_from("<Q", eh, 32)
            phentsize, phnum = struct.unpack_from("<HH", eh, 54)
            for i in range(phnum):
                f.seek(phoff + i * phentsize)
                ph = f.read(56)
                if len(ph) < 56:
                    return False
                p_type, = struct.unpack_from("<I", ph, 0)
                if p_type != 4:          # PT_NOTE
                    continue
                off, = struct.unpack_from("<Q", ph, 8)
                size, = struct.unpack_from("<Q", ph, 32)
                f.seek(off)
                data = f.read(min(size, 1 << 20))
                pos = 0
                while pos + 12 <= len(data):
                    namesz, descsz, ntype = struct.unpack_from("<III", data, pos)
                    name = data[pos + 12:pos + 12 + namesz].rstrip(b"\0")
                    if name == b"Xen" and ntype == XEN_ELFNOTE_PHYS32_ENTRY:
                        return True
                    pos += 12 + (namesz + 3) // 4 * 4 + (descsz + 3) // 4 * 4
    except OSError:
        return False
    return False


def source_of(tree: Path) -> Path:
    """The source tree of PATH: PATH itself when built in place, else where an O= directory's
    `source` link or Makefile points."""
    link = tree / "source"
    if link.is_symlink() or link.is_dir():
        return link.resolve()
    mk = tree / "Makefile"
    if mk.is_file():
        for line in mk.read_text(errors="replace").splitlines():
            if line.startswith("include ") and line.rstrip().endswith("/Makefile"):
                return Path(line.split(None, 1)[1].strip()).parent.resolve()
    return tree


def _modules_order(tree):
    """The modules of the tree (paths relative to it, .ko), from modules.order."""
    mo = tree / "modules.order"
    if not mo.is_file():
        return None
    mods = []
    for line in mo.read_text(errors="replace").split():
        line = line.removeprefix("kernel/")
        if line.endswith(".o"):
            line = line[:-2] + ".ko"
        mods.append(line)
    return mods


def check(path: str | Path) -> dict:
    """What PATH is (dict), or BadTree naming what is missing."""
    tree = Path(path).resolve() if path else None
    if tree is None or not tree.is_dir():
        raise BadTree(f"kernel tree {path}: no such directory")
    vml, bz = tree / VMLINUX, tree / BZIMAGE
    missing = []
    if not (tree / ".config").is_file():
        missing.append(".config")
    if not (tree / RELEASE).is_file():
        missing.append(RELEASE)
    if not vml.is_file() and not bz.is_file():
        missing.append(f"{VMLINUX} or {BZIMAGE}")
    if missing:
        what = ("not a kernel tree" if not (tree / "Makefile").is_file()
                else "not a built kernel")
        raise BadTree(f"kernel tree {path}: {what}: no {', no '.join(missing)} "
                      f"(build it: scripts/build-kernel SRC, or make && make modules)")
    cfg = read_config(tree / ".config")
    release = (tree / RELEASE).read_text().strip()
    if not release:
        raise BadTree(f"kernel tree {path}: {RELEASE} is empty")
    modules = cfg.get("CONFIG_MODULES") == "y"
    need = dict(ESSENTIAL)
    if modules:
        need.update(ESSENTIAL_WITH_MODULES)
    lacks = [f"{opt} ({why})" for opt, (vals, why) in need.items()
             if cfg.get(opt) not in tuple(vals)]
    if lacks:
        raise BadTree(f"kernel tree {path}: .config lacks {', '.join(lacks)}")
    pvh = vml.is_file() and has_pvh_note(vml)
    if pvh:
        image = vml
    elif bz.is_file():
        image = bz
    else:
        raise BadTree(f"kernel tree {path}: {VMLINUX} has no PVH note and there is no {BZIMAGE}")
    info = {"kind": "tree", "path": str(tree), "release": release, "image": str(image),
            "image_kind": "vmlinux" if pvh else "bzImage",
            "vmlinux": str(vml) if vml.is_file() else "", "bzimage": str(bz) if bz.is_file() else "",
            "pvh": pvh, "config": str(tree / ".config"), "modules": modules,
            "layout": "in-place" if source_of(tree) == tree else "O=",
            "source": str(source_of(tree))}
    order = _modules_order(tree) if modules else []
    for mod, (opt, field) in DRIVERS.items():
        info[field] = "module" if cfg.get(opt) == "m" else "builtin"
        if info[field] == "module":
            if order is None:
                raise BadTree(f"kernel tree {path}: {opt}=m but the modules are not built "
                              f"(no modules.order: make modules)")
            ko = [m for m in order if m.rsplit("/", 1)[-1] == f"{mod}.ko"]
            if not ko or not (tree / ko[0]).is_file():
                raise BadTree(f"kernel tree {path}: {opt}=m but {ko[0] if ko else mod + '.ko'} "
                              f"is not built (make modules)")
            info[f"{field}_ko"] = str(tree / ko[0])
    info["key"] = _key(tree, info)
    return info


def _sha256(path):
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def _key(tree, info):
    h = hashlib.sha256()
    h.update(f"release {info['release']}\n".encode())
    h.update(f"image {info['image_kind']} {_sha256(info['image'])}\n".encode())
    h.update(f"config {_sha256(info['config'])}\n".encode())
    # the modules too: a rebuilt r8169.ko leaves vmlinux unchanged, and an image holding the
    # old module must not be reused
    for m in sorted(_modules_order(tree) or []) if info["modules"] else []:
        p = tree / m
        h.update(f"module {m} {_sha256(p) if p.is_file() else '-'}\n".encode())
    return h.hexdigest()[:16]


def key(path: str | Path) -> str:
    """Content key of a built tree (16 hex digits): release, the image's and .config's
    sha256 and the built modules', so a rebuilt tree gets a new key."""
    return check(path)["key"]


def _depmod():
    for c in (shutil.which("depmod"), "/usr/sbin/depmod", "/sbin/depmod"):
        if c and os.access(c, os.X_OK):
            return c
    return None


def install_modules(path: str | Path, dest: str | Path, make_args: tuple = ()) -> Path | None:
    """make -C PATH modules_install INSTALL_MOD_PATH=DEST INSTALL_MOD_STRIP=1 (with depmod);
    returns DEST/lib/modules/<release> (a Path), or None when CONFIG_MODULES is off."""
    info = check(path)
    if not info["modules"]:
        return None
    dest = Path(dest).resolve()
    dest.mkdir(parents=True, exist_ok=True)
    dm = _depmod()
    if dm is None:
        raise BadTree(f"kernel tree {path}: depmod not found (apt-get install kmod)")
    cmd = ["make", "-s", "-C", info["path"], "modules_install", f"INSTALL_MOD_PATH={dest}",
           "INSTALL_MOD_STRIP=1", f"DEPMOD={dm}", *make_args]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        last = [l for l in (p.stderr + p.stdout).splitlines() if l.strip()][-1:] or ["?"]
        raise BadTree(f"kernel tree {path}: make modules_install failed: {last[0]}")
    mdir = dest / "lib" / "modules" / info["release"]
    if not (mdir / "modules.dep").is_file():
        raise BadTree(f"kernel tree {path}: modules_install left no {mdir}/modules.dep")
    return mdir


def _fmt(v):
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def main(argv: list) -> int:
    usage = ("usage: kerneltree.py check PATH | key PATH | install-modules PATH DEST")
    if len(argv) >= 1 and argv[0] in ("-h", "--help"):
        print(usage)
        return 0
    try:
        if len(argv) == 2 and argv[0] == "check":
            for k, v in check(argv[1]).items():
                print(f"{k}={_fmt(v)}")
        elif len(argv) == 2 and argv[0] == "key":
            print(key(argv[1]))
        elif len(argv) == 3 and argv[0] == "install-modules":
            print(install_modules(argv[1], argv[2]) or "")
        else:
            print(f"{PROG}: error: {usage}", file=sys.stderr)
            return 2
    except BadTree as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
