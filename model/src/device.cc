// SPDX-License-Identifier: GPL-2.0-or-later
#include "device.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace rtl8168sim {

namespace {
constexpr uint32_t kEventBudget = 1u << 20;  // events per entry point (bounds any runaway)
constexpr char kMagic[8] = {'R', '8', '1', '6', '8', 'S', 'T', '\0'};
constexpr uint32_t kStateVersion = 2;  // 2: RX FIFO entries carry their reservation
}  // namespace

Device::Device(const Config& cfg, const rtl8168_host_ops& ops)
    : irq(*this), phy(*this), tx(*this), rx(*this), tally(*this), cfg_(cfg),
      t_(cfg.effective_timing()), ops_(ops) {}

void Device::power_on_reset(Time now) {
  now_ = now;
  sched_.clear();
  outbox_.clear();
  trace_.reset();
  stats = rtl8168_stats{};
  regs.reset();
  for (int i = 0; i < 6; i++) regs.set8(reg::MAC0 + i, cfg_.mac[i]);
  regs.set32(reg::TxConfig, cfg_.profile->txconfig_reset);
  irq.reset();
  tx.reset();
  rx.reset();
  tally.c = TallyCounters{};
  npq_until_ = hpq_until_ = 0;
  phy.power_on();
  trace(Tr::PowerOnReset, cfg_.profile->txconfig_reset);
  armed_ = kNever - 1;  // force a re-arm
  finish_entry();
}

void Device::advance_to(Time now) {
  if (now < now_) now = now_;  // the host's clock never goes backwards; be robust anyway
  uint32_t budget = kEventBudget;
  while (!sched_.empty() && sched_.next_time() <= now && budget-- > 0) {
    const Event e = sched_.pop();
    now_ = std::max(now_, e.time);
    dispatch(e);
  }
  now_ = now;
}

void Device::finish_entry() {
  // Frames first: transmit() may re-enter the device (a back end answering
  // synchronously), which must find every event due at `now` done.
  outbox_.drain([this](const uint8_t* f, size_t len) { ops_.transmit(ops_.opaque, f, len); });
  const Time next = sched_.next_time();
  if (next != armed_) {
    armed_ = next;
    ops_.timer_arm(ops_.opaque, next);
  }
  if (rx.take_ready_signal() && ops_.rx_ready) ops_.rx_ready(ops_.opaque);
}

void Device::dispatch(const Event& e) {
  switch (e.kind) {
    case EventKind::PhyarDone: {
      const uint32_t v = regs.u32(reg::PHYAR);
      const unsigned r = (v >> 16) & 0x1f;
      if (v & reg::kAccessFlag) {
        phy.mdio_write(r, static_cast<uint16_t>(v));
        regs.set32(reg::PHYAR, v & ~reg::kAccessFlag);
      } else {
        const uint16_t data = phy.mdio_read(r);
        regs.set32(reg::PHYAR, reg::kAccessFlag | (v & 0x001f0000u) | data);
      }
      break;
    }
    case EventKind::PhyResetDone: phy.on_reset_done(); break;
    case EventKind::PhyAnDone: phy.on_an_done(e.arg); break;
    case EventKind::ChipResetDone: software_reset_done(); break;
    case EventKind::DtccrDone: tally.on_done(); break;
    case EventKind::TxDmaDone: tx.on_dma_done(); break;
    case EventKind::TxWireDone: tx.on_wire_done(); break;
    case EventKind::RxDescDone: rx.on_desc_done(); break;
    case EventKind::RxWriteDone: rx.on_write_done(); break;
    case EventKind::MitigationTimer: irq.on_mitigation_timer(e.arg); break;
    case EventKind::kCount: break;
  }
}

// Natural alignment, 1/2/4 bytes, inside the 256-byte file (64-bit compare:
// no wrap-around for hostile offsets).
static bool access_ok(uint32_t off, unsigned size) {
  return (size == 1 || size == 2 || size == 4) && off % size == 0 &&
         static_cast<uint64_t>(off) + size <= reg::kFileSize;
}

// Inside BAR2 but above the register file: decodes nothing (reads 0).
static bool above_file(uint32_t off, unsigned size) {
  return (size == 1 || size == 2 || size == 4) && off % size == 0 && off >= reg::kFileSize &&
         static_cast<uint64_t>(off) + size <= RTL8168_MMIO_SIZE;
}

uint64_t Device::reg_read(Time now, uint32_t off, unsigned size) {
  advance_to(now);
  if (above_file(off, size)) {
    trace(Tr::BadAccess, off, size, 0);
    finish_entry();
    return 0;
  }
  if (!access_ok(off, size)) {
    stats.bad_access++;
    trace(Tr::BadAccess, off, size, 0);
    finish_entry();
    return size >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * std::min(size, 7u))) - 1;
  }
  uint64_t v = regs.read(off, size);
  if (off <= reg::TxPoll && reg::TxPoll < off + size) {
    // NPQ/HPQ read back set briefly after a doorbell (HISTORY.md §1: < 90 ns).
    const uint64_t poll = (now_ < npq_until_ ? reg::NPQ : 0) | (now_ < hpq_until_ ? reg::HPQ : 0);
    v |= poll << (8 * (reg::TxPoll - off));
  }
  trace(Tr::RegRead, off, size, v);
  finish_entry();
  return v;
}

void Device::reg_write(Time now, uint32_t off, uint64_t value, unsigned size) {
  advance_to(now);
  if (above_file(off, size)) {
    trace(Tr::BadAccess, off, size, 1);
    finish_entry();
    return;
  }
  if (!access_ok(off, size)) {
    stats.bad_access++;
    trace(Tr::BadAccess, off, size, 1);
    finish_entry();
    return;
  }
  value &= size == 4 ? 0xffffffffull : (1ull << (8 * size)) - 1;
  trace(Tr::RegWrite, off, size, value);
  const uint8_t old_cmd = regs.u8(reg::ChipCmd);
  const RegFile::Touched touched = regs.write(off, size, value);
  for (unsigned i = 0; i < touched.count; i++) {
    const uint32_t r = touched.offsets[i];
    const Hook hook = RegFile::hook_of(r);
    if (hook == Hook::TxPoll) {
      const uint8_t v = static_cast<uint8_t>(value >> (8 * (r - off)));
      if (v & reg::HPQ) {
        hpq_until_ = now_ + t_.txpoll_ack_time;
        tx.doorbell(1);
      }
      if (v & reg::NPQ) {
        npq_until_ = now_ + t_.txpoll_ack_time;
        tx.doorbell(0);
      }
      if (v & reg::FSWInt) irq.raise(reg::SWInt);
    } else if (hook == Hook::ChipCmd) {
      const uint8_t cmd = regs.u8(reg::ChipCmd);
      if ((cmd & reg::CmdReset) && !(old_cmd & reg::CmdReset)) {
        software_reset_start();
      } else {
        if ((old_cmd & reg::CmdTxEnb) && !(cmd & reg::CmdTxEnb)) tx.halt();
        if (!(old_cmd & reg::CmdStopReq) && (cmd & reg::CmdStopReq)) tx.halt();
        if ((old_cmd & reg::CmdRxEnb) && !(cmd & reg::CmdRxEnb)) rx.halt();
      }
    } else {
      on_write_hook(hook, r);
    }
  }
  advance_to(now_);
  finish_entry();
}

void Device::on_write_hook(Hook hook, uint32_t r) {
  switch (hook) {
    case Hook::IntrMask:
    case Hook::IntrStatus: irq.update(); break;
    case Hook::Phyar:
      cancel(EventKind::PhyarDone);
      schedule_in(t_.phyar_time, EventKind::PhyarDone);
      break;
    case Hook::CounterAddrLow: tally.on_command_write(); break;
    case Hook::Csiar:
    case Hook::Eriar:
    case Hook::Ephyar:
    case Hook::Ocpar:
    case Hook::GphyOcp: complete_access_flag(r); break;
    case Hook::IntrMitigate: irq.on_mitigate_write(); break;
    default: break;
  }
}

// CSI/ERI/EPHY/OCP/GPHY_OCP: this profile has no such side bus behind them;
// the access completes at once (R8169-NOTES.md §2 "S only"): a write clears
// the flag, a read sets it (data reads back as stored).
void Device::complete_access_flag(uint32_t r) {
  const uint32_t v = regs.u32(r);
  regs.set32(r, v & reg::kAccessFlag ? v & ~reg::kAccessFlag : v | reg::kAccessFlag);
}

void Device::software_reset_start() {
  // ChipCmd reset: stops both engines and zeroes the ring positions; the MAC
  // address and other registers survive (r8169 rtl_hw_reset / rtl_chipcmd_cond).
  trace(Tr::ChipReset, 0);
  tx.reset();
  rx.reset();
  cancel(EventKind::ChipResetDone);
  schedule_in(t_.chip_reset_time, EventKind::ChipResetDone);
}

void Device::software_reset_done() {
  const uint8_t cmd = regs.u8(reg::ChipCmd);
  regs.set8(reg::ChipCmd, static_cast<uint8_t>((cmd & ~(reg::CmdReset | reg::CmdRxEnb | reg::CmdTxEnb |
                                                        reg::CmdStopReq)) | reg::RxBufEmpty));
  tx.reset();
  rx.reset();
  trace(Tr::ChipReset, 1);
}

void Device::on_link_change(bool up, uint32_t mbps, bool full) {
  uint8_t st = 0;
  if (up) {
    st = reg::LinkStatus | (full ? reg::FullDup : 0) |
         (mbps == 1000 ? reg::_1000bpsF : mbps == 100 ? reg::_100bps : reg::_10bps);
    st |= reg::TxFlowCtrl | reg::RxFlowCtrl;  // the partner advertises pause (LPA 0x45e1)
  }
  regs.set8(reg::PHYstatus, st);
  trace(Tr::LinkChange, up, mbps);
  irq.raise(reg::LinkChg);
}

void Device::timer_expired(Time now) {
  advance_to(now);
  finish_entry();
}

bool Device::can_receive(Time now) {
  advance_to(now);
  finish_entry();
  return rx.can_receive();
}

size_t Device::receive(Time now, std::span<const uint8_t> frame) {
  advance_to(now);
  const bool taken = rx.receive(frame);
  advance_to(now_);
  finish_entry();
  return taken ? frame.size() : 0;
}

void Device::set_link(Time now, bool up) {
  advance_to(now);
  phy.set_host_link(up);
  advance_to(now_);
  finish_entry();
}

bool Device::dma_read(uint64_t addr, void* buf, size_t len) {
  if (len == 0) return true;
  if (addr + len < addr || ops_.dma_read(ops_.opaque, addr, buf, len) != 0) {
    trace(Tr::DmaError, addr, len, 0);
    std::memset(buf, 0, len);
    return false;
  }
  return true;
}

bool Device::dma_write(uint64_t addr, const void* buf, size_t len) {
  if (len == 0) return true;
  if (addr + len < addr || ops_.dma_write(ops_.opaque, addr, buf, len) != 0) {
    trace(Tr::DmaError, addr, len, 1);
    return false;
  }
  return true;
}

void Device::trace(Tr kind, uint64_t a, uint64_t b, uint64_t c) {
  trace_.record(now_, kind, a, b, c);
  if (ops_.trace) {
    char line[128];
    std::snprintf(line, sizeof line, "%s %#llx %#llx %#llx", trace_name(kind),
                  static_cast<unsigned long long>(a), static_cast<unsigned long long>(b),
                  static_cast<unsigned long long>(c));
    ops_.trace(ops_.opaque, now_, line);
  }
}

// ---- state ----------------------------------------------------------------

namespace {
constexpr size_t kStatsWords = sizeof(rtl8168_stats) / sizeof(uint64_t);
static_assert(sizeof(rtl8168_stats) % sizeof(uint64_t) == 0);
}  // namespace

std::vector<uint8_t> Device::save() const {
  std::vector<uint8_t> out;
  out.reserve(4096);
  out.insert(out.end(), kMagic, kMagic + sizeof kMagic);
  StateWriter w(out);
  w.put(kStateVersion);
  const std::string_view id = cfg_.profile->id;
  w.put_bytes(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(id.data()), id.size()));
  w.put(now_);
  w.put_bytes(regs.raw());
  irq.save(w);
  phy.save(w);
  tx.save(w);
  rx.save(w);
  tally.save(w);
  uint64_t words[kStatsWords];
  std::memcpy(words, &stats, sizeof stats);
  for (uint64_t x : words) w.put(x);
  w.put(trace_.hash());
  w.put(trace_.count());
  w.put(npq_until_);
  w.put(hpq_until_);
  const std::vector<Event> events = sched_.sorted();
  w.put<uint32_t>(static_cast<uint32_t>(events.size()));
  for (const Event& e : events) {
    w.put(e.time);
    w.put(e.seq);
    w.put(e.kind);
    w.put(e.arg);
  }
  w.put(sched_.next_seq());
  return out;
}

std::string Device::load(std::span<const uint8_t> blob) {
  if (blob.size() < sizeof kMagic || std::memcmp(blob.data(), kMagic, sizeof kMagic) != 0) {
    return "not an rtl8168 state blob (bad magic)";
  }
  const std::vector<uint8_t> backup = save();
  auto apply = [this](std::span<const uint8_t> b, std::string& err) {
    StateReader r(b.subspan(sizeof kMagic));
    const uint32_t version = r.get<uint32_t>();
    if (!r.ok() || version != kStateVersion) {
      err = "unsupported state version " + std::to_string(version) + " (expected " +
            std::to_string(kStateVersion) + ")";
      return false;
    }
    const std::vector<uint8_t> id = r.get_bytes(64);
    if (std::string(id.begin(), id.end()) != cfg_.profile->id) {
      err = "state is for chip '" + std::string(id.begin(), id.end()) + "', device is '" +
            std::string(cfg_.profile->id) + "'";
      return false;
    }
    now_ = r.get<uint64_t>();
    const std::vector<uint8_t> rf = r.get_bytes(reg::kFileSize);
    if (rf.size() == reg::kFileSize) std::copy(rf.begin(), rf.end(), regs.raw().begin());
    else r.fail();
    irq.load(r);
    phy.load(r);
    tx.load(r);
    rx.load(r);
    tally.load(r);
    uint64_t words[kStatsWords];
    for (uint64_t& x : words) x = r.get<uint64_t>();
    std::memcpy(&stats, words, sizeof stats);
    const uint64_t hash = r.get<uint64_t>();
    const uint64_t count = r.get<uint64_t>();
    trace_.restore(hash, count);
    npq_until_ = r.get<uint64_t>();
    hpq_until_ = r.get<uint64_t>();
    const uint32_t n = r.get<uint32_t>();
    if (n > 1024) r.fail();
    std::vector<Event> events;
    for (uint32_t i = 0; i < n && r.ok(); i++) {
      Event e{};
      e.time = r.get<uint64_t>();
      e.seq = r.get<uint64_t>();
      e.kind = r.get<EventKind>();
      e.arg = r.get<uint64_t>();
      if (e.kind >= EventKind::kCount) r.fail();
      events.push_back(e);
    }
    const uint64_t next_seq = r.get<uint64_t>();
    if (!r.ok() || !r.at_end()) {
      err = "truncated or corrupt state blob";
      return false;
    }
    sched_.restore(std::move(events), next_seq);
    return true;
  };
  std::string err;
  if (!apply(blob, err)) {
    std::string ignored;
    apply(backup, ignored);  // our own blob: always loads
    return err;
  }
  // No trace record (the hash must continue exactly as on the saving side)
  // and never an MSI here: the host timer is re-armed and the INTx line
  // re-driven to the restored level (idempotent for a host that restored it).
  const Time next = sched_.next_time();
  armed_ = next;
  ops_.timer_arm(ops_.opaque, next);
  ops_.set_intx(ops_.opaque, irq.intx_asserted() ? 1 : 0);
  return {};
}

}  // namespace rtl8168sim
