# SPDX-License-Identifier: GPL-2.0-or-later
"""newc cpio: write a small archive byte-identically run to run (fixed inode numbers, mtime 0,
owner 0), and list the names in one (to find where the guest image keeps a module).

The kernel unpacks concatenated archives in order and a later regular file replaces an earlier
one, so an archive appended to the guest's initramfs overrides single files of the image
(scripts/run-guest and scripts/run-lab append $RTL8168_INITRD_APPEND)."""
import os
import stat


def _entry(out, ino, name, mode, data):
    nb = name.encode() + b"\0"
    nlink = 2 if stat.S_ISDIR(mode) else 1
    fields = [ino, mode, 0, 0, nlink, 0, len(data), 0, 0, 0, 0, len(nb), 0]
    hdr = b"070701" + b"".join(b"%08X" % f for f in fields)
    out.write(hdr + nb)
    out.write(b"\0" * ((4 - (len(hdr) + len(nb)) % 4) % 4))
    out.write(data)
    out.write(b"\0" * ((4 - len(data) % 4) % 4))


def write(path, files):
    """files: {archive path: (bytes, mode)}; parent directories are added. Atomic."""
    entries, dirs = [], set()
    for name in sorted(files):
        parts = name.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            d = "/".join(parts[:i])
            if d not in dirs:
                dirs.add(d)
                entries.append((d, stat.S_IFDIR | 0o755, b""))
        data, mode = files[name]
        entries.append((name, stat.S_IFREG | mode, data))
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as out:
        for ino, (name, mode, data) in enumerate(entries, 1):
            _entry(out, ino, name, mode, data)
        _entry(out, len(entries) + 1, "TRAILER!!!", 0, b"")
        pad = out.tell() % 512
        if pad:
            out.write(b"\0" * (512 - pad))
    os.replace(tmp, path)


def names(path):
    """Every member name of a (possibly concatenated) newc archive."""
    out = []
    with open(path, "rb") as f:
        data = f.read()
    pos = 0
    while pos + 110 <= len(data):
        if data[pos:pos + 6] not in (b"070701", b"070702"):
            # zero padding between concatenated archives
            nxt = data.find(b"0707", pos)
            if nxt < 0:
                break
            pos = nxt
            continue
        size = int(data[pos + 54:pos + 62], 16)
        nsize = int(data[pos + 94:pos + 102], 16)
        name = data[pos + 110:pos + 110 + nsize - 1].decode(errors="replace")
        pos += 110 + nsize
        pos += (4 - pos % 4) % 4
        pos += size
        pos += (4 - pos % 4) % 4
        if name != "TRAILER!!!":
            out.append(name)
    return out
