// SPDX-License-Identifier: GPL-2.0-or-later
// The C API (include/rtl8168/rtl8168.h): a thin extern "C" layer over
// rtl8168sim::Device. No behaviour lives here.
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "config.h"
#include "device.h"
#include "pcie_link.h"
#include "rtl8168/rtl8168.h"
#include "stats.h"

struct rtl8168_config {
  rtl8168sim::Config cfg;
  bool any_order = false;
  std::vector<std::string> explicit_set;  // any_order: the parameters set, "chip" aside
};

struct rtl8168 {
  explicit rtl8168(const rtl8168sim::Config& cfg, const rtl8168_host_ops& ops) : dev(cfg, ops) {}
  rtl8168sim::Device dev;
};

namespace {
void set_err(char* err, size_t errlen, const std::string& msg) {
  if (!err || errlen == 0) return;
  const size_t n = std::min(errlen - 1, msg.size());
  std::memcpy(err, msg.data(), n);
  err[n] = '\0';
}
}  // namespace

extern "C" {

rtl8168_config* rtl8168_config_new(void) { return new (std::nothrow) rtl8168_config(); }
rtl8168_config* rtl8168_config_new_any_order(void) {
  rtl8168_config* cfg = rtl8168_config_new();
  if (cfg) cfg->any_order = true;
  return cfg;
}
void rtl8168_config_free(rtl8168_config* cfg) { delete cfg; }

static rtl8168_pci_identity pci_identity(const rtl8168sim::PciIdentity& p) {
  const rtl8168sim::PcieAspm& a = p.aspm;
  // PCIe Base 7.5.3.3 / 7.5.3.6 field positions.
  const uint32_t devcap = a.l1 ? (uint32_t{a.l0s_accept} << 6 | uint32_t{a.l1_accept} << 9) : 0;
  const uint32_t lnkcap =
      a.l1 ? (3u << 10 | uint32_t{a.l0s_exit} << 12 | uint32_t{a.l1_exit} << 15) : 0;
  return rtl8168_pci_identity{.vendor_id = p.vendor_id,
                              .device_id = p.device_id,
                              .subsystem_vendor_id = p.subsystem_vendor_id,
                              .subsystem_id = p.subsystem_id,
                              .revision = p.revision,
                              .pm_offset = p.pm_offset,
                              .msi_offset = p.msi_offset,
                              .pcie_offset = p.pcie_offset,
                              .pcie_devcap_set = devcap,
                              .pcie_lnkcap_set = lnkcap,
                              .aspm_control_writable = a.l1,
                              .mmio_size = p.mmio_size,
                              .aspm_entry_latency_offset = rtl8168sim::PcieLink::kEntryLatencyOffset,
                              .aspm_entry_latency_reset = rtl8168sim::PcieLink::kEntryLatencyReset,
                              .msix_offset = p.msix.offset,
                              .msix_vectors = p.msix.vectors,
                              .msix_bar = p.msix.bar,
                              .msix_bar_size = p.msix.bar_size,
                              .msix_table_offset = p.msix.table_offset,
                              .msix_pba_offset = p.msix.pba_offset};
}

void rtl8168_config_pci_identity(const rtl8168_config* cfg, rtl8168_pci_identity* out) {
  if (!cfg || !out) return;
  *out = pci_identity(cfg->cfg.profile->pci);
}

size_t rtl8168_chip_count(void) { return rtl8168sim::profiles().size(); }

int rtl8168_chip_at(size_t index, rtl8168_chip_info* out) {
  using namespace rtl8168sim;
  if (!out || index >= profiles().size()) return -1;
  const ChipProfile& p = *profiles()[index];
  unsigned tx = 0, rx = 0;
  for (const RingSpec& r : p.rings) (r.dir == RingDir::Tx ? tx : rx)++;
  // The profile's strings are literals: NUL-terminated.
  *out = rtl8168_chip_info{.id = p.id.data(),
                           .name = p.name.data(),
                           .r8169_version = p.r8169_version.data(),
                           .firmware = p.firmware.data(),
                           .txconfig_reset = p.txconfig_reset,
                           .xid = profile_xid(p),
                           .phy_id = static_cast<uint32_t>(p.phy_id1) << 16 | p.phy_id2,
                           .phy_paths = p.phy_paths,
                           .mac_ocp = p.mac_ocp,
                           .side_buses = p.side_buses,
                           .reg_window = p.reg_window,
                           .max_frame = p.max_frame,
                           .tx_queues = tx,
                           .rx_queues = rx,
                           .pci = pci_identity(p.pci),
                           .intr_status = p.irq.status,
                           .intr_mask = p.irq.mask,
                           .intr_width = p.irq.width,
                           .doorbell = p.txpoll.offset,
                           .doorbell_width = p.txpoll.width,
                           .doorbell_bits = {profile_ring(p, RingDir::Tx, 0)->doorbell,
                                             profile_ring(p, RingDir::Tx, 1)->doorbell},
                           .tx_ring_base = {profile_ring(p, RingDir::Tx, 0)->base_lo,
                                            profile_ring(p, RingDir::Tx, 1)->base_lo},
                           .queue_irqs = p.queue_irqs,
                           .link_mbps = phy_best_mbps(p.phy_model)};
  return 0;
}

int rtl8168_config_set(rtl8168_config* cfg, const char* name, const char* value, char* err,
                       size_t errlen) {
  if (!cfg || !name || !value) {
    set_err(err, errlen, "rtl8168_config_set: null argument");
    return -1;
  }
  const std::string msg =
      cfg->any_order ? rtl8168sim::config_set_any_order(cfg->cfg, cfg->explicit_set, name, value)
                     : rtl8168sim::config_set(cfg->cfg, name, value);
  if (!msg.empty()) {
    set_err(err, errlen, msg);
    return -1;
  }
  return 0;
}

int rtl8168_config_get(const rtl8168_config* cfg, const char* name, char* buf, size_t buflen) {
  std::string v;
  if (!cfg || !name || !rtl8168sim::config_get(cfg->cfg, name, v)) return -1;
  set_err(buf, buflen, v);
  return 0;
}

size_t rtl8168_param_count(void) { return rtl8168sim::param_count(); }

const rtl8168_param_info* rtl8168_param_at(size_t index) {
  if (index >= rtl8168sim::param_count()) return nullptr;
  return &rtl8168sim::param_doc(index);
}

rtl8168* rtl8168_create(const rtl8168_config* cfg, const rtl8168_host_ops* ops, char* err,
                        size_t errlen) {
  if (!cfg || !ops || !ops->dma_read || !ops->dma_write || !ops->msi_enabled || !ops->msi_notify ||
      !ops->set_intx || !ops->transmit || !ops->timer_arm) {
    set_err(err, errlen, "rtl8168_create: missing configuration or required host callback");
    return nullptr;
  }
  if (cfg->cfg.t.tx_fifo_size < cfg->cfg.profile->max_frame + 4) {
    set_err(err, errlen, "tx-fifo-size must hold the largest frame (" +
                             std::to_string(cfg->cfg.profile->max_frame + 4) + " bytes)");
    return nullptr;
  }
  auto* dev = new (std::nothrow) rtl8168(cfg->cfg, *ops);
  if (!dev) {
    set_err(err, errlen, "rtl8168_create: out of memory");
    return nullptr;
  }
  dev->dev.power_on_reset(0);
  return dev;
}

void rtl8168_destroy(rtl8168* dev) { delete dev; }
void rtl8168_reset(rtl8168* dev, uint64_t now) { dev->dev.power_on_reset(now); }

uint64_t rtl8168_reg_read(rtl8168* dev, uint64_t now, uint32_t offset, unsigned size) {
  return dev->dev.reg_read(now, offset, size);
}
void rtl8168_reg_write(rtl8168* dev, uint64_t now, uint32_t offset, uint64_t value, unsigned size) {
  dev->dev.reg_write(now, offset, value, size);
}
void rtl8168_timer_expired(rtl8168* dev, uint64_t now) { dev->dev.timer_expired(now); }
bool rtl8168_can_receive(rtl8168* dev, uint64_t now) { return dev->dev.can_receive(now); }
size_t rtl8168_receive(rtl8168* dev, uint64_t now, const uint8_t* frame, size_t len) {
  if (!frame) {  // a bad call: counted, and consumed (rtl8168.h)
    dev->dev.bad_call(now);
    return len;
  }
  return dev->dev.receive(now, std::span<const uint8_t>(frame, len));
}
void rtl8168_set_link(rtl8168* dev, uint64_t now, bool up) { dev->dev.set_link(now, up); }

void rtl8168_pci_config_write(rtl8168* dev, uint64_t now, uint32_t addr, uint32_t value,
                              unsigned len) {
  dev->dev.pci_config_write(now, addr, value, len);
}

size_t rtl8168_state_size(const rtl8168* dev) { return dev->dev.save().size(); }
size_t rtl8168_state_save(const rtl8168* dev, uint8_t* buf, size_t buflen) {
  const std::vector<uint8_t> blob = dev->dev.save();
  if (!buf || buflen < blob.size()) return 0;
  std::memcpy(buf, blob.data(), blob.size());
  return blob.size();
}
int rtl8168_state_load(rtl8168* dev, const uint8_t* buf, size_t len, char* err, size_t errlen) {
  if (!buf) {
    set_err(err, errlen, "rtl8168_state_load: null buffer");
    return -1;
  }
  const std::string msg = dev->dev.load(std::span<const uint8_t>(buf, len));
  if (!msg.empty()) {
    set_err(err, errlen, msg);
    return -1;
  }
  return 0;
}

int rtl8168_fault_add(rtl8168* dev, uint64_t now, const char* spec, char* err, size_t errlen) {
  if (!dev || !spec) {
    set_err(err, errlen, "rtl8168_fault_add: null argument");
    return -1;
  }
  const std::string msg = dev->dev.add_faults(now, spec);
  if (!msg.empty()) {
    set_err(err, errlen, msg);
    return -1;
  }
  return 0;
}
void rtl8168_fault_clear(rtl8168* dev, uint64_t now) {
  if (dev) dev->dev.clear_faults(now);
}
size_t rtl8168_fault_list(const rtl8168* dev, char* buf, size_t buflen) {
  const std::string json = dev ? dev->dev.faults_json() : std::string("{}");
  set_err(buf, buflen, json);
  return json.size();
}

uint64_t rtl8168_trace_hash(const rtl8168* dev) { return dev->dev.trace_hash(); }
uint64_t rtl8168_trace_events(const rtl8168* dev) { return dev->dev.trace_count(); }

const rtl8168_trace_kind_info* rtl8168_trace_kind_at(unsigned kind) {
  return rtl8168sim::trace_kind(kind);
}
const char* rtl8168_trace_category_name(rtl8168_trace_category category) {
  return rtl8168sim::trace_category_name(category);
}
size_t rtl8168_trace_format(unsigned kind, const uint64_t* args, char* buf, size_t buflen) {
  return rtl8168sim::format_trace(kind, args, buf, buflen);
}
void rtl8168_get_stats(const rtl8168* dev, rtl8168_stats* out) {
  if (out) *out = dev->dev.stats;
}
size_t rtl8168_stats_json(const rtl8168* dev, char* buf, size_t buflen) {
  const std::string json = rtl8168sim::stats_json(dev ? dev->dev.stats : rtl8168_stats{});
  set_err(buf, buflen, json);
  return json.size();
}
const char* rtl8168_chip_name(const rtl8168* dev) { return dev->dev.config().profile->name.data(); }

}  // extern "C"
