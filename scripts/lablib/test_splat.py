# SPDX-License-Identifier: GPL-2.0-or-later
"""lablib.splat over real-looking console excerpts: what must be found (WARN, BUG, Oops,
panic, lockdep, KASAN, UBSAN, DMA-API, RCU stall, hung task, TX watchdog of 6.1 and of 6.10+)
and what must not (the lines the project's guests print in a clean run, scenario output)."""
import tempfile
import unittest
from pathlib import Path

from lablib import splat

# the end-of-run dump of guest_kmsg_dump (guest-tests/initramfs/guest-lib.sh), then the
# teardown at console level 8, as in a 6.1 smoke run with a WARN_ON_ONCE in rtl_shutdown
SMOKE_WARN_AT_SHUTDOWN = """\
RESULT scenario=smoke tx_mbps=612 rx_mbps=598
---- kernel log (level <= warning) begin
  <4>[    3.122960] r8169: loading out-of-tree module taints kernel.
---- kernel log end
VERDICT PASS smoke probe, link, dhcp, ping, full-size frames and both transfers ok
[    8.196362] sysrq: Power Off
[    8.199407] r8169 0000:01:00.0 eth0: Link is Down
[    8.199501] ------------[ cut here ]------------
[    8.199530] WARNING: CPU: 0 PID: 17 at r8169/r8169_main.c:5003 rtl_shutdown+0x93/0xa0 [r8169]
[    8.199601] Modules linked in: r8169(OE) realtek mdio_devres libphy
[    8.199700] CPU: 0 PID: 17 Comm: kworker/0:1 Tainted: G           OE      6.1.0-57-amd64 #1  Debian 6.1.192-3
[    8.199800] Call Trace:
[    8.199810]  <TASK>
[    8.199820]  pci_device_shutdown+0x34/0x60
[    8.199900]  </TASK>
[    8.199950] ---[ end trace 0000000000000000 ]---
[    8.233661] ACPI: PM: Preparing to enter system sleep state S5
[    8.234687] reboot: Power down
"""

# 6.1's dev_watchdog: WARN_ONCE with a KERN_INFO message (the dump keeps the line after
# "cut here" whatever its level), then r8169's reset
TX_TIMEOUT_61 = """\
  <4>[   21.402113] ------------[ cut here ]------------
  <6>[   21.402140] NETDEV WATCHDOG: eth0 (r8169): transmit queue 0 timed out
  <4>[   21.402301] WARNING: CPU: 0 PID: 0 at net/sched/sch_generic.c:525 dev_watchdog+0x21f/0x230
  <4>[   21.402400] Modules linked in: r8169 realtek mdio_devres libphy
  <4>[   21.402500] Call Trace:
  <4>[   21.402600] ---[ end trace 0000000000000000 ]---
"""
# 6.10+: netdev_crit, no WARN
TX_TIMEOUT_72 = ("[   19.880512] r8169 0000:01:00.0 eth0: NETDEV WATCHDOG: CPU: 0: transmit queue 0 "
                 "timed out 5520 ms\n")


class Find(unittest.TestCase):
    def kinds(self, text):
        return [(s.kind, s.text) for s in splat.scan(text)]

    def test_warn_at_shutdown_after_the_verdict(self):
        got = splat.scan(SMOKE_WARN_AT_SHUTDOWN)
        self.assertEqual(len(got), 1)
        self.assertEqual(got[0].kind, "warning")
        self.assertEqual(got[0].text, "WARNING: CPU: 0 PID: 17 at r8169/r8169_main.c:5003 "
                                      "rtl_shutdown+0x93/0xa0 [r8169]")
        self.assertEqual(got[0].ts, "8.199530")
        self.assertEqual(got[0].lineno, 9)
        self.assertEqual(splat.reason(got), "kernel splat: " + got[0].text)

    def test_warn_in_the_dump(self):
        text = ("  <4>[    3.237607] WARNING: CPU: 0 PID: 1 at drivers/net/ethernet/realtek/"
                "r8169_main.c:4410 rtl8169_poll+0x1a/0x80 [r8169]\n")
        self.assertEqual(self.kinds(text), [("warning", text.split("] ", 1)[1].rstrip())])

    def test_each_kind(self):
        cases = {
            "[   12.000001] BUG: kernel NULL pointer dereference, address: 0000000000000008":
                "bug",
            "[   12.000002] Oops: 0000 [#1] PREEMPT SMP NOPTI": "oops",
            "[   12.000003] general protection fault, probably for non-canonical address "
            "0xdead000000000100: 0000 [#1] PREEMPT SMP NOPTI": "oops",
            "[   12.000004] kernel BUG at drivers/net/ethernet/realtek/r8169_main.c:4211!": "oops",
            "[   12.000005] Kernel panic - not syncing: Fatal exception in interrupt": "panic",
            "[   12.000006] WARNING: possible circular locking dependency detected": "lockdep",
            "[   12.000007] WARNING: inconsistent lock state": "lockdep",
            "[   12.000008] WARNING: possible recursive locking detected": "lockdep",
            "[   12.000009] WARNING: suspicious RCU usage": "lockdep",
            "[   12.000010] BUG: KASAN: use-after-free in rtl_tx+0x2d4/0x3a0 [r8169]": "kasan",
            "[   12.000011] BUG: KFENCE: out-of-bounds read in rtl_rx+0x101/0x4a0 [r8169]": "kasan",
            "[   12.000012] UBSAN: shift-out-of-bounds in drivers/net/ethernet/realtek/"
            "r8169_main.c:1234:20": "ubsan",
            "[   12.000013] DMA-API: r8169 0000:01:00.0: device driver frees DMA memory with "
            "different direction [device address=0x0000000005c3e000] [size=1536 bytes] "
            "[mapped with DMA_FROM_DEVICE] [unmapped with DMA_TO_DEVICE]": "dma-api",
            "[   12.000014] r8169 0000:01:00.0: DMA-API: device driver tries to free DMA memory "
            "it has not allocated": "dma-api",
            "[   12.000015] rcu: INFO: rcu_preempt self-detected stall on CPU": "rcu-stall",
            "[   12.000016] rcu: INFO: rcu_sched detected stalls on CPUs/tasks:": "rcu-stall",
            "[  242.000017] INFO: task kworker/0:2:45 blocked for more than 120 seconds.":
                "hung-task",
            "[   12.000018] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [ksoftirqd/0:14]":
                "bug",
            "[   12.000019] BUG: sleeping function called from invalid context at "
            "kernel/locking/mutex.c:580": "bug",
            "[   12.000020] BUG: scheduling while atomic: swapper/0/0/0x00000100": "bug",
            "[   12.000021] WARNING: CPU: 0 PID: 1 at drivers/net/ethernet/realtek/"
            "r8169_main.c:4410 rtl8169_poll+0x1a/0x80 [r8169]": "warning",
            "[   12.000022] [    T1] WARNING: CPU: 0 PID: 1 at net/core/dev.c:3337 "
            "skb_warn_bad_offload+0x7c/0x100": "warning",
            # 7.x's format of the WARNING line (file:line first, the task last)
            "[    9.412200] WARNING: r8169_main.c:5272 at rtl_shutdown+0x82/0x90 [r8169], "
            "CPU#0: kworker/0:1/11": "warning",
            "[    9.412200] WARNING: net/sched/sch_generic.c:555 at dev_watchdog+0x21f/0x230, "
            "CPU#0: swapper/0/0": "tx-timeout",
            # the debug kernel's end-of-entry scan (an info record the dump passes on)
            "  <6>[   30.100000] kmemleak: 2 new suspected memory leaks (see "
            "/sys/kernel/debug/kmemleak)": "kmemleak",
            "[   30.100001] kmemleak: 1 new suspected memory leak (see "
            "/sys/kernel/debug/kmemleak)": "kmemleak",
        }
        for line, kind in cases.items():
            self.assertEqual([s.kind for s in splat.scan(line + "\n")], [kind], line)

    def test_tx_watchdog_61_and_72(self):
        self.assertEqual([s.kind for s in splat.scan(TX_TIMEOUT_61)], ["tx-timeout"] * 2)
        self.assertEqual(splat.scan(TX_TIMEOUT_61)[0].text,
                         "NETDEV WATCHDOG: eth0 (r8169): transmit queue 0 timed out")
        self.assertEqual([s.kind for s in splat.scan(TX_TIMEOUT_72)], ["tx-timeout"])
        # expected (the faults entry): nothing left; not expected: the first line is the reason
        self.assertEqual(splat.unexpected(splat.scan(TX_TIMEOUT_61), ("tx-timeout",)), [])
        self.assertEqual(splat.reason(splat.unexpected(splat.scan(TX_TIMEOUT_61))),
                         "kernel splat: NETDEV WATCHDOG: eth0 (r8169): transmit queue 0 timed "
                         "out (+1 more splat line)")
        # a WARN of another place in the same log is still one
        both = TX_TIMEOUT_61 + SMOKE_WARN_AT_SHUTDOWN
        self.assertEqual([s.kind for s in splat.unexpected(splat.scan(both), ("tx-timeout",))],
                         ["warning"])

    def test_unknown_kind_is_an_error(self):
        with self.assertRaisesRegex(ValueError, "unknown splat kind"):
            splat.unexpected([], ("tx-timeot",))


class Benign(unittest.TestCase):
    def test_kmemleak_report_and_setup_are_not_splats(self):
        # the report's own lines (guest_kmemleak_scan quotes them) and kmemleak's boot lines
        text = ("  kmemleak| unreferenced object 0xffff888004a1c000 (size 1024):\n"
                "  kmemleak|   comm \"ip\", pid 120, jiffies 4294901234\n"
                "[    0.412000] kmemleak: Kernel memory leak detector initialized (mem pool "
                "available: 14000)\n"
                "[    0.412100] kmemleak: Automatic memory scanning thread started\n")
        self.assertEqual(splat.scan(text), [])

    def test_clean_run_lines(self):
        # lines of clean runs of the project's guests (6.1, 6.12, 7.2; scenarios and lab)
        clean = """\
[    0.000000] Linux version 6.1.0-57-amd64 (debian-kernel@lists.debian.org)
[    0.012345] [Firmware Bug]: TSC doesn't count with P0 frequency!
[    0.123456] ACPI: _OSC evaluation for CPUs failed, trying _PDC
[    0.223456] ACPI Warning: SystemIO range 0x0000000000000600-0x000000000000063F conflicts
[    0.323456] DMA-API: preallocated 65536 debug entries
[    0.423456] DMA-API: debugging enabled by kernel config
[    0.523456] rcu: Hierarchical RCU implementation.
[    0.623456] rcu: RCU calculated value of scheduler-enlistment delay is 25 jiffies.
[    1.000000] hung_task: detector enabled
  <4>[    3.122960] r8169: loading out-of-tree module taints kernel.
  <3>[    3.300000] r8169 0000:01:00.0: Direct firmware load for rtl_nic/rtl8168h-2.fw failed with error -2
  <3>[    3.300100] r8169 0000:01:00.0: Unable to load firmware rtl_nic/rtl8168h-2.fw (-2)
[    3.400000] r8169 0000:01:00.0 eth0: Link is Down
[    4.400000] r8169 0000:01:00.0 eth0: Link is Up - 1Gbps/Full - flow control rx/tx
[    5.500000] DMAR: DRHD: handling fault status reg 2
[    5.500100] DMAR: [DMA Read NO_PASID] Request device [01:00.0] fault addr 0xfff0 [fault reason 0x06] PTE Read access is not set
[    8.196362] sysrq: Power Off
[    8.234687] reboot: Power down
"""
        self.assertEqual(splat.scan(clean), [])

    def test_scenario_output_is_not_kernel_log(self):
        # what a scenario prints itself has no printk timestamp: never a splat
        text = ("RESULT scenario=faults class=dma-write verdict=FAIL why=splat:WARNING:_CPU:_0;\n"
                "WARNING: CPU: 0 PID: 1 at something (no timestamp: not the kernel's)\n"
                "VERDICT FAIL faults BUG: in the test\n"
                "  | [   12.0] r8169 0000:01:00.0 eth0: rtl_chipcmd_cond == 1 (loop: 100, delay: 100).\n")
        self.assertEqual(splat.scan(text), [])


class Dedup(unittest.TestCase):
    def test_live_and_dumped_record_is_one(self):
        live = "[   12.000001] BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
        dump = "  <1>[   12.000001] BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
        self.assertEqual(len(splat.scan(live + dump)), 1)

    def test_files_of_one_guest(self):
        with tempfile.TemporaryDirectory() as d:
            a, b = Path(d, "console-1.log"), Path(d, "console-2.log")
            a.write_text(TX_TIMEOUT_72)
            b.write_text(TX_TIMEOUT_72 + SMOKE_WARN_AT_SHUTDOWN)   # migrated: the dump repeats it
            got = splat.scan_files([a, b, Path(d, "missing.log")])
            self.assertEqual([(s.kind, Path(s.source).name) for s in got],
                             [("tx-timeout", "console-1.log"), ("warning", "console-2.log")])


if __name__ == "__main__":
    unittest.main()
