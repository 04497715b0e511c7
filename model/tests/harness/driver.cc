// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/driver.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace rtl8168_test {

Mac test_mac() {
  Mac m;
  std::copy(std::begin(kTestMacBytes), std::end(kTestMacBytes), m.begin());
  return m;
}

Bytes frame_to(const Mac& dst, size_t len, uint8_t seed) {
  const size_t payload = len > 14 ? len - 14 : 0;
  Bytes f = eth_frame(dst, kPeerMac, 0x88b5, pattern(payload, seed));
  f.resize(len);
  return f;
}

Bytes frame_to_us(size_t len, uint8_t seed) { return frame_to(test_mac(), len, seed); }

Driver::Driver(TestHost& h, DriverConfig c) : host(h), cfg(c) {}

Driver::Driver(TestHost& h, const Driver& other)
    : host(h), cfg(other.cfg), tx_(other.tx_), tx_buf_next_(other.tx_buf_next_) {
  mar0 = other.mar0;
  mar4 = other.mar4;
  mdio_poll_step_ns = other.mdio_poll_step_ns;
  cur_rx = other.cur_rx;
}

bool Driver::poll(const std::function<bool()>& cond, uint64_t step_ns, uint64_t timeout_ns) {
  const uint64_t end = host.now() + timeout_ns;
  if (step_ns == 0) step_ns = 1;
  for (;;) {
    if (cond()) return true;
    if (host.now() >= end) return false;
    if (!host.run_until(std::min(end, host.now() + step_ns))) return false;
  }
}

// ---- bring-up -------------------------------------------------------------------

bool Driver::chip_reset() {
  host.w8(kChipCmd, kCmdReset);
  // rtl_hw_reset: rtl_loop_wait_low(&rtl_chipcmd_cond, 100, 100).
  return poll([&] { return (host.r8(kChipCmd) & kCmdReset) == 0; }, 10'000, 10'000'000);
}

std::array<uint8_t, 6> Driver::read_mac() {
  std::array<uint8_t, 6> m{};
  // rtl_read_mac_address: the 8125's backup copy, else IDR0-5.
  const uint32_t at = cfg.c8125 ? kMac0Bkp : kMAC0;
  for (unsigned i = 0; i < 6; ++i) m[i] = host.r8(at + i);
  return m;
}

void Driver::write_mac(const Mac& mac, bool unlock) {
  if (unlock) host.w8(kCfg9346, kCfg9346Unlock);
  host.w32(kMAC4, static_cast<uint32_t>(mac[4] | (mac[5] << 8)));
  host.r8(kChipCmd);
  host.w32(kMAC0, static_cast<uint32_t>(mac[0] | (mac[1] << 8) | (mac[2] << 16)) |
                      (static_cast<uint32_t>(mac[3]) << 24));
  host.r8(kChipCmd);
  if (unlock) host.w8(kCfg9346, kCfg9346Lock);
}

void Driver::set_multicast(const std::vector<Mac>& groups) {
  uint32_t mc_filter[2] = {0, 0};
  for (const Mac& g : groups) {
    const unsigned bit_nr = mc_hash_bit(g);
    mc_filter[bit_nr >> 5] |= 1u << (bit_nr & 31);
  }
  // VER > 06: swap halves and byte order.
  mar0 = swab32(mc_filter[1]);
  mar4 = swab32(mc_filter[0]);
  host.w32(kMAR0 + 4, mar4);
  host.w32(kMAR0 + 0, mar0);
}

bool Driver::probe() {
  const uint32_t txconfig = host.r32(kTxConfig);
  EXPECT_EQ((txconfig >> 20) & 0xfcf, cfg.expect_xid) << "XID";
  host.r16(kCPlusCmd);
  // rtl_init_rxcfg: RX_EARLY_OFF (bit 11) for VER_40..52.
  host.w32(kRxConfig, kRxConfigDriver | (cfg.g_class ? 0x800u : 0u));
  irq_mask_write(0);
  irq_status_write(0xffffffffu);
  if (cfg.g_class && !(cfg.c8125 ? hw_init_8125() : hw_init_8168g())) {
    ADD_FAILURE() << "probe: rtl_hw_init_8168g poll timed out";
    return false;
  }
  host.r8(kChipCmd);
  if (!chip_reset()) {
    ADD_FAILURE() << "probe: ChipCmd reset never self-cleared";
    return false;
  }
  const auto mac = read_mac();
  Mac m;
  std::copy(mac.begin(), mac.end(), m.begin());
  write_mac(m);
  host.w32(kRxConfig, host.r32(kRxConfig));
  host.w16(kCPlusCmd, static_cast<uint16_t>(host.r16(kCPlusCmd) | cfg.cplus));
  host.r8(kChipCmd);
  const auto id1 = mdio_read(kMiiPhysid1);
  const auto id2 = mdio_read(kMiiPhysid2);
  if (!id1 || !id2) {
    ADD_FAILURE() << "probe: PHY ID read timed out";
    return false;
  }
  EXPECT_EQ(*id1, 0x001c);
  EXPECT_EQ(*id2, cfg.expect_phy_id2);
  mdio_read(kMiiBmsr);
  mdio_read(kMiiEstatus);
  return true;
}

bool Driver::cleanup() {
  irq_mask_write(0);
  irq_status_write(0xffffffffu);
  host.w32(kRxConfig, host.r32(kRxConfig) & ~0x3fu);
  host.w8(kChipCmd, static_cast<uint8_t>(host.r8(kChipCmd) | kCmdStopReq));
  if (cfg.c8125) {
    // rtl_wait_txrx_fifo_empty, VER_63: MCU RXTX_EMPTY, then IntrMitigate 0x0103.
    bool ok = poll([&] { return (host.r8(kMcu) & kMcuRxTxEmpty) == kMcuRxTxEmpty; }, 100'000, 4'200'000);
    ok &= poll([&] { return (host.r16(kIntrMitigate) & 0x0103) == 0x0103; }, 100'000, 4'200'000);
    if (!ok) ADD_FAILURE() << "cleanup: the 8125's FIFO-empty wait timed out";
  }
  host.advance(100'000);
  return chip_reset();
}

void Driver::irq_mask_write(uint32_t v) {
  if (cfg.c8125) {
    host.w32(kIntrMask8125, v);
  } else {
    host.w16(kIntrMask, static_cast<uint16_t>(v));
  }
}

void Driver::irq_status_write(uint32_t v) {
  if (cfg.c8125) {
    host.w32(kIntrStatus8125, v);
  } else {
    host.w16(kIntrStatus, static_cast<uint16_t>(v));
  }
}

uint32_t Driver::irq_status_read() { return cfg.c8125 ? host.r32(kIntrStatus8125) : host.r16(kIntrStatus); }

void Driver::arm_rx_ring() {
  for (unsigned i = 0; i < kRingSize; ++i) {
    const uint32_t eor = i == kRingSize - 1 ? kRingEnd : 0;
    write_desc(rx_desc_addr(i), kDescOwn | eor | cfg.rx_buf_size, 0, rx_buf_addr(i));
  }
  cur_rx = 0;
}

void Driver::hw_start() {
  // Fresh rings (rtl8169_init_ring / rtl8169_tx_clear).
  host.mem().fill(kTxRing, kRingSize * kDescSize, 0);
  host.mem().fill(kTxHRing, kRingSize * kDescSize, 0);
  tx_ = {};
  arm_rx_ring();

  host.w8(kCfg9346, kCfg9346Unlock);
  host.w16(kCPlusCmd, cfg.cplus);
  host.w8(kMaxTxPacketSize, 0x3f);
  host.w8(kConfig1, static_cast<uint8_t>(host.r8(kConfig1) | 0x10));
  host.w8(kConfig3, static_cast<uint8_t>(host.r8(kConfig3) & ~0x01));
  if (cfg.c8125) {
    // rtl_hw_start_8125: INT_CFG0 0, the moderation block and INT_CFG1 0.
    host.w8(kIntCfg0_8125, 0);
    for (uint32_t r = 0xa00; r < 0xa80; r += 4) host.w32(r, 0);
    host.w16(kIntCfg1_8125, 0);
  } else {
    host.w16(kIntrMitigate, 0);
  }
  host.w16(kRxMaxSize, cfg.rx_max_size);
  // rtl_set_rx_tx_desc_registers: high dword first, then low.
  host.w32(kTxDescStartAddrHigh, static_cast<uint32_t>(kTxRing >> 32));
  host.w32(kTxDescStartAddrLow, static_cast<uint32_t>(kTxRing));
  host.w32(kRxDescAddrHigh, static_cast<uint32_t>(kRxRing >> 32));
  host.w32(kRxDescAddrLow, static_cast<uint32_t>(kRxRing));
  host.w8(kCfg9346, kCfg9346Lock);
  if (cfg.c8125) {
    // rtl_hw_start_8125_common: RSS and queue number off, 16-byte TX
    // descriptors (0xeb58 bit 0 clear), wait for 0xe00e bit 13 low, the
    // extended tally on (7.2), the RXDV gate open.
    host.w8(kRssCtrl8125, 0);
    host.w16(kQNumCtrl8125, 0);
    mac_ocp_write(0xeb58, static_cast<uint16_t>(mac_ocp_read(0xeb58) & ~0x0001));
    if (!poll([&] { return (mac_ocp_read(0xe00e) & 0x2000) == 0; }, 1'000'000, 10'000'000))
      ADD_FAILURE() << "hw_start: MAC OCP 0xe00e bit 13 never low";
    mac_ocp_write(0xea84, static_cast<uint16_t>(mac_ocp_read(0xea84) | 0x0003));
    host.w32(kMisc, host.r32(kMisc) & ~kRxdvGatedEn);
  } else if (cfg.g_class) {
    // rtl_hw_start_8168h_1: rtl_disable_rxdvgate, and MAC OCP settings.
    host.w32(kMisc, host.r32(kMisc) & ~kRxdvGatedEn);
    mac_ocp_write(0xe056, static_cast<uint16_t>((mac_ocp_read(0xe056) & ~0x00f0) | 0x0070));
    mac_ocp_write(0xe63e, 0x0001);
    mac_ocp_write(0xe63e, 0x0000);
  }
  host.r8(kChipCmd);
  host.w8(kChipCmd, kCmdTxEnb | kCmdRxEnb);
  host.w32(kRxConfig, kRxConfigDriver);
  host.w32(kTxConfig, cfg.tx_config);
  host.w32(kRxConfig, host.r32(kRxConfig));
  host.w32(kMAR0 + 4, mar4);
  host.w32(kMAR0 + 0, mar0);
  host.w32(kRxConfig, host.r32(kRxConfig) | cfg.rx_accept |
                         (cfg.c8125 && (cfg.cplus & kRxVlan) ? kRxVlan8125 : 0u));
  irq_mask_write(cfg.irq_mask);
}

bool Driver::open() {
  // phy_init_hw / phy_resume
  if (!mdio_write(0x12, 0)) return false;
  mdio_read(0x13);
  mdio_write(0x0e, 0);
  if (!phy_config()) return false;
  if (!phy_soft_reset()) {
    ADD_FAILURE() << "open: BMCR reset never self-cleared";
    return false;
  }
  if (!cleanup()) {
    ADD_FAILURE() << "open: ChipCmd reset never self-cleared";
    return false;
  }
  hw_start();
  if (!phy_start()) return false;
  // rtl8169_init_counter_offsets: DTCCR reset (VER >= 19).
  if (!reset_counters()) {
    ADD_FAILURE() << "open: DTCCR reset never self-cleared";
    return false;
  }
  if (cfg.wait_link && !wait_link(cfg.link_timeout_ns)) {
    ADD_FAILURE() << "open: link never came up\n" << host.trace_tail();
    return false;
  }
  // Start every test from a quiet device: nothing latched.
  irq_status_write(0xffffffffu);
  return true;
}

// ---- PHY ----------------------------------------------------------------------------

// r8168g_mdio_read/write: page selects stay in the driver (ocp_base).
static uint16_t g_ocp_addr(uint16_t base, unsigned reg) {
  return static_cast<uint16_t>(base == 0xa400 ? base + 2 * reg : base + 2 * (reg - 0x10));
}

std::optional<uint16_t> Driver::phy_ocp_read(uint16_t addr) {
  host.w32(kGphyOcp, static_cast<uint32_t>(addr) << 15);
  // rtl_loop_wait_high(rtl_ocp_gphy_cond, 25, 10)
  if (!poll([&] { return (host.r32(kGphyOcp) & kPHYARFlag) != 0; }, 25'000, 250'000)) return std::nullopt;
  return static_cast<uint16_t>(host.r32(kGphyOcp) & 0xffff);
}

bool Driver::phy_ocp_write(uint16_t addr, uint16_t val) {
  host.w32(kGphyOcp, kPHYARFlag | static_cast<uint32_t>(addr) << 15 | val);
  return poll([&] { return (host.r32(kGphyOcp) & kPHYARFlag) == 0; }, 25'000, 250'000);
}

uint16_t Driver::mac_ocp_read(uint16_t addr) {
  host.w32(kOcpdr, static_cast<uint32_t>(addr) << 15);
  return static_cast<uint16_t>(host.r32(kOcpdr));
}

void Driver::mac_ocp_write(uint16_t addr, uint16_t val) {
  host.w32(kOcpdr, kPHYARFlag | static_cast<uint32_t>(addr) << 15 | val);
}

// rtl_hw_init_8125: as rtl_hw_init_8168g up to the first link-list wait,
// then three MAC OCP writes and a second wait.
bool Driver::hw_init_8125() {
  host.w32(kMisc, host.r32(kMisc) | kRxdvGatedEn);
  bool ok = poll([&] { return (host.r8(kMcu) & kMcuRxTxEmpty) == kMcuRxTxEmpty; }, 100'000, 4'200'000);
  host.w8(kChipCmd, static_cast<uint8_t>(host.r8(kChipCmd) & ~(kCmdTxEnb | kCmdRxEnb)));
  host.advance(1'000'000);
  host.w8(kMcu, static_cast<uint8_t>(host.r8(kMcu) & ~kMcuNowIsOob));
  auto ll_ready = [&] { return poll([&] { return (host.r8(kMcu) & kMcuLinkListRdy) != 0; }, 100'000, 4'200'000); };
  mac_ocp_write(0xe8de, static_cast<uint16_t>(mac_ocp_read(0xe8de) & ~0x4000));
  ok &= ll_ready();
  mac_ocp_write(0xc0aa, 0x07d0);
  mac_ocp_write(0xc0a6, 0x0150);
  mac_ocp_write(0xc01e, 0x5555);
  ok &= ll_ready();
  return ok;
}

bool Driver::hw_init_8168g() {
  host.w32(kMisc, host.r32(kMisc) | kRxdvGatedEn);
  bool ok = poll([&] { return (host.r32(kTxConfig) & kTxCfgEmpty) != 0; }, 100'000, 4'200'000);
  ok &= poll([&] { return (host.r8(kMcu) & kMcuRxTxEmpty) == kMcuRxTxEmpty; }, 100'000, 4'200'000);
  host.w8(kChipCmd, static_cast<uint8_t>(host.r8(kChipCmd) & ~(kCmdTxEnb | kCmdRxEnb)));
  host.advance(1'000'000);
  host.w8(kMcu, static_cast<uint8_t>(host.r8(kMcu) & ~kMcuNowIsOob));
  auto ll_ready = [&] { return poll([&] { return (host.r8(kMcu) & kMcuLinkListRdy) != 0; }, 100'000, 4'200'000); };
  mac_ocp_write(0xe8de, static_cast<uint16_t>(mac_ocp_read(0xe8de) & ~0x4000));
  ok &= ll_ready();
  mac_ocp_write(0xe8de, static_cast<uint16_t>(mac_ocp_read(0xe8de) | 0x8000));
  ok &= ll_ready();
  return ok;
}

std::optional<uint16_t> Driver::mdio_read(unsigned reg) {
  if (cfg.g_class) {
    if (reg == 0x1f) return static_cast<uint16_t>(ocp_base == 0xa400 ? 0 : ocp_base >> 4);
    return phy_ocp_read(g_ocp_addr(ocp_base, reg));
  }
  host.w32(kPHYAR, (reg & 0x1f) << 16);
  const bool done =
      poll([&] { return (host.r32(kPHYAR) & kPHYARFlag) != 0; }, mdio_poll_step_ns, 10'000'000);
  if (!done) return std::nullopt;
  const auto v = static_cast<uint16_t>(host.r32(kPHYAR) & 0xffff);
  host.advance(20'000);  // r8169_mdio_read: udelay(20)
  return v;
}

bool Driver::mdio_write(unsigned reg, uint16_t val) {
  if (cfg.g_class) {
    if (reg == 0x1f) {
      ocp_base = static_cast<uint16_t>(val ? val << 4 : 0xa400);
      return true;
    }
    const bool done = phy_ocp_write(g_ocp_addr(ocp_base, reg), val);
    if (!done) ADD_FAILURE() << "GPHY_OCP write of reg " << reg << " never completed";
    return done;
  }
  host.w32(kPHYAR, kPHYARFlag | (reg & 0x1f) << 16 | val);
  const bool done =
      poll([&] { return (host.r32(kPHYAR) & kPHYARFlag) == 0; }, mdio_poll_step_ns, 10'000'000);
  host.advance(20'000);  // r8169_mdio_write: udelay(20)
  if (!done) ADD_FAILURE() << "PHYAR write of reg " << reg << " never completed";
  return done;
}

bool Driver::phy_config() {
  if (cfg.g_class) {
    // rtl8168h_2_hw_phy_config, its first steps (docs/R8168H.md): r8168g_phy_param
    // through page 0xa43 registers 0x13/0x14, then paged modifies.
    bool ok = mdio_write(kMiiPage, 0x0a43) && mdio_write(0x13, 0x808a);
    const auto v = mdio_read(0x14);
    ok &= v && mdio_write(0x14, static_cast<uint16_t>((*v & ~0x003f) | 0x000a));
    const auto aldps = mdio_read(0x10);
    ok &= aldps && mdio_write(0x10, static_cast<uint16_t>(*aldps & ~0x0004));
    ok &= mdio_write(kMiiPage, 0);
    return ok;
  }
  // rtl8168c hw_phy_config as listed in docs/R8169.md §A "Open" step 2.
  bool ok = true;
  ok &= mdio_write(kMiiPage, 1);
  ok &= mdio_write(0x12, 0x2300);
  ok &= mdio_write(0x1d, 0x3d98);
  ok &= mdio_write(kMiiPage, 2);
  ok &= mdio_write(0x0c, 0x7eb8);
  ok &= mdio_write(0x06, 0x5461);
  ok &= mdio_write(kMiiPage, 3);
  ok &= mdio_write(0x16, 0x0f0a);
  ok &= mdio_write(kMiiPage, 0);
  for (const auto& [reg, bit] :
       {std::pair<unsigned, uint16_t>{0x16, 0x1}, {0x14, 0x20}, {0x0d, 0x20}}) {
    const auto v = mdio_read(reg);
    if (!v) return false;
    ok &= mdio_write(reg, static_cast<uint16_t>(*v | bit));
  }
  return ok;
}

bool Driver::phy_soft_reset() {
  const auto bmcr = mdio_read(kMiiBmcr);
  if (!bmcr) return false;
  if (!mdio_write(kMiiBmcr, static_cast<uint16_t>(*bmcr | kBmcrReset | kBmcrAnRestart)))
    return false;
  // phy_poll_reset: up to 600 ms.
  return poll(
      [&] {
        const auto v = mdio_read(kMiiBmcr);
        return v && (*v & kBmcrReset) == 0;
      },
      50'000, 600'000'000);
}

bool Driver::phy_start() {
  auto adv = mdio_read(kMiiAdvertise);
  auto c1000 = mdio_read(kMiiCtrl1000);
  auto bmcr = mdio_read(kMiiBmcr);
  if (!adv || !c1000 || !bmcr) return false;
  bool ok = mdio_write(kMiiAdvertise, static_cast<uint16_t>(*adv | 0x01e0));
  ok &= mdio_write(kMiiCtrl1000, static_cast<uint16_t>(*c1000 | 0x0200));
  ok &= mdio_write(kMiiBmcr,
                   static_cast<uint16_t>((*bmcr | kBmcrAnEnable | kBmcrAnRestart) & ~kBmcrPdown));
  return ok;
}

bool Driver::wait_link(uint64_t timeout_ns) {
  return poll(
      [&] {
        const auto v = mdio_read(kMiiBmsr);
        return v && (*v & kBmsrLStatus) != 0;
      },
      100'000, timeout_ns);
}

// ---- TX -------------------------------------------------------------------------------

uint64_t Driver::tx_buf_alloc(size_t len) {
  const uint64_t aligned = (len + 63) & ~uint64_t{63};
  if (tx_buf_next_ + aligned > kTxBufsEnd) tx_buf_next_ = kTxBufs;
  const uint64_t a = tx_buf_next_;
  tx_buf_next_ += aligned ? aligned : 64;
  return a;
}

void Driver::write_desc(uint64_t addr, uint32_t opts1, uint32_t opts2, uint64_t buf) {
  host.mem().w32(addr + 4, opts2);
  host.mem().w64(addr + 8, buf);
  host.mem().w32(addr, opts1);  // opts1 (with Own) last
}

unsigned Driver::queue_tx(const std::vector<Bytes>& frags, uint32_t opts1, uint32_t opts2,
                          Queue q) {
  TxRing& r = tx_[static_cast<int>(q)];
  const auto n = static_cast<unsigned>(frags.size());
  if (n == 0 || (r.cur - r.dirty) + n > kRingSize) {
    ADD_FAILURE() << "test bug: TX ring full or empty frame";
    return r.cur % kRingSize;
  }
  const unsigned first = r.cur % kRingSize;
  for (unsigned k = n; k-- > 0;) {  // first descriptor written last
    const unsigned idx = (r.cur + k) % kRingSize;
    const Bytes& f = frags[k];
    const uint64_t buf = tx_buf_alloc(f.size());
    if (!f.empty()) host.mem().write(buf, f);
    uint32_t o1 = kDescOwn | opts1 | static_cast<uint32_t>(f.size() & 0xffff);
    if (k == 0) o1 |= kFirstFrag;
    if (k == n - 1) o1 |= kLastFrag;
    if (idx == kRingSize - 1) o1 |= kRingEnd;
    write_desc(tx_desc_addr(q, idx), o1, opts2, buf);
  }
  r.cur += n;
  return first;
}

void Driver::kick(Queue q) {
  if (cfg.c8125) {
    host.w16(kTxPoll8125, q == Queue::kHigh ? 0x0002 : 0x0001);  // rtl8169_doorbell: BIT(queue)
    return;
  }
  host.w8(kTxPoll, q == Queue::kHigh ? kTxPollHPQ : kTxPollNPQ);
}

uint32_t Driver::tx_opts1(unsigned idx, Queue q) const {
  return host.mem().r32(tx_desc_addr(q, idx % kRingSize));
}

bool Driver::tx_done(Queue q) const {
  const TxRing& r = tx_[static_cast<int>(q)];
  for (unsigned i = r.dirty; i != r.cur; ++i)
    if (tx_opts1(i, q) & kDescOwn) return false;
  return true;
}

bool Driver::wait_tx(uint64_t timeout_ns, Queue q) {
  const bool ok = poll([&] { return tx_done(q); }, 1'000, timeout_ns);
  reclaim(q);
  return ok;
}

unsigned Driver::reclaim(Queue q) {
  TxRing& r = tx_[static_cast<int>(q)];
  unsigned n = 0;
  while (r.dirty != r.cur && !(tx_opts1(r.dirty, q) & kDescOwn)) {
    ++r.dirty;
    ++n;
  }
  return n;
}

// ---- RX -------------------------------------------------------------------------------

std::vector<RxFrame> Driver::rx_poll(bool rearm, size_t max) {
  std::vector<RxFrame> out;
  while (out.size() < max) {
    const uint64_t d = rx_desc_addr(cur_rx);
    const uint32_t opts1 = host.mem().r32(d);
    if (opts1 & kDescOwn) break;
    RxFrame f;
    f.index = cur_rx;
    f.opts1 = opts1;
    f.opts2 = host.mem().r32(d + 4);
    const uint32_t len =
        std::min<uint32_t>(opts1 & kRxLenMask, static_cast<uint32_t>(kRxBufStride));
    f.data = host.mem().read(host.mem().r64(d + 8), len);
    out.push_back(std::move(f));
    if (rearm) {
      // rtl8169_mark_to_asic keeps the EOR bit the device wrote back.
      host.mem().w32(d + 4, 0);
      host.mem().w32(d, kDescOwn | (opts1 & kRingEnd) | cfg.rx_buf_size);
    }
    cur_rx = (cur_rx + 1) % kRingSize;
  }
  return out;
}

// ---- interrupts ---------------------------------------------------------------------

uint16_t Driver::irq_old(const std::function<void()>& between) {
  const auto status = static_cast<uint16_t>(irq_status_read());
  if ((status & cfg.irq_mask) == 0 || status == 0xffff) return 0;
  if (between) between();
  irq_status_write(static_cast<uint16_t>(status & cfg.irq_mask));
  return status;
}

unsigned Driver::irq_fixed(unsigned max_loops) {
  unsigned loops = 0;
  for (; loops < max_loops; ++loops) {
    const auto status = static_cast<uint16_t>(irq_status_read());
    if (status == 0 || status == 0xffff) break;
    irq_status_write(status);
  }
  return loops;
}

// ---- DTCCR ----------------------------------------------------------------------------

bool Driver::counters_cmd(uint32_t cmd, uint64_t addr, uint64_t timeout_ns) {
  // rtl8169_do_counters
  host.w32(kCounterAddrHigh, static_cast<uint32_t>(addr >> 32));
  const auto low = static_cast<uint32_t>(addr);
  host.w32(kCounterAddrLow, low);
  host.w32(kCounterAddrLow, low | cmd);
  return poll([&] { return (host.r32(kCounterAddrLow) & cmd) == 0; }, 10'000, timeout_ns);
}

bool Driver::dump_counters(Tally& out, uint64_t addr) {
  if (!counters_cmd(kCounterDump, addr)) return false;
  out = parse_tally(host.mem().read(addr, 64));
  return true;
}

Tally Driver::parse_tally(const Bytes& raw) {
  auto le = [&](size_t off, unsigned size) {
    uint64_t v = 0;
    for (unsigned i = 0; i < size; ++i) v |= static_cast<uint64_t>(raw[off + i]) << (8 * i);
    return v;
  };
  Tally t;
  t.tx_packets = le(0, 8);
  t.rx_packets = le(8, 8);
  t.tx_errors = le(16, 8);
  t.rx_errors = static_cast<uint32_t>(le(24, 4));
  t.rx_missed = static_cast<uint16_t>(le(28, 2));
  t.align_errors = static_cast<uint16_t>(le(30, 2));
  t.tx_one_collision = static_cast<uint32_t>(le(32, 4));
  t.tx_multi_collision = static_cast<uint32_t>(le(36, 4));
  t.rx_unicast = le(40, 8);
  t.rx_broadcast = le(48, 8);
  t.rx_multicast = static_cast<uint32_t>(le(56, 4));
  t.tx_aborted = static_cast<uint16_t>(le(60, 2));
  t.tx_underrun = static_cast<uint16_t>(le(62, 2));
  return t;
}

DriverConfig driver_8168evl() {
  DriverConfig c;
  c.expect_xid = 0x2c8;
  c.expect_phy_id2 = 0xc800;
  return c;
}

DriverConfig driver_8168h() {
  DriverConfig c;
  c.expect_xid = 0x541;
  c.expect_phy_id2 = 0xc800;
  c.g_class = true;
  return c;
}

DriverConfig driver_8125b() {
  DriverConfig c;
  c.expect_xid = 0x641;
  c.expect_phy_id2 = 0xc840;
  c.g_class = true;
  c.c8125 = true;
  c.cplus = kRxChkSum;  // r8169 keeps RxVlan out of CPlusCmd on the 8125 (RxConfig bits 22/23)
  return c;
}

}  // namespace rtl8168_test
