// SPDX-License-Identifier: GPL-2.0-or-later
#include "rx_engine.h"

#include <algorithm>

#include "descriptor.h"
#include "device.h"
#include "packet/packet.h"
#include "rss.h"

namespace rtl8168sim {

namespace {
constexpr size_t kMinFrame = 60;  // a shorter frame is padded, as the sender's MAC would have
}  // namespace

void RxEngine::reset() {
  halt();
  for (DescCache& r : rings_) r.set_pos(0);
  q_ = 0;
}

void RxEngine::halt() {
  d_.cancel(EventKind::RxDescDone);
  d_.cancel(EventKind::RxWriteDone);
  for (DescCache& r : rings_) r.forget();
  phase_ = Phase::Idle;
  d_.stats.rx_dropped_disabled += fifo_.size();  // frames in the FIFO are lost, and counted
  fifo_.clear();
  fifo_used_ = 0;
  if (host_waiting_) ready_signal_ = true;
  host_waiting_ = false;
}

// Room for a standard frame (1518 + VLAN tag + FCS); a jumbo frame may still
// be refused by receive() and waits for rx_ready like any other.
bool RxEngine::can_receive() {
  constexpr uint32_t kStdFrame = 1518 + 4 + 4;
  const bool room = fifo_used_ == 0 || fifo_used_ + kStdFrame <= d_.timing().rx_fifo_size;
  if (!room) host_waiting_ = true;
  return room;
}

// Address filter (r8169 rtl_set_rx_mode; datasheet RCR): broadcast needs AB,
// multicast AM plus its MAR hash bit, unicast APM and our IDR; AAP takes all.
bool RxEngine::accept(std::span<const uint8_t> f, uint32_t& status, AddressClass& kind) const {
  const uint32_t rcr = d_.regs.u32(reg::RxConfig);
  const bool bcast = std::all_of(f.begin(), f.begin() + 6, [](uint8_t b) { return b == 0xff; });
  if (bcast) {
    kind = AddressClass::Broadcast;
    status = desc::RxBAR;
    return rcr & (reg::AcceptBroadcast | reg::AcceptAllPhys);
  }
  if (f[0] & 1) {
    kind = AddressClass::Multicast;
    status = desc::RxMAR;
    if (rcr & reg::AcceptAllPhys) return true;
    if (!(rcr & reg::AcceptMulticast)) return false;
    const unsigned bit = packet::multicast_hash_bit(std::span<const uint8_t, 6>(f.data(), 6));
    // Hash bit n lives at MAR byte 7 - (n >> 3), bit n & 7: r8169
    // rtl_set_rx_mode builds the 64-bit filter and, for 8168 chips, writes
    // MAR0 = swab32(filter[1]), MAR4 = swab32(filter[0]) (docs/R8169.md §2).
    return d_.regs.u8(reg::MAR0 + 7 - (bit >> 3)) & (1u << (bit & 7));
  }
  kind = AddressClass::Unicast;
  // An ExGMAC chip (8168evl) compares the copy in ERI 0xe0/0xe4, which r8169
  // writes next to IDR0-5 on that chip only (rtl_rar_set ->
  // rtl_rar_exgmac_set): a new address written to IDR alone is not ours.
  const bool mine = d_.config().profile->exgmac_filter
                        ? d_.side.exgmac_match(f.first(6))
                        : std::equal(f.begin(), f.begin() + 6, d_.regs.raw().begin());
  if ((rcr & reg::AcceptMyPhys) && mine) {
    status = desc::RxPAM;
    return true;
  }
  status = 0;
  return rcr & reg::AcceptAllPhys;
}

bool RxEngine::receive(std::span<const uint8_t> frame) {
  if (frame.size() < 14) {
    d_.stats.rx_dropped_runt++;
    d_.tally.count_rx_runt();
    trace_drop(RxDropReason::kRunt, frame.size());
    return true;
  }
  // RxEn clear, no link, or (8168g class) the RXDV gate closed: the frame
  // never enters the RX FIFO (r8169 rtl_enable_rxdvgate before a reset).
  const bool gated = d_.config().profile->mac_ocp && (d_.regs.u32(reg::MISC) & reg::RxdvGatedEn);
  if (!(d_.regs.u8(reg::ChipCmd) & reg::CmdRxEnb) || !d_.phy.link_up() || gated) {
    d_.stats.rx_dropped_disabled++;
    trace_drop(RxDropReason::kDisabled, frame.size());
    return true;
  }
  uint32_t status = 0;
  AddressClass kind = AddressClass::Unicast;
  if (!accept(frame, status, kind)) {
    d_.stats.rx_dropped_filter++;
    trace_drop(RxDropReason::kFilter, frame.size());
    return true;
  }
  // The queue (RSS, rss.h; queue 0 on a chip with one RX ring).
  rss::Choice rss_choice;
  if (rings_.size() > 1) {
    rss_choice = rss::pick(d_, frame, static_cast<unsigned>(rings_.size()));
    if (rss_choice.drop) {
      d_.stats.rx_dropped_filter++;
      trace_drop(RxDropReason::kRssQueue, frame.size());
      return true;
    }
  }
  const size_t wire_len = std::max(frame.size(), kMinFrame) + 4;
  // RxMaxSize 0 means no programmed limit; no descriptor can take more than
  // its 14-bit buffer size anyway, so that is the chip's absolute limit.
  const uint16_t max_size = d_.regs.u16(reg::RxMaxSize);
  if ((max_size != 0 && wire_len > max_size) || wire_len > desc::kRxBufSizeMask) {
    d_.account_error(d_.stats.rx_dropped_too_long, 0, Device::TallyError::Rx);
    d_.tally.count_rx_too_long();
    trace_drop(RxDropReason::kTooLong, frame.size());
    return true;
  }
  if (fifo_used_ != 0 && fifo_used_ + wire_len > d_.timing().rx_fifo_size) {
    host_waiting_ = true;  // back-pressure: the host keeps the frame
    return false;
  }
  if (d_.faults.rx_frame(FaultClass::RxFifoOver, frame.size())) {
    // rx-fifo-over fault: the frame overflows the FIFO and is lost, as when
    // the host bus cannot keep up (RxFIFOOver; r8169 counts it through the
    // tally's rx_missed, and resets the chip on VER_11 only).
    d_.stats.rx_dropped_fifo_over++;
    d_.tally.counters.rx_missed++;
    d_.irq.raise(reg::RxFIFOOver);
    trace_drop(RxDropReason::kFifoOver, frame.size());
    return true;
  }
  // A wire error (rx_wire_errors.cc): discarded unless RxConfig accepts it.
  const uint32_t wire = d_.faults.empty() ? 0 : wire_errors(frame.size());
  if (wire != 0 && refuse_wire_errors(wire, frame.size())) return true;
  // Take the frame into the FIFO: strip the tag and verify checksums on the
  // way in, as the MAC does.
  RxFrame& f = fifo_.push_back();
  f.bytes.assign(frame.begin(), frame.end());
  if (f.bytes.size() < kMinFrame) f.bytes.resize(kMinFrame, 0);
  f.status = status | (wire != 0 ? desc::RxRES | wire : 0);
  f.kind = kind;
  f.fifo_bytes = static_cast<uint32_t>(wire_len);
  f.queue = static_cast<uint8_t>(rss_choice.queue);
  f.rss = {rss_choice.hash, rss_choice.type};
  f.opts2 = 0;
  const uint16_t cplus = d_.regs.u16(reg::CPlusCmd);
  uint16_t tci = 0;
  // A runt is cut short on the wire: its first kRuntBytes - 4 bytes and an
  // FCS over them (a sender that did not pad; with rx-bad-fcs on the same
  // frame the FCS is wrong too: a collision fragment). Not parsed for a tag
  // or checksums.
  const bool runt = wire & desc::RxRUNT;
  if (runt) {
    f.bytes.resize(kRuntBytes - 4);
    f.fifo_bytes = kRuntBytes;
  }
  if (!runt && d_.rx_vlan_strip() && packet::strip_vlan(f.bytes, tci)) {
    f.opts2 = desc::RxVlanTag | swab16(tci);
  }
  if (!runt && (cplus & reg::RxChkSum)) {
    const packet::RxClass c = packet::classify_rx(f.bytes);
    if (c.is_tcp) f.status |= desc::RxProtoTCP;
    if (c.is_udp) f.status |= desc::RxProtoUDP;
    if (c.ip_csum_fail) f.status |= desc::IPFail;
    if (c.tcp_csum_fail) f.status |= desc::TCPFail;
    if (c.udp_csum_fail) f.status |= desc::UDPFail;
  }
  // A bad FCS (rx-bad-fcs) is the right one inverted: what a driver with
  // NETIF_F_RXFCS passes up does not check.
  const uint32_t fcs = packet::ethernet_fcs(f.bytes) ^ ((wire & desc::RxCRC) ? 0xffffffffu : 0);
  for (int i = 0; i < 4; i++) f.bytes.push_back(static_cast<uint8_t>(fcs >> (8 * i)));
  fifo_used_ += f.fifo_bytes;
  if (phase_ == Phase::Idle) fetch_desc();
  return true;
}

void RxEngine::activate(uint8_t queue) {
  if (queue == q_) return;
  ring().forget();  // only the active queue reads ahead
  q_ = queue;
}

void RxEngine::fetch_desc() {
  activate(fifo_.front().queue);
  if (ring().reading() && ring().next() == ring().pos()) {
    phase_ = Phase::WaitDesc;  // on_prefetch_done() hands it over
    return;
  }
  phase_ = Phase::FetchDesc;
  if (ring().has_at(ring().pos())) {
    d_.schedule_in(d_.paced(0), EventKind::RxDescDone);  // hand-over of the prefetched slot
    return;
  }
  ring().forget();  // a prefetch of another slot (the head frame was dropped) is useless
  d_.schedule_in(d_.paced(d_.link_wake() + dma_read_time(d_.timing(), desc::kSize)), EventKind::RxDescDone);
}

// The next slot's descriptor, read when the read completes (guest memory
// is read then, as for every read); kept only when owned. A failed read (a
// master abort, an IOMMU refusing it, an injected dma-read) is reported as
// every failed bus-master access is, with SYSErr (docs/FAULTS.md "dma-read");
// nothing is lost, since the slot is read again when a frame needs it.
void RxEngine::on_prefetch_done() {
  if (!ring().complete_read()) return;
  // The ring keeps only an owned descriptor; without Own, or after a failed
  // read, it forgets the slot, read again when a frame needs it.
  if (ring().land() == DescCache::Landed::Failed) {
    d_.stats.sys_errors++;
    d_.irq.raise(reg::SYSErr);
  }
  if (phase_ == Phase::WaitDesc) fetch_desc();
}

void RxEngine::pop_head() {
  // Release exactly what arrival reserved (a stripped VLAN tag made the
  // stored frame 4 bytes shorter than the space it took).
  fifo_used_ -= fifo_.front().fifo_bytes;
  fifo_.pop_front();
  if (host_waiting_) {
    host_waiting_ = false;
    ready_signal_ = true;
  }
  if (!fifo_.empty()) {
    fetch_desc();
  } else {
    phase_ = Phase::Idle;
  }
}

void RxEngine::trace_drop(RxDropReason reason, size_t len) {
  d_.trace.rx_drop(static_cast<uint64_t>(reason), len);
}

void RxEngine::drop_head(RxDropReason reason) {
  trace_drop(reason, fifo_.front().bytes.size());
  pop_head();
}

void RxEngine::on_desc_done() {
  if (phase_ != Phase::FetchDesc || fifo_.empty()) return;
  if (ring().has_at(ring().pos())) {
    const RingDesc got = ring().take();  // prefetched (owned when it was read)
    desc_.opts1 = got.opts1;
    desc_.addr = got.addr;
    ring().forget();
  } else {
    RingDesc rd;
    if (!ring().read(ring().pos(), rd)) {
      d_.account_error(d_.stats.rx_dropped_dma, reg::SYSErr | reg::RxErr, Device::TallyError::Rx);
      drop_head(RxDropReason::kDescDma);
      return;
    }
    desc_.opts1 = rd.opts1;
    desc_.addr = rd.addr;
  }
  if (!(desc_.opts1 & desc::DescOwn) || d_.faults.rx_withhold()) {
    // No buffer (or rx-withhold: one withheld): the frame is lost in the
    // FIFO (RxOverflow; r8169 counts it via the tally's rx_missed).
    d_.stats.rx_dropped_no_desc++;
    d_.tally.counters.rx_missed++;
    d_.regs.set32(reg::RxMissed, d_.regs.u32(reg::RxMissed) + 1);
    d_.irq.raise_rx_unavailable(q_);
    drop_head(RxDropReason::kNoDesc);
    return;
  }
  const RxFrame& f = fifo_.front();
  if (f.bytes.size() > (desc_.opts1 & desc::kRxBufSizeMask)) {
    spill_head();  // over several descriptors, FS ... LS (rx_spill.cc)
    return;
  }
  phase_ = Phase::Write;
  // Posted writes: data (+FCS) and the 8-byte write-back (opts1, opts2) share the
  // upstream link; the engine is busy for their transfer time.
  d_.schedule_in(d_.link_wake() + dma_write_time(d_.timing(), f.bytes.size()) + dma_write_time(d_.timing(), 8),
                 EventKind::RxWriteDone);
  // Not on a one-slot ring, whose next slot is the one being written.
  if (d_.timing().rx_desc_prefetch != 0 && ring().may_read(1) && next_slot() != ring().pos()) {
    // The next slot, read while this frame is written (a second read tag).
    ring().start_at(next_slot());
    ring().read_next();
  }
}

void RxEngine::on_write_done() {
  if (phase_ != Phase::Write || fifo_.empty()) return;
  const RxFrame& f = fifo_.front();
  if (!d_.dma_write(desc_.addr, f.bytes.data(), f.bytes.size())) {
    d_.account_error(d_.stats.rx_dropped_dma, reg::SYSErr | reg::RxErr, Device::TallyError::Rx);
    drop_head(RxDropReason::kDataDma);
    return;
  }
  const uint32_t len = static_cast<uint32_t>(f.bytes.size());
  const uint32_t opts1 = (desc_.opts1 & desc::RingEnd) | desc::FirstFrag | desc::LastFrag |
                         f.status | (len & desc::kRxBufSizeMask);
  // opts2 before opts1: Own is released last. A failed write-back (a master
  // abort, or an IOMMU refusing the write) leaves the descriptor owned by the
  // chip: the driver never sees the frame, so it is a lost frame, reported as
  // every failed bus-master access is (SYSErr, docs/FAULTS.md "dma-write"),
  // and the chip keeps the slot for the next frame as it does after an RDU.
  if (!ring().write_back(ring().pos(), opts1, f.opts2, f.rss)) {
    d_.account_error(d_.stats.rx_dropped_dma, reg::SYSErr | reg::RxErr, Device::TallyError::Rx);
    drop_head(RxDropReason::kDescDma);
    return;
  }
  d_.trace.rx_frame(len, ring().pos(), opts1);
  count_delivered(f, len);
  ring().advance(desc_.opts1);
  d_.irq.raise_moderated(Irq::Moderated::RxOK, q_);
  pop_head();
}

// A frame written to the ring. The tally's RxOK counters count good frames
// only: a frame taken with a wire error (RxRES) was counted in RxERR when it
// arrived (rx_wire_errors.cc).
void RxEngine::count_delivered(const RxFrame& f, uint32_t len) {
  d_.stats.rx_frames++;
  d_.stats.rx_bytes += len - 4;
  if (f.status & desc::RxRES) {
    d_.stats.rx_error_frames++;
    return;
  }
  d_.tally.counters.rx_packets++;
  switch (f.kind) {
    case AddressClass::Unicast: d_.tally.counters.rx_unicast++; break;
    case AddressClass::Broadcast: d_.tally.counters.rx_broadcast++; break;
    case AddressClass::Multicast: d_.tally.counters.rx_multicast++; break;
  }
}

// A profile with more than one RX ring (the 8125B) adds the active queue,
// every ring's position and each FIFO frame's queue and RSS result; the
// 8168s' blobs are unchanged.
void RxEngine::visit(Archive& a) {
  const bool multi = rings_.size() > 1;
  if (multi) {
    a.io(q_);
    if (q_ >= rings_.size()) {
      q_ = 0;
      a.fail();
    }
    for (DescCache& r : rings_) r.visit(a);
  } else {
    ring().visit(a);
  }
  a.io(phase_);
  a.io(desc_.opts1);
  a.io(desc_.addr);
  a.io(fifo_used_);
  a.io(host_waiting_);
  a.io(ready_signal_);
  ring().visit_read_ahead(a, DescCache::Layout::Slot);
  const uint32_t n = a.count(fifo_.size(), 65536);
  if (a.loading()) fifo_.reset(n);
  for (uint32_t i = 0; i < n && a.ok(); i++) {
    RxFrame& f = a.loading() ? fifo_.push_back() : fifo_.at(i);
    a.bytes(f.bytes, desc::kRxBufSizeMask);
    a.io(f.status);
    a.io(f.opts2);
    a.io(f.kind);
    a.io(f.fifo_bytes);
    if (multi) {
      a.io(f.queue);
      a.io(f.rss.hash);
      a.io(f.rss.info);
    }
  }
}

// What receive() and the descriptor path guarantee, checked on a loaded
// blob: the FIFO holds whole frames (>= 60 bytes + FCS) whose reservations
// add up, the engine works exactly while frames wait, and a write in flight
// targets an owned descriptor whose buffer holds the head frame.
const char* RxEngine::check() const {
  constexpr uint32_t kWireErrors = desc::RxCRC | desc::RxRUNT | desc::RxRWT;
  constexpr uint32_t kStatusBits = desc::RxBAR | desc::RxMAR | desc::RxPAM | desc::RxProtoTCP |
                                   desc::RxProtoUDP | desc::IPFail | desc::TCPFail |
                                   desc::UDPFail | desc::RxRES | kWireErrors;
  for (const DescCache& r : rings_) {
    if (!r.pos_valid()) return "RX ring position out of range";
    // Only the active queue's ring reads ahead (activate()).
    if (&r != &ring() && !r.canonical()) return "RX read-ahead on a queue that is not active";
  }
  if (phase_ > Phase::WaitDesc) return "RX phase invalid";
  // The prefetch as on_desc_done() / on_prefetch_done() / fetch_desc() keep
  // it: one slot, a read in flight or an owned descriptor kept, never both
  // (DescCache::check() with depth 1: RX reads only while a frame is
  // written, so an idle ring is fine, and a kept slot is used only when it
  // is the walk's); off without rx-desc-prefetch; the engine waits only for
  // a read in flight of the head frame's slot.
  if (const char* why = ring().check({.depth = 1, .may_idle = true})) return why;
  if (d_.timing().rx_desc_prefetch == 0 && !ring().canonical())
    return "RX prefetch without rx-desc-prefetch";
  // The engine works on the head frame through its queue's ring.
  if (phase_ != Phase::Idle && !fifo_.empty() && fifo_.front().queue != q_)
    return "RX engine works on a queue that is not the head frame's";
  if (phase_ == Phase::WaitDesc && !(ring().reading() && ring().next() == ring().pos()))
    return "RX waits for a prefetch that is not in flight";
  if ((phase_ == Phase::Idle) != (fifo_.empty())) return "RX engine phase disagrees with its FIFO";
  // receive() queues only while RxEnb is set, and clearing it halts the
  // engine and empties the FIFO (Device::on_write_hook, halt()).
  if (!fifo_.empty() && !(d_.regs.u8(reg::ChipCmd) & reg::CmdRxEnb))
    return "RX frames queued with the receiver off";
  uint64_t reserved = 0;
  for (size_t i = 0; i < fifo_.size(); i++) {
    const RxFrame& f = fifo_.at(i);
    if (f.kind > AddressClass::Multicast) return "RX address class invalid";
    if (f.queue >= rings_.size()) return "RX frame queued for a queue without a ring";
    // RSS reports one IP version, TCP or UDP only with it, and a hash only
    // with a type (rss::pick).
    const uint16_t l3 = f.rss.info & (desc_v3::kInfoIpv4 | desc_v3::kInfoIpv6);
    const uint16_t l4 = f.rss.info & (desc_v3::kInfoTcp | desc_v3::kInfoUdp);
    if ((f.rss.info & ~desc_v3::kInfoBits) || (l3 & (l3 - 1)) || (l4 & (l4 - 1)) || (l4 && !l3) ||
        (!l3 && f.rss.hash))
      return "RX frame's RSS result invalid";
    if (f.status & ~kStatusBits) return "RX status bits invalid";
    if (f.opts2 & ~(desc::RxVlanTag | 0xffffu)) return "RX opts2 invalid";
    // RES exactly with a wire error (rx_wire_errors.cc); a runt is cut to
    // kRuntBytes and never stripped of a tag.
    if (((f.status & kWireErrors) != 0) != ((f.status & desc::RxRES) != 0))
      return "RX RxRES disagrees with the error bits";
    const bool runt = f.status & desc::RxRUNT;
    if (runt && (f.bytes.size() != kRuntBytes || (f.opts2 & desc::RxVlanTag)))
      return "RX runt of the wrong length";
    // A minimum frame (60 + FCS) whose 802.1Q tag was stripped is 4 shorter.
    const uint32_t tag = (f.opts2 & desc::RxVlanTag) ? 4 : 0;
    if (!runt && f.bytes.size() + tag < kMinFrame + 4) return "RX FIFO frame too short";
    if (f.fifo_bytes != f.bytes.size() + tag) return "RX FIFO reservation disagrees with the frame";
    reserved += f.fifo_bytes;
  }
  if (reserved != fifo_used_) return "RX FIFO accounting does not add up";
  // receive() admits a frame into a non-empty FIFO only if it fits within
  // rx-fifo-size (one frame alone may be larger: it is cut through).
  if (fifo_.size() >= 2 && fifo_used_ > d_.timing().rx_fifo_size)
    return "RX FIFO holds more than rx-fifo-size";
  if (phase_ == Phase::Write) {
    if (!(desc_.opts1 & desc::DescOwn)) return "RX write to a descriptor the NIC does not own";
    if (fifo_.front().bytes.size() > (desc_.opts1 & desc::kRxBufSizeMask)) return "RX write larger than its buffer";
  }
  return nullptr;
}

// The descriptor read, the next slot's read and the write each have their
// completion pending exactly while in flight.
std::span<const EventSpec> RxEngine::events() {
  static constexpr EventSpec kEvents[] = {
      {.kind = EventKind::RxDescDone,
       .run = [](Device& d, uint64_t) { d.rx.on_desc_done(); },
       .max_delay = [](const Device& d) { return max_paced_read_delay(d, desc::kSize); },
       .pending = [](const Device& d, unsigned) { return pending_if(d.rx.desc_fetch_in_flight()); },
       .mismatch = "RX descriptor fetch does not match its event",
       .pullable = true},
      // The largest RX FIFO frame (visit()) and its 8-byte write-back.
      {.kind = EventKind::RxWriteDone,
       .run = [](Device& d, uint64_t) { d.rx.on_write_done(); },
       .max_delay = [](const Device& d) {
         return d.timing().aspm_l1_exit_time + dma_write_time(d.timing(), desc::kRxBufSizeMask) +
                dma_write_time(d.timing(), 8);
       },
       .pending = [](const Device& d, unsigned) { return pending_if(d.rx.write_in_flight()); },
       .mismatch = "RX write does not match its event",
       .pullable = true},
      {.kind = EventKind::RxPrefetchDone,
       .run = [](Device& d, uint64_t) { d.rx.on_prefetch_done(); },
       .max_delay = [](const Device& d) { return max_paced_read_delay(d, desc::kSize); },
       .pending = [](const Device& d, unsigned) { return pending_if(d.rx.prefetch_in_flight()); },
       .mismatch = "RX descriptor prefetch does not match its completion event",
       .pullable = true},
  };
  return kEvents;
}

}  // namespace rtl8168sim
