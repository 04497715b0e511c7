# SPDX-License-Identifier: GPL-2.0-or-later
"""lablib - the one launcher library of the guest tests (docs/GUEST.md, docs/REPRODUCE.md).

Every tool that boots a guest under QEMU goes through it: scripts/run-guest (scenarios),
scripts/run-lab and scripts/reproduce (the closed-world lab), guest-tests/driver/smoke-test
(the guest driver's boot test) and scripts/regress (through the first two).

Modules:
  result     the one result vocabulary: Kind PASS | FAIL | ERROR | TIMEOUT, and Outcome
             (kind + reason + wall time); a timeout is a kind, never read from a reason
  protocol   the guest's console lines (RESULT/STEP/GUEST and the one end line of every
             guest, "VERDICT PASS|FAIL <name> <reason>": scenario, lab case or "smoke")
             parsed into an Outcome; run-guest's output (parse_report) and run-lab's report
             (parse_lab_report, python3 -m lablib.protocol lab-fingerprint: check-replay)
  cpio       the newc writer (byte-identical for the same contents) and reader: the guest
             image's initramfs (scripts/build-guest: cpio.py pack) and every archive that is
             appended to it
  kernelpkg  which Debian linux-image package and version a guest kernel 6.1 / 6.12 is
             (scripts/build-guest and scripts/build-driver both ask it)
  qemu       QEMU command-line pieces: the binary ($RTL8168_QEMU), firmware dirs, NIC
             -device options with extra properties, -icount, the initrd with appended archives
  launch     starting QEMU with a wall-clock limit, the serial console file, HMP and QMP
  guest      scripts/run-guest: one scenario with the host peers (rtl8168-peer)
  vfiouser   run-guest --nic vfio-user: rtl8168-vfio-user behind a distribution QEMU's
             vfio-user-pci (scripts/fetch-distro-qemu), the server's start, link and stop
  lab        scripts/run-lab: the lab (two rtl8168 on one hub, -icount), in process
  smoke      guest-tests/driver/smoke-test
  compare    scripts/compare-nics' table and JSON (python3 -m lablib.compare)
  splat      kernel splats (WARN, BUG, Oops, lockdep, KASAN, TX watchdog, ...) in a guest's
             console log: the patterns in one place (scripts/regress fails an entry on one)

scripts/ is the import root of lablib, repro and regress_lib (docs/ARCHITECTURE.md "Python
tooling"): the executables in scripts/ import them directly, nothing changes sys.path.

Standard library only.
"""
