#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Launcher of regress_lib/bisect_demo.py (CTest regress.bisect-demo.6.1 runs this file by its path; docs/ARCHITECTURE.md
"Python tooling")."""
import runpy
import sys
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # scripts/, the import root
runpy.run_module("regress_lib.bisect_demo", run_name="__main__", alter_sys=True)
