// SPDX-License-Identifier: GPL-2.0-or-later
// The chip's wake-up detector (Wake-on-LAN): the events the driver arms in
// the Config registers, and the PME the chip then signals.
//
// What arms what (r8169 __rtl8169_set_wol; RTL8168 Config3/Config5):
//   - Config5 LanWake (bit 1): the wake enable; r8169 sets it together with
//     any WoL option (its WAKE_ANY row) and clears it with none. No event
//     wakes without it.
//   - Config3 LinkUp (bit 4, WAKE_PHY): the link came up. r8169's runtime
//     suspend arms this one alone (rtl8169_runtime_suspend), so that plugging
//     the cable back in resumes a device suspended for want of a link.
//   - the magic packet (WAKE_MAGIC): where ChipProfile::magic_packet says
//     (Config3 MagicPacket on the 8168c, ERI 0xdc bit 16 from the 8168evl on,
//     MAC OCP 0xc0b6 bit 0 on the RTL8125). A magic packet (AMD, "Magic Packet
//     Technology"): addressed to the chip (its IDR0-5) or broadcast, carrying
//     anywhere after its Ethernet header six bytes 0xff and then the chip's
//     address sixteen times.
// Config5 UWF/MWF/BWF (wake on any unicast/multicast/broadcast frame) are
// stored and never wake: not modelled.
//
// The detector looks at every frame on the wire side, whether the receiver
// is on or not (after a close r8169 leaves it as rtl_wol_enable_rx set it),
// and at every link-up, in every power state: the PM capability the QEMU
// shim builds advertises PME from D0 and D3hot. The capability and its
// PMCSR are the host's (hw/net/rtl8168.c): the model reports the event
// (rtl8168_host_ops.pme, trace `wake`), the host sets PME_Status and signals
// PME# when PME_En is set. Nothing here is state: what is armed is read from
// the registers at each event.
#pragma once

#include <cstdint>
#include <span>

namespace rtl8168sim {

class Device;

namespace wake {

enum Event : uint32_t { kLinkUp = 1, kMagicPacket = 2 };

// `frame` carries a magic packet for station address `mac` (the address
// check included).
bool is_magic_packet(std::span<const uint8_t> frame, std::span<const uint8_t, 6> mac);
// The link came up / a frame arrived from the wire: signal the wake if the
// driver armed it.
void on_link_up(Device& d);
void on_frame(Device& d, std::span<const uint8_t> frame);

}  // namespace wake
}  // namespace rtl8168sim
