# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of scripts/lablib (CTest scripts.lablib-unit, label scripts): the cpio writer,
the console protocol and the result vocabulary (a timeout is its own kind), QEMU command-line
construction and the RTL8168_QEMU override, the kernel-package lookup. No guest is booted.

  python3 -m unittest discover -s scripts/lablib -t scripts"""
import contextlib
import io
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

sys.dont_write_bytecode = True
HERE = Path(__file__).resolve().parent

from lablib import chips, cpio, firmware, guest, kernelpkg, lab, launch, protocol, qemu, smoke
from lablib.result import HarnessError, Kind, Outcome


class Tmp(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="lablib-test."))
        self.addCleanup(shutil.rmtree, self.tmp, True)


class Cpio(Tmp):
    FILES = {"lib/modules/r/kernel/x/r8169.ko": (b"\x7fELF" * 3, 0o644),
             "usr/bin/tool": (b"#!/bin/sh\necho hi\n", 0o755),
             "init": (b"", 0o755)}

    def test_round_trip(self):
        p = self.tmp / "a.cpio"
        cpio.write(p, self.FILES)
        got = cpio.read(p)
        self.assertEqual([n for n, _, _ in got],
                         ["init", "lib", "lib/modules", "lib/modules/r", "lib/modules/r/kernel",
                          "lib/modules/r/kernel/x", "lib/modules/r/kernel/x/r8169.ko", "usr",
                          "usr/bin", "usr/bin/tool"])
        for name, mode, data in got:
            if name in self.FILES:
                self.assertEqual(data, self.FILES[name][0], name)
                self.assertEqual(mode, stat.S_IFREG | self.FILES[name][1], name)
            else:
                self.assertTrue(stat.S_ISDIR(mode), name)
        self.assertEqual(p.stat().st_size % 512, 0)

    def test_cpio_tool_reads_it(self):
        if not shutil.which("cpio"):
            self.skipTest("no cpio(1)")
        p = self.tmp / "a.cpio"
        cpio.write(p, self.FILES)
        t = subprocess.run(["cpio", "-t", "--quiet"], stdin=open(p, "rb"), capture_output=True,
                           text=True)
        self.assertEqual(t.returncode, 0, t.stderr)
        self.assertEqual(t.stdout.split(), cpio.names(p))
        out = self.tmp / "x"
        out.mkdir()
        subprocess.run(["cpio", "-i", "-d", "--quiet"], stdin=open(p, "rb"), cwd=out,
                       check=True)
        self.assertEqual((out / "usr/bin/tool").read_bytes(), self.FILES["usr/bin/tool"][0])
        self.assertTrue(os.access(out / "usr/bin/tool", os.X_OK))

    def test_byte_identical_and_inodes_per_archive(self):
        a, b = self.tmp / "a.cpio", self.tmp / "b.cpio"
        cpio.write(a, self.FILES)
        cpio.write(b, self.FILES)   # a second archive in the same process: inodes from 1 again
        self.assertEqual(a.read_bytes(), b.read_bytes())
        data = a.read_bytes()
        self.assertEqual(data[:14], b"070701" + b"%08X" % 1)
        self.assertIn(b"00000000", data[46:54])   # mtime 0

    def test_tree_order_and_concat(self):
        t = cpio.Tree()
        t.file("init", b"x", 0o755)
        t.file("lab/common.sh", b"y")
        t.file("lab/case.sh", b"z")
        t.write(self.tmp / "ov.cpio")
        self.assertEqual(cpio.names(self.tmp / "ov.cpio"),
                         ["init", "lab", "lab/common.sh", "lab/case.sh"])
        cpio.write(self.tmp / "base.cpio", {"init": (b"base", 0o755)})
        cpio.concat(self.tmp / "all.cpio", [self.tmp / "base.cpio", self.tmp / "ov.cpio"])
        got = cpio.read(self.tmp / "all.cpio")
        self.assertEqual([(n, d) for n, _, d in got if n == "init"],
                         [("init", b"base"), ("init", b"x")])   # the later one wins in the guest


    def stage(self, root, umask=0o022):
        """A small staged tree like build-guest's: dirs, files, an executable, symlinks (one to
        a directory), a hard link."""
        old = os.umask(umask)
        try:
            for d in ("bin", "lib/x86_64-linux-gnu", "dev", "lib-extra"):
                (root / d).mkdir(parents=True, exist_ok=True)
            (root / "bin/busybox").write_bytes(b"\x7fELF busybox")
            (root / "bin/busybox").chmod(0o755 & ~umask)
            (root / "bin/sh").symlink_to("busybox")
            (root / "init").write_bytes(b"#!/bin/sh\n")
            (root / "init").chmod(0o755 & ~umask)
            (root / "lib/x86_64-linux-gnu/libc.so.6").write_bytes(b"libc")
            (root / "lib64").symlink_to("lib/x86_64-linux-gnu")
            (root / "lib-extra/a").write_bytes(b"a")
            os.link(root / "lib-extra/a", root / "lib-extra/b")
        finally:
            os.umask(old)

    NODES = [("dev/console", stat.S_IFCHR | 0o600, (5, 1)),
             ("dev/null", stat.S_IFCHR | 0o666, (1, 3))]

    def test_pack_tree(self):
        root = self.tmp / "stage"
        self.stage(root)
        p = self.tmp / "img.cpio"
        cpio.pack(root, p, self.NODES)
        got = {n: (m, d) for n, m, d in cpio.read(p)}
        names = cpio.names(p)
        self.assertEqual(names[0], ".")
        self.assertEqual(names, ["."] + sorted(names[1:], key=os.fsencode))
        self.assertEqual(got["bin/sh"], (stat.S_IFLNK | 0o777, b"busybox"))
        self.assertEqual(got["lib64"], (stat.S_IFLNK | 0o777, b"lib/x86_64-linux-gnu"))
        self.assertEqual(got["bin/busybox"][0], stat.S_IFREG | 0o755)
        self.assertEqual(got["lib/x86_64-linux-gnu/libc.so.6"], (stat.S_IFREG | 0o644, b"libc"))
        self.assertEqual(got["lib-extra/b"], got["lib-extra/a"])   # a hard link: a copy
        self.assertEqual(got["dev"][0], cpio.DIR)
        self.assertEqual(got["dev/null"][0], stat.S_IFCHR | 0o666)
        data = p.read_bytes()
        i = data.index(b"dev/console\0") - 110
        # rdevmajor / rdevminor of the node, mtime 0
        self.assertEqual(data[i + 78:i + 94], b"%08X%08X" % (5, 1))
        self.assertEqual(data[i + 46:i + 54], b"0" * 8)

    def test_without_keeps_the_rest_byte_for_byte(self):
        root = self.tmp / "stage"
        self.stage(root)
        p, same, less = self.tmp / "img.cpio", self.tmp / "same.cpio", self.tmp / "less.cpio"
        cpio.pack(root, p, self.NODES)
        cpio.without(p, same, lambda n: False)
        self.assertEqual(same.read_bytes(), p.read_bytes())   # device numbers, modes, order kept
        cpio.without(p, less, lambda n: n == "init" or n.startswith("lib-extra"))
        self.assertEqual(cpio.names(less),
                         [n for n in cpio.names(p) if n != "init" and not n.startswith("lib-extra")])
        self.assertEqual({n: (m, d) for n, m, d, _ in cpio.members(less)}["dev/console"],
                         (stat.S_IFCHR | 0o600, b""))
        self.assertEqual(dict((n, r) for n, _, _, r in cpio.members(less))["dev/null"], (1, 3))

    def test_pack_is_byte_identical(self):
        """Same contents -> same bytes, whatever the mtimes, inode numbers and umask."""
        a, b = self.tmp / "a", self.tmp / "b"
        self.stage(a)
        self.stage(b, umask=0o077)
        os.utime(a / "init", (1, 1))
        os.utime(a / "bin/sh", (2, 2), follow_symlinks=False)
        cpio.pack(a, self.tmp / "a.cpio", self.NODES)
        cpio.pack(b, self.tmp / "b.cpio", self.NODES)
        self.assertEqual((self.tmp / "a.cpio").read_bytes(), (self.tmp / "b.cpio").read_bytes())
        (b / "init").write_bytes(b"#!/bin/sh\nexit 1\n")
        cpio.pack(b, self.tmp / "b.cpio", self.NODES)
        self.assertNotEqual((self.tmp / "a.cpio").read_bytes(),
                            (self.tmp / "b.cpio").read_bytes())

    def test_pack_cli_and_cpio_tool(self):
        root = self.tmp / "stage"
        self.stage(root)
        p = self.tmp / "img.cpio"
        r = subprocess.run([sys.executable, str(HERE / "cpio.py"), "pack", str(root), str(p),
                            "--node", "dev/null=c,1,3,0666"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        r = subprocess.run([sys.executable, str(HERE / "cpio.py"), "list", str(p)],
                           capture_output=True, text=True)
        self.assertEqual(r.stdout.split(), cpio.names(p))
        self.assertIn("dev/null", cpio.names(p))
        bad = subprocess.run([sys.executable, str(HERE / "cpio.py"), "pack", str(root), str(p),
                              "--node", "dev/x=p,1,3,0666"], capture_output=True, text=True)
        self.assertEqual(bad.returncode, 1)
        if not shutil.which("cpio"):
            self.skipTest("no cpio(1)")
        with open(p, "rb") as f:
            t = subprocess.run(["cpio", "-t", "--quiet"], stdin=f, capture_output=True, text=True)
        self.assertEqual(t.returncode, 0, t.stderr)
        self.assertEqual(t.stdout.split(), cpio.names(p))
        out = self.tmp / "x"
        out.mkdir()
        with open(p, "rb") as f:
            subprocess.run(["cpio", "-i", "-d", "--quiet", "--no-absolute-filenames"], stdin=f,
                           cwd=out, check=True)
        self.assertEqual(os.readlink(out / "bin/sh"), "busybox")
        self.assertEqual((out / "lib64/libc.so.6").read_bytes(), b"libc")
        self.assertTrue(os.access(out / "init", os.X_OK))


class FirmwareAndBoot(Tmp):
    """run-guest --firmware (lablib.firmware) and the scenarios' boot= (lablib.guest)."""

    def test_find_in_takes_lib_usr_lib_and_compressed_files(self):
        root = Path(self.tmp)
        self.assertIsNone(firmware.find_in(root, "rtl_nic/a.fw"))
        (root / "usr/lib/firmware/rtl_nic").mkdir(parents=True)
        (root / "usr/lib/firmware/rtl_nic/a.fw.zst").write_bytes(b"z")
        self.assertEqual(firmware.find_in(root, "rtl_nic/a.fw").name, "a.fw.zst")
        (root / "lib/firmware/rtl_nic").mkdir(parents=True)
        (root / "lib/firmware/rtl_nic/a.fw").write_bytes(b"p")
        self.assertEqual(firmware.find_in(root, "rtl_nic/a.fw"),
                         root / "lib/firmware/rtl_nic/a.fw")

    def test_archive_refuses_names_outside_lib_firmware(self):
        for bad in ("", "../etc/passwd", "rtl_nic/../../x", "/abs.fw", "a b.fw"):
            with self.assertRaises(HarnessError, msg=bad):
                firmware.archive(bad, env={"RTL8168_CACHE": self.tmp})

    def test_kernel_file_follows_boot_and_names_a_missing_bzimage(self):
        img = Path(self.tmp) / "6.1"
        img.mkdir()
        self.assertEqual(guest.kernel_file(img, "vmlinux"), img / "vmlinux")
        with self.assertRaisesRegex(HarnessError, "no bzImage"):
            guest.kernel_file(img, "bzimage")
        (img / "bzImage").write_bytes(b"MZ")
        self.assertEqual(guest.kernel_file(img, "bzimage"), img / "bzImage")

    def test_suspend_scenario_boots_the_bzimage_and_asks_for_its_action(self):
        h = guest.host_header(guest.SCENARIOS / "suspend.sh")
        self.assertEqual((h.get("boot"), h.get("action")), ("bzimage", "suspend"))


class Results(unittest.TestCase):
    def test_kinds(self):
        self.assertEqual([k.exit_code for k in (Kind.PASS, Kind.FAIL, Kind.TIMEOUT, Kind.ERROR)],
                         [0, 1, 1, 2])
        self.assertEqual(str(Kind.TIMEOUT), "TIMEOUT")
        self.assertEqual(f"{Kind.FAIL}", "FAIL")
        self.assertEqual(Kind.parse("timeout"), Kind.TIMEOUT)
        self.assertTrue(Kind.PASS.ok and not Kind.TIMEOUT.ok)
        self.assertEqual(Kind.ERROR, "ERROR")   # JSON / regress reports carry the word
        with self.assertRaises(ValueError):
            Kind.parse("done")

    def test_scenario_end_line(self):
        text = ("boot noise\r\nGUEST kernel=6.1 scenario=smoke nic=rtl8168 uptime=2\n"
                "STEP scenario=smoke transfer-running\nRESULT scenario=smoke dir=tx rc=0 mbps=9\n"
                "VERDICT PASS smoke all checks passed\nVERDICT FAIL smoke later\n")
        c = protocol.parse(text)
        self.assertEqual(c.end.kind, Kind.PASS)
        self.assertEqual(c.end.reason, "all checks passed")
        self.assertEqual(c.name, "smoke")
        self.assertEqual(c.end_line, "VERDICT PASS smoke all checks passed")
        self.assertEqual(len(c.results), 1)
        self.assertTrue(c.has_step("smoke", "transfer-running"))
        self.assertFalse(c.has_step("smoke", "transfer-run"))   # grep's \b, as before
        self.assertIsNone(protocol.parse("GUEST x\n").end)

    def test_one_end_line_for_every_guest(self):
        # a lab case (guest-tests/lab/common.sh): name = the case
        c = protocol.parse("RESULT case=txpoll kind=rr mbps=680\nLAB: order: tcp_ofo_queue 0\n"
                           "VERDICT FAIL txpoll no link\nVERDICT PASS txpoll ok\n")
        self.assertEqual((c.end.kind, c.end.reason, c.name), (Kind.FAIL, "no link", "txpoll"))
        self.assertEqual(protocol.parse_kv(c.results[0]),
                         {"case": "txpoll", "kind": "rr", "mbps": "680"})
        c = protocol.parse("VERDICT PASS rx-order ok\n")
        self.assertEqual((c.end.kind, c.end.reason, c.name), (Kind.PASS, "ok", "rx-order"))
        # the driver smoke test (guest-tests/driver/smoke-init): name = smoke
        s = protocol.parse("SMOKE STEP: insmod\nVERDICT FAIL smoke ping after reload\n")
        self.assertEqual((s.end.kind, s.end.reason, s.name),
                         (Kind.FAIL, "ping after reload", "smoke"))
        self.assertEqual(protocol.parse("SMOKE STEP: x\nVERDICT PASS smoke ok\n").end.kind,
                         Kind.PASS)
        # the words of the former lab and smoke dialects are no end lines any more
        for old in ("LAB DONE\n", "LAB FAIL no link\n", "SMOKE PASS\n", "SMOKE FAIL: x\n"):
            self.assertIsNone(protocol.parse(old).end, old)
        # a guest never says TIMEOUT: only the launcher owning the deadline does
        self.assertIsNone(protocol.parse("VERDICT TIMEOUT smoke x\n").end)
        self.assertEqual(protocol.end_line(Kind.PASS, "txpoll", ""), "VERDICT PASS txpoll ok")
        self.assertEqual(protocol.end_line(Kind.TIMEOUT, "msi", "no guest power-off"),
                         "VERDICT TIMEOUT msi no guest power-off")

    def test_judge_end(self):
        from lablib import lab
        end = protocol.parse("VERDICT FAIL suspend no carrier after resume\n"
                             "VERDICT FAIL suspend guest deadline 150 s (virtual)\n").end
        # the guest judged, then hung on its way out: its first verdict is the reason
        self.assertEqual(lab.judge_end(Kind.TIMEOUT, "no guest power-off within 300 s wall", end),
                         (Kind.FAIL, "no carrier after resume; then no guest power-off "
                                     "within 300 s wall"))
        # no verdict, or a PASS that never powered off: the launcher's TIMEOUT stands
        ok = protocol.parse("VERDICT PASS suspend ok\n").end
        for e in (None, ok):
            self.assertEqual(lab.judge_end(Kind.TIMEOUT, "no power-off", e),
                             (Kind.TIMEOUT, "no power-off"))
        self.assertEqual(lab.judge_end(None, "", end), (Kind.FAIL, "no carrier after resume"))
        self.assertEqual(lab.judge_end(None, "", ok), (Kind.PASS, ""))
        self.assertEqual(lab.judge_end(None, "", None),
                         (Kind.FAIL, "the guest powered off without a VERDICT line"))

    def test_host_verdict_line(self):
        for kind in Kind:
            line = protocol.verdict_line(kind, "smoke", "6.1", "rtl8168", "why (not) 1", 12.34)
            o = protocol.parse_verdict_line("PEER sink {}\n" + line + "\n")
            self.assertEqual((o.kind, o.reason, o.wall_s), (kind, "why (not) 1", 12.3))
        o = protocol.parse_verdict_line("VERDICT TIMEOUT smoke 6.12 e1000e no VERDICT within "
                                        "180s (wall 180.2s)")
        self.assertEqual(o.kind, Kind.TIMEOUT)   # from the kind word, whatever the reason says
        o = protocol.parse_verdict_line("VERDICT FAIL smoke 6.1 rtl8168 guest: timeout after "
                                        "the transfer (wall 3.0s)")
        self.assertEqual(o.kind, Kind.FAIL)      # "timeout" in a reason is just text
        self.assertIsNone(protocol.parse_verdict_line("RESULT x=1\n"))


class LabReport(Tmp):
    """run-lab's report as check-replay reads it (lablib.protocol.parse_lab_report)."""
    REPORT = ("HOST trace-hash dut=0xab partner=0xcd events=10,20\n"
              "HOST inputs=1234\n"
              "RESULT case=txpoll stalled=1\n"
              "RESULT case=txpoll frames=7\n"
              "VERDICT PASS txpoll ok\n"
              "HOST wall=12.3s status=PASS out=/somewhere\n")

    def test_fingerprint_leaves_out_what_may_differ(self):
        rep = protocol.parse_lab_report(self.REPORT)
        self.assertEqual(rep.fingerprint(), [
            "HOST trace-hash dut=0xab partner=0xcd events=10,20",
            "RESULT case=txpoll stalled=1", "RESULT case=txpoll frames=7",
            "VERDICT PASS txpoll ok"])
        other = self.REPORT.replace("inputs=1234", "inputs=9").replace("12.3s", "99.0s")
        self.assertEqual(protocol.parse_lab_report(other).fingerprint(), rep.fingerprint())
        self.assertNotEqual(protocol.parse_lab_report(
            self.REPORT.replace("0xcd", "0xce")).fingerprint(), rep.fingerprint())

    def test_command_line(self):
        f = self.tmp / "run-lab.txt"
        f.write_text(self.REPORT)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(protocol.main(["lab-summary", str(f)]), 0)
            self.assertEqual(protocol.main(["lab-fingerprint", str(f)]), 0)
        self.assertEqual(out.getvalue().splitlines()[0],
                         "HOST trace-hash dut=0xab partner=0xcd events=10,20 (2 RESULT lines)")
        self.assertEqual(len(out.getvalue().splitlines()), 5)
        f.write_text("VERDICT ERROR txpoll no QEMU\n")   # nothing ran: no trace hash
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(protocol.main(["lab-fingerprint", str(f)]), 3)
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(protocol.main(["lab-fingerprint"]), 2)


class GuestCode(unittest.TestCase):
    """Every guest's code prints the one end line (and none of the former dialects): through
    guest_verdict of guest-tests/initramfs/guest-lib.sh, which every guest sources."""
    FILES = ("guest-tests/initramfs/rtl8168-lib.sh", "guest-tests/lab/common.sh",
             "guest-tests/lab/init", "guest-tests/driver/smoke-init")
    LIB = "guest-tests/initramfs/guest-lib.sh"

    def test_end_lines(self):
        repo = HERE.parent.parent
        lib = (repo / self.LIB).read_text()
        # the one place that prints the end line: "VERDICT " and guest_verdict's words
        self.assertEqual(re.findall(r'echo "(VERDICT [^"]*)"', lib), ["VERDICT $*"])
        for f in self.FILES:
            text = (repo / f).read_text()
            self.assertIn(". /etc/guest-lib.sh", text if f != "guest-tests/lab/init" else
                          (repo / "guest-tests/lab/common.sh").read_text(), f)
            for old in ("LAB DONE", "LAB FAIL", "SMOKE PASS", "SMOKE FAIL", 'echo "VERDICT'):
                self.assertNotIn(old, text, f)
            for words in re.findall(r'guest_verdict ([^;|&)\n]*)', text):
                # the shell's words as a guest fills them in, after guest_verdict's echo
                line = "VERDICT " + re.sub(r'"?\$\{[^}]*\}"?|"?\$[A-Za-z_*]+"?', "x", words)
                self.assertIsNotNone(protocol.parse(line).end, f"{f}: {words}")
        self.assertIn("guest_verdict PASS smoke ok",
                      (repo / "guest-tests/driver/smoke-init").read_text())


class LabModules(Tmp):
    """A case's "# lab-modules:" line: the modules and their dependencies, in load order, from
    the unpacked kernel package into that case's overlay only (lablib.labmods)."""
    def test_header_line(self):
        from lablib import labmods
        self.assertEqual(labmods.case_modules(["# x", "# lab-modules: 8021q garp", "echo"]),
                         ["8021q", "garp"])
        self.assertEqual(labmods.case_modules(["# lab-programs: lab-tool"]), [])
        with self.assertRaisesRegex(HarnessError, "not a module name"):
            labmods.case_modules(["# lab-modules: ../evil"])
        self.assertEqual(labmods.files(self.tmp, "k", []), [])

    def test_overlay_lists_them_in_order(self):
        mods = [("lib/modules/k/kernel/net/llc/llc.ko", b"llc"),
                ("lib/modules/k/kernel/net/8021q/8021q.ko", b"vlan")]
        a, b = self.tmp / "a.cpio", self.tmp / "b.cpio"
        lab.make_overlay(a, "ping", "k", None, "", {}, mods)
        lab.make_overlay(b, "ping", "k", None, "", {})
        names = cpio.names(a)
        for rel, _ in mods:
            self.assertIn(rel, names)
        self.assertIn("lab/modules", names)
        # a case without the line gets neither file
        self.assertNotIn("lab/modules", cpio.names(b))
        self.assertFalse(any(n.endswith(".ko") for n in cpio.names(b)))
        listed = {n: body for n, _, body in cpio.read(a)}["lab/modules"]
        self.assertEqual(listed, b"/lib/modules/k/kernel/net/llc/llc.ko\n"
                                 b"/lib/modules/k/kernel/net/8021q/8021q.ko\n")

    def test_modules_built_into_the_kernel_still_give_an_empty_list(self):
        # a kernel with the case's modules built in (the debug kernel's 8021q): lab/modules is
        # there and empty, so the case's lab_load_modules loads nothing instead of failing
        a = self.tmp / "a.cpio"
        lab.make_overlay(a, "ping", "k", None, "", {}, [])
        self.assertEqual({n: body for n, _, body in cpio.read(a)}["lab/modules"], b"")

    def test_every_case_names_known_modules_only(self):
        from lablib import labmods
        for case in sorted(lab.LAB_DIR.glob("*.sh")):
            for m in labmods.case_modules(case.read_text().splitlines()[:40]):
                self.assertRegex(m, labmods.MODULE_RE, case.name)


class LabSystemPart(Tmp):
    def test_project_files_are_left_out(self):
        """The lab boots the image without the scenarios, the image's init and helpers and the
        guest programs: a scenario edit must not change the lab's archive."""
        files = {"bin/busybox": (b"bb", 0o755), "etc/passwd": (b"root", 0o644),
                 "lib/modules/k/r8169.ko": (b"ko", 0o644)}
        project = {"init": (b"#!/bin/sh", 0o755), "scenarios/faults.sh": (b"a", 0o644),
                   "etc/guest-lib.sh": (b"g", 0o644), "usr/bin/rtl-traffic": (b"t", 0o755),
                   "usr/share/udhcpc/default.script": (b"u", 0o755)}
        img, img2 = self.tmp / "img.cpio", self.tmp / "img2.cpio"
        cpio.write(img, {**files, **project})
        cpio.write(img2, {**files, **project, "scenarios/faults.sh": (b"edited", 0o644)})
        a, b = self.tmp / "a.cpio", self.tmp / "b.cpio"
        lab.system_part(img, a)
        lab.system_part(img2, b)
        self.assertEqual(a.read_bytes(), b.read_bytes())
        names = cpio.names(a)
        for n in files:
            self.assertIn(n, names)
        for n in list(project) + ["scenarios"]:
            self.assertNotIn(n, names)
        self.assertTrue({"etc/rtl8168-lib.sh", "usr/bin/hostile"} <= lab.image_project_files())


class QemuCommand(Tmp):
    def test_binary_override(self):
        self.assertEqual(qemu.binary(None, {}), str(qemu.DEFAULT_QEMU))
        self.assertEqual(qemu.binary(None, {"RTL8168_QEMU": "/opt/q"}), "/opt/q")
        self.assertEqual(qemu.binary("/x/q", {"RTL8168_QEMU": "/opt/q"}), "/x/q")
        self.assertEqual(qemu.binary(None, {"RTL8168_QEMU": ""}), str(qemu.DEFAULT_QEMU))

    def test_pieces(self):
        self.assertEqual(qemu.firmware_args(("/a", "/b", "/c"), lambda d: d != "/b"),
                         ["-L", "/a", "-L", "/c"])
        self.assertEqual(qemu.props("chip=8168evl,timing=on", "", "timing=off,x=1"),
                         ",chip=8168evl,timing=off,x=1")
        self.assertEqual(qemu.device("rtl8168", "dut", "hp1", "52:54:00:00:00:01", "rp1",
                                     ",timing=off"),
                         "rtl8168,id=dut,netdev=hp1,mac=52:54:00:00:00:01,romfile=,bus=rp1,"
                         "timing=off")
        self.assertEqual(qemu.device("e1000e", None, "n", "m", None, "a=b"),
                         "e1000e,netdev=n,mac=m,romfile=,a=b")
        self.assertEqual(qemu.icount(), "shift=0,align=off,sleep=off")
        self.assertEqual(qemu.icount("record", "/r/f"),
                         "shift=0,align=off,sleep=off,rr=record,rrfile=/r/f")
        with self.assertRaises(HarnessError):
            qemu.check_props("a=b, c=d")
        qemu.check_props("a=b,c=")
        # QEMU's escaped comma inside a value (the faults property) is one value
        qemu.check_props("faults=spurious-irq:bits=0x8001,,at=20s,timing=on")
        self.assertEqual(qemu.props("faults=a:x=1,,y=2,timing=on", "timing=off"),
                         ",faults=a:x=1,,y=2,timing=off")

    def test_initrd(self):
        base = self.tmp / "base.cpio"
        cpio.write(base, {"init": (b"1", 0o755)})
        self.assertEqual(qemu.initrd(base, [], self.tmp / "x.cpio"), str(base))
        ov = self.tmp / "ov.cpio"
        cpio.write(ov, {"a": (b"2", 0o644)})
        got = qemu.initrd(base, [ov], self.tmp / "x.cpio")
        self.assertEqual(Path(got).read_bytes(), base.read_bytes() + ov.read_bytes())
        self.assertEqual(qemu.initrd_append_env({"RTL8168_INITRD_APPEND": f"{ov}:{base}"}),
                         [str(ov), str(base)])
        with self.assertRaises(HarnessError):
            qemu.initrd_append_env({"RTL8168_INITRD_APPEND": str(self.tmp / "missing")})

    def test_lab_command(self):
        s = lab.Spec(kernel="6.1", case="txpoll", params="txpoll_rekick=0",
                     args={"count": "200"}, trace=["rtl8168_model*"])
        img = Path("/img")
        old = os.environ.get("RTL8168_QEMU")
        os.environ["RTL8168_QEMU"] = "/opt/qemu/qemu-system-x86_64"
        try:
            cmd = lab.command(s, img, "/w/initramfs.cpio", "/o/console.log",
                              ",lossy-txpoll=on", "")
        finally:
            if old is None:
                os.environ.pop("RTL8168_QEMU")
            else:
                os.environ["RTL8168_QEMU"] = old
        self.assertEqual(cmd[0], "/opt/qemu/qemu-system-x86_64")
        # the lab's command line, in this order (part of every run's inputs fingerprint)
        fw = qemu.firmware_args()
        self.assertEqual(cmd[1:17], ["-M", "q35", "-smp", "1", "-m", "512", "-nodefaults",
                                     "-no-shutdown", "-display", "none", "-accel",
                                     "tcg,thread=single", "-icount",
                                     "shift=0,align=off,sleep=off", "-rtc",
                                     "base=2024-01-01T00:00:00,clock=vm"])
        rest = cmd[17 + len(fw):]
        self.assertEqual(rest[:6], ["-device", "pcie-root-port,id=rp1,chassis=1,slot=1",
                                    "-device", "pcie-root-port,id=rp2,chassis=2,slot=2",
                                    "-netdev", "hubport,id=hp1,hubid=0"])
        self.assertIn("rtl8168,id=dut,netdev=hp1,mac=52:54:00:00:00:01,romfile=,bus=rp1,"
                      "lossy-txpoll=on", cmd)
        self.assertIn("rtl8168,id=partner,netdev=hp2,mac=52:54:00:00:00:02,romfile=,bus=rp2", cmd)
        ap = cmd[cmd.index("-append") + 1]
        self.assertEqual(ap, "console=ttyS0 panic=-1 loglevel=4 nokaslr lab.case=txpoll "
                             "lab.driver=rtl8168sim lab.count=200")
        self.assertEqual(cmd[cmd.index("-trace") + 1], "rtl8168_model*")
        self.assertEqual(cmd[-4:], ["-chardev", "stdio,id=qmp0,signal=off", "-mon",
                                    "chardev=qmp0,mode=control"])
        self.assertEqual(s.command_args()[:6], ["--kernel", "6.1", "--case", "txpoll",
                                                "--dut-driver", "rtl8168sim"])

    def test_dut_port_props(self):
        """A case's "# lab-dut-port-props:" goes to the DUT's root port rp1 only; a case
        without one leaves rp1 as it was (every other case's command line unchanged)."""
        case = self.tmp / "aspm.sh"
        case.write_text("# lab-dut-props: chip=8168h\n# lab-dut-port-props: x-aspm-l1=on\n")
        self.assertEqual(lab.case_props(case, "dut-port", ""), ",x-aspm-l1=on")
        self.assertEqual(lab.case_props(case, "dut", ""), ",chip=8168h")
        plain = self.tmp / "plain.sh"
        plain.write_text("# lab-dut-props: chip=8168h\n")
        self.assertEqual(lab.case_props(plain, "dut-port", ""), "")
        bad = self.tmp / "bad.sh"
        bad.write_text("# lab-dut-port-props: x-aspm-l1\n")
        with self.assertRaises(HarnessError):
            lab.case_props(bad, "dut-port", "")
        s = lab.Spec(kernel="6.1", case="aspm")
        cmd = lab.command(s, Path("/img"), "/w/i.cpio", "/o/c.log", "", "", None,
                          ",x-aspm-l1=on")
        self.assertIn("pcie-root-port,id=rp1,chassis=1,slot=1,x-aspm-l1=on", cmd)
        self.assertIn("pcie-root-port,id=rp2,chassis=2,slot=2", cmd)
        cmd = lab.command(s, Path("/img"), "/w/i.cpio", "/o/c.log", "", "")
        self.assertIn("pcie-root-port,id=rp1,chassis=1,slot=1", cmd)

    def test_inputs_fingerprint_ignores_paths(self):
        files = []
        for n in ("i1", "i2", "v", "q"):
            (self.tmp / n).write_bytes(b"same")
            files.append(self.tmp / n)
        i1, i2, v, q = files
        mk = lambda ini, con: ["q", "-initrd", str(ini), "-serial", f"file:{con}"]  # noqa: E731
        a = lab.inputs_fingerprint(mk(i1, "/a/c.log"), i1, "/a/c.log", v, q)
        b = lab.inputs_fingerprint(mk(i2, "/b/c.log"), i2, "/b/c.log", v, q)
        self.assertEqual(a, b)
        i2.write_bytes(b"other")
        self.assertNotEqual(a, lab.inputs_fingerprint(mk(i2, "/b/c.log"), i2, "/b/c.log", v, q))

    def test_guest_command(self):
        s = guest.Spec(kernel="6.1", scenario="smoke", device_props="chip=8168evl,timing=off",
                       bytes="64M", net="user", qemu=None)
        env = {"RTL8168_QEMU": "/opt/q", "RTL8168_GUEST_MEM": "384"}
        ap = guest.append_line(s, {"sink": "4000", "source": "4001"}, {}, env={})
        self.assertEqual(ap, "console=ttyS0 quiet panic=-1 rtl8168.scenario=smoke "
                             "rtl8168.nic=rtl8168 rtl8168.bytes=64M rtl8168.sink=4000 "
                             "rtl8168.source=4001 rtl8168.chip=8168evl "
                             # the identity r8169 should report, from the model's chip list
                             "rtl8168.chip_name=RTL8168evl/8111evl rtl8168.chip_xid=2c8 "
                             "rtl8168.chip_phy=001cc800 rtl8168.chip_fw=rtl_nic/rtl8168e-3.fw")
        cmd = guest.command(s, Path("/img"), "/img/initramfs.cpio", ap, env=env, fw=[])
        self.assertEqual(cmd[0], "/opt/q")
        self.assertEqual(cmd[1:9], ["-nodefaults", "-no-reboot", "-display", "none", "-m",
                                    "384", "-smp", "1"])
        self.assertEqual(cmd[-2:], ["-device", "rtl8168,id=nic0,netdev=net0,"
                                    "mac=52:54:00:81:68:01,romfile=,bus=rp1,chip=8168evl,"
                                    "timing=off"])
        self.assertNotIn("-icount", cmd)
        s2 = guest.Spec(kernel="6.1", scenario="smoke", nic="virtio", machine="pc",
                        icount=True, bytes="1M", net="tap", qemu="/q")
        cmd = guest.command(s2, Path("/img"), "/i", "x", tap="rtl8168t1", env={}, fw=[])
        self.assertEqual(cmd[0], "/q")
        self.assertIn("shift=0,align=off,sleep=off", cmd)
        self.assertIn("tap,id=net0,ifname=rtl8168t1,script=no,downscript=no", cmd)
        self.assertEqual(cmd[-1], "virtio-net-pci,speed=1000,duplex=full,id=nic0,netdev=net0,"
                                  "mac=52:54:00:81:68:01,romfile=")
        self.assertEqual(guest.chip_of(""), "8168c")

    def test_scenario_host_header(self):
        p = self.tmp / "s.sh"
        p.write_text("#!/bin/sh\n# host: sink=1 source=2 bytes=64M trace=a,b action=migrate\n"
                     "# host: sink=9\n")
        self.assertEqual(guest.host_header(p), {"sink": "1", "source": "2", "bytes": "64M",
                                                "trace": "a,b", "action": "migrate"})


class ChipOption(Tmp):
    """--chip NAME of run-guest and run-lab (lablib.chips): the list is the model's, an unknown
    name or a contradicting chip= property is one line and exit 2 with nothing written, and
    without --chip (or with the default chip) the QEMU command line is the one of before."""

    def cli(self, prog, *args):
        return subprocess.run([sys.executable, str(HERE.parent / prog), *args],
                              capture_output=True, text=True, timeout=120)

    def one_line(self, p, pattern):
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertRegex(lines[0], pattern)

    def test_unknown_chip(self):
        with self.assertRaises(HarnessError) as e:
            chips.check("8168zz")
        for known in chips.ids():   # every chip the model lists, named in the one line
            self.assertIn(known, str(e.exception))
        self.assertIn("8168h", chips.ids())
        known = ", ".join(chips.ids())
        out = self.tmp / "out"
        self.one_line(self.cli("run-guest", "--kernel", "6.1", "--scenario", "smoke", "--chip",
                               "8168zz", "--out", str(out)),
                      rf"^run-guest: error: unknown chip '8168zz' \(known: {known}\)$")
        self.one_line(self.cli("run-lab", "--kernel", "6.1", "--case", "ping", "--dut-driver",
                               "r8169", "--chip", "8168zz", "--out", str(out)),
                      rf"^run-lab: error: unknown chip '8168zz' \(known: {known}\)$")
        self.assertFalse(out.exists(), "a directory was written")

    def test_conflict(self):
        self.assertEqual(chips.check_option("8168h", "chip=8168h,timing=off"), "8168h")
        self.assertIsNone(chips.check_option(None, "chip=8168evl"))
        with self.assertRaisesRegex(HarnessError, "--chip 8168h contradicts --dut-props "
                                                  "chip=8168evl"):
            chips.check_option("8168h", "timing=off,chip=8168evl", "--dut-props")
        out = self.tmp / "out"
        self.one_line(self.cli("run-guest", "--kernel", "6.1", "--scenario", "smoke", "--chip",
                               "8168h", "--device-props", "chip=8168c", "--out", str(out)),
                      r"^run-guest: error: --chip 8168h contradicts --device-props chip=8168c")
        self.one_line(self.cli("run-lab", "--kernel", "6.1", "--case", "ping", "--dut-driver",
                               "r8169", "--chip", "8168evl", "--dut-props",
                               "timing=off,chip=8168h", "--out", str(out)),
                      r"^run-lab: error: --chip 8168evl contradicts --dut-props chip=8168h")
        self.one_line(self.cli("run-guest", "--kernel", "6.1", "--scenario", "smoke", "--nic",
                               "e1000e", "--chip", "8168h", "--out", str(out)),
                      r"--nic e1000e has none")
        self.assertFalse(out.exists(), "a directory was written")

    def test_driver_smoke_test_chip(self):
        """guest-tests/driver/smoke-test --chip NAME: NIC A (rtl8168sim's) gets chip=NAME, last,
        as the qemu-chip front gave it; the default chip or none leaves the command line as it
        was; an unknown chip is one line, exit 2."""
        def cmd(chip):
            return smoke.command("/q", Path("/img"), "/i", "/c", chip)
        a = [x for x in cmd("8168h") if x.startswith("rtl8168,") and ",mac=52:54:00:00:00:01," in x]
        self.assertEqual(a, ["rtl8168,netdev=a,mac=52:54:00:00:00:01,romfile=,bus=rp1,chip=8168h"])
        self.assertIn("rtl8168,netdev=b,mac=52:54:00:00:00:02,romfile=,bus=rp2", cmd("8168h"))
        self.assertEqual(cmd(None), cmd(chips.default_id()))
        self.assertNotIn("chip=", " ".join(cmd(None)))
        self.one_line(self.cli("../guest-tests/driver/smoke-test", "--kernel", "6.1",
                               "--chip", "8168zz"),
                      r"^smoke-test: error: unknown chip '8168zz' \(known: ")

    def test_default_unchanged(self):
        default = chips.default_id()
        self.assertEqual(default, "8168c")
        # run-guest: nothing added without --chip or with the default chip
        for props in ("", "timing=off", "chip=8168evl,timing=off"):
            self.assertEqual(guest.with_chip(props, None), props)
        self.assertEqual(guest.with_chip("timing=off", default), "timing=off")
        # --chip X is --device-props chip=X: the same -device value
        self.assertEqual(guest.with_chip("timing=off", "8168h"), "chip=8168h,timing=off")
        self.assertEqual(guest.with_chip("chip=8168h", "8168h"), "chip=8168h")

        def cmd(props):
            s = guest.Spec(kernel="6.1", scenario="smoke", device_props=props, bytes="64M",
                           net="user")
            return guest.command(s, Path("/img"), "/i", guest.append_line(s, {}, {}, env={}),
                                 env={"RTL8168_QEMU": "/q"}, fw=[])
        self.assertEqual(cmd(guest.with_chip("", "8168h")), cmd("chip=8168h"))
        self.assertEqual(cmd(guest.with_chip("", default)), cmd(""))
        self.assertNotEqual(cmd(guest.with_chip("", "8168h")), cmd(""))
        self.assertIn("rtl8168.chip=8168h rtl8168.chip_name=RTL8168h/8111h rtl8168.chip_xid=541",
                      " ".join(cmd("chip=8168h")))
        # run-lab: the DUT's merged properties
        self.assertEqual(lab.dut_chip_props(",lossy-txpoll=on", None), ",lossy-txpoll=on")
        self.assertEqual(lab.dut_chip_props(",lossy-txpoll=on", default), ",lossy-txpoll=on")
        self.assertEqual(lab.dut_chip_props("", None), "")
        self.assertEqual(lab.dut_chip_props("", "8168h"), ",chip=8168h")
        self.assertEqual(lab.dut_chip_props(",lossy-txpoll=on", "8168h"),
                         ",lossy-txpoll=on,chip=8168h")
        # in place of a case's own chip (dma-after-close: chip=8168evl,x-pme=on), even the
        # default one when asked for
        self.assertEqual(lab.dut_chip_props(",chip=8168evl,x-pme=on", "8168h"),
                         ",chip=8168h,x-pme=on")
        self.assertEqual(lab.dut_chip_props(",chip=8168evl,x-pme=on", default),
                         f",chip={default},x-pme=on")
        self.assertEqual(lab.dut_chip_props(",chip=8168evl,x-pme=on", None),
                         ",chip=8168evl,x-pme=on")
        s = lab.Spec(kernel="6.1", case="txpoll")
        self.assertNotIn("--chip", s.command_args())
        s.chip = "8168h"
        self.assertEqual(s.command_args()[6:8], ["--chip", "8168h"])

    def test_directories(self):
        self.assertEqual(chips.dir_suffix(None), "")
        self.assertEqual(chips.dir_suffix(chips.default_id()), "")
        self.assertEqual(chips.dir_suffix("8168h"), "-8168h")
        self.assertEqual(chips.of_props(",chip=8168evl,x=1,chip=8168h"), "8168h")
        self.assertIsNone(chips.of_props("timing=off"))


class Iommu(Tmp):
    """--iommu: the command lines and the DMA fault count from QEMU's trace lines."""

    # trace lines as QEMU's log backend prints them, with and without -msg timestamp=on
    LOG = textwrap.dedent("""\
        vtd_switch_address_space Device 00:02.0 switching address space (iommu enabled=1)
        1234@1733390000.000001:vtd_switch_address_space Device 01:00.0 switching address space (iommu enabled=0)
        vtd_switch_address_space Device 01:00.0 switching address space (iommu enabled=1)
        vtd_switch_address_space Device 02:00.0 switching address space (iommu enabled=1)
        rtl8168_dma_error read addr 0x1000 len 16 failed (MemTxResult 0x2)
        1234@1733390000.000002:vtd_dmar_fault sid 0x100 fault 6 addr 0x7ffff000 write 0
        rtl8168_dma_error read addr 0x7ffff000 len 16 failed (MemTxResult 0x2)
        vtd_dmar_fault sid 0x100 fault 5 addr 0x7fffe000 write 1
        vtd_dmar_fault sid 0x208 fault 5 addr 0x1000 write 1
        vtd_fault_disabled Fault processing disabled for context entry
        vtd_switch_address_space Device 01:00.0 switching address space (iommu enabled=0)
        x_vtd_dmar_fault sid 0x100 fault 5 addr 0x1 write 1
        """)

    def test_report(self):
        (self.tmp / "qemu-1.log").write_text(self.LOG)
        r = qemu.dma_report([self.tmp / "qemu-1.log", self.tmp / "missing.log"])
        self.assertEqual(r.faults, 3)
        self.assertEqual(r.by_device, {"01:00.0": 2, "02:01.0": 1})
        self.assertEqual(r.suppressed, 1)
        self.assertEqual(r.refused, 2)
        self.assertEqual(r.first, "01:00.0 DMA read of 0x7ffff000: no read permission")
        self.assertEqual(r.untranslated(["01:00.0", "02:00.0", "03:00.0"]), ["03:00.0"])
        self.assertTrue(r.summary().startswith("3 IOMMU DMA faults (vtd_dmar_fault; "
                                               "01:00.0: 2, 02:01.0: 1; first: 01:00.0"))
        self.assertIn("1 suppressed by FPD; 2 DMA transactions refused", r.summary())
        clean = qemu.DmaReport().add_text("vtd_switch_address_space Device 01:00.0 switching "
                                          "address space (iommu enabled=1)\n")
        self.assertEqual(clean.summary(), "no IOMMU DMA fault; 0 DMA transactions refused to "
                                          "the rtl8168 (rtl8168_dma_error)")
        self.assertEqual(clean.untranslated(["01:00.0"]), [])

    def test_fault_watch_reads_what_was_appended(self):
        f = self.tmp / "qemu-1.log"
        f.write_text("vtd_dmar_fault sid 0x100 fault 5 addr 0x10 write 1\nvtd_dmar_fa")
        w = qemu.FaultWatch()
        self.assertEqual(w.poll([f, self.tmp / "qemu-2.log"]), 1)
        with open(f, "a") as fh:   # the half-written line completes
            fh.write("ult sid 0x100 fault 5 addr 0x10 write 1\nrtl8168_dma_error x\n")
        self.assertEqual(w.poll([f]), 2)
        self.assertEqual(w.poll([f]), 2)

    def test_lab_judges_faults(self):
        r = qemu.DmaReport().add_text(self.LOG)
        kind, why = lab.judge_dma(Kind.PASS, "", r)
        self.assertIs(kind, Kind.FAIL)
        self.assertTrue(why.startswith("3 IOMMU DMA faults"), why)
        # a run that failed anyway keeps its reason and names the faults too
        kind, why = lab.judge_dma(Kind.FAIL, "ping 10.9.0.2", r)
        self.assertEqual((kind, why.split(";")[0]), (Kind.FAIL, "ping 10.9.0.2"))
        self.assertIn("3 IOMMU DMA faults", why)
        ok = qemu.DmaReport().add_text("vtd_switch_address_space Device 01:00.0 switching "
                                       "address space (iommu enabled=1)\n")
        self.assertEqual(lab.judge_dma(Kind.PASS, "", ok)[0], Kind.FAIL)   # 02:00.0 untranslated
        ok.add_text("vtd_switch_address_space Device 02:00.0 switching address space "
                    "(iommu enabled=1)\n")
        self.assertEqual(lab.judge_dma(Kind.PASS, "", ok), (Kind.PASS, ""))

    def test_command_lines(self):
        s = guest.Spec(kernel="6.1", scenario="smoke", bytes="64M", net="user", iommu=True)
        ap = guest.append_line(s, {}, {}, env={})
        self.assertTrue(ap.endswith(" rtl8168.chip=8168c rtl8168.chip_name=RTL8168c/8111c "
                                    "rtl8168.chip_xid=3c4 rtl8168.chip_phy=001cc912 "
                                    "rtl8168.chip_fw=- intel_iommu=on iommu.strict=1 "
                                    "iommu.passthrough=0 rtl8168.iommu=1"), ap)
        cmd = guest.command(s, Path("/img"), "/i", ap, env={"RTL8168_QEMU": "/q"}, fw=[])
        i = cmd.index("intel-iommu,intremap=on")
        # created before the root port and the NIC it translates
        self.assertLess(i, cmd.index("pcie-root-port,id=rp1,chassis=1,slot=1"))
        self.assertEqual([cmd[j + 1] for j, x in enumerate(cmd) if x == "-trace"],
                         list(qemu.IOMMU_TRACE))
        plain = guest.command(guest.Spec(kernel="6.1", scenario="smoke", bytes="1M", net="user"),
                              Path("/img"), "/i", "x", env={"RTL8168_QEMU": "/q"}, fw=[])
        self.assertNotIn("intel-iommu,intremap=on", plain)
        ls = lab.Spec(kernel="6.1", case="ping", iommu=True)
        lc = lab.command(ls, Path("/img"), "/w/i.cpio", "/o/c.log", "", "")
        self.assertLess(lc.index("intel-iommu,intremap=on"),
                        lc.index("pcie-root-port,id=rp1,chassis=1,slot=1"))
        self.assertIn("intel_iommu=on iommu.strict=1 iommu.passthrough=0 lab.iommu=1",
                      lc[lc.index("-append") + 1])
        self.assertEqual(ls.command_args()[-1], "--iommu")


class KernelPackage(unittest.TestCase):
    def apt(self, answers):
        return lambda *args: answers.get(args, "")

    def test_61_from_the_metapackage(self):
        run = self.apt({("depends", "linux-image-amd64"):
                        "linux-image-amd64\n  Depends: linux-image-6.1.0-9-amd64\n"
                        "  Depends: linux-image-6.1.0-57-amd64\n",
                        ("policy", "linux-image-6.1.0-57-amd64"):
                        "linux-image-6.1.0-57-amd64:\n  Installed: (none)\n"
                        "  Candidate: 6.1.192-3\n"})
        self.assertEqual(kernelpkg.lookup("6.1", run, env={}),
                         {"name": "6.1", "series": "6.1", "package": "linux-image-6.1.0-57-amd64",
                          "version": "6.1.192-3", "release": "6.1.0-57-amd64",
                          "debs": "linux-image-6.1.0-57-amd64"})

    def test_612_newest_by_name_and_show_fallback(self):
        run = self.apt({("pkgnames", "linux-image-"):
                        "linux-image-6.12.9+deb12-amd64\nlinux-image-6.12.117+deb12-amd64\n"
                        "linux-image-6.12.117+deb12-amd64-dbg\nlinux-image-6.1.0-57-amd64\n",
                        ("policy", "linux-image-6.12.117+deb12-amd64"): "  Candidate: (none)\n",
                        ("show", "linux-image-6.12.117+deb12-amd64"):
                        "Package: x\nVersion: 6.12.117-1~deb12u1\n\nVersion: 6.12.9-1\n"})
        d = kernelpkg.lookup("6.12", run, env={})
        self.assertEqual(d["package"], "linux-image-6.12.117+deb12-amd64")
        self.assertEqual(d["version"], "6.12.117-1~deb12u1")
        self.assertEqual(d["release"], "6.12.117+deb12-amd64")

    def test_override_and_errors(self):
        run = self.apt({("policy", "linux-image-6.1.0-1-amd64-unsigned"): "  Candidate: 1\n"})
        d = kernelpkg.lookup("6.1", run, env={"RTL8168_KERNEL_PKG":
                                              "linux-image-6.1.0-1-amd64-unsigned"})
        self.assertEqual((d["version"], d["release"]), ("1", "6.1.0-1-amd64"))
        with self.assertRaises(kernelpkg.LookupError_):
            kernelpkg.lookup("6.12", self.apt({}), env={})
        with self.assertRaises(kernelpkg.LookupError_):
            kernelpkg.lookup("5.10", self.apt({}), env={})


    SID = {("pkgnames", "linux-image-"):
           "linux-image-6.1.0-57-amd64\nlinux-image-6.12.118+deb12-amd64\n"
           "linux-image-7.2.13+deb14-amd64\nlinux-image-7.2.13+deb14-amd64-dbg\n"
           "linux-image-7.2.9+deb14-amd64\nlinux-image-7.2.13+deb14-rt-amd64\n",
           ("policy", "linux-image-7.2.13+deb14-amd64"): "  Candidate: 7.2.13-1\n",
           ("policy", "linux-image-7.2.9+deb14-amd64"): "  Candidate: 7.2.9-1\n",
           ("depends", "linux-image-7.2.13+deb14-amd64"):
           "linux-image-7.2.13+deb14-amd64\n  Depends: linux-base-7.2.13+deb14-amd64\n"
           "  Depends: linux-binary-7.2.13+deb14-amd64\n"
           "  Depends: linux-modules-7.2.13+deb14-amd64\n  Depends: dracut\n"}

    def test_72_split_packages_latest_and_exact(self):
        run = self.apt(self.SID)
        d = kernelpkg.lookup("7.2", run, env={})
        self.assertEqual((d["package"], d["version"], d["release"], d["name"]),
                         ("linux-image-7.2.13+deb14-amd64", "7.2.13-1", "7.2.13+deb14-amd64", "7.2"))
        self.assertEqual(d["debs"].split(), ["linux-binary-7.2.13+deb14-amd64",
                                             "linux-modules-7.2.13+deb14-amd64",
                                             "linux-base-7.2.13+deb14-amd64"])
        latest = kernelpkg.lookup("latest", run, env={})
        self.assertEqual((latest["name"], latest["series"], latest["package"]),
                         ("7.2", "7.2", "linux-image-7.2.13+deb14-amd64"))
        self.assertEqual(kernelpkg.lookup("7.2.9", run, env={})["package"],
                         "linux-image-7.2.9+deb14-amd64")
        self.assertEqual(kernelpkg.available(run), ["6.1", "6.12", "7.2"])
        # 6.x images are one package (no split dependency)
        self.assertEqual(kernelpkg.debs("linux-image-6.12.118+deb12-amd64", self.apt({})),
                         ["linux-image-6.12.118+deb12-amd64"])

    def test_left_the_archive_names_what_it_has(self):
        run = self.apt(self.SID)
        with self.assertRaisesRegex(kernelpkg.LookupError_, r"7\.2\.12 is not in the archive.*"
                                    r"it has 7\.2\.9, 7\.2\.13 of 7\.2"):
            kernelpkg.lookup("7.2.12", run, env={})
        with self.assertRaisesRegex(kernelpkg.LookupError_, r"kernel 7\.3 is not in the archive.*"
                                    r"the archive has 6\.1, 6\.12, 7\.2"):
            kernelpkg.lookup("7.3", run, env={})
        with self.assertRaisesRegex(kernelpkg.LookupError_, "unsupported kernel"):
            kernelpkg.lookup("seven", run, env={})

    def test_image_names(self):
        run = self.apt(self.SID)
        self.assertEqual(kernelpkg.image_name("latest", run), "7.2")
        self.assertEqual(kernelpkg.image_name("6.12", run), "6.12")
        self.assertEqual(kernelpkg.image_name("7.2.13", run), "7.2.13")
        t = kernelpkg.image_name(str(self.tmp if hasattr(self, "tmp") else "/nonexistent/tree"))
        self.assertTrue(t.startswith("tree-") and len(t) == 17, t)
        self.assertTrue(kernelpkg.is_path("./out") and kernelpkg.is_path("/x/y"))
        self.assertFalse(kernelpkg.is_path("7.2") or kernelpkg.is_path("latest"))

    def test_debug_kernel_names(self):
        # X.Y-debug: a tree built from Debian's source (lablib.debugkernel), imaged under its name
        run = self.apt(self.SID)
        self.assertTrue(kernelpkg.is_debug("6.12-debug") and kernelpkg.is_debug("7.2-debug"))
        for n in ("6.12", "latest", "6.12-debug2", "debug", "6-debug", "./6.12-debug", "6.12.1-debug"):
            self.assertFalse(kernelpkg.is_debug(n), n)
        self.assertEqual(kernelpkg.image_name("6.12-debug", run), "6.12-debug")
        self.assertFalse(kernelpkg.is_path("6.12-debug"))
        with self.assertRaisesRegex(kernelpkg.LookupError_, "debug kernel built from source"):
            kernelpkg.lookup("6.12-debug", run)
        from lablib import debugkernel
        self.assertEqual(debugkernel.series("7.2-debug"), "7.2")
        with self.assertRaisesRegex(debugkernel.DebugKernelError, "not a debug kernel name"):
            debugkernel.series("7.2")

    def test_debug_kernel_scales_sizes_and_timeouts(self):
        # a debug kernel gets DEBUG_TIMEOUT_FACTOR x the timeout and 1/DEBUG_BYTES_DIVISOR of the
        # transfers; every other kernel keeps them as the scenario says
        f, d = kernelpkg.DEBUG_TIMEOUT_FACTOR, kernelpkg.DEBUG_BYTES_DIVISOR
        self.assertGreater(f, 1)
        self.assertGreater(d, 1)
        self.assertEqual(kernelpkg.timeout_for("6.12-debug", 210), 210 * f)
        for k in ("6.1", "6.12", "latest", "7.2.13"):
            self.assertEqual(kernelpkg.timeout_for(k, 210), 210)
            self.assertEqual(kernelpkg.bytes_for(k, "64M"), "64M")
        self.assertEqual(kernelpkg.bytes_for("6.12-debug", "64M"), f"{64 // d}M" if 64 % d == 0
                         else f"{(64 << 10) // d}K")
        self.assertEqual(kernelpkg.bytes_for("6.12-debug", "1G"), f"{1024 // d}M")
        # never below 64K, and a size already below it is kept
        self.assertEqual(kernelpkg.bytes_for("6.12-debug", "128K"), "64K")
        self.assertEqual(kernelpkg.bytes_for("6.12-debug", "1000"), "1000")
        with self.assertRaisesRegex(ValueError, "transfer size"):
            kernelpkg.bytes_for("6.12-debug", "64Q")


FAKE_QMP = textwrap.dedent("""\
    import json, sys, time
    print(json.dumps({"QMP": {"version": {}, "capabilities": []}}), flush=True)
    for line in sys.stdin:
        cmd = json.loads(line)
        print(json.dumps({"return": {}}), flush=True)
        if cmd.get("execute") == "quit":
            break
        if cmd.get("execute") == "qmp_capabilities" and "%s" == "shutdown":
            print(json.dumps({"event": "SHUTDOWN"}), flush=True)
    """)


class LabTimeout(Tmp):
    """A lab run whose guest never powers off ends as Kind.TIMEOUT, set by the deadline."""

    def watch(self, behaviour, seconds):
        fake = self.tmp / "fake-qemu.py"
        fake.write_text(FAKE_QMP % behaviour)
        vm = launch.Qemu([sys.executable, str(fake)], self.tmp / "qemu.log", qmp_stdio=True)
        self.addCleanup(vm.close)
        s = lab.Spec(kernel="6.1", case="txpoll", timeout=seconds)
        return lab._watch(s, vm, launch.Console(self.tmp / "console.log"),
                          launch.Deadline(seconds), self.tmp)

    def test_timeout_is_a_kind(self):
        kind, reason, stopped = self.watch("hang", 0.5)
        self.assertIs(kind, Kind.TIMEOUT)
        self.assertFalse(stopped)
        self.assertIn("0 s wall", reason)

    def test_power_off_is_not_a_timeout(self):
        kind, reason, stopped = self.watch("shutdown", 30)
        self.assertIsNone(kind)   # judged from the console's VERDICT line
        self.assertTrue(stopped)

    def test_outcome(self):
        o = Outcome(Kind.TIMEOUT, "no guest power-off within 300 s wall")
        self.assertEqual(str(o), "TIMEOUT no guest power-off within 300 s wall")
        self.assertFalse(o.ok)


class ReproduceHonoursRtl8168Qemu(unittest.TestCase):
    def test_missing_qemu_named(self):
        env = dict(os.environ, RTL8168_QEMU="/nonexistent/qemu-system-x86_64",
                   PYTHONDONTWRITEBYTECODE="1")
        p = subprocess.run([sys.executable, str(HERE.parent / "reproduce"), "txpoll-stall",
                            "--out", tempfile.gettempdir()], capture_output=True, text=True,
                           env=env)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("/nonexistent/qemu-system-x86_64", p.stderr)


if __name__ == "__main__":
    unittest.main()
