// SPDX-License-Identifier: GPL-2.0-or-later
#include "sim_host.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace bench {

SimHost::SimHost(size_t mem_bytes, const std::vector<std::pair<std::string, std::string>>& params)
    : ram_(mem_bytes) {
  rtl8168_config* cfg = rtl8168_config_new();
  char err[256];
  for (const auto& [name, value] : params) {
    if (rtl8168_config_set(cfg, name.c_str(), value.c_str(), err, sizeof err) != 0) {
      rtl8168_config_free(cfg);
      throw std::invalid_argument(err);
    }
  }
  rtl8168_host_ops ops{};
  ops.opaque = this;
  ops.dma_read = dma_read;
  ops.dma_write = dma_write;
  ops.msi_enabled = msi_enabled;
  ops.msi_notify = msi_notify;
  ops.set_intx = set_intx;
  ops.transmit = transmit;
  ops.timer_arm = timer_arm;
  // RTL8168_BENCH_TRACE=1: print the model's trace lines on stderr.
  if (const char* t = std::getenv("RTL8168_BENCH_TRACE"); t && *t == '1') {
    ops.trace = [](void*, uint64_t now, const char* line) {
      std::fprintf(stderr, "%14llu %s\n", static_cast<unsigned long long>(now), line);
    };
  }
  dev_ = rtl8168_create(cfg, &ops, err, sizeof err);
  rtl8168_config_free(cfg);
  if (!dev_) throw std::invalid_argument(err);
}

SimHost::~SimHost() { rtl8168_destroy(dev_); }

void SimHost::run_until(Time t) {
  while (step_until(t) < t) {
  }
}

Time SimHost::step_until(Time t) {
  if (deadline_ <= t) {
    now_ = std::max(now_, deadline_);
    rtl8168_timer_expired(dev_, now_);
  } else {
    now_ = std::max(now_, t);
  }
  return now_;
}

int SimHost::dma_read(void* o, uint64_t addr, void* buf, size_t len) {
  return static_cast<SimHost*>(o)->ram_.dma_read(addr, buf, len);
}
int SimHost::dma_write(void* o, uint64_t addr, const void* buf, size_t len) {
  return static_cast<SimHost*>(o)->ram_.dma_write(addr, buf, len);
}
bool SimHost::msi_enabled(void* o) { return static_cast<SimHost*>(o)->msi; }
void SimHost::msi_notify(void* o) {
  auto* h = static_cast<SimHost*>(o);
  h->msi_count++;
  h->msi_pending = true;
}
void SimHost::set_intx(void* o, int level) { static_cast<SimHost*>(o)->intx_level = level; }
void SimHost::transmit(void* o, const uint8_t* frame, size_t len) {
  auto* h = static_cast<SimHost*>(o);
  h->tx_frames++;
  if (h->on_transmit) h->on_transmit(std::span<const uint8_t>(frame, len), h->now_);
}
void SimHost::timer_arm(void* o, uint64_t deadline) { static_cast<SimHost*>(o)->deadline_ = deadline; }

}  // namespace bench
