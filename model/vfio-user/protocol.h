// SPDX-License-Identifier: GPL-2.0-or-later
// The vfio-user wire format (QEMU docs/interop/vfio-user.rst, protocol 0.0):
// the 16-byte header every message starts with, the command numbers, and the
// fixed payloads this server reads and writes. Payload structs are the
// <linux/vfio.h> ioctl structs the protocol reuses, minus the header; all
// fields are in host byte order (the protocol's rule for AF_UNIX). Flag and
// index values come from <linux/vfio.h> itself.
#pragma once

#include <linux/vfio.h>

#include <cstddef>
#include <cstdint>

namespace vfio_user {

struct Header {
  uint16_t id;       // echoed in the reply
  uint16_t command;  // Command
  uint32_t size;     // whole message, header included
  uint32_t flags;    // kType* | kNoReply | kError
  uint32_t error;    // errno of an error reply
};
static_assert(sizeof(Header) == 16);

enum Command : uint16_t {
  kVersion = 1,
  kDmaMap = 2,
  kDmaUnmap = 3,
  kDeviceGetInfo = 4,
  kDeviceGetRegionInfo = 5,
  kDeviceGetRegionIoFds = 6,
  kDeviceGetIrqInfo = 7,
  kDeviceSetIrqs = 8,
  kRegionRead = 9,
  kRegionWrite = 10,
  kDmaRead = 11,
  kDmaWrite = 12,
  kDeviceReset = 13,
  kDirtyPages = 14,
  kRegionWriteMulti = 15,
};

inline constexpr uint32_t kTypeRequest = 0x0, kTypeReply = 0x1, kTypeMask = 0xf;
inline constexpr uint32_t kNoReply = 0x10, kError = 0x20;

// VFIO_USER_VERSION payload: major, minor, then optional NUL-terminated JSON.
struct Version {
  uint16_t major, minor;
};
static_assert(sizeof(Version) == 4);
inline constexpr uint16_t kMajor = 0, kMinor = 0;

// VFIO_USER_DMA_MAP (struct vfio_iommu_type1_dma_map without vaddr: offset
// is the file offset of the region in the passed fd).
struct DmaMap {
  uint32_t argsz, flags;
  uint64_t offset, iova, size;
};
static_assert(sizeof(DmaMap) == 32);

// VFIO_USER_DMA_UNMAP (struct vfio_iommu_type1_dma_unmap).
struct DmaUnmap {
  uint32_t argsz, flags;
  uint64_t iova, size;
};
static_assert(sizeof(DmaUnmap) == 24);

// VFIO_USER_DEVICE_GET_INFO (struct vfio_device_info, first 16 bytes).
struct DeviceInfo {
  uint32_t argsz, flags, num_regions, num_irqs;
};
static_assert(sizeof(DeviceInfo) == 16);

// VFIO_USER_DEVICE_GET_REGION_INFO (struct vfio_region_info).
struct RegionInfo {
  uint32_t argsz, flags, index, cap_offset;
  uint64_t size, offset;
};
static_assert(sizeof(RegionInfo) == 32);

// VFIO_USER_DEVICE_GET_IRQ_INFO (struct vfio_irq_info).
struct IrqInfo {
  uint32_t argsz, flags, index, count;
};
static_assert(sizeof(IrqInfo) == 16);

// VFIO_USER_DEVICE_SET_IRQS (struct vfio_irq_set; data follows).
struct IrqSet {
  uint32_t argsz, flags, index, start, count;
};
static_assert(sizeof(IrqSet) == 20);

// VFIO_USER_REGION_READ / _WRITE (data follows in a write and in a read's reply).
struct RegionAccess {
  uint64_t offset;
  uint32_t region, count;
};
static_assert(sizeof(RegionAccess) == 16);

// VFIO_USER_DMA_READ / _WRITE, server -> client (data follows).
struct DmaAccess {
  uint64_t address, count;
};
static_assert(sizeof(DmaAccess) == 16);

// VFIO_USER_REGION_WRITE_MULTI: wr_cnt, then wr_cnt of these (QEMU's
// VFIOUserWROne: up to 8 data bytes each, at most 200).
struct WriteOne {
  uint64_t offset;
  uint32_t region, count;
  uint8_t data[8];
};
static_assert(sizeof(WriteOne) == 24);
inline constexpr uint64_t kMultiMax = 200;

// What this server offers in its VERSION reply (the client takes the minimum
// of each with its own): fds per message (the SET_IRQS of one eventfd and a
// DMA_MAP of one fd are the most QEMU sends), the data of one region or DMA
// transfer, DMA page size, concurrent DMA windows.
inline constexpr uint32_t kMaxMsgFds = 8;
inline constexpr uint32_t kMaxDataXfer = 1u << 20;
inline constexpr uint64_t kPageSize = 4096;
inline constexpr uint32_t kMaxDmaMaps = 1024;
// The largest message accepted: a transfer plus its headers. A header that
// announces more closes the connection before anything is allocated.
inline constexpr uint32_t kMaxMessage = kMaxDataXfer + 64;

const char* command_name(uint16_t command);

}  // namespace vfio_user
