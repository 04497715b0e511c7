// SPDX-License-Identifier: GPL-2.0-or-later
#include "client.h"

#include <linux/pci_regs.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

#include "../../tests/harness/regs.h"

namespace vfio_user_test {

namespace r = rtl8168_test;

Harness::Harness(const HarnessOptions& o) {
  std::unique_ptr<rtl8168_config, decltype(&rtl8168_config_free)> cfg(rtl8168_config_new(),
                                                                      rtl8168_config_free);
  char err[512];
  EXPECT_EQ(rtl8168_config_set(cfg.get(), "chip", o.chip.c_str(), err, sizeof err), 0) << err;
  EXPECT_EQ(rtl8168_config_set(cfg.get(), "timing", "off", err, sizeof err), 0) << err;
  for (const auto& [k, v] : o.params)
    EXPECT_EQ(rtl8168_config_set(cfg.get(), k.c_str(), v.c_str(), err, sizeof err), 0) << err;
  rtl8168_config_pci_identity(cfg.get(), &id_);
  std::string e;
  std::unique_ptr<NetBackend> net;
  if (o.netdev.empty()) {
    auto wire = std::make_unique<CaptureBackend>();
    wire_ = wire.get();
    net = std::move(wire);
  } else {
    net = make_net_backend(io_, o.netdev, e);
    EXPECT_TRUE(net) << e;
  }
  std::unique_ptr<PcapWriter> pcap;
  if (!o.pcap.empty()) {
    pcap = PcapWriter::open(o.pcap, e);
    EXPECT_TRUE(pcap) << e;
  }
  ServerConfig sc;
  sc.limits = o.limits;
  server_ = Server::create(io_, cfg.get(), false, std::move(net), std::move(pcap), sc, e);
  EXPECT_TRUE(server_) << e;
  int sv[2];
  EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
  sock_ = sv[0];
  server_->serve(sv[1]);
  thread_ = std::thread([this] { io_.run(); });
}

Harness::~Harness() {
  stop();
  for (int fd : eventfds_) close(fd);
  if (memory_) munmap(memory_, mem_size_);
  if (memfd_ >= 0) close(memfd_);
}

void Harness::stop() {
  if (sock_ >= 0) {
    close(sock_);  // the session sees EOF, the server stops its loop
    sock_ = -1;
  }
  if (thread_.joinable()) thread_.join();
}

Message Harness::request(uint16_t command) {
  Message m;
  m.hdr.command = command;
  m.hdr.flags = kTypeRequest;
  return m;
}

void Harness::serve_dma(const Message& m) {
  dma_requests_++;
  if (ignore_dma_) return;
  const auto a = m.get<DmaAccess>();
  Message r = make_reply(m.hdr);
  bool ok = a && memory_ && a->address >= mem_base_ && a->count <= mem_size_ &&
            a->address - mem_base_ <= mem_size_ - a->count;
  if (ok && m.hdr.command == kDmaRead) {
    put(r, *a);
    put_bytes(r, mem(a->address), size_t(a->count));
  } else if (ok && m.hdr.command == kDmaWrite) {
    const auto data = m.tail(sizeof(DmaAccess));
    ok = data.size() == a->count;
    if (ok) std::memcpy(mem(a->address), data.data(), data.size());
    put(r, *a);
  }
  if (!ok) r = make_error(m.hdr, EFAULT);
  send_message(sock_, r, {}, 2000);
}

bool Harness::call(Message req, Message& reply, std::vector<int> fds) {
  req.hdr.id = next_id_++;
  if (!send_message(sock_, req, fds, 2000)) return false;
  for (;;) {
    const RecvResult r = recv_message(sock_, reply, kMaxMessage, 16, 5000);
    if (r.status != RecvStatus::kOk) return false;
    if (!reply.is_reply()) {
      serve_dma(reply);
      continue;
    }
    EXPECT_EQ(reply.hdr.id, req.hdr.id);
    EXPECT_EQ(reply.hdr.command, req.hdr.command);
    return true;
  }
}

Message Harness::call_ok(Message req, std::vector<int> fds) {
  Message reply;
  const uint16_t cmd = req.hdr.command;
  EXPECT_TRUE(call(std::move(req), reply, std::move(fds))) << command_name(cmd);
  EXPECT_FALSE(reply.hdr.flags & kError) << command_name(cmd) << " errno " << reply.hdr.error;
  return reply;
}

int Harness::call_err(Message req, std::vector<int> fds) {
  Message reply;
  if (!call(std::move(req), reply, std::move(fds))) return -1;
  return (reply.hdr.flags & kError) ? int(reply.hdr.error) : 0;
}

void Harness::send_raw(const void* data, size_t len) {
  EXPECT_EQ(::send(sock_, data, len, MSG_NOSIGNAL), ssize_t(len));
}

bool Harness::closed_by_server(int timeout_ms) {
  pollfd p{sock_, POLLIN, 0};
  for (int waited = 0; waited < timeout_ms; waited += 50) {
    if (poll(&p, 1, 50) > 0) {
      char b[4096];
      const ssize_t n = recv(sock_, b, sizeof b, MSG_DONTWAIT);
      if (n == 0) return true;
      if (n < 0 && errno != EAGAIN) return true;
    }
  }
  return false;
}

Message Harness::negotiate(const std::string& caps_json) {
  Message m = request(kVersion);
  put(m, Version{0, 0});
  put_bytes(m, caps_json.c_str(), caps_json.size() + 1);
  return call_ok(std::move(m));
}

uint64_t Harness::read_region(uint32_t region, uint64_t off, uint32_t count) {
  Message m = request(kRegionRead);
  put(m, RegionAccess{off, region, count});
  Message r = call_ok(std::move(m));
  uint64_t v = 0;
  const auto data = r.tail(sizeof(RegionAccess));
  EXPECT_EQ(data.size(), count);
  std::memcpy(&v, data.data(), std::min<size_t>(data.size(), sizeof v));
  return v;
}

int Harness::write_region_err(uint32_t region, uint64_t off, uint32_t count, uint64_t value) {
  Message m = request(kRegionWrite);
  put(m, RegionAccess{off, region, count});
  put_bytes(m, &value, std::min<size_t>(count, sizeof value));
  return call_err(std::move(m));
}

void Harness::write_region(uint32_t region, uint64_t off, uint32_t count, uint64_t value) {
  EXPECT_EQ(write_region_err(region, off, count, value), 0);
}

void Harness::map_memory(uint64_t base, size_t size, bool with_fd) {
  memfd_ = memfd_create("guest-ram", MFD_CLOEXEC);
  ASSERT_GE(memfd_, 0);
  ASSERT_EQ(ftruncate(memfd_, off_t(size)), 0);
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, memfd_, 0);
  ASSERT_NE(p, MAP_FAILED);
  memory_ = static_cast<uint8_t*>(p);
  mem_size_ = size;
  mem_base_ = base;
  Message m = request(kDmaMap);
  put(m, DmaMap{sizeof(DmaMap), VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE, 0, base, size});
  std::vector<int> fds;
  if (with_fd) fds.push_back(memfd_);
  call_ok(std::move(m), fds);
}

int Harness::irq_eventfd(uint32_t index) {
  const int efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  eventfds_.push_back(efd);
  Message m = request(kDeviceSetIrqs);
  put(m, IrqSet{sizeof(IrqSet) + 4, VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER, index,
                0, 1});
  call_ok(std::move(m), {efd});
  return efd;
}

uint64_t Harness::drain(int efd) {
  uint64_t v = 0;
  if (read(efd, &v, sizeof v) != sizeof v) return 0;
  return v;
}

namespace {
bool rtl8125(const Harness& h) { return h.identity().device_id == 0x8125; }
}  // namespace

void bring_up_tx(Harness& h, uint32_t irq_mask) {
  h.write_region(VFIO_PCI_CONFIG_REGION_INDEX, PCI_COMMAND, 2,
                 PCI_COMMAND_IO | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
  h.set_reg(r::kCfg9346, 1, r::kCfg9346Unlock);
  h.set_reg(r::kTxDescStartAddrHigh, 4, 0);
  h.set_reg(r::kTxDescStartAddrLow, 4, kRing);
  h.set_reg(r::kCfg9346, 1, 0);
  h.set_reg(r::kChipCmd, 1, r::kCmdTxEnb | r::kCmdRxEnb);
  h.set_reg(r::kTxConfig, 4, (3u << 24) | (7u << 8));
  if (rtl8125(h))
    h.set_reg(r::kIntrMask8125, 4, irq_mask);
  else
    h.set_reg(r::kIntrMask, 2, irq_mask);
}

void kick_one_frame(Harness& h, uint8_t tag) {
  uint8_t* f = h.mem(kBuf);
  std::memset(f, 0, 60);
  std::memset(f, 0xff, 6);  // broadcast
  const uint8_t src[6] = {0x52, 0x54, 0, 0x12, 0x34, 0x56};
  std::memcpy(f + 6, src, 6);
  f[12] = 0x88;
  f[13] = 0xb5;  // local experimental ethertype
  f[14] = tag;
  uint8_t* d = h.mem(kRing);
  const uint32_t opts1 = r::kDescOwn | r::kRingEnd | r::kFirstFrag | r::kLastFrag | 60;
  const uint32_t opts2 = 0;
  const uint64_t addr = kBuf;
  std::memcpy(d, &opts1, 4);
  std::memcpy(d + 4, &opts2, 4);
  std::memcpy(d + 8, &addr, 8);
  // r8169: the 8125's doorbell is a 16-bit write of the queue's bit to 0x90.
  if (rtl8125(h))
    h.set_reg(r::kTxPoll8125, 2, 1);
  else
    h.set_reg(r::kTxPoll, 1, r::kTxPollNPQ);
}

std::vector<std::vector<uint8_t>> wait_frames(Harness& h, size_t n) {
  std::vector<std::vector<uint8_t>> got;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  while (got.size() < n && std::chrono::steady_clock::now() < until) {
    for (auto& f : h.wire()->take()) got.push_back(std::move(f));
    if (got.size() < n) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return got;
}

bool wait_eventfd(int efd, int timeout_ms) {
  pollfd p{efd, POLLIN, 0};
  return poll(&p, 1, timeout_ms) == 1;
}

}  // namespace vfio_user_test
