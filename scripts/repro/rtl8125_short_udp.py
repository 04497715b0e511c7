# SPDX-License-Identifier: GPL-2.0-or-later
"""Episode rtl8125-short-udp (2021, docs/HISTORY.md "RTL8125 short UDP"): "on RTL8125 network
breaks under heavy UDP load" (kernel bugzilla 209839), a hardware bug Realtek confirmed;
r8169 pads the frames the chip cannot take since 8d520b4de3ed ("r8169: work around RTL8125
UDP hw bug", rtl8125_quirk_udp_padto: UDP frames under 175 bytes with fewer than 8 bytes after
the IP header, or fewer than 47 to PTP's ports 319/320).

Lab case guest-tests/lab/short-udp.sh: the DUT is the RTL8125B profile (its quirk
short-udp-hang on, as on silicon: model/src/quirks.h); it sends heavy short UDP (8-byte
datagrams to an ordinary port: padded to 60 by every driver, never a trigger), then LAB_ptp
datagrams of 20 bytes to port 319 (62-byte frames, 28 bytes after the IP header), then short
UDP again and a ping. The model's TX path hangs on an unpadded PTP frame until the driver
resets the chip, which r8169 does from its TX watchdog; the hang is traced (tx_stopped
reason 2, read from the run's QEMU log through -trace rtl8168_tx_stopped).

  old    the stock r8169 with 8d520b4de3ed reverted: rtl8125_quirk_udp_padto pads nothing
         and rtl8169_features_check drops checksum offload only below ETH_ZLEN, as before it
         (guest-tests/r8169-patches/short-udp-old.patch), built out of tree
  fixed  the same kernel's r8169 sources unchanged, built out of tree the same way: the fix
         and nothing else tells it from old
  stock  the kernel's own r8169 module (every guest kernel, 6.1 to 7.2, carries the fix)

Verdict (the guest's phases must all have run):
  REPRODUCED  the short-UDP phases arrived in full, the PTP datagrams did not (received <
              sent), the TX watchdog fired (tx_timeouts >= 1), the model traced a short-UDP
              hang, and the network came back (the "after" phase arrived in full, ping ok)
  CLEAN       every datagram of every phase arrived, no TX timeout, no hang traced
  otherwise   UNEXPECTED
"""
import re
from pathlib import Path

from . import common
from .labrun import LabResult

NAME = "rtl8125-short-udp"
DRIVERS = ("old", "fixed", "stock")
CHIPS = ("8125b",)       # the RTL8125's own defect (short-udp.sh pins chip=8125b)
CASE = "short-udp"
ARGS = {"udp": 1000, "ptp": 2, "ptp_ms": 30000}
TRACE = ["rtl8168_tx_stopped"]
HANG_REASON = 2          # tx_stopped reason of the short-udp-hang quirk (model/src/tx_engine.cc)
PATCH = common.R8169_PATCHES / "short-udp-old.patch"
HANG_RE = re.compile(r"rtl8168_tx_stopped\b.*\breason=(\d+)")


def overlay(ctx: common.Context, driver: str) -> list:
    """The newc archive with the r8169 of `driver` for ctx.kernel ([] for stock): built once,
    cached by content (regress_lib.driver)."""
    if driver == "stock":
        return []
    from regress_lib import driver as drv   # the same import root (docs/ARCHITECTURE.md "Python tooling")
    spec = str(PATCH) if driver == "old" else str(drv.stock_sources(ctx.kernel, ctx.log))
    return [str(drv.overlay(drv.resolve(spec, ctx.kernel, ctx.log), ctx.kernel))]


def hangs(out_dir: str) -> int:
    """Short-UDP hangs the model traced in a run (its QEMU log; -1 when there is none)."""
    try:
        text = (Path(out_dir) / "qemu.log").read_text(errors="replace")
    except OSError:
        return -1
    return sum(1 for m in HANG_RE.finditer(text) if int(m.group(1)) == HANG_REASON)


def judge(res: LabResult) -> tuple:
    """(observed, figures, reason) of one run."""
    udp, ptp, after = res.result(what="udp"), res.result(what="ptp"), res.result(what="after")
    if not res.ok or not udp or not ptp or not after:
        return None, {}, f"lab run {res.status}: {res.reason or 'no udp/ptp/after RESULT'}"
    num = common.num
    fig = {"udp": f"{num(udp, 'received', -1)}/{num(udp, 'sent', -1)}",
           "ptp": f"{num(ptp, 'received', -1)}/{num(ptp, 'sent', -1)}",
           "tx_timeouts": num(ptp, "tx_timeouts", -1),
           "hangs": hangs(res.out_dir),
           "after": f"{num(after, 'received', -1)}/{num(after, 'sent', -1)}",
           "ping": after.get("ping", "?")}
    udp_ok = num(udp, "received", -1) == num(udp, "sent", -2)
    after_ok = num(after, "received", -1) == num(after, "sent", -2) and fig["ping"] == "ok"
    if not udp_ok:
        return None, fig, "ordinary short UDP did not arrive in full"
    if not after_ok:
        return None, fig, "the network did not come back after the PTP phase"
    ptp_lost = num(ptp, "received", -1) < num(ptp, "sent", -1)
    if ptp_lost and fig["tx_timeouts"] >= 1 and fig["hangs"] >= 1:
        return common.REPRODUCED, fig, ""
    if not ptp_lost and fig["tx_timeouts"] == 0 and fig["hangs"] == 0:
        return common.CLEAN, fig, ""
    return None, fig, "the figures fit neither verdict"


def run(ctx: common.Context, driver: str) -> list:
    res = ctx.lab(CASE, "r8169", args=ARGS, initrd_append=overlay(ctx, driver),
                  tag=f"{CASE}-{driver}", trace=TRACE)
    expected = common.REPRODUCED if driver == "old" else common.CLEAN
    observed, fig, reason = judge(res)
    second = getattr(res, "second", None)
    if second is not None and observed is not None:   # --twice: the traced hangs agree too
        again = hangs(second.out_dir)
        if again != fig.get("hangs"):
            observed, reason = None, f"not deterministic: hangs {fig.get('hangs')} != {again}"
    return [common.case(NAME, driver, CASE, expected, observed, fig, res, reason)]
