# SPDX-License-Identifier: GPL-2.0-or-later
"""Episode aspm-l1 (2023, docs/HISTORY.md "ASPM L1 TX timeouts"): with ASPM L1 enabled on its
link, an RTL8168h stops transmitting until the kernel's TX watchdog fires.

Lab case guest-tests/lab/aspm-l1.sh: the DUT is an 8168h behind a root port that advertises
ASPM L1 (x-aspm-l1=on), the guest's ASPM policy goes to powersave, and the DUT sends a paced
UDP stream (one 64-byte datagram per 10 ms) to the silent partner. The model's link enters L1
after 16 us without traffic and loses a TxPoll doorbell that finds it there (the quirk
aspm-l1-txpoll-lost, on for the 8168h): the frame stays in the ring until the watchdog calls
r8169's ndo_tx_timeout, whose task disables ASPM (80c0576ef179) and resets the chip.

  old    the stock r8169 with rtl_init_one as 4b5f82f6aaef ("r8169: enable ASPM L1/L1.1 from
         RTL8168h") left it: the probe disables only L1.2 on VER_46 and later
         (guest-tests/r8169-patches/aspm-l1-old.patch)
  fixed  the project's rtl8168sim: it does not disable L1 (the policy enables it in Link
         Control) but never sets the chip's Config5 ASPM_en, the way Realtek's vendor driver
         keeps ASPM off while traffic flows, so the link never enters L1
  stock  the kernel's own r8169: the probe disables L1 (90ca51e8c654), so the policy cannot
         enable it and the link never enters L1

Verdict (per run; the guest's part must pass: policy accepted, stream received, ping after):
  REPRODUCED  L1 was enabled on the link (l1_on=1), the TX watchdog fired at least once, r8169
              said "ASPM disabled on Tx timeout", L1 is off afterwards, and the stream came
              back (its last datagram arrived); the model counted lost doorbells
              (tx_doorbells_lost_l1 > 0)
  CLEAN       no TX timeout, the stream without loss, the model's link never in L1
              (aspm_l1_entries = 0; l1_on says whether the OS enabled it on its side)
  otherwise   UNEXPECTED
"""

from . import common
from .labrun import LabResult

NAME = "aspm-l1"
DRIVERS = ("old", "fixed", "stock")
CHIPS = ("8168h",)       # ASPM L1 is modelled for the profiles that advertise it (aspm-l1.sh pins it)
CASE = "aspm-l1"
ARGS = {"count": 1200, "interval_us": 10000}   # 12 s: the 6 s watchdog and the recovery after it
PATCH = common.R8169_PATCHES / "aspm-l1-old.patch"


def judge(res: LabResult) -> tuple:
    """(observed, figures, reason) of one run."""
    aspm = res.result(what="aspm")
    stream = res.result(what="stream")
    after = res.result(what="after")
    if not res.ok or not aspm or not stream:
        return None, {}, f"lab run {res.status}: {res.reason or 'no aspm/stream RESULT'}"
    dut = res.model_stats.get("dut", {})
    fig = {"l1_on": aspm.get("l1_on", "?"),
           "tx_timeouts": common.num(stream, "tx_timeouts", -1),
           "received": common.num(stream, "received", -1),
           "sent": common.num(stream, "sent", -1),
           "last_seq": common.num(stream, "last_seq", -1),
           "stall_ms": common.num(stream, "stall_ms", -1),
           "aspm_disabled_msgs": common.num(stream, "aspm_disabled_msgs", -1),
           "l1_after": stream.get("l1_after", "?"),
           "aspm_l1_entries": dut.get("aspm_l1_entries", -1),
           "doorbells_lost_l1": dut.get("tx_doorbells_lost_l1", -1)}
    if aspm.get("policy") != "ok":
        return None, fig, "the guest could not set the ASPM policy (OS without ASPM control?)"
    if after.get("ping") != "ok":
        return None, fig, "the DUT could not ping after the stream"
    if fig["l1_on"] == "1" and fig["tx_timeouts"] >= 1 and fig["aspm_disabled_msgs"] >= 1 \
            and fig["l1_after"] == "0" and fig["last_seq"] == fig["sent"] - 1 \
            and fig["doorbells_lost_l1"] > 0:
        return common.REPRODUCED, fig, ""
    if fig["tx_timeouts"] == 0 and fig["received"] == fig["sent"] \
            and fig["aspm_l1_entries"] == 0:
        return common.CLEAN, fig, ""
    return None, fig, "the figures fit neither verdict"


def run(ctx: common.Context, driver: str) -> list:
    extra = [str(common.patched_overlay(ctx, PATCH))] if driver == "old" else []
    dut = "rtl8168sim" if driver == "fixed" else "r8169"
    res = ctx.lab(CASE, dut, args=ARGS, initrd_append=extra, tag=f"{CASE}-{driver}")
    expected = common.REPRODUCED if driver == "old" else common.CLEAN
    observed, fig, reason = judge(res)
    return [common.case(NAME, driver, CASE, expected, observed, fig, res, reason)]
