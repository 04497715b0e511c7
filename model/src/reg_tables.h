// SPDX-License-Identifier: GPL-2.0-or-later
// The register tables of the chip classes the profiles use (reg_tables.cc):
// the registers every RTL8168 shares, plus each class's own rows. A profile
// names its layout (profile.cc); the register file decodes through it.
#pragma once

#include "reg_spec.h"

namespace rtl8168sim {

// RTL8168c and RTL8168evl: the common table; OCP/GPHY_OCP flags only.
extern const RegLayout kRegLayout8168c;
// The 8168g class (8168g/h): MAC OCP, PHY OCP, MCU, MISC and power registers.
extern const RegLayout kRegLayout8168g;

}  // namespace rtl8168sim
