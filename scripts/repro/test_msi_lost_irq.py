# SPDX-License-Identifier: GPL-2.0-or-later
"""msi-lost-irq on another chip: the lab case reads IntrStatus/IntrMask where the model's chip
list says the DUT keeps them (python3 -m unittest repro.test_msi_lost_irq, from scripts/)."""
import unittest

from repro import common, msi_lost_irq as m


def bench_built() -> bool:
    from repro import dma_burst
    return dma_burst.bench_path() is not None


class Ctx:
    """A Context stand-in that records the lab call and answers with a clean run."""

    class Res:
        ok, status, reason = True, "PASS", ""
        results = [{"setup": "ok", "irq": "PCI-MSI"}, {"hang": "0", "recv_mbps": "600"}]

        def result(self, **kw):
            return next((r for r in self.results
                         if all(r.get(k) == v for k, v in kw.items())), {})

    def __init__(self, chip):
        self.chip, self.calls = chip, []

    def lab(self, case, dut, params="", args=None, **kw):
        self.calls.append((case, dut, dict(args or {})))
        return self.Res()


@unittest.skipUnless(bench_built(), "build/bin/rtl8168-bench not built")
class IntrRegisters(unittest.TestCase):
    def test_the_8168s_run_as_before(self):
        for chip in (None, "8168c", "8168evl", "8168h"):
            self.assertEqual(m.intr_reg_args(chip), {}, chip)
            ctx = Ctx(chip)
            [case] = m.run(ctx, "stock")
            self.assertEqual(ctx.calls, [("msi", "r8169", m.ARGS)], chip)
            self.assertEqual(case["verdict"], common.CLEAN)

    def test_the_8125b_reads_its_32_bit_pair(self):
        self.assertEqual(m.intr_reg_args("8125b"), {"isr_reg": "3c", "imr_reg": "38"})
        ctx = Ctx("8125b")
        m.run(ctx, "stock")
        [(_, _, args)] = ctx.calls
        self.assertEqual((args["isr_reg"], args["imr_reg"], args["streams"]), ("3c", "38", 4))


if __name__ == "__main__":
    unittest.main()
