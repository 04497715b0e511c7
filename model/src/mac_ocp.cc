// SPDX-License-Identifier: GPL-2.0-or-later
#include "mac_ocp.h"

#include "device.h"

namespace rtl8168sim {

void MacOcp::power_on() {
  words_.fill(0);
  *word(kLinkList) = kLinkListKeep;
  ll_busy_ = false;
  d_.cancel(EventKind::LinkListReady);
}

uint16_t* MacOcp::word(uint16_t addr) {
  if (addr < kBase) return nullptr;
  return &words_[(addr - kBase) / 2];
}

uint16_t MacOcp::read(uint16_t addr) const {
  return addr < kBase ? 0 : words_[(addr - kBase) / 2];
}

void MacOcp::write(uint16_t addr, uint16_t value) {
  uint16_t* w = word(addr);
  if (!w) return;
  const uint16_t old = *w;
  *w = value;
  if (addr == kLinkList && ((old & kLinkListKeep && !(value & kLinkListKeep)) ||
                            (!(old & kLinkListReinit) && value & kLinkListReinit))) {
    ll_busy_ = true;
    d_.cancel(EventKind::LinkListReady);
    d_.schedule_in(d_.timing().ll_init_time, EventKind::LinkListReady);
  }
}

void MacOcp::on_ocpdr_write() {
  const uint32_t v = d_.regs.u32(reg::OCPDR);
  const uint16_t addr = reg::ocp_addr(v);
  if (v & reg::kAccessFlag) {
    write(addr, static_cast<uint16_t>(v));
    d_.trace.mac_ocp(1, addr, static_cast<uint16_t>(v));
    return;
  }
  const uint16_t data = read(addr);
  d_.regs.set32(reg::OCPDR, (v & ~0xffffu) | data);
  d_.trace.mac_ocp(0, addr, data);
}

void MacOcp::on_link_list_ready() { ll_busy_ = false; }

void MacOcp::visit(Archive& a) {
  a.io_array(words_);
  a.io(ll_busy_);
}

std::span<const EventSpec> MacOcp::events() {
  static constexpr EventSpec kEvents[] = {
      {.kind = EventKind::LinkListReady,
       .run = [](Device& d, uint64_t) { d.mac_ocp.on_link_list_ready(); },
       .max_delay = [](const Device& d) -> Time { return d.timing().ll_init_time; },
       // Set by a 0xe8de write, cleared only here.
       .pending = [](const Device& d, unsigned) { return pending_if(!d.mac_ocp.link_list_ready()); },
       .mismatch = "MCU link list busy without its completion event"},
  };
  return kEvents;
}

}  // namespace rtl8168sim
