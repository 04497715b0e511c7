// SPDX-License-Identifier: GPL-2.0-or-later
// The message fuzzer's seed corpus (fuzz_target.cc's record format), as
// code: a QEMU-like session (VERSION, info, config space walk, DMA map of
// the memfd and without fd, IRQ eventfds, TX ring bring-up and a kick,
// reset, unmap), the same with MSI-X on the chip that has it, and a few
// hostile ones. `--check DIR` compares with the
// committed corpus (CTest vfio-user.fuzz-seeds-current); `--write DIR`
// writes it.
#include <linux/pci_regs.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "message.h"

using namespace vfio_user;
namespace fs = std::filesystem;

namespace {

class Seed {
 public:
  explicit Seed(uint8_t chip) { bytes.push_back(chip); }
  Seed& msg(uint16_t cmd, const std::vector<uint8_t>& payload, uint8_t ctl = 0,
            uint32_t flags = 0) {
    bytes.push_back(ctl);
    Header h{id_++, cmd, uint32_t(sizeof(Header) + payload.size()), flags, 0};
    const auto* p = reinterpret_cast<const uint8_t*>(&h);
    bytes.insert(bytes.end(), p, p + sizeof h);
    bytes.insert(bytes.end(), payload.begin(), payload.end());
    return *this;
  }
  template <typename T>
  static std::vector<uint8_t> of(const T& v, const std::vector<uint8_t>& tail = {}) {
    std::vector<uint8_t> out(sizeof(T));
    std::memcpy(out.data(), &v, sizeof(T));
    out.insert(out.end(), tail.begin(), tail.end());
    return out;
  }
  Seed& version(const std::string& json) {
    std::vector<uint8_t> t(json.begin(), json.end());
    t.push_back(0);
    return msg(kVersion, of(Version{0, 0}, t));
  }
  Seed& rd(uint32_t region, uint64_t off, uint32_t count) {
    return msg(kRegionRead, of(RegionAccess{off, region, count}));
  }
  Seed& wr(uint32_t region, uint64_t off, uint32_t count, uint64_t v, uint8_t ctl = 0) {
    std::vector<uint8_t> d(count);
    std::memcpy(d.data(), &v, std::min<size_t>(count, 8));
    return msg(kRegionWrite, of(RegionAccess{off, region, count}, d), ctl, kNoReply);
  }
  std::vector<uint8_t> bytes;

 private:
  uint16_t id_ = 0;
};

const char* kQemuCaps =
    R"({"capabilities":{"max_msg_fds":16,"max_data_xfer_size":1048576,"pgsizes":4096,)"
    R"("max_dma_maps":65535,"migration":{"pgsize":4096,"max_bitmap_size":268435456},"write_multiple":true}})";

// What QEMU's client does at realize: negotiation, device, region and IRQ
// info, the whole configuration space.
void realize(Seed& s) {
  s.version(kQemuCaps).msg(kDeviceGetInfo, Seed::of(DeviceInfo{16, 0, 0, 0}));
  for (uint32_t i = 0; i < 9; i++)
    s.msg(kDeviceGetRegionInfo, Seed::of(RegionInfo{32, 0, i, 0, 0, 0}));
  for (uint32_t i = 0; i < 5; i++) s.msg(kDeviceGetIrqInfo, Seed::of(IrqInfo{16, 0, i, 0}));
  s.rd(VFIO_PCI_CONFIG_REGION_INDEX, 0, 4096);
}

// Realize, then a driver's TX bring-up.
Seed qemu_session(uint8_t chip, bool with_fd) {
  Seed s(chip);
  realize(s);
  const uint64_t base = with_fd ? 0x100000 : 0;
  s.msg(kDmaMap, Seed::of(DmaMap{32, 3, 0, base, 0x10000}), with_fd ? 2 : 0);
  s.msg(kDeviceSetIrqs,
        Seed::of(IrqSet{24, VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER,
                        VFIO_PCI_INTX_IRQ_INDEX, 0, 1}),
        1);
  s.wr(VFIO_PCI_CONFIG_REGION_INDEX, PCI_COMMAND, 2, 7);
  s.msg(kDeviceSetIrqs, Seed::of(IrqSet{20, VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_TRIGGER,
                                        VFIO_PCI_INTX_IRQ_INDEX, 0, 0}));
  s.msg(kDeviceSetIrqs,
        Seed::of(IrqSet{24, VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER,
                        VFIO_PCI_MSI_IRQ_INDEX, 0, 1}),
        1);
  // A TX descriptor at base+0x1000 pointing at a 60-byte buffer at base+0x2000
  // is in the memory the harness serves (zeros): the kick reads a descriptor
  // the device does not own, or (memfd) whatever earlier writes left.
  s.wr(2, 0x50, 1, 0xc0).wr(2, 0x24, 4, 0).wr(2, 0x20, 4, base + 0x1000).wr(2, 0x50, 1, 0);
  s.wr(2, 0x37, 1, 0x0c).wr(2, 0x40, 4, 0x03000700).wr(2, 0x3c, 2, 0xffff);
  s.wr(2, 0x38, 1, 0x40, 8).rd(2, 0x3e, 2).wr(2, 0x3e, 2, 0xffff);
  s.msg(kDeviceReset, {}).msg(kDmaUnmap, Seed::of(DmaUnmap{24, 0, base, 0x10000}));
  return s;
}

// QEMU's client on a function with MSI-X (the RTL8125B, chip 3: capability
// 0xb0, table at 0 and PBA at 0x800 of BAR 4): realize, MSI-X enabled with
// no vector (vfio_enable_msix_no_vec), then vector 0's eventfd after a
// disable (vfio_msix_vector_use on a NORESIZE index), the guest's Function
// Mask through config space, a PBA read as vfio_user_pba_read forwards it,
// table writes of a client that does not emulate it, SET_IRQS MASK/UNMASK
// and a loopback trigger; the TX bring-up on the 8125's registers (IntrMask
// at 0x38, the doorbell at 0x90).
Seed msix_session(uint8_t chip) {
  Seed s(chip);
  realize(s);
  s.msg(kDmaMap, Seed::of(DmaMap{32, 3, 0, 0x100000, 0x10000}), 2);
  constexpr uint32_t kMsix = VFIO_PCI_MSIX_IRQ_INDEX, kBar4 = VFIO_PCI_BAR4_REGION_INDEX;
  const uint32_t trigger = VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER;
  s.wr(VFIO_PCI_CONFIG_REGION_INDEX, PCI_COMMAND, 2, 7);
  s.wr(VFIO_PCI_CONFIG_REGION_INDEX, 0xb0 + PCI_MSIX_FLAGS, 2,
       PCI_MSIX_FLAGS_ENABLE | PCI_MSIX_FLAGS_MASKALL);
  s.msg(kDeviceSetIrqs, Seed::of(IrqSet{20, trigger, kMsix, 0, 1}));
  s.msg(kDeviceSetIrqs,
        Seed::of(IrqSet{20, VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_TRIGGER, kMsix, 0, 0}));
  s.msg(kDeviceSetIrqs, Seed::of(IrqSet{20, trigger, kMsix, 0, 1}), 1);
  s.wr(VFIO_PCI_CONFIG_REGION_INDEX, 0xb0 + PCI_MSIX_FLAGS, 2, PCI_MSIX_FLAGS_ENABLE);
  s.wr(2, 0x50, 1, 0xc0).wr(2, 0x24, 4, 0).wr(2, 0x20, 4, 0x101000).wr(2, 0x50, 1, 0);
  s.wr(2, 0x37, 1, 0x0c).wr(2, 0x40, 4, 0x03000700).wr(2, 0x38, 4, 0xffffffff);
  s.wr(kBar4, 12, 4, 1).wr(2, 0x90, 2, 1, 8).rd(kBar4, 0x800, 8).wr(kBar4, 12, 4, 0);
  s.msg(kDeviceSetIrqs,
        Seed::of(IrqSet{20, VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_MASK, kMsix, 0, 1}));
  s.wr(2, 0x3c, 4, 0xffffffff).wr(2, 0x90, 2, 1, 8).rd(kBar4, 0x800, 4);
  s.msg(kDeviceSetIrqs,
        Seed::of(IrqSet{20, VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_UNMASK, kMsix, 0, 1}));
  s.msg(
      kDeviceSetIrqs,
      Seed::of(IrqSet{21, VFIO_IRQ_SET_DATA_BOOL | VFIO_IRQ_SET_ACTION_TRIGGER, kMsix, 0, 1}, {1}));
  s.wr(kBar4, 16, 8, 0xfee00000).rd(kBar4, 16, 16).rd(kBar4, 0x3ff8, 8);
  s.msg(kDeviceSetIrqs, Seed::of(IrqSet{20, trigger, kMsix, 30, 3}), 1);  // beyond the table
  s.msg(kDeviceReset, {}).msg(kDmaUnmap, Seed::of(DmaUnmap{24, 0, 0x100000, 0x10000}));
  return s;
}

std::map<std::string, std::vector<uint8_t>> seeds() {
  std::map<std::string, std::vector<uint8_t>> out;
  for (uint8_t chip = 0; chip < 3; chip++) {
    out["qemu-session-memfd-chip" + std::to_string(chip)] = qemu_session(chip, true).bytes;
    out["qemu-session-messages-chip" + std::to_string(chip)] = qemu_session(chip, false).bytes;
  }
  out["qemu-session-msix-chip3"] = msix_session(3).bytes;
  {
    Seed s(0);
    s.msg(kDeviceGetInfo, Seed::of(DeviceInfo{16, 0, 0, 0}));  // before VERSION
    s.version("{}").version("{}");                             // a second one closes
    out["out-of-order"] = s.bytes;
  }
  {
    Seed s(1);
    s.version(kQemuCaps);
    s.msg(kDmaMap, Seed::of(DmaMap{32, 3, 0, 0x10000, 0x10000}), 2);
    s.msg(kDmaMap, Seed::of(DmaMap{32, 3, 0, 0x18000, 0x10000}));          // overlaps
    s.msg(kDmaMap, Seed::of(DmaMap{32, 3, 0, 0x40000, 0x1000}), 1);        // eventfd as memory
    s.msg(kDmaMap, Seed::of(DmaMap{32, 3, 0x20000, 0x50000, 0x1000}), 2);  // beyond the file
    s.msg(kDeviceSetIrqs,
          Seed::of(IrqSet{24, VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER,
                          VFIO_PCI_MSI_IRQ_INDEX, 0, 1}),
          4);                                                      // a file as eventfd
    s.msg(kDmaUnmap, Seed::of(DmaUnmap{24, 0, 0x10000, 0x1000}));  // not exact
    s.msg(kDmaUnmap, Seed::of(DmaUnmap{24, VFIO_DMA_UNMAP_FLAG_ALL, 0, 0}));
    s.rd(VFIO_PCI_BAR0_REGION_INDEX, 0xff, 2).rd(7, 4095, 4).rd(3, 0, 4).rd(2, 0, 3);
    std::vector<uint8_t> multi = Seed::of(uint64_t{2});
    const WriteOne w[2] = {{0x50, 2, 1, {0xc0}}, {0x0, 2, 4, {1, 2, 3, 4}}};
    for (const auto& x : w) {
      const auto b = Seed::of(x);
      multi.insert(multi.end(), b.begin(), b.end());
    }
    s.msg(kRegionWriteMulti, multi, 0, kNoReply);
    s.msg(kDirtyPages, {}).msg(42, {1, 2, 3});
    out["hostile-mix"] = s.bytes;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || (std::strcmp(argv[1], "--check") && std::strcmp(argv[1], "--write"))) {
    std::fprintf(stderr, "usage: %s --check|--write DIR\n", argv[0]);
    return 2;
  }
  const bool write = !std::strcmp(argv[1], "--write");
  const fs::path dir = argv[2];
  int bad = 0;
  for (const auto& [name, bytes] : seeds()) {
    const fs::path p = dir / name;
    if (write) {
      fs::create_directories(dir);
      std::ofstream(p, std::ios::binary)
          .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
      continue;
    }
    std::ifstream in(p, std::ios::binary);
    const std::vector<uint8_t> have((std::istreambuf_iterator<char>(in)),
                                    std::istreambuf_iterator<char>());
    if (have != bytes) {
      std::fprintf(stderr, "%s differs from the generator (run %s --write %s)\n", p.c_str(),
                   argv[0], dir.c_str());
      bad++;
    }
  }
  return bad ? 1 : 0;
}
