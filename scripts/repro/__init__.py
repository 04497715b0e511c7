# SPDX-License-Identifier: GPL-2.0-or-later
"""Episode modules of scripts/reproduce; the interface is documented in common.py."""
