// SPDX-License-Identifier: GPL-2.0-or-later
// The RX engine's frames the MAC received with a wire error: a bad FCS, a
// runt (shorter than 64 bytes on the wire) or a frame running on past
// RxMaxSize. The emulated wire carries whole, padded frames with no FCS, so
// these come from the fault schedule (rx-bad-fcs, rx-runt, rx-too-long:
// docs/FAULTS.md). A part of RxEngine, in its own file.
//
// RTL8168 datasheet, RX descriptor status: RES (bit 21) summarises the
// errors below it, RWT (22) a frame over the receive watchdog/RxMaxSize,
// RUNT (20) a frame below 64 bytes, CRC (19) an FCS error. RxConfig decides
// what happens to such a frame: AcceptErr (0x20) takes frames with a CRC
// error or a watchdog cut, AcceptRunt (0x10) frames below 64 bytes; without
// the bit the chip discards the frame. Either way the tally's RxERR counts
// it (r8169 rtl8169_get_stats64 does not read it, ethtool -S rx_errors
// does). r8169 sets both bits only with NETIF_F_RXALL
// (rtl_set_rx_config_features, RX_CONFIG_ACCEPT_ERR_MASK); its rtl_rx then
// counts rx_errors, rx_length_errors (RWT or RUNT) and rx_crc_errors (CRC)
// for a descriptor with RES, and delivers it only with RXALL and never one
// with RWT.
#include "device.h"
#include "rx_engine.h"

namespace rtl8168sim {

// `len`: the frame as received (no FCS), which the faults' len= selects by.
uint32_t RxEngine::wire_errors(size_t len) {
  uint32_t wire = 0;
  if (d_.faults.rx_frame(FaultClass::RxBadFcs, len)) wire |= desc::RxCRC;
  if (d_.faults.rx_frame(FaultClass::RxRunt, len)) wire |= desc::RxRUNT;
  if (d_.faults.rx_frame(FaultClass::RxTooLong, len)) wire |= desc::RxRWT;
  return wire;
}

bool RxEngine::refuse_wire_errors(uint32_t wire, size_t len) {
  const uint32_t rcr = d_.regs.u32(reg::RxConfig);
  // An FCS error is reported with RxErr, as the datasheet's ISR bit 1
  // describes it (a packet with a CRC or alignment error).
  if (wire & desc::RxCRC) d_.irq.raise(reg::RxErr);
  if (wire & desc::RxRWT) d_.tally.count_rx_too_long();
  if (wire & desc::RxRUNT) d_.tally.count_rx_runt();
  const bool needs_err = wire & (desc::RxCRC | desc::RxRWT);
  const bool needs_runt = wire & desc::RxRUNT;
  if ((!needs_err || (rcr & reg::AcceptErr)) && (!needs_runt || (rcr & reg::AcceptRunt))) {
    d_.tally.counters.rx_errors++;  // taken, and still an error frame (RxERR)
    return false;
  }
  // Discarded: one model counter per frame, the most telling error first.
  if (wire & desc::RxRWT) {
    d_.account_error(d_.stats.rx_dropped_too_long, 0, Device::TallyError::Rx);
    trace_drop(RxDropReason::kTooLong, len);
  } else if (wire & desc::RxCRC) {
    d_.account_error(d_.stats.rx_dropped_bad_fcs, 0, Device::TallyError::Rx);
    trace_drop(RxDropReason::kBadFcs, len);
  } else {
    d_.account_error(d_.stats.rx_dropped_short, 0, Device::TallyError::Rx);
    trace_drop(RxDropReason::kShortWire, len);
  }
  return true;
}

}  // namespace rtl8168sim
