# SPDX-License-Identifier: GPL-2.0-or-later
"""Every module of the three packages under scripts/ imports.

An episode module is imported only when `scripts/reproduce` reaches it, so a module that
cannot be imported (a name used in an annotation but never imported, as evl_tso.py and
evl_short_csum.py once did) fails a guest run minutes into CI rather than here.
"""
import importlib
import unittest
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent.parent
PACKAGES = ("lablib", "repro", "regress_lib")
# Launchers that run their demo when imported (guest-tests/regress.cmake runs them by path).
LAUNCHERS = {"regress_lib.demo", "regress_lib.kernel_demo"}


def modules():
    for pkg in PACKAGES:
        for f in sorted((SCRIPTS / pkg).glob("*.py")):
            name = f"{pkg}.{f.stem}" if f.stem != "__init__" else pkg
            if name not in LAUNCHERS and not f.stem.startswith("test_"):
                yield name


class PackageImports(unittest.TestCase):
    def test_every_module_imports(self):
        names = list(modules())
        self.assertGreater(len(names), 20)
        for name in names:
            with self.subTest(module=name):
                importlib.import_module(name)


if __name__ == "__main__":
    unittest.main()
