// SPDX-License-Identifier: GPL-2.0-or-later
// The client is untrusted: malformed, truncated, oversized, out-of-range or
// out-of-order requests and wrong file descriptors get an error reply or a
// closed connection, and the server neither crashes, hangs nor leaks the fds.
#include <fcntl.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>

#include "client.h"

namespace vfio_user_test {
namespace {

TEST(VfioUserHostile, HeaderSmallerThanItselfClosesTheConnection) {
  Harness h;
  h.negotiate();
  Header hd{1, kDeviceGetInfo, 8, kTypeRequest, 0};
  h.send_raw(&hd, sizeof hd);
  EXPECT_TRUE(h.closed_by_server());
}

TEST(VfioUserHostile, OversizedMessageClosesBeforeAllocating) {
  Harness h;
  h.negotiate();
  Header hd{1, kRegionWrite, 0xfffffff0u, kTypeRequest, 0};
  h.send_raw(&hd, sizeof hd);
  EXPECT_TRUE(h.closed_by_server());
}

TEST(VfioUserHostile, UnknownTypeOrFlagsCloseTheConnection) {
  for (uint32_t flags : {0x2u, 0x100u}) {
    Harness h;
    h.negotiate();
    Header hd{1, kDeviceReset, sizeof(Header), flags, 0};
    h.send_raw(&hd, sizeof hd);
    EXPECT_TRUE(h.closed_by_server()) << flags;
  }
}

TEST(VfioUserHostile, TruncatedMessageTimesOutAndCloses) {
  Harness h;  // message timeout 2 s
  h.negotiate();
  Header hd{1, kRegionWrite, sizeof(Header) + 24, kTypeRequest, 0};
  h.send_raw(&hd, sizeof hd);
  h.send_raw("abcd", 4);  // 20 bytes short, then silence
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE(h.closed_by_server(5000));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(4));
}

TEST(VfioUserHostile, ShortPayloadsAndBadArgumentsGetErrors) {
  Harness h;
  h.negotiate();
  // Every command with an empty payload.
  for (uint16_t c : {kDmaMap, kDmaUnmap, kDeviceGetInfo, kDeviceGetRegionInfo, kDeviceGetIrqInfo,
                     kDeviceSetIrqs, kRegionRead, kRegionWrite, kRegionWriteMulti})
    EXPECT_EQ(h.call_err(Harness::request(c)), EINVAL) << command_name(c);
  EXPECT_EQ(h.call_err(Harness::request(kDmaRead)), ENOSYS);  // server -> client only
  EXPECT_EQ(h.call_err(Harness::request(999)), ENOSYS);
  EXPECT_EQ(h.call_err(Harness::request(kDirtyPages)), ENOTSUP);
  // Region accesses out of range, of odd sizes, in empty regions.
  EXPECT_EQ(h.write_region_err(VFIO_PCI_BAR0_REGION_INDEX, 256, 1, 0), EINVAL);
  EXPECT_EQ(h.write_region_err(VFIO_PCI_BAR0_REGION_INDEX, 255, 2, 0), EINVAL);
  EXPECT_EQ(h.write_region_err(VFIO_PCI_BAR2_REGION_INDEX, 0, 3, 0), EINVAL);
  EXPECT_EQ(h.write_region_err(VFIO_PCI_BAR2_REGION_INDEX, ~0ull - 1, 4, 0), EINVAL);
  EXPECT_EQ(h.write_region_err(VFIO_PCI_BAR1_REGION_INDEX, 0, 4, 0), EINVAL);
  EXPECT_EQ(h.write_region_err(VFIO_PCI_ROM_REGION_INDEX, 0, 4, 0), EINVAL);
  EXPECT_EQ(h.write_region_err(77, 0, 4, 0), EINVAL);
  EXPECT_EQ(h.write_region_err(VFIO_PCI_CONFIG_REGION_INDEX, 4095, 2, 0), EINVAL);
  Message rd = Harness::request(kRegionRead);
  put(rd, RegionAccess{0, VFIO_PCI_CONFIG_REGION_INDEX, 0x7fffffff});
  EXPECT_EQ(h.call_err(std::move(rd)), EINVAL);
  // A write whose data is shorter than its count.
  Message wr = Harness::request(kRegionWrite);
  put(wr, RegionAccess{0, VFIO_PCI_BAR2_REGION_INDEX, 4});
  put_bytes(wr, "ab", 2);
  EXPECT_EQ(h.call_err(std::move(wr)), EINVAL);
  // WRITE_MULTI: too many, a count above 8, fewer entries than announced.
  for (auto [cnt, count] : {std::pair<uint64_t, uint32_t>{201, 1}, {1, 9}, {5, 1}}) {
    Message m = Harness::request(kRegionWriteMulti);
    put(m, cnt);
    put(m, WriteOne{0, VFIO_PCI_BAR2_REGION_INDEX, count, {}});
    EXPECT_EQ(h.call_err(std::move(m)), EINVAL);
  }
  // The connection is still good.
  EXPECT_EQ(h.cfg32(0) & 0xffff, 0x10ecu);
}

TEST(VfioUserHostile, DmaMapOverlapsWrongFdsAndUnmapMismatches) {
  Harness h;
  h.negotiate();
  const int memfd = memfd_create("ram", MFD_CLOEXEC);
  ASSERT_EQ(ftruncate(memfd, 0x10000), 0);
  auto map = [&](uint64_t iova, uint64_t size, uint64_t off, std::vector<int> fds,
                 uint32_t flags = 3) {
    Message m = Harness::request(kDmaMap);
    put(m, DmaMap{sizeof(DmaMap), flags, off, iova, size});
    return h.call_err(std::move(m), fds);
  };
  auto unmap = [&](uint64_t iova, uint64_t size, uint32_t flags = 0) {
    Message m = Harness::request(kDmaUnmap);
    put(m, DmaUnmap{sizeof(DmaUnmap), flags, iova, size});
    return h.call_err(std::move(m));
  };
  EXPECT_EQ(map(0x10000, 0x10000, 0, {memfd}), 0);
  EXPECT_EQ(map(0x10000, 0x1000, 0, {}), EEXIST);
  EXPECT_EQ(map(0x1f000, 0x2000, 0, {}), EEXIST);
  EXPECT_EQ(map(0xf000, 0x2000, 0, {}), EEXIST);
  EXPECT_EQ(map(0x0, 0x100000, 0, {}), EEXIST);    // covers it
  EXPECT_EQ(map(0x20000, 0x1000, 0, {}), 0);       // adjacent is fine
  EXPECT_EQ(map(0x30000, 0x1001, 0, {}), EINVAL);  // not page-sized
  EXPECT_EQ(map(0x30000, 0, 0, {}), EINVAL);
  EXPECT_EQ(map(~0ull - 0xfff, 0x2000, 0, {}), EINVAL);  // wraps
  EXPECT_EQ(map(0x30000, 0x1000, 0, {}, 0x8), EINVAL);   // unknown flag
  EXPECT_EQ(map(0x40000, 0x20000, 0, {memfd}), EINVAL);  // beyond the file's end
  EXPECT_EQ(map(0x40000, 0x1000, 0x10000, {memfd}), EINVAL);
  const int efd = eventfd(0, EFD_CLOEXEC);
  int pipefd[2];
  ASSERT_EQ(pipe2(pipefd, O_CLOEXEC), 0);
  EXPECT_EQ(map(0x40000, 0x1000, 0, {efd}), EINVAL);        // wrong kind
  EXPECT_EQ(map(0x40000, 0x1000, 0, {pipefd[0]}), EINVAL);  // wrong kind
  EXPECT_EQ(map(0x40000, 0x1000, 0, {memfd, memfd}), EINVAL);
  EXPECT_EQ(unmap(0x10000, 0x1000), ENOENT);  // must match exactly
  EXPECT_EQ(unmap(0x50000, 0x1000), ENOENT);
  EXPECT_EQ(unmap(0x10000, 0x10000, 0x4), EINVAL);
  EXPECT_EQ(unmap(0x10000, 0x10000), 0);
  EXPECT_EQ(unmap(0x1, 0x1, VFIO_DMA_UNMAP_FLAG_ALL), EINVAL);
  EXPECT_EQ(unmap(0, 0, VFIO_DMA_UNMAP_FLAG_ALL), 0);
  EXPECT_EQ(map(0x20000, 0x1000, 0, {}), 0) << "the ALL unmap dropped it";
  // Fds the server refused were closed by it: the pipe's only writer left
  // is ours.
  close(pipefd[1]);
  char b;
  EXPECT_EQ(read(pipefd[0], &b, 1), 0);
  // Fds on a command that takes none: refused, closed.
  int p2[2];
  ASSERT_EQ(pipe2(p2, O_CLOEXEC), 0);
  Message rd = Harness::request(kDeviceGetInfo);
  put(rd, DeviceInfo{sizeof(DeviceInfo), 0, 0, 0});
  EXPECT_EQ(h.call_err(std::move(rd), {p2[1]}), EINVAL);
  close(p2[1]);
  EXPECT_EQ(read(p2[0], &b, 1), 0);
  for (int fd : {memfd, efd, pipefd[0], p2[0]}) close(fd);
}

TEST(VfioUserHostile, SetIrqsChecksIndexesRangesFlagsAndFdKinds) {
  Harness h;
  h.negotiate();
  auto set = [&](uint32_t flags, uint32_t index, uint32_t start, uint32_t count,
                 std::vector<int> fds, std::vector<uint8_t> data = {}) {
    Message m = Harness::request(kDeviceSetIrqs);
    put(m, IrqSet{uint32_t(sizeof(IrqSet) + data.size()), flags, index, start, count});
    put_bytes(m, data.data(), data.size());
    return h.call_err(std::move(m), fds);
  };
  const int efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  const int file = memfd_create("not-an-eventfd", MFD_CLOEXEC);
  constexpr uint32_t kEfd = VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER;
  EXPECT_EQ(set(kEfd, 5, 0, 1, {efd}), EINVAL);
  EXPECT_EQ(set(kEfd, VFIO_PCI_MSI_IRQ_INDEX, 1, 1, {efd}), EINVAL);
  EXPECT_EQ(set(kEfd, VFIO_PCI_MSI_IRQ_INDEX, 0, 2, {efd, efd}), EINVAL);
  EXPECT_EQ(set(kEfd, VFIO_PCI_MSIX_IRQ_INDEX, 0, 1, {efd}), EINVAL);  // no MSI-X vectors
  EXPECT_EQ(set(kEfd, VFIO_PCI_MSI_IRQ_INDEX, 0, 1, {file}), EINVAL);  // a file is no eventfd
  EXPECT_EQ(set(VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_DATA_BOOL | VFIO_IRQ_SET_ACTION_TRIGGER,
                VFIO_PCI_MSI_IRQ_INDEX, 0, 1, {}),
            EINVAL);
  EXPECT_EQ(set(VFIO_IRQ_SET_DATA_NONE, VFIO_PCI_MSI_IRQ_INDEX, 0, 1, {}), EINVAL);  // no action
  EXPECT_EQ(
      set(VFIO_IRQ_SET_DATA_BOOL | VFIO_IRQ_SET_ACTION_TRIGGER, VFIO_PCI_MSI_IRQ_INDEX, 0, 1, {}),
      EINVAL);  // bool without its byte
  EXPECT_EQ(
      set(VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_MASK, VFIO_PCI_MSI_IRQ_INDEX, 0, 1, {}),
      EINVAL);  // MSI is not maskable
  EXPECT_EQ(set(VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_TRIGGER, VFIO_PCI_INTX_IRQ_INDEX, 0, 1,
                {efd}),
            EINVAL);  // fds with DATA_NONE
  // Good ones: set, loop back a trigger, disable the index.
  EXPECT_EQ(set(kEfd, VFIO_PCI_MSI_IRQ_INDEX, 0, 1, {efd}), 0);
  EXPECT_EQ(set(VFIO_IRQ_SET_DATA_BOOL | VFIO_IRQ_SET_ACTION_TRIGGER, VFIO_PCI_MSI_IRQ_INDEX, 0, 1,
                {}, {1}),
            0);
  EXPECT_EQ(Harness::drain(efd), 1u);
  EXPECT_EQ(
      set(VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_TRIGGER, VFIO_PCI_MSI_IRQ_INDEX, 0, 0, {}),
      0);
  EXPECT_EQ(
      set(VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_TRIGGER, VFIO_PCI_MSI_IRQ_INDEX, 0, 1, {}),
      0);
  EXPECT_EQ(Harness::drain(efd), 0u) << "disabled: the trigger goes nowhere";
  close(efd);
  close(file);
}

TEST(VfioUserHostile, TooManyFdsCloseTheConnection) {
  Harness h;
  h.negotiate();
  std::vector<int> fds;
  for (int i = 0; i < 12; i++) fds.push_back(eventfd(0, EFD_CLOEXEC));
  Message m = Harness::request(kDeviceSetIrqs);
  put(m, IrqSet{sizeof(IrqSet), VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER, 0, 0, 12});
  Message r;
  EXPECT_FALSE(h.call(std::move(m), r, fds));
  for (int fd : fds) close(fd);
}

TEST(VfioUserHostile, UnmapWhileInUseFailsTheDmaCleanly) {
  Harness h;
  h.negotiate();
  const int memfd = memfd_create("ram", MFD_CLOEXEC);
  ASSERT_EQ(ftruncate(memfd, 0x10000), 0);
  Message m = Harness::request(kDmaMap);
  put(m, DmaMap{sizeof(DmaMap), 3, 0, 0x10000, 0x10000});
  h.call_ok(std::move(m), {memfd});
  h.write_region(VFIO_PCI_CONFIG_REGION_INDEX, 4, 2, 7);
  h.set_reg(0x50, 1, 0xc0);
  h.set_reg(0x20, 4, 0x10000);
  h.set_reg(0x50, 1, 0);
  h.set_reg(0x37, 1, 0x0c);
  Message u = Harness::request(kDmaUnmap);
  put(u, DmaUnmap{sizeof(DmaUnmap), 0, 0x10000, 0x10000});
  h.call_ok(std::move(u));
  h.set_reg(0x38, 1, 0x40);  // the ring is gone: the DMA fails, no frame, no crash
  EXPECT_TRUE(h.wire()->take().empty());
  EXPECT_EQ(h.cfg32(0) & 0xffff, 0x10ecu);
  close(memfd);
}

TEST(VfioUserHostile, StrayRepliesAreIgnored) {
  Harness h;
  h.negotiate();
  Message stray;
  stray.hdr = Header{77, kDmaRead, 0, kTypeReply, 0};
  put_bytes(stray, "xxxxxxxxxxxxxxxxxxxx", 20);
  ASSERT_TRUE(send_message(h.sock(), stray, {}, 1000));
  EXPECT_EQ(h.cfg32(0) & 0xffff, 0x10ecu);
}

}  // namespace
}  // namespace vfio_user_test
