// SPDX-License-Identifier: GPL-2.0-or-later
// The RTL8168 model as a vfio-user PCI function: the model (C API), its
// configuration space, the client's memory (DmaSpace) and the interrupt
// eventfds (Irqs), with the regions vfio-pci numbers: BAR0 (I/O, the
// register file), BAR2 (memory, the same registers), the MSI-X table and
// PBA's BAR of the profiles with MSI-X (BAR 4 on the RTL8125B), the
// configuration space; the other BARs, the ROM and VGA are empty. It knows nothing of
// sockets or event loops: time, the timer, the wire and the pcap come from
// a DeviceHost.
#pragma once

#include <rtl8168/rtl8168.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "config_space.h"
#include "dma_space.h"
#include "irqs.h"
#include "protocol.h"

namespace vfio_user {

class DeviceHost {
 public:
  virtual ~DeviceHost() = default;
  // Monotonic nanoseconds (the model's `now`; never goes backwards).
  virtual uint64_t now() = 0;
  // Arm the single timer (RTL8168_NO_DEADLINE: cancel); on expiry the host
  // calls Device::timer_expired().
  virtual void arm_timer(uint64_t deadline_ns) = 0;
  // A frame left the wire.
  virtual void transmit(const uint8_t* frame, size_t len) = 0;
};

class Device {
 public:
  static constexpr uint32_t kNumRegions = VFIO_PCI_NUM_REGIONS;
  // Frames held while the model's RX FIFO is full, before new ones drop.
  static constexpr size_t kRxQueueMax = 256;

  // nullptr with a message in err when the configuration is refused.
  static std::unique_ptr<Device> create(const rtl8168_config* cfg, bool pme, DeviceHost& host,
                                        std::string& err);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // VFIO_USER_DEVICE_GET_REGION_INFO (false: no such region).
  bool region_info(uint32_t index, RegionInfo& out) const;
  // Region accesses: 0 or the errno of the error reply.
  int region_read(uint32_t index, uint64_t offset, uint32_t count, uint8_t* out);
  int region_write(uint32_t index, uint64_t offset, uint32_t count, const uint8_t* data);

  void reset();
  void timer_expired();
  // A frame from the wire (queued while the model applies back-pressure).
  void receive(const uint8_t* frame, size_t len);
  void set_link(bool up);
  // The client went away: its memory and eventfds are dropped, the device
  // state stays (the protocol's rule for a client that may reconnect).
  void client_gone();

  DmaSpace& dma() { return dma_; }
  Irqs& irqs() { return irqs_; }
  const ConfigSpace& config() const { return config_; }
  rtl8168* model() { return dev_; }
  uint64_t rx_dropped() const { return rx_dropped_; }

 private:
  Device(DeviceHost& host, const rtl8168_pci_identity& id, bool pme);
  // Bytes of each region (0: the region does not exist on this function).
  uint64_t region_size(uint32_t index) const;
  int bar_access(uint32_t index, uint64_t offset, uint32_t count, uint8_t* out,
                 const uint8_t* data);
  void flush_rx();

  static int host_dma_read(void* o, uint64_t addr, void* buf, size_t len);
  static int host_dma_write(void* o, uint64_t addr, const void* buf, size_t len);
  static bool host_msi_enabled(void* o);
  static void host_msi_notify(void* o, unsigned vector);
  static void host_set_intx(void* o, int level);
  static void host_transmit(void* o, const uint8_t* frame, size_t len);
  static void host_timer_arm(void* o, uint64_t deadline);
  static void host_rx_ready(void* o);

  DeviceHost& host_;
  rtl8168_pci_identity id_;
  ConfigSpace config_;
  DmaSpace dma_;
  Irqs irqs_;
  rtl8168* dev_ = nullptr;
  std::deque<std::vector<uint8_t>> rx_queue_;
  bool flushing_ = false;
  uint64_t rx_dropped_ = 0;
};

}  // namespace vfio_user
