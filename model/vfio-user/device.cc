// SPDX-License-Identifier: GPL-2.0-or-later
#include "device.h"

#include <cerrno>
#include <cstring>

namespace vfio_user {

namespace {
Device* self(void* o) { return static_cast<Device*>(o); }
}  // namespace

Device::Device(DeviceHost& host, const rtl8168_pci_identity& id, bool pme)
    : host_(host), id_(id), config_(id, pme), irqs_(id) {}

uint64_t Device::region_size(uint32_t index) const {
  if (index == VFIO_PCI_BAR0_REGION_INDEX) return RTL8168_IO_SIZE;
  if (index == VFIO_PCI_BAR2_REGION_INDEX) return id_.mmio_size;
  if (index == VFIO_PCI_CONFIG_REGION_INDEX) return kConfigSize;
  if (id_.msix_vectors && index == VFIO_PCI_BAR0_REGION_INDEX + id_.msix_bar)
    return id_.msix_bar_size;
  return 0;
}

std::unique_ptr<Device> Device::create(const rtl8168_config* cfg, bool pme, DeviceHost& host,
                                       std::string& err) {
  rtl8168_pci_identity id;
  rtl8168_config_pci_identity(cfg, &id);
  std::unique_ptr<Device> d(new Device(host, id, pme));
  const rtl8168_host_ops ops = {
      .opaque = d.get(),
      .dma_read = host_dma_read,
      .dma_write = host_dma_write,
      .msi_enabled = host_msi_enabled,
      .msi_notify = host_msi_notify,
      .set_intx = host_set_intx,
      .transmit = host_transmit,
      .timer_arm = host_timer_arm,
      .rx_ready = host_rx_ready,
      .trace = nullptr,
      .trace_event = nullptr,
      .pme = nullptr,
  };
  char msg[512] = "";
  d->dev_ = rtl8168_create(cfg, &ops, msg, sizeof msg);
  if (!d->dev_) {
    err = msg;
    return nullptr;
  }
  return d;
}

Device::~Device() {
  if (dev_) rtl8168_destroy(dev_);
}

bool Device::region_info(uint32_t index, RegionInfo& out) const {
  if (index >= kNumRegions) return false;
  out = RegionInfo{sizeof(RegionInfo), 0, index, 0, region_size(index), 0};
  if (out.size) out.flags = VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE;
  return true;
}

// BAR0 and BAR2 decode the same register file (rtl8168_reg_read): one
// access of 1, 2, 4 or 8 bytes, as a CPU load/store makes it. The model
// answers what the chip does with odd sizes and offsets inside the BAR.
// The MSI-X BAR holds the table and the PBA (msix.h).
int Device::bar_access(uint32_t index, uint64_t offset, uint32_t count, uint8_t* out,
                       const uint8_t* data) {
  if (count != 1 && count != 2 && count != 4 && count != 8) return EINVAL;
  if (index != VFIO_PCI_BAR0_REGION_INDEX && index != VFIO_PCI_BAR2_REGION_INDEX) {
    if (out)
      irqs_.msix().read(offset, count, out);
    else
      irqs_.msix().write(offset, count, data);
    return 0;
  }
  const uint64_t now = host_.now();
  if (out) {
    const uint64_t v = rtl8168_reg_read(dev_, now, uint32_t(offset), count);
    std::memcpy(out, &v, count);  // little-endian host, as the protocol says
  } else {
    uint64_t v = 0;
    std::memcpy(&v, data, count);
    rtl8168_reg_write(dev_, now, uint32_t(offset), v, count);
  }
  return 0;
}

int Device::region_read(uint32_t index, uint64_t offset, uint32_t count, uint8_t* out) {
  const uint64_t size = index < kNumRegions ? region_size(index) : 0;
  if (size == 0 || count == 0 || offset >= size || count > size - offset) return EINVAL;
  if (index == VFIO_PCI_CONFIG_REGION_INDEX) {
    config_.read(uint32_t(offset), out, count);
    return 0;
  }
  return bar_access(index, offset, count, out, nullptr);
}

int Device::region_write(uint32_t index, uint64_t offset, uint32_t count, const uint8_t* data) {
  const uint64_t size = index < kNumRegions ? region_size(index) : 0;
  if (size == 0 || count == 0 || offset >= size || count > size - offset) return EINVAL;
  if (index != VFIO_PCI_CONFIG_REGION_INDEX) return bar_access(index, offset, count, nullptr, data);
  config_.write(uint32_t(offset), data, count);
  if (config_.msix_control_in(uint32_t(offset), count))
    irqs_.msix().set_function_mask(config_.msix_function_masked());
  // Link Control's ASPM Control and the ASPM entrance latency reach the
  // model (profiles that model ASPM L1); it takes accesses of 1, 2 or 4.
  if (config_.forward_to_model() && (count == 1 || count == 2 || count == 4)) {
    uint32_t v = 0;
    std::memcpy(&v, data, count);
    rtl8168_pci_config_write(dev_, host_.now(), uint32_t(offset), v, count);
  }
  return 0;
}

void Device::reset() {
  irqs_.reset_intx();
  irqs_.msix().reset();
  rtl8168_reset(dev_, host_.now());
}

void Device::timer_expired() { rtl8168_timer_expired(dev_, host_.now()); }

void Device::set_link(bool up) { rtl8168_set_link(dev_, host_.now(), up); }

void Device::receive(const uint8_t* frame, size_t len) {
  if (!rx_queue_.empty() || rtl8168_receive(dev_, host_.now(), frame, len) == 0) {
    if (rx_queue_.size() >= kRxQueueMax) {
      rx_dropped_++;
      return;
    }
    rx_queue_.emplace_back(frame, frame + len);
  }
}

// The model has room again: hand it the held frames in arrival order.
void Device::flush_rx() {
  if (flushing_) return;  // rx_ready from inside a receive below
  flushing_ = true;
  while (!rx_queue_.empty()) {
    const std::vector<uint8_t>& f = rx_queue_.front();
    if (rtl8168_receive(dev_, host_.now(), f.data(), f.size()) == 0) break;
    rx_queue_.pop_front();
  }
  flushing_ = false;
}

void Device::client_gone() {
  dma_.clear();
  irqs_.clear();
}

// Bus-master DMA needs Command.BME, as on the bus (QEMU's client forwards
// the guest's command register writes).
int Device::host_dma_read(void* o, uint64_t addr, void* buf, size_t len) {
  Device* d = self(o);
  if (!d->config_.bus_master()) return -1;
  return d->dma_.read(addr, buf, len);
}
int Device::host_dma_write(void* o, uint64_t addr, const void* buf, size_t len) {
  Device* d = self(o);
  if (!d->config_.bus_master()) return -1;
  return d->dma_.write(addr, buf, len);
}
bool Device::host_msi_enabled(void* o) {
  const Irqs& irqs = self(o)->irqs_;
  return irqs.msi_active() || irqs.msix().enabled();
}
// The table entry `vector` while the client has MSI-X enabled (the model
// sends only vectors below the table size), else the MSI (the model then
// passes vector 0), as the QEMU device routes them.
void Device::host_msi_notify(void* o, unsigned vector) {
  Irqs& irqs = self(o)->irqs_;
  if (irqs.msix().enabled() && vector < irqs.msix().vectors())
    irqs.msix().notify(vector);
  else
    irqs.msi_notify();
}
void Device::host_set_intx(void* o, int level) { self(o)->irqs_.set_intx_level(level != 0); }
void Device::host_transmit(void* o, const uint8_t* frame, size_t len) {
  self(o)->host_.transmit(frame, len);
}
void Device::host_timer_arm(void* o, uint64_t deadline) { self(o)->host_.arm_timer(deadline); }
void Device::host_rx_ready(void* o) { self(o)->flush_rx(); }

}  // namespace vfio_user
