# SPDX-License-Identifier: GPL-2.0-or-later
"""Episode unsolicited-syserr (2024, docs/HISTORY.md §5): SYSErr raised unsolicited by a PCIe
chip, taken for a PCI error -> chip reset, link and frames lost.

Lab case guest-tests/lab/syserr.sh. The DUT's model latches SYSErr together with RxOK three
times, 500 ms apart, from virtual time AT_MS (the spurious-irq fault, docs/FAULTS.md, as the
DUT property `faults=`; RxOK is enabled in IntrMask, so each firing is an interrupt), while
the DUT sends 64-byte UDP datagrams to the partner, one per millisecond, from 1 s before.
old = rtl8168sim syserr_pcierr=1 (r8169 before 10ce0db78700: SYSErr -> "PCI error" ->
reset task), fixed = syserr_pcierr=0 (the bit ignored on PCIe chips), stock = r8169.

Verdict (per run):
  REPRODUCED  the driver reset the chip (a "PCI error" line or drv_resets > 0) and the stream
              was disrupted (datagrams lost, a silence >= 50 ms, or a carrier change)
  CLEAN       no reset, no loss, no carrier change, no silence >= 50 ms; rtl8168sim also shows
              that the interrupts with SYSErr reached it (drv_syserr >= 1)
  otherwise   UNEXPECTED
"""
from . import common
from .labrun import LabResult

NAME = "unsolicited-syserr"
DRIVERS = ("old", "fixed", "stock")
AT_MS = 20000           # after the guest's setup (about 4-8 s of virtual time)
FIRINGS = 3
# QEMU's option syntax: a comma inside a property value is written ",," (scripts/lablib/qemu.py)
PROPS = f"faults=spurious-irq:bits=0x8001,,at={AT_MS}ms,,every=500ms,,count={FIRINGS}"
ARGS = {"fault_at_ms": AT_MS, "count": 3000, "interval_us": 1000}
GAP_US = 50_000
# Whether the stock r8169 of a guest kernel carries 10ce0db78700 (docs/HISTORY.md §5: in
# mainline since 6.12-rc5, October 2024, tagged for stable; the 6.6.59 stable release lists
# it; the 6.1-stable review series of 28 October 2024 carries it as patch 103/137). Measured:
# the stock runs are CLEAN on Debian's 6.1.192, 6.12.118 and 7.2.13. A kernel missing from the
# table is assumed to carry it.
STOCK_HAS_FIX = {"6.1": True, "6.12": True, "7.2": True}


def judge(res: LabResult, sim: bool) -> tuple:
    num = common.num
    r, failed = common.lab_result(res, "no RESULT what=syserr", what="syserr")
    if failed:
        return None, {}, failed
    pci, lost, gap, carrier = common.counts(r, "pci_errors", "lost", "max_gap_us",
                                            "carrier_changes")
    resets = num(r, "resets", 0) if sim else None
    seen = num(r, "syserr_seen", 0) if sim else None
    fig = {"pci_errors": pci}
    if sim:
        fig.update({"resets": resets, "syserr_seen": seen})
    fig.update({"lost": f"{lost}/{r.get('sent', '?')}", "max_gap_ms": round(gap / 1000, 1),
                "carrier_changes": carrier})
    reset = pci > 0 or (sim and (resets or 0) > 0)
    disrupted = lost > 0 or gap >= GAP_US or carrier > 0
    if reset and disrupted:
        return common.REPRODUCED, fig, "SYSErr taken for a PCI error: chip reset, stream disrupted"
    if not reset and not disrupted and (not sim or (seen or 0) >= 1):
        return common.CLEAN, fig, ""
    why = []
    if reset and not disrupted:
        why.append("the chip was reset but the stream was not disrupted")
    if disrupted and not reset:
        why.append("the stream was disrupted without a reset")
    if sim and not seen:
        why.append("no interrupt read SYSErr (did the fault fire? faults property)")
    return None, fig, "; ".join(why)


def run(ctx: common.Context, driver: str) -> list:
    # the old driver had the parameter at 1 (SYSErr taken for a PCI error), the fix sets 0
    stock = common.CLEAN if STOCK_HAS_FIX.get(ctx.kernel, True) else common.REPRODUCED
    return common.old_fixed_stock(ctx, driver, NAME, "syserr", "syserr_pcierr", judge,
                                  old=1, fixed=0, args=ARGS, props=PROPS, stock_expected=stock)
