// SPDX-License-Identifier: GPL-2.0-or-later
#include "tx_engine.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "descriptor.h"
#include "device.h"
#include "packet/evl_quirks.h"
#include "packet/short_udp_quirk.h"

namespace rtl8168sim {

namespace {


// Reasons carried by the tx_error trace event.
enum TxRefusal : uint64_t {
  kDescDma = 1,      // descriptor read failed
  kNoFirstFrag = 2,  // an owned descriptor without FS where a frame must start
  kFsBeforeLs = 3,   // a new FS arrived before the previous frame's LS
  kTooManyFrags = 4,
  kZeroLength = 5,
  kTooLong = 6,      // over the jumbo limit
  kBadMss = 7,       // TSO with MSS 0
  kMalformed = 8,    // headers the offload engine cannot parse
  kDataDma = 9,      // data read failed
  kIncomplete = 10,  // a frame whose later descriptors are not owned
};

// Reasons carried by the tx_stopped trace event.
enum TxStopReason : uint64_t {
  kWritebackFailed = 1,  // Own could not be handed back to the driver
  kShortUdpHang = 2,     // the short-udp-hang quirk (quirks.h): the TX path hung on a frame
};


uint64_t refusal_of(packet::TxStatus s) {
  switch (s) {
    case packet::TxStatus::bad_mss: return kBadMss;
    case packet::TxStatus::too_long: return kTooLong;
    default: return kMalformed;
  }
}

}  // namespace

// MXDMA (TxConfig 10:8): 16 << n bytes per read request; 7 = unlimited,
// i.e. the PCIe max read request size (docs/R8169.md §7).
uint32_t TxEngine::burst() const {
  const int forced = d_.config().tx_mxdma;
  const unsigned mx = forced >= 0 ? static_cast<unsigned>(forced)
                                  : (d_.regs.u32(reg::TxConfig) & reg::kMxdmaMask) >> reg::kMxdmaShift;
  return mx == 7 ? d_.timing().pcie_mrrs : 16u << mx;
}

void TxEngine::reset() {
  halt();
  rings_[0].set_pos(0);
  rings_[1].set_pos(0);
}

void TxEngine::halt() {
  // Rewind to the oldest descriptor not yet written back so nothing is
  // skipped when the engine is enabled again.
  if (!fifo_.empty()) {
    const WireFrame& f = fifo_.front();
    rings_[f.queue & 1].set_pos(f.first_index);
  } else if (!descs_.empty()) {
    ring().set_pos(descs_[0].index);
  }
  d_.cancel(EventKind::TxDmaDone);
  d_.cancel(EventKind::TxWireDone);
  forget_read_ahead();
  pending_ = {false, false};
  busy_ = false;
  error_stop_ = false;
  d_.faults.on_tx_halt();  // a restart ends a tx-stop-fetch stall too
  phase_ = Phase::Idle;
  unit_reserved_ = false;
  clear_frame();
  rd_addr_ = 0;
  rd_len_ = 0;
  fifo_.clear();
  fifo_used_ = 0;
  wire_busy_ = false;
  walk_count_ = 0;
  walk_instant_ = kNever;
}

// Forget the frame being assembled (it completed, was refused or dropped).
// Every cursor goes back to zero so that a saved idle engine has one
// canonical state, which the load check relies on.
void TxEngine::clear_frame() {
  descs_.clear();
  off_ = packet::TxOffload{};
  tso_ = false;
  total_ = cur_desc_ = cur_off_ = goal_ = stream_pos_ = 0;
  buf_.clear();
  header_.clear();
  hdr_len_ = seg_index_ = seg_count_ = 0;
  if (!unit_reserved_) unit_fifo_ = 0;
}

void TxEngine::stop_on_error(uint64_t reason, uint32_t index) {
  d_.trace.tx_stopped(reason, index);
  halt();
  error_stop_ = true;
  d_.account_error(d_.stats.tx_writeback_errors, reg::SYSErr | reg::TxErr, Device::TallyError::Tx);
}

// A chip defect hung the TX path on the frame being fetched (quirks.h
// short_udp_hang): nothing more leaves, not even what waits in the FIFO;
// every descriptor not yet written back stays owned (halt() rewinds to the
// oldest), doorbells start nothing and no interrupt says so, until the
// driver restarts the transmitter (TxEnb off/on, StopReq, ChipCmd or PCI
// reset clear error_stop_). r8169 learns of it from its TX watchdog.
void TxEngine::hang(uint64_t reason) {
  const uint32_t first = descs_.empty() ? ring().pos() : descs_[0].index;
  d_.trace.tx_stopped(reason, first);
  halt();
  error_stop_ = true;
}

void TxEngine::doorbell(TxQueue queue) {
  const auto q = static_cast<unsigned>(queue);
  d_.stats.tx_doorbells++;
  const uint8_t cmd = d_.regs.u8(reg::ChipCmd);
  if (!(cmd & reg::CmdTxEnb) || (cmd & (reg::CmdStopReq | reg::CmdReset))) {
    d_.trace.doorbell(q, DoorbellOutcome::kTxOff);  // nothing to start
    return;
  }
  if (error_stop_) {
    d_.trace.doorbell(q, DoorbellOutcome::kStopped);  // by a failed write-back, until restarted
    return;
  }
  if (!busy_) {
    busy_ = true;
    q_ = q;
    d_.trace.doorbell(q, DoorbellOutcome::kStarted);
    fetch_desc();
    return;
  }
  if (queue == TxQueue::Npq && d_.config().quirks.lossy_txpoll) {
    // RTL8168 quirk: the NPQ request is lost while the engine is busy.
    d_.stats.tx_doorbells_ignored++;
    d_.trace.doorbell_ignored(q, static_cast<uint32_t>(phase_));
    return;
  }
  d_.trace.doorbell(q, DoorbellOutcome::kBusy);
  if (phase_ == Phase::Drain) {
    q_ = q;  // the walk had ended: start it again
    fetch_desc();
    return;
  }
  pending_[q] = true;  // re-check the ring when this walk ends
}

void TxEngine::fetch_desc() {
  if (error_stop_) return;
  if (descs_.empty() && d_.faults.tx_stop_fetch()) return stall();
  const Time now = d_.now();
  if (now != walk_instant_) {
    walk_instant_ = now;
    walk_count_ = 0;
  }
  if (++walk_count_ > 4 * kMaxRing) {
    // Zero-latency walk that never finds an unowned descriptor (e.g. write
    // backs that fail): stop instead of looping; the next doorbell resumes.
    ring().report_no_eor();
    clear_frame();
    end_walk();
    return;
  }
  if (prefetch_depth() == 0) {
    phase_ = Phase::FetchDesc;
    rd_addr_ = ring().slot_addr(ring().pos());
    rd_len_ = desc::kSize;
    d_.schedule_in(d_.paced(d_.link_wake() + dma_read_time(d_.timing(), desc::kSize)), EventKind::TxDmaDone);
    return;
  }
  // Prefetch: the next descriptor (or the ring end / failure the read-ahead
  // met at this slot) is handed over at once; otherwise wait for its read.
  rd_addr_ = 0;
  rd_len_ = 0;
  const bool nothing_ahead = ring().nothing_ahead();
  if (nothing_ahead && !ring().reading()) ring().start_at(ring().pos());  // read the walk's slot
  phase_ = nothing_ahead ? Phase::WaitDesc : Phase::FetchDesc;
  prefetch_more();
  if (!nothing_ahead) d_.schedule_in(d_.paced(0), EventKind::TxDmaDone);
}

uint32_t TxEngine::prefetch_depth() const { return d_.timing().tx_desc_prefetch; }

// Issue the next prefetch read if there is room and the ring end has not
// been seen: one 16-byte read at a time (a read tag of its own).
void TxEngine::prefetch_more() {
  if (phase_ == Phase::Idle || phase_ == Phase::Drain) return;  // no walk
  if (!ring().may_read(prefetch_depth())) return;
  if (slot_in_use(ring().next())) return;  // resumed by on_wire_done() once written back
  ring().read_next();
}

// A slot the engine still holds: a descriptor of the frame being fetched
// (once its LS is in; while descriptors are still being collected the walk
// reads on, as without prefetch), one already prefetched, or one of a frame
// in the FIFO not yet written back (a ring shorter than the work in flight,
// e.g. one EOR descriptor). The prefetcher does not read it again until it
// is handed back, so a descriptor is never taken twice; each block ends
// (the frame's fetch, the consumption of the prefetched ones, the wire).
bool TxEngine::slot_in_use(uint32_t index) const {
  const bool frame = phase_ == Phase::FetchHeader || phase_ == Phase::FetchData ||
                     phase_ == Phase::WaitFifo;
  if (frame) {
    for (const Desc& dsc : descs_) {
      if (dsc.index == index) return true;
    }
  }
  if (ring().holds(index)) return true;
  if (fifo_.empty()) return false;
  const uint64_t addr = ring().slot_addr(index);  // reads the ring base: only when needed
  for (size_t i = 0; i < fifo_.size(); i++) {
    const WireFrame& f = fifo_.at(i);
    if (f.queue != q_) continue;
    for (const auto& wb : f.writeback) {
      if (wb.first == addr) return true;
    }
  }
  return false;
}

// What was read ahead is dropped with its read in flight (a walk ends, a
// stall, a halt); the next walk reads its slots again.
void TxEngine::forget_read_ahead() {
  // DescCache::forget() for both rings: they read ahead on the one
  // TxDescDone event, cancelled once.
  d_.cancel(EventKind::TxDescDone);
  for (DescCache& r : rings_) r.clear_read_ahead();
}

// A prefetch read completed: guest memory is read now, as for any read.
void TxEngine::on_prefetch_done() {
  if (!ring().complete_read()) return;  // stale after a halt
  if (slot_in_use(ring().next())) {
    // The walk took the slot meanwhile (its frame is now being fetched):
    // not a new descriptor. Read it again once it is handed back.
    prefetch_more();
    return;
  }
  (void)ring().land();  // a miss stays with the ring: on_dma_done() reads it
  prefetch_more();
  if (phase_ == Phase::WaitDesc) {
    phase_ = Phase::FetchDesc;
    d_.schedule_in(d_.paced(0), EventKind::TxDmaDone);
  }
}

void TxEngine::on_dma_done() {
  switch (phase_) {
    case Phase::FetchDesc:
      if (prefetch_depth() == 0) {
        desc_fetched();
      } else if (!ring().empty()) {
        desc_arrived(ring().take());
        prefetch_more();  // room again (a no-op if the walk ended meanwhile)
      } else if (ring().read_failed()) {
        d_.trace.tx_error(kDescDma, ring().pos());
        clear_frame();
        d_.account_error(d_.stats.tx_dma_errors, reg::SYSErr | reg::TxErr, Device::TallyError::Tx);
        end_walk();
      } else {
        // The read-ahead found Own clear at this slot: the ring is empty.
        if (!descs_.empty() && !refuse_frame(kIncomplete)) return;
        end_walk();
      }
      break;
    case Phase::FetchHeader:
    case Phase::FetchData: data_fetched(); break;
    default: break;  // stale completion after a halt
  }
}

void TxEngine::desc_fetched() {
  Desc dsc;
  if (!ring().read_at(rd_addr_, ring().pos(), dsc)) {
    d_.trace.tx_error(kDescDma, ring().pos());
    clear_frame();
    d_.account_error(d_.stats.tx_dma_errors, reg::SYSErr | reg::TxErr, Device::TallyError::Tx);
    end_walk();
    return;
  }
  if (!(dsc.opts1 & desc::DescOwn)) {
    if (!descs_.empty() && !refuse_frame(kIncomplete)) return;
    end_walk();
    return;
  }
  desc_arrived(dsc);
}

// An owned descriptor reached the walk (read, or handed over by the prefetcher).
void TxEngine::desc_arrived(const Desc& dsc) {
  d_.trace.tx_desc(dsc.index, dsc.opts1, dsc.opts2);
  const bool fs = dsc.opts1 & desc::FirstFrag;
  if (!descs_.empty() && fs && !refuse_frame(kFsBeforeLs)) return;
  descs_.push_back(dsc);
  ring().advance(dsc.opts1);
  if (!fs && descs_.size() == 1) {
    refuse_then_fetch(kNoFirstFrag);
    return;
  }
  if (descs_.size() > kMaxFrags) {
    refuse_then_fetch(kTooManyFrags);
    return;
  }
  if (!(dsc.opts1 & desc::LastFrag)) {
    fetch_desc();
    return;
  }
  begin_frame();
}

// v2 descriptor offload fields (r8169 rtl8169_tso_csum_v2, docs/R8169.md §3).
void TxEngine::decode_offload() {
  const Desc& f = descs_[0];
  off_ = packet::TxOffload{};
  off_.gtsenv4 = f.opts1 & desc::GTSENV4;
  off_.gtsenv6 = f.opts1 & desc::GTSENV6;
  tso_ = off_.gtsenv4 || off_.gtsenv6;
  if (tso_) {
    off_.mss = (f.opts2 >> desc::kMssShift) & desc::kMssMask;
    off_.l4_offset = (f.opts1 >> desc::kTxL4OffShift) & 0x7f;
  } else {
    off_.l4_offset = (f.opts2 >> desc::kTcphoShift) & desc::kTcphoMask;
    off_.ipv4_cs = f.opts2 & desc::IPv4_CS;
    off_.tcp_cs = f.opts2 & desc::TCP_CS;
    off_.udp_cs = f.opts2 & desc::UDP_CS;
    off_.ipv6_cs = f.opts2 & desc::IPv6_CS;
  }
  off_.vlan = f.opts2 & desc::TxVlanTag;
  const uint16_t tag = static_cast<uint16_t>(f.opts2 & 0xffff);
  off_.vlan_tci = swab16(tag);  // the descriptor holds swab16(TCI)
}

// ---- The frame's geometry: one formula each, for the walk and for a
// loaded blob alike (check_frame() recomputes through them).

// Bytes described by the frame's descriptors.
uint32_t TxEngine::frame_total() const {
  uint32_t sum = 0;  // at most kMaxFrags x 64 KiB
  for (const Desc& dsc : descs_) sum += dsc.tx_len();
  return sum;
}

// A frame without TSO is one unit: all of it, with FIFO room for the frame
// and a VLAN tag the engine may insert.
TxEngine::Unit TxEngine::frame_unit() const { return Unit{0, total_, total_ + 4}; }

// TSO: the headers come first, Ethernet + IP + TCP, at most 60 bytes past
// the transport offset, from the first descriptor; no FIFO room yet.
TxEngine::Unit TxEngine::header_unit() const {
  return Unit{0, std::min(descs_[0].tx_len(), off_.l4_offset + 60), 0};
}

// The real header length: the transport offset plus the TCP data offset of
// the header bytes fetched (at least l4_offset + 13 of them).
uint32_t TxEngine::tso_header_len(const std::vector<uint8_t>& header) const {
  return off_.l4_offset + (header[off_.l4_offset + 12] >> 4) * 4u;
}

uint32_t TxEngine::segment_count(packet::TxStatus& st) const {
  st = packet::TxStatus::ok;
  return static_cast<uint32_t>(packet::tso_segment_count(header_, total_ - hdr_len_, off_, st));
}

// TSO segment `index`: MSS payload bytes after the header (fewer in the
// last one), each taking FIFO room for the header, its payload and a tag.
uint64_t TxEngine::segment_start(uint32_t index) const {
  return hdr_len_ + static_cast<uint64_t>(index) * off_.mss;
}
TxEngine::Unit TxEngine::segment_unit(uint32_t index) const {  // segment_start(index) <= total_
  const auto start = static_cast<uint32_t>(segment_start(index));
  const uint32_t len = std::min(off_.mss, total_ - start);
  return Unit{start, start + len, hdr_len_ + len + 4};
}

void TxEngine::begin_frame() {
  decode_offload();
  total_ = frame_total();
  const uint32_t max_frame = d_.config().profile->max_frame;
  if (total_ == 0) return refuse_then_fetch(kZeroLength);
  if (!tso_ && total_ > max_frame) return refuse_then_fetch(kTooLong);
  if (tso_ && off_.mss == 0) return refuse_then_fetch(kBadMss);
  if (tso_ && total_ > kMaxTsoBytes) return refuse_then_fetch(kTooLong);
  buf_.clear();
  seek(0);
  if (tso_) {
    goal_ = header_unit().goal;
    if (goal_ < off_.l4_offset + 20) return refuse_then_fetch(kMalformed);
    phase_ = Phase::FetchHeader;
    continue_fetch();
    return;
  }
  const Unit u = frame_unit();
  goal_ = u.goal;
  unit_fifo_ = u.fifo;
  phase_ = Phase::FetchData;
  if (!reserve_fifo(unit_fifo_)) {
    phase_ = Phase::WaitFifo;
    return;
  }
  continue_fetch();
}

void TxEngine::seek(uint32_t stream_pos) {
  stream_pos_ = stream_pos;
  cur_desc_ = 0;
  cur_off_ = stream_pos;
  while (cur_desc_ < descs_.size() && cur_off_ >= descs_[cur_desc_].tx_len()) {
    cur_off_ -= descs_[cur_desc_].tx_len();
    cur_desc_++;
  }
}

bool TxEngine::reserve_fifo(uint32_t bytes) {
  if (fifo_used_ != 0 && fifo_used_ + bytes > d_.timing().tx_fifo_size) return false;
  fifo_used_ += bytes;
  unit_reserved_ = true;
  return true;
}

void TxEngine::continue_fetch() {
  while (cur_desc_ < descs_.size() && cur_off_ >= descs_[cur_desc_].tx_len()) {
    cur_desc_++;
    cur_off_ = 0;
  }
  // goal_ <= total_ (the sum of descs_' lengths) keeps the cursor inside
  // descs_ while stream_pos_ < goal_; both are checked on state load.
  const Desc& dsc = descs_[cur_desc_];
  const uint32_t len =
      std::min({dsc.tx_len() - cur_off_, goal_ - stream_pos_, burst(), kMaxReadRequest});
  rd_addr_ = dsc.addr + cur_off_;
  rd_len_ = len;
  d_.schedule_in(d_.paced(d_.link_wake() + dma_read_time(d_.timing(), len)), EventKind::TxDmaDone);
}

void TxEngine::data_fetched() {
  const size_t at = buf_.size();
  buf_.resize(at + rd_len_);
  if (!d_.dma_read(rd_addr_, buf_.data() + at, rd_len_)) {
    d_.account_error(d_.stats.tx_dma_errors, reg::SYSErr, Device::TallyError::None);
    refuse_then_fetch(kDataDma);
    return;
  }
  cur_off_ += rd_len_;
  stream_pos_ += rd_len_;
  if (stream_pos_ < goal_) {
    continue_fetch();
    return;
  }
  if (phase_ == Phase::FetchHeader) {
    // TCP data offset gives the real header length.
    hdr_len_ = tso_header_len(buf_);
    if (hdr_len_ < off_.l4_offset + 20 || hdr_len_ > buf_.size()) return refuse_then_fetch(kMalformed);
    header_.assign(buf_.begin(), buf_.begin() + hdr_len_);
    packet::TxStatus st;
    seg_count_ = segment_count(st);
    if (seg_count_ == 0 || st != packet::TxStatus::ok) return refuse_then_fetch(refusal_of(st));
    seg_index_ = 0;
    seek(hdr_len_);
    start_segment();
    return;
  }
  frame_done_fetching();
}

// The stream stands at segment seg_index_'s start (seek(hdr_len_) for the
// first, the previous segment's goal for the others); seg_index_ <
// seg_count_ = ceil(payload / MSS) keeps it inside the frame.
void TxEngine::start_segment() {
  const Unit u = segment_unit(seg_index_);
  goal_ = u.goal;
  buf_.clear();
  unit_fifo_ = u.fifo;
  phase_ = Phase::FetchData;
  if (!reserve_fifo(unit_fifo_)) {
    phase_ = Phase::WaitFifo;
    return;
  }
  if (u.goal == u.start) {
    frame_done_fetching();
    return;
  }
  continue_fetch();
}

void TxEngine::frame_done_fetching() {
  if (!tso_ && d_.config().quirks.short_udp_hang &&
      packet::short_udp_trigger(buf_) != packet::ShortUdp::none) {
    return hang(kShortUdpHang);
  }
  const size_t max_frame = d_.config().profile->max_frame;
  WireFrame& w = fifo_.push_back();
  packet::TxStatus st = tso_ ? packet::build_tso_segment(header_, buf_, seg_index_, seg_count_, off_,
                                                         max_frame, w.bytes)
                             : packet::finish_tx_frame(buf_, off_, max_frame, w.bytes);
  if (st != packet::TxStatus::ok) {
    fifo_.pop_back();  // take the entry back
    refuse_then_fetch(refusal_of(st));
    return;
  }
  apply_chip_defects(w.bytes);
  w.fifo_bytes = unit_fifo_;
  w.first_index = descs_[0].index;
  w.queue = static_cast<uint8_t>(q_);
  unit_reserved_ = false;
  const bool last = !tso_ || ++seg_index_ == seg_count_;
  w.completes = last;
  w.writeback.clear();
  if (last) {
    fill_writeback(w);
    clear_frame();
  }
  kick_wire();
  if (last) {
    fetch_desc();  // prefetch: taken before this frame has left the wire
  } else {
    start_segment();
  }
}

// The profile's TX defects (profile.h Quirks, packet/evl_quirks.h), on the
// frame or segment as built. The segment being finished is the last one
// when seg_index_ + 1 == seg_count_ (seg_index_ still counts it here).
void TxEngine::apply_chip_defects(std::vector<uint8_t>& frame) const {
  const Quirks& q = d_.config().quirks;
  if (!tso_) {
    if (q.evl_short_csum) packet::evl_short_frame_csum(buf_.size(), off_, frame);
    return;
  }
  if (!q.evl_tso_defects) return;
  const uint32_t last_frag = descs_.size() > 1 ? descs_.back().tx_len() : 0;
  packet::evl_tso_segment(off_, seg_index_ + 1 == seg_count_, last_frag, frame);
}

void TxEngine::fill_writeback(WireFrame& f) const {
  for (const Desc& dsc : descs_) {
    f.writeback.emplace_back(ring().slot_addr(dsc.index), dsc.opts1 & ~desc::DescOwn);
  }
}

bool TxEngine::refuse_frame(uint64_t reason) {
  // The chip completes a frame it cannot send with TxErr: descriptors are
  // handed back (Own cleared) so the ring keeps moving.
  if (reason != kDataDma) d_.stats.tx_bad_descriptors++;
  d_.tally.counters.tx_aborted++;
  const uint32_t first = descs_.empty() ? ring().pos() : descs_[0].index;
  d_.trace.tx_error(reason, first);
  bool handed_back = true;
  for (const Desc& dsc : descs_) {
    handed_back &= ring().write_opts1(ring().slot_addr(dsc.index), dsc.opts1 & ~desc::DescOwn);
  }
  if (unit_reserved_) {
    fifo_used_ -= unit_fifo_;
    unit_reserved_ = false;
  }
  clear_frame();
  d_.account_error(d_.stats.tx_errors, reg::TxErr, Device::TallyError::Tx);
  if (!handed_back) {
    // The descriptors stay owned by the NIC: walking on would fetch the
    // same ones again and again (a read-only ring). The chip stops.
    stop_on_error(kWritebackFailed, first);
    return false;
  }
  return true;
}

// A frame that cannot be sent is refused and the walk goes on with the next
// descriptor, unless handing it back stopped the engine.
void TxEngine::refuse_then_fetch(uint64_t reason) {
  if (refuse_frame(reason)) fetch_desc();
}

void TxEngine::end_walk() {
  // The walk is over: what was read ahead is forgotten, and the next walk
  // reads its slots again.
  forget_read_ahead();
  if (pending_[1] || pending_[0]) {
    // A doorbell arrived during the walk and was kept (not lossy): re-check.
    q_ = pending_[1] ? 1 : 0;
    pending_[q_] = false;
    fetch_desc();
    return;
  }
  d_.irq.raise(reg::TxDescUnavail);
  stop_fetching();
}

// tx-stop-fetch (fault_injector.h): the DMA engine fetches nothing more
// until TxEnb off/on, StopReq or a reset restarts it; frames already in the
// FIFO still leave. No TxDescUnavail: a hung engine reports nothing, and the
// driver learns of it from its TX watchdog (r8169 rtl8169_tx_timeout).
void TxEngine::stall() {
  pending_ = {false, false};
  forget_read_ahead();  // a read in flight is dropped, what was read forgotten
  stop_fetching();
}

// The fetch side is done (a walk ended, or a stall): no read request is
// open; the engine stays busy while its FIFO drains onto the wire.
void TxEngine::stop_fetching() {
  rd_addr_ = 0;
  rd_len_ = 0;
  if (fifo_.empty()) {
    go_idle();
  } else {
    phase_ = Phase::Drain;
  }
}

void TxEngine::go_idle() {
  busy_ = false;
  phase_ = Phase::Idle;
  d_.trace.tx_idle(q_, ring().pos());
}

void TxEngine::kick_wire() {
  if (wire_busy_ || fifo_.empty()) return;
  wire_busy_ = true;
  const WireFrame& f = fifo_.front();
  const uint32_t mbps = d_.config().timing ? std::max<uint32_t>(d_.phy.speed_mbps(), 10) : 0;
  d_.schedule_in(d_.paced(wire_time(f.bytes.size(), mbps)), EventKind::TxWireDone);
}

void TxEngine::on_wire_done() {
  if (fifo_.empty()) return;  // stale after a halt
  WireFrame& f = fifo_.front();
  const size_t len = f.bytes.size();
  d_.trace.tx_frame(len, f.first_index, f.completes);
  d_.tally.count_tx(f.bytes);
  if (d_.phy.link_up()) {
    d_.transmit(f.bytes);  // takes the bytes: the entry is retired below
  } else {
    d_.stats.tx_dropped_link_down++;
  }
  d_.stats.tx_frames++;
  d_.stats.tx_bytes += len;
  d_.tally.counters.tx_packets++;
  fifo_used_ -= f.fifo_bytes;
  const bool completes = f.completes;
  bool written_back = true;
  for (const auto& [addr, opts1] : f.writeback) written_back &= rings_[f.queue & 1].write_opts1(addr, opts1);
  const uint32_t first = f.first_index;
  fifo_.pop_front();
  wire_busy_ = false;
  if (!written_back) {
    // The frame went out but its descriptors stay owned: re-walking the
    // ring would send it again (and again). The chip stops with SYSErr.
    stop_on_error(kWritebackFailed, first);
    return;
  }
  if (completes) d_.irq.raise_moderated(Irq::Moderated::TxOK);
  kick_wire();
  // A slot just handed back may be the one the prefetcher waits for.
  if (phase_ != Phase::Idle && phase_ != Phase::Drain) prefetch_more();
  if (phase_ == Phase::WaitFifo && reserve_fifo(unit_fifo_)) {
    phase_ = Phase::FetchData;
    if (goal_ == stream_pos_) {
      frame_done_fetching();
    } else {
      continue_fetch();
    }
  } else if (phase_ == Phase::Drain && fifo_.empty()) {
    go_idle();
  }
}

// The blob holds what the walk cannot recompute: the ring positions, the
// phase, the frame's descriptors, the stream cursor and position, the read
// in flight (its length depends on the MXDMA burst when it was issued), the
// bytes fetched, the TSO header bytes and segment index, the FIFO's frames
// and the read-ahead's descriptors. What follows from those is derived on
// load (derive_loaded()) through the helpers the walk sets it with, so a
// blob cannot state a value that contradicts them.
void TxEngine::visit(Archive& a) {
  constexpr size_t kMaxBytes = kMaxTsoBytes + 64 * 1024;
  rings_[0].visit(a);
  rings_[1].visit(a);
  a.io(pending_[0]);
  a.io(pending_[1]);
  a.io(walk_instant_);
  a.io(walk_count_);
  a.io_as<uint8_t>(q_);
  a.io(error_stop_);
  a.io(phase_);
  const uint32_t n = a.count(descs_.size(), kMaxFrags);
  if (a.loading()) descs_.assign(n, Desc{});
  for (uint32_t i = 0; i < n && a.ok(); i++) {
    Desc& dsc = descs_[i];
    a.io(dsc.index);
    a.io(dsc.opts1);
    a.io(dsc.opts2);
    a.io(dsc.addr);
  }
  a.io(cur_desc_);
  a.io(cur_off_);
  a.io(stream_pos_);
  a.io(rd_addr_);
  a.io(rd_len_);
  a.bytes(buf_, kMaxBytes);
  a.bytes(header_, kMaxBytes);
  a.io(seg_index_);
  const uint32_t count = a.count(fifo_.size(), 4096);
  if (a.loading()) fifo_.reset(count);
  for (uint32_t i = 0; i < count && a.ok(); i++) {
    WireFrame& f = a.loading() ? fifo_.push_back() : fifo_.at(i);
    a.bytes(f.bytes, kMaxBytes);
    a.io(f.first_index);
    a.io(f.queue);
    a.io(f.fifo_bytes);
    a.io(f.completes);
    const uint32_t wb = a.count(f.writeback.size(), kMaxFrags);
    if (a.loading()) f.writeback.assign(wb, {});
    for (uint32_t k = 0; k < wb && a.ok(); k++) {
      a.io(f.writeback[k].first);
      a.io(f.writeback[k].second);
    }
  }
  // The walk's ring's read-ahead (the other ring has none: see
  // prefetch_in_flight()), from the slot it starts at.
  if (a.loading()) {
    for (DescCache& r : rings_) r.clear_read_ahead();
  }
  ring().visit_read_ahead(a, DescCache::Layout::Chain, read_ahead_from());
  if (a.loading()) derive_loaded();
}

// Where the walk's read-ahead starts: at the walk's slot during a walk with
// `tx-desc-prefetch` (fetch_desc() starts it there, and each descriptor
// taken moves both on), nowhere otherwise (forget() leaves it at slot 0).
uint32_t TxEngine::read_ahead_from() const {
  const bool walking = phase_ != Phase::Idle && phase_ != Phase::Drain;
  return walking && prefetch_depth() != 0 ? ring().pos() : 0;
}

// What the walk sets from the saved fields, set the same way: the busy and
// wire flags, whether the unit holds its FIFO room, the offload fields
// (begin_frame() decodes them from the first descriptor), the frame's
// total, the unit being fetched (its goal and FIFO room), the TSO header
// length and segment count, and the FIFO's bytes in use. Any input: where
// the saved fields admit no value (a TSO header too short to hold its TCP
// data offset, a segment index past the count), the derived field stays 0
// and check_frame() refuses the blob.
void TxEngine::derive_loaded() {
  busy_ = phase_ != Phase::Idle;
  wire_busy_ = !fifo_.empty();
  // The unit's FIFO room is held exactly while its data is fetched:
  // reserve_fifo() moves to FetchData, frame_done_fetching() and a refusal
  // give the room back before the phase changes.
  unit_reserved_ = phase_ == Phase::FetchData;
  off_ = packet::TxOffload{};
  tso_ = false;
  if (!descs_.empty()) decode_offload();
  total_ = goal_ = hdr_len_ = seg_count_ = unit_fifo_ = 0;
  const bool has_frame =
      phase_ == Phase::FetchHeader || phase_ == Phase::FetchData || phase_ == Phase::WaitFifo;
  if (has_frame && !descs_.empty()) {
    total_ = frame_total();
    std::optional<Unit> unit;
    if (!tso_) {
      unit = frame_unit();
    } else if (phase_ == Phase::FetchHeader) {
      unit = header_unit();
    } else if (header_.size() > off_.l4_offset + 12u) {
      hdr_len_ = tso_header_len(header_);
      packet::TxStatus st = packet::TxStatus::ok;
      if (hdr_len_ <= total_) seg_count_ = segment_count(st);
      if (st != packet::TxStatus::ok) seg_count_ = 0;
      if (seg_index_ < seg_count_ && segment_start(seg_index_) <= total_)
        unit = segment_unit(seg_index_);
    }
    if (unit) {
      goal_ = unit->goal;
      unit_fifo_ = unit->fifo;
    }
  }
  uint64_t used = unit_reserved_ ? unit_fifo_ : 0;
  for (size_t i = 0; i < fifo_.size(); i++) used += fifo_.at(i).fifo_bytes;
  fifo_used_ = static_cast<uint32_t>(std::min<uint64_t>(used, UINT32_MAX));
}

// The read-ahead against the walk, as fetch_desc(), prefetch_more(),
// on_prefetch_done() and end_walk() keep it: canonical (empty, stopped
// nowhere) outside a walk or without prefetch; during a walk what
// DescCache::check() holds for `tx-desc-prefetch` descriptors read ahead
// from the walk's slot (read_ahead_from()), idle only when full, stopped, or
// blocked by a slot still held (slot_in_use(): it is re-armed whenever room
// appears or a slot is handed back); the walk waits only for a read in
// flight (or a blocked one) and takes a hand-over only of something read.
const char* TxEngine::check_prefetch() const {
  const DescCache& r = ring();
  const bool walking = phase_ != Phase::Idle && phase_ != Phase::Drain;
  const uint32_t depth = prefetch_depth();
  if (depth == 0 || !walking) {
    if (!r.canonical()) return "TX prefetcher active outside a prefetching walk";
    if (phase_ == Phase::WaitDesc) return "TX waits for a prefetcher that is off";
    return nullptr;
  }
  // Blocked by a frame in the FIFO, it resumes at that frame's wire
  // completion; the block is judged by descriptor address against the ring
  // base in TxDescStartAddr, which the guest may rewrite meanwhile (so with
  // frames in the FIFO, an idle read-ahead is always on its way back).
  const bool resumes = slot_in_use(r.next()) || !fifo_.empty();
  if (const char* why = r.check({.depth = depth, .may_idle = resumes})) return why;
  if (phase_ == Phase::WaitDesc && (!r.nothing_ahead() || (!r.reading() && !resumes)))
    return "TX waits for the prefetcher without its read in flight";
  if (phase_ == Phase::FetchDesc && r.nothing_ahead())
    return "TX descriptor hand-over with nothing prefetched";
  return nullptr;
}

// The frame being assembled, checked against what begin_frame(),
// data_fetched(), start_segment() and continue_fetch() make of the same
// descriptors: a blob whose cursors or read length disagree with its
// descriptors would read past them (or ask the host for a huge DMA). The
// total, goal, FIFO room, TSO header length and segment count are not in
// the blob: derive_loaded() set them through the walk's helpers, and what
// is checked here is that the saved fields admit them (a frame of some
// bytes, a header the TCP data offset measures, a segment index below the
// count).
const char* TxEngine::check_frame() const {
  const bool fetching = phase_ == Phase::FetchHeader || phase_ == Phase::FetchData;
  const bool has_frame = fetching || phase_ == Phase::WaitFifo;
  if (const char* why = check_desc_chain()) return why;
  if (!has_frame) {
    // Between frames (or collecting descriptors before LS): nothing decoded.
    if (cur_desc_ || cur_off_ || stream_pos_ || !buf_.empty() || !header_.empty() || seg_index_)
      return "TX frame cursors set outside a frame";
    if (phase_ != Phase::FetchDesc && phase_ != Phase::WaitDesc && !descs_.empty())
      return "TX descriptors outside a walk";
    for (size_t i = 0; i < descs_.size(); i++) {
      const uint32_t o1 = descs_[i].opts1;
      if (!(o1 & desc::DescOwn) || (o1 & desc::LastFrag)) return "TX partial frame descriptor invalid";
      if (((o1 & desc::FirstFrag) != 0) != (i == 0)) return "TX partial frame FS misplaced";
    }
    return nullptr;
  }
  if (descs_.empty()) return "TX frame without descriptors";
  for (size_t i = 0; i < descs_.size(); i++) {
    const uint32_t o1 = descs_[i].opts1;
    if (!(o1 & desc::DescOwn)) return "TX frame descriptor not owned";
    if (((o1 & desc::FirstFrag) != 0) != (i == 0)) return "TX frame FS misplaced";
    if (((o1 & desc::LastFrag) != 0) != (i + 1 == descs_.size())) return "TX frame LS misplaced";
    if (descs_[i].index >= kMaxRing) return "TX descriptor index out of range";
  }
  // begin_frame() refuses a frame of no bytes, one over the limits and a
  // TSO frame with MSS 0 or whose first descriptor cannot hold the headers.
  if (total_ == 0) return "TX frame without bytes";
  const uint32_t max_frame = d_.config().profile->max_frame;
  Unit unit{};  // the frame, TSO header or segment the engine is working on
  if (!tso_) {
    if (total_ > max_frame) return "TX frame over the jumbo limit";
    if (phase_ == Phase::FetchHeader) return "TX header fetch without TSO";
    if (!header_.empty() || seg_index_) return "TX segment state without TSO";
    unit = frame_unit();
  } else if (phase_ == Phase::FetchHeader) {
    if (off_.mss == 0 || total_ > kMaxTsoBytes) return "TX TSO frame invalid";
    if (!header_.empty() || seg_index_) return "TX TSO header state inconsistent";
    unit = header_unit();
    if (unit.goal < off_.l4_offset + 20) return "TX TSO headers longer than the first descriptor";
  } else {
    // data_fetched() keeps the header the TCP data offset measures, from
    // l4_offset + 20 bytes up to the frame's end, and segments only a
    // header packet::tso_segment_count() accepts.
    if (off_.mss == 0 || total_ > kMaxTsoBytes) return "TX TSO frame invalid";
    if (header_.size() != hdr_len_) return "TX TSO header length disagrees with TCP";
    if (hdr_len_ < off_.l4_offset + 20 || hdr_len_ > total_) return "TX TSO header inconsistent";
    if (seg_count_ == 0) return "TX TSO header not segmentable";
    if (seg_index_ >= seg_count_) return "TX TSO segment index beyond the segment count";
    if (segment_start(seg_index_) > total_) return "TX TSO segment beyond the frame";
    unit = segment_unit(seg_index_);
  }
  const uint32_t unit_start = unit.start;
  if (phase_ == Phase::WaitFifo) {
    if (stream_pos_ != unit_start || !buf_.empty()) return "TX FIFO wait state inconsistent";
    if (fifo_.empty()) return "TX waits for FIFO room with an empty FIFO";
    // on_wire_done() resumes with continue_fetch() from the cursor, which
    // stands at the unit's start: where seek() put it (cur_off_ inside its
    // descriptor, or one past the last descriptor at the frame's end) or
    // where the previous segment's last read ended (cur_off_ == its length).
    if (cur_desc_ > descs_.size()) return "TX cursor outside its frame";
    const uint32_t room = cur_desc_ < descs_.size() ? descs_[cur_desc_].tx_len() : 0;
    if (cur_off_ > room) return "TX cursor outside its descriptor";
    if (stream_at_cursor() != stream_pos_) return "TX cursor disagrees with the stream position";
  } else {
    if (stream_pos_ < unit_start || stream_pos_ >= goal_) return "TX stream position outside its unit";
    if (buf_.size() != stream_pos_ - unit_start) return "TX buffer disagrees with the stream position";
    // A read is in flight at the cursor, which continue_fetch() left on a
    // descriptor with bytes remaining, stream_pos_ bytes into the frame.
    const size_t at = cur_desc_;
    if (at >= descs_.size() || cur_off_ >= descs_[at].tx_len()) return "TX cursor outside its descriptor";
    if (stream_at_cursor() != stream_pos_) return "TX cursor disagrees with the stream position";
    const Desc& dsc = descs_[at];
    const uint64_t remain = std::min<uint64_t>(dsc.tx_len() - cur_off_, goal_ - stream_pos_);
    if (rd_len_ == 0 || rd_len_ > remain || rd_len_ > kMaxReadRequest) return "TX read length out of bounds";
    if (rd_addr_ != dsc.addr + cur_off_) return "TX read address disagrees with its descriptor";
  }
  return nullptr;
}

// The frame offset the cursor stands at (cur_desc_ <= descs_.size()).
uint64_t TxEngine::stream_at_cursor() const {
  uint64_t before = 0;
  for (size_t k = 0; k < cur_desc_; k++) before += descs_[k].tx_len();
  return before + cur_off_;
}

// The descriptors collected for the current frame, as desc_fetched() took
// them: one after the other from the ring position (DescRing::advance: the
// next index, 0 after EOR or at the model's ring bound), and the ring
// position now just past the last one. A blob with any other index would
// carry it into the frame's write-back, or into pos_ on a halt.
const char* TxEngine::check_desc_chain() const {
  for (size_t i = 0; i < descs_.size(); i++) {
    if (descs_[i].index >= kMaxRing) return "TX descriptor index out of range";
    const uint32_t follows = i + 1 < descs_.size() ? descs_[i + 1].index : ring().pos();
    if (follows != DescRing::next(descs_[i].index, descs_[i].opts1)) return "TX descriptors not consecutive from the ring position";
  }
  return nullptr;
}

const char* TxEngine::check() const {
  if (!rings_[0].pos_valid() || !rings_[1].pos_valid()) return "TX ring position out of range";
  if (q_ > 1) return "TX queue invalid";
  if (phase_ > Phase::WaitDesc) return "TX phase invalid";
  if (walk_count_ > 4 * kMaxRing + 1) return "TX walk count out of range";
  if (phase_ == Phase::Idle && (pending_[0] || pending_[1]))
    return "TX doorbell latched while idle";
  // A doorbell is latched only during a walk: in Drain it restarts the walk (doorbell()) and
  // end_walk() consumes every latch before Drain, so Drain never holds one. A blob that says
  // otherwise would let the wire's last frame take the engine idle with the latch still set.
  if (phase_ == Phase::Drain && (pending_[0] || pending_[1]))
    return "TX doorbell latched after the walk ended";
  if (error_stop_ && phase_ != Phase::Idle) return "TX stopped by an error but running";
  // Only doorbell() starts the engine, and only with TxEnb set and neither
  // StopReq nor CmdReset; clearing TxEnb, setting StopReq or a reset halts it
  // (Device::on_write_hook, software_reset_start). A blob that runs it with
  // the transmitter off would send frames the guest has disabled.
  const uint8_t cmd = d_.regs.u8(reg::ChipCmd);
  if (phase_ != Phase::Idle &&
      (!(cmd & reg::CmdTxEnb) || (cmd & (reg::CmdStopReq | reg::CmdReset))))
    return "TX engine running with the transmitter off";
  // A descriptor read is 16 bytes at the walk's slot; with prefetch the
  // walk's own tag carries no descriptor read (the hand-over is internal).
  if (phase_ == Phase::FetchDesc && prefetch_depth() == 0 && rd_len_ != desc::kSize)
    return "TX descriptor read length invalid";
  if ((phase_ == Phase::Idle || phase_ == Phase::Drain || phase_ == Phase::WaitDesc ||
       (phase_ == Phase::FetchDesc && prefetch_depth() != 0)) &&
      (rd_len_ || rd_addr_))
    return "TX read request outside a fetch";
  if (const char* why = check_prefetch()) return why;
  if (const char* why = check_frame()) return why;
  if (phase_ == Phase::Idle && !fifo_.empty()) return "TX idle with frames in its FIFO";
  if (phase_ == Phase::Drain && fifo_.empty()) return "TX draining an empty FIFO";
  const uint32_t max_frame = d_.config().profile->max_frame;
  for (size_t i = 0; i < fifo_.size(); i++) {
    const WireFrame& f = fifo_.at(i);
    if (f.bytes.size() < 60 || f.bytes.size() > max_frame + 8) return "TX FIFO frame size invalid";
    if (f.fifo_bytes == 0 || f.fifo_bytes > max_frame + 8) return "TX FIFO reservation invalid";
    if (f.first_index >= kMaxRing || f.queue > 1) return "TX FIFO frame origin invalid";
    if (f.completes == f.writeback.empty()) return "TX FIFO write-back list inconsistent";
  }
  return nullptr;
}

// A read request, a prefetch read and the wire each have their completion
// pending exactly while in flight.
std::span<const EventSpec> TxEngine::events() {
  static constexpr Time kYield = RTL8168_WORK_YIELD_NS;  // Device::paced() parks a step this far
  static constexpr EventSpec kEvents[] = {
      {.kind = EventKind::TxDmaDone,
       .run = [](Device& d, uint64_t) { d.tx.on_dma_done(); },
       .max_delay = [](const Device& d) { return max_paced_read_delay(d, kMaxReadRequest); },
       .pending = [](const Device& d, unsigned) { return pending_if(d.tx.read_in_flight()); },
       .mismatch = "TX read in flight does not match its completion event",
       .pullable = true},
      // The largest FIFO frame (check()) at the slowest link speed.
      {.kind = EventKind::TxWireDone,
       .run = [](Device& d, uint64_t) { d.tx.on_wire_done(); },
       .max_delay = [](const Device& d) {
         return std::max(wire_time(d.config().profile->max_frame + 8, 10), kYield);
       },
       .pending = [](const Device& d, unsigned) { return pending_if(d.tx.wire_busy()); },
       .mismatch = "TX wire state does not match its event",
       .pullable = true},
      {.kind = EventKind::TxDescDone,
       .run = [](Device& d, uint64_t) { d.tx.on_prefetch_done(); },
       .max_delay = [](const Device& d) { return max_paced_read_delay(d, desc::kSize); },
       .pending = [](const Device& d, unsigned) { return pending_if(d.tx.prefetch_in_flight()); },
       .mismatch = "TX descriptor prefetch does not match its completion event",
       .pullable = true},
  };
  return kEvents;
}

}  // namespace rtl8168sim
