# SPDX-License-Identifier: GPL-2.0-or-later
"""Episode dma-after-close (2021, docs/HISTORY.md "DMA after close"): with Wake-on-LAN enabled, the chip
keeps receiving after `ip link set down` and DMAs into the rings the close has freed.

Lab case guest-tests/lab/dma-after-close.sh, always behind the IOMMU (intel-iommu, the guest
translating strictly): the DUT (8168evl with PME#, x-pme=on) gets `ethtool -s wol g`, the
partner streams UDP frames to it, the DUT's interface goes down for 400 ms and comes back.
r8169 keeps the receiver on at that close for Wake-on-LAN (rtl8169_cleanup skips the reset,
rtl_wol_enable_rx re-enables the accept bits); the fix f658b90977d2 ("r8169: fix DMA being used
after buffer free if WoL is enabled") clears bus mastering in rtl8169_down, so the chip's
descriptor fetches never reach memory.

  old    the stock r8169 of the kernel with the two lines of f658b90977d2 in rtl8169_down
         taken out (guest-tests/r8169-patches/dma-after-close-old.patch)
  stock  the kernel's own r8169 (carries the fix)
(no "fixed": the project's rtl8168sim has no Wake-on-LAN)

Verdict (per run):
  REPRODUCED  the guest's part passed (down, up, ping) and the IOMMU recorded DMA faults of
              the DUT (the lab FAILs the run naming them)
  CLEAN       the guest's part passed and no IOMMU DMA fault at all
  both need frames offered to the DUT while it was down (offered_while_down > 0: the partner
  sent them; otherwise the run showed nothing)
  otherwise   UNEXPECTED
"""

from . import common
from .labrun import LabResult

NAME = "dma-after-close"
DRIVERS = ("old", "stock")
IOMMU = True        # the episode shows only behind an IOMMU (scripts/reproduce forces it)
CASE = "dma-after-close"
DUT_BDF = "01:00.0"
PATCH = common.R8169_PATCHES / "dma-after-close-old.patch"


def judge(res: LabResult) -> tuple:
    """(observed, figures, reason) of one run."""
    close = res.result(what="close")
    dma = res.dma
    if dma is None:
        return None, {}, "the run was not behind the IOMMU (no fault count)"
    fig = {"iommu_faults": dma.faults, "dut_faults": dma.by_device.get(DUT_BDF, 0),
           "refused_dma": dma.refused}
    offered = common.num(close, "offered_while_down", 0) if close else 0
    if close:
        fig["offered_while_down"] = offered
        fig["dmar_fault_lines"] = common.num(close, "dmar_fault_lines", 0)
        fig["wakeup"] = close.get("wakeup", "?")
    guest_ok = bool(close) and close.get("up_ping") == "ok"
    if guest_ok and not offered:
        return None, fig, "no frame was offered to the DUT while it was down"
    faults_only = res.status == "FAIL" and dma.faults and \
        res.reason.startswith(dma.summary().split(" (", 1)[0])
    if guest_ok and res.ok and not dma.faults:
        return common.CLEAN, fig, ""
    if guest_ok and faults_only and fig["dut_faults"]:
        return common.REPRODUCED, fig, dma.first
    return None, fig, f"lab run {res.status}: {res.reason or 'no close RESULT'}"


def run(ctx: common.Context, driver: str) -> list:
    extra = [str(common.patched_overlay(ctx, PATCH))] if driver == "old" else []
    res = ctx.lab(CASE, "r8169", iommu=True, initrd_append=extra,
                  tag=f"{CASE}-{driver}")
    expected = common.REPRODUCED if driver == "old" else common.CLEAN
    observed, fig, reason = judge(res)
    return [common.case(NAME, driver, CASE, expected, observed, fig, res, reason)]
