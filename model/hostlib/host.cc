// SPDX-License-Identifier: GPL-2.0-or-later
#include "host.h"

#include <algorithm>

namespace rtl8168_host {

namespace {

// The callbacks (rtl8168.h rtl8168_host_ops): opaque is the device's Port.
Port& port_of(void* opaque) { return *static_cast<Port*>(opaque); }

int cb_dma_read(void* opaque, uint64_t addr, void* buf, size_t len) {
  Port& p = port_of(opaque);
  Host& h = *p.host;
  if (h.hooks.before_dma_read && !h.hooks.before_dma_read(p, addr, len)) return -1;
  return h.ram.dma_read(addr, buf, len);
}

int cb_dma_write(void* opaque, uint64_t addr, const void* buf, size_t len) {
  Port& p = port_of(opaque);
  Host& h = *p.host;
  if (h.hooks.before_dma_write && !h.hooks.before_dma_write(p, addr, len)) return -1;
  if (h.ram.dma_write(addr, buf, len) != 0) return -1;
  if (h.hooks.after_dma_write) h.hooks.after_dma_write(p, addr, len);
  return 0;
}

bool cb_msi_enabled(void* opaque) { return port_of(opaque).host->msi; }

void cb_msi_notify(void* opaque, unsigned vector) {
  Port& p = port_of(opaque);
  Host& h = *p.host;
  if (h.hooks.on_msi) h.hooks.on_msi(p, vector);
  h.msi_count++;
  h.last_msi_vector = vector;
  h.msi_pending = true;
}

void cb_set_intx(void* opaque, int level) {
  Port& p = port_of(opaque);
  if (p.host->hooks.on_intx) p.host->hooks.on_intx(p, level);
  p.intx = level;
}

void cb_transmit(void* opaque, const uint8_t* frame, size_t len) {
  Port& p = port_of(opaque);
  Host& h = *p.host;
  h.tx_frames++;
  if (h.hooks.after_transmit) h.hooks.after_transmit(p, frame, len);
}

void cb_timer_arm(void* opaque, uint64_t deadline) { port_of(opaque).deadline = deadline; }

void cb_rx_ready(void* opaque) {
  Port& p = port_of(opaque);
  p.host->hooks.on_rx_ready(p);
}

void cb_trace(void* opaque, uint64_t now, const char* line) {
  Port& p = port_of(opaque);
  p.host->hooks.on_trace(p, now, line);
}

}  // namespace

Host::~Host() { close(); }

rtl8168_host_ops Host::ops_for(Port& p) const {
  return {.opaque = &p,
          .dma_read = cb_dma_read,
          .dma_write = cb_dma_write,
          .msi_enabled = cb_msi_enabled,
          .msi_notify = cb_msi_notify,
          .set_intx = cb_set_intx,
          .transmit = cb_transmit,
          .timer_arm = cb_timer_arm,
          .rx_ready = hooks.on_rx_ready ? cb_rx_ready : nullptr,
          .trace = hooks.on_trace ? cb_trace : nullptr,
          .trace_event = nullptr,  // (neither client uses the structured form)
          .pme = nullptr};
}

rtl8168* Host::create(const rtl8168_config* cfg, Port& p, char* err, size_t err_len) {
  const rtl8168_host_ops ops = ops_for(p);
  p.dev = rtl8168_create(cfg, &ops, err, err_len);
  return p.dev;
}

void Host::close() {
  if (port && port->dev) {
    rtl8168_destroy(port->dev);
    port->dev = nullptr;
  }
}

Time Host::step_until(Time t) {
  if (port->deadline <= t) {
    now = std::max(now, port->deadline);
    rtl8168_timer_expired(port->dev, now);
  } else {
    now = std::max(now, t);
  }
  return now;
}

void Host::run_until(Time t) {
  while (step_until(t) < t) {
  }
}

}  // namespace rtl8168_host
