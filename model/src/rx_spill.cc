// SPDX-License-Identifier: GPL-2.0-or-later
// RX spill: a frame longer than the buffer of its descriptor (but within
// RxMaxSize) continues in the following descriptors, one buffer each, the
// first written back with FS only, the middle ones with neither, the last
// with LS (docs/R8169.md §3 "RX", "Frames longer than the buffer").
//
// Sources: the RTL8169 datasheet (Rev 1.21, RX descriptor) defines FS as
// "first segment of a received packet" and LS as "last segment", i.e. a
// packet may occupy several descriptors; the frame length is that of the
// received packet. CVE-2009-1389 / CVE-2009-4537: with RxMaxSize at the
// hardware limit (16383) and 1536-byte buffers the chip DMAs over-length
// frames across descriptors, and the 2009 r8169, which checked neither FS
// nor LS, took every descriptor for a frame. The fixes: "r8169: fix crash
// when large packets are received" (fdd7b4c3302c, RxMaxSize = rx_buf_sz)
// and "r8169: offical fix for CVE-2009-4537 (overlength frame DMAs)"
// (c0cd884af045: 16383-byte buffers, and rtl8169_fragmented_frame() drops
// any descriptor that is not FS|LS, as r8169 still does). docs/HISTORY.md §6.
//
// Length field, the model's choice (no public source gives the per-fragment
// value): a descriptor without LS reports the bytes written into it (its
// buffer size), the LS descriptor the whole frame including the FCS, as for
// a frame in one descriptor. Frames that fit one buffer never come here, so
// their behaviour (and every trace hash of such runs) is unchanged.
//
// The fragments' data and write-backs are done at once, in ring order, when
// the first descriptor's fetch completes; only the first fetch is timed
// (an approximation: spills are an error path, not a throughput case).
#include <algorithm>

#include "descriptor.h"
#include "device.h"
#include "rx_engine.h"

namespace rtl8168sim {

void RxEngine::spill_head() {
  const RxFrame& f = fifo_.front();
  const size_t total = f.bytes.size();
  ring().forget();  // the following slots are read here, directly
  uint32_t opts1 = desc_.opts1;
  uint64_t addr = desc_.addr;
  size_t done = 0;
  for (uint32_t n = 0; n < kMaxRing; ++n) {
    const size_t room = opts1 & desc::kRxBufSizeMask;
    if (room == 0) {
      // A buffer of 0 bytes cannot take the rest (hostile ring): the frame
      // is lost, counted as too long; the descriptor stays owned.
      d_.account_error(d_.stats.rx_dropped_too_long, reg::RxErr, Device::TallyError::Rx);
      drop_head(RxDropReason::kSpillBadDesc);
      return;
    }
    const size_t len = std::min(room, total - done);
    const bool first = done == 0;
    const bool last = done + len == total;
    uint32_t wb_opts1 = (opts1 & desc::RingEnd) | (first ? desc::FirstFrag : 0u);
    wb_opts1 |= last ? (desc::LastFrag | f.status | (total & desc::kRxBufSizeMask))
                     : static_cast<uint32_t>(len);
    if (!d_.dma_write(addr, f.bytes.data() + done, len) ||
        !ring().write_back(ring().pos(), wb_opts1, last ? f.opts2 : 0u,
                           last ? f.rss : desc_v3::RssResult{})) {
      d_.account_error(d_.stats.rx_dropped_dma, reg::SYSErr | reg::RxErr, Device::TallyError::Rx);
      drop_head(RxDropReason::kSpillDma);
      return;
    }
    d_.trace.rx_frame(last ? static_cast<uint32_t>(total) : static_cast<uint32_t>(len),
                      ring().pos(), wb_opts1);
    done += len;
    ring().advance(opts1);  // slot 0 after EOR; a walk without EOR wraps at the bound, counted
    if (last) break;
    // The next descriptor, read now (non-posted; its time is not charged).
    RingDesc rd;
    if (!ring().read(ring().pos(), rd)) {
      d_.account_error(d_.stats.rx_dropped_dma, reg::SYSErr | reg::RxErr, Device::TallyError::Rx);
      drop_head(RxDropReason::kSpillDma);
      return;
    }
    if (!(rd.opts1 & desc::DescOwn)) {
      // No buffer for the rest: what was written stays (FS without LS, for
      // the driver to discard); the frame counts as lost for want of a
      // descriptor, as a frame that finds none at all (RxOverflow).
      d_.stats.rx_dropped_no_desc++;
      d_.tally.counters.rx_missed++;
      d_.regs.set32(reg::RxMissed, d_.regs.u32(reg::RxMissed) + 1);
      d_.irq.raise_rx_unavailable(q_);
      drop_head(RxDropReason::kSpillNoDesc);
      return;
    }
    opts1 = rd.opts1;
    addr = rd.addr;
  }
  if (done != total) {  // the ring bound: more than kMaxRing descriptors
    d_.account_error(d_.stats.rx_dropped_too_long, reg::RxErr, Device::TallyError::Rx);
    drop_head(RxDropReason::kSpillBadDesc);
    return;
  }
  count_delivered(f, static_cast<uint32_t>(total));
  d_.irq.raise_moderated(Irq::Moderated::RxOK, q_);
  pop_head();
}

}  // namespace rtl8168sim
