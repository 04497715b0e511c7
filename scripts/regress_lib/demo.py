#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Launcher of regress_lib.bisect_demo, the planted-regression bisect demonstration (CTest regress.bisect-demo.6.1): guest-tests/regress.cmake runs this file by
its path, so it is an entry point like the executables in scripts/ and, being one folder down,
puts scripts/ (the import root of lablib, repro, regress_lib; docs/ARCHITECTURE.md "Python
tooling") on the path itself, once. Options: regress_lib/bisect_demo.py (--help)."""
import runpy
import sys
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
runpy.run_module("regress_lib.bisect_demo", run_name="__main__", alter_sys=True)
