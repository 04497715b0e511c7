# SPDX-License-Identifier: GPL-2.0-or-later
"""Episode tx-timeout-recovery (docs/HISTORY.md §7): the TX watchdog's reset must also reset
the byte queue limits, or the queue stays stopped after the reset.

Lab case guest-tests/lab/tx-timeout.sh. The DUT's TX DMA engine stops fetching at virtual time
AT_MS (the tx-stop-fetch fault, docs/FAULTS.md, as the DUT property `faults=`) while the DUT
sends 64-byte UDP datagrams to the partner, one per 2 ms, from 1 s before, for 20 s. The ring
fills, the queue stops, the kernel's watchdog (6 s) calls ndo_tx_timeout and the driver resets
the chip (which restarts the engine). old = rtl8168sim tx_reset_bql=0 (the skbs dropped by the
reset are never reported to BQL: it keeps them in flight, above its limit, and the stack hands
the queue nothing more), fixed = tx_reset_bql=1 (netdev_reset_queue, as r8169's
rtl8169_tx_clear), stock = r8169.

Verdict (per run):
  REPRODUCED  the watchdog fired and the stream never resumed: nothing arrived in the last
              TAIL_MS of the run
  CLEAN       the watchdog fired, the stream stopped for >= 1 s (the fault worked) and resumed:
              >= 100 datagrams after the silence, the last one < TAIL_MS before the end
  otherwise   UNEXPECTED
"""
from . import common
from .labrun import LabResult

NAME = "tx-timeout-recovery"
DRIVERS = ("old", "fixed", "stock")
AT_MS = 20000
PROPS = f"faults=tx-stop-fetch:at={AT_MS}ms"
ARGS = {"fault_at_ms": AT_MS, "count": 10000, "interval_us": 2000}
TAIL_MS = 5000


def judge(res: LabResult) -> tuple:
    r, failed = common.lab_result(res, "no RESULT what=tx-timeout", what="tx-timeout")
    if failed:
        return None, {}, failed
    wd, tail, gap, after = common.counts(r, "tx_timeouts", "tail_ms", "max_gap_us", "after_gap")
    fig = {"tx_timeouts": wd, "received": f"{r.get('received', '?')}/{r.get('sent', '?')}",
           "stall_ms": round(gap / 1000), "after_stall": after, "tail_ms": tail,
           "bql": f"{r.get('bql_inflight', '?')}/{r.get('bql_limit', '?')}"}
    after_ping = res.result(what="after")
    if after_ping:
        fig["ping_after"] = after_ping.get("ping", "?")
    if wd >= 1 and tail >= TAIL_MS:
        return common.REPRODUCED, fig, "the queue stayed stopped after the watchdog's reset"
    if wd >= 1 and gap >= 1_000_000 and after >= 100 and tail < TAIL_MS:
        return common.CLEAN, fig, ""
    if wd == 0:
        return None, fig, "the TX watchdog never fired (did the tx-stop-fetch fault fire?)"
    return None, fig, "the figures fit neither verdict"


def run(ctx: common.Context, driver: str) -> list:
    return common.old_fixed_stock(ctx, driver, NAME, "tx-timeout", "tx_reset_bql",
                                  lambda res, _sim: judge(res), args=ARGS, props=PROPS)
