# SPDX-License-Identifier: GPL-2.0-or-later
"""Bad input: every one becomes a one-line error and exit status 2 (nothing half-written)."""


class BadInput(Exception):
    """An error in what the user gave us (unknown scenario, patch that does not apply, sources
    that do not build, a .ko for another kernel, missing pieces). str(e) is the one line."""


class BuildFailed(BadInput):
    """The driver sources did not build (scripts/bisect maps this to exit 125: skip)."""
