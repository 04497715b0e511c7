# SPDX-License-Identifier: GPL-2.0-or-later
"""scripts/regress and scripts/bisect: regression-test a driver change (docs/REGRESS.md).

Modules: errors (BadInput, exit 2), kernels (guest kernel, headers),
driver (SPEC -> module under test, built and cached by content hash), matrix (entries,
expected verdicts, --shard, baselines), runner (one entry -> verdict), report (verdict lines,
JUnit, JSON), demo (the planted-regression bisect demonstration). The newc writer/reader, the
result vocabulary and the guest launchers are scripts/lablib's.
"""
