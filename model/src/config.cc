// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <functional>

#include "fault_injector.h"

namespace rtl8168sim {

Config::Config() : profile(find_profile("8168c")), quirks(profile->quirks), t(profile->timing) {}

TimingParams Config::effective_timing() const {
  if (timing) return t;
  TimingParams z = t;  // keep sizes (FIFOs, MRRS); zero every latency and make DMA free
  z.pcie_read_latency = 0;
  z.pcie_bandwidth = 0;  // link_transfer_time() == 0
  z.dma_read_rate = 0;   // internal_transfer_time() == 0
  z.phy_an_time = z.phy_reset_time = z.phyar_time = 0;
  z.chip_reset_time = z.dtccr_time = z.txpoll_ack_time = 0;
  z.eri_time = z.ephy_time = z.csi_time = 0;
  z.gphy_ocp_time = z.ll_init_time = 0;
  z.aspm_l1_exit_time = 0;
  return z;
}

namespace {

struct Param {
  ParamDoc doc;
  std::function<std::string(Config&, const std::string&)> set;
  std::function<std::string(const Config&)> get;
};

bool parse_u64(const std::string& s, uint64_t& v) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size();
}

std::string parse_bool(const std::string& s, bool& v) {
  if (s == "on" || s == "true" || s == "1" || s == "yes") {
    v = true;
    return {};
  }
  if (s == "off" || s == "false" || s == "0" || s == "no") {
    v = false;
    return {};
  }
  return "expects on|off, got '" + s + "'";
}

std::string on_off(bool b) { return b ? "on" : "off"; }

constexpr ParamDoc text_doc(const char* name, const char* desc) {
  return {name, "", desc, RTL8168_PARAM_TEXT, 0, 0};
}

constexpr ParamDoc bool_doc(const char* name, const char* desc) {
  return {name, "bool", desc, RTL8168_PARAM_BOOL, 0, 0};
}

template <typename T>
Param uint_param(const char* name, const char* unit, const char* desc, T TimingParams::*field,
                 uint64_t min, uint64_t max) {
  return Param{
      {name, unit, desc, RTL8168_PARAM_UINT, min, max},
      [=](Config& c, const std::string& s) -> std::string {
        uint64_t v;
        if (!parse_u64(s, v) || v < min || v > max) {
          return "expects an integer in [" + std::to_string(min) + ", " + std::to_string(max) +
                 "] (" + unit + "), got '" + s + "'";
        }
        c.t.*field = static_cast<T>(v);
        return {};
      },
      [=](const Config& c) { return std::to_string(c.t.*field); }};
}

Param mxdma_param(const char* name, const char* desc, int Config::*field) {
  return Param{text_doc(name, desc),
               [=](Config& c, const std::string& s) -> std::string {
                 uint64_t v;
                 if (s == "auto") {
                   c.*field = -1;
                 } else if (parse_u64(s, v) && v <= 7) {
                   c.*field = static_cast<int>(v);
                 } else {
                   return "expects auto or 0..7 (burst 16 << n bytes, 7 = unlimited), got '" + s +
                          "'";
                 }
                 return {};
               },
               [=](const Config& c) {
                 return c.*field < 0 ? std::string("auto") : std::to_string(c.*field);
               }};
}

const std::vector<Param>& params() {
  static const std::vector<Param> table = {
      {text_doc("chip", "Chip profile; sets identity and every default below (8168c = RTL8168c/8111c, XID 0x3c4; 8168evl = RTL8168evl/8111evl, XID 0x2c8; 8168h = RTL8168h/8111h, XID 0x541; 8125b = RTL8125B, XID 0x641)"),
       [](Config& c, const std::string& s) -> std::string {
         const ChipProfile* p = find_profile(s);
         if (!p) return "unknown chip '" + s + "' (known: " + std::string(profile_ids()) + ")";
         c.profile = p;
         c.quirks = p->quirks;
         c.t = p->timing;
         return {};
       },
       [](const Config& c) { return std::string(c.profile->id); }},
      {text_doc("mac", "Station address loaded into IDR0-5 at power-on (aa:bb:cc:dd:ee:ff)"),
       [](Config& c, const std::string& s) -> std::string {
         unsigned b[6];
         char tail;
         if (s.size() != 17 ||
             std::sscanf(s.c_str(), "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3], &b[4],
                         &b[5], &tail) != 6) {
           return "expects aa:bb:cc:dd:ee:ff, got '" + s + "'";
         }
         for (int i = 0; i < 6; i++) c.mac[i] = static_cast<uint8_t>(b[i]);
         return {};
       },
       [](const Config& c) {
         char buf[18];
         std::snprintf(buf, sizeof buf, "%02x:%02x:%02x:%02x:%02x:%02x", c.mac[0], c.mac[1],
                       c.mac[2], c.mac[3], c.mac[4], c.mac[5]);
         return std::string(buf);
       }},
      {bool_doc("timing", "on: cycle-approximate timing; off: functional mode (zero latency, same code path)"),
       [](Config& c, const std::string& s) { return parse_bool(s, c.timing); },
       [](const Config& c) { return on_off(c.timing); }},
      {bool_doc("lossy-txpoll", "Quirk: NPQ doorbells while the TX engine is busy are lost (RTL8111b/8168, r8169 '8168 hack')"),
       [](Config& c, const std::string& s) { return parse_bool(s, c.quirks.lossy_txpoll); },
       [](const Config& c) { return on_off(c.quirks.lossy_txpoll); }},
      {bool_doc("evl-short-csum", "Quirk (8168evl): a frame < 60 bytes padded by the chip with checksum offload gets a checksum over the padded length (r8169 rtl_quirk_packet_padto)"),
       [](Config& c, const std::string& s) { return parse_bool(s, c.quirks.evl_short_csum); },
       [](const Config& c) { return on_off(c.quirks.evl_short_csum); }},
      {bool_doc("evl-tso-defects", "Quirk (8168evl): TSO output wrong with IPv4/TCP options or a last SG fragment <= 6 bytes (r8169 rtl8168evl_fix_tso)"),
       [](Config& c, const std::string& s) { return parse_bool(s, c.quirks.evl_tso_defects); },
       [](const Config& c) { return on_off(c.quirks.evl_tso_defects); }},
      mxdma_param("tx-mxdma", "Force the TX DMA burst (TxConfig MXDMA) regardless of the register: auto or 0..7", &Config::tx_mxdma),
      uint_param("pcie-read-latency", "ns", "Round trip of one non-posted PCIe read (request to last completion header)", &TimingParams::pcie_read_latency, 0, 1'000'000),
      uint_param("pcie-bandwidth", "MB/s", "PCIe payload bandwidth per direction (Gen1 x1: 2.5 GT/s x 8b/10b = 250)", &TimingParams::pcie_bandwidth, 1, 100'000),
      uint_param("pcie-completion-size", "bytes", "Data bytes per completion/posted-write TLP (read completion boundary / max payload)", &TimingParams::pcie_completion_size, 16, 4096),
      uint_param("pcie-tlp-overhead", "bytes", "Framing bytes per TLP: 3DW header 12 + sequence 2 + LCRC 4 + STP/END 2", &TimingParams::pcie_tlp_overhead, 0, 64),
      uint_param("pcie-mrrs", "bytes", "Max read request size: the burst MXDMA=7 (unlimited) stands for", &TimingParams::pcie_mrrs, 128, 4096),
      uint_param("dma-read-rate", "MB/s", "The chip's DMA path for read completions into its FIFOs, if slower than the link (0: the link sets the pace)", &TimingParams::dma_read_rate, 0, 100'000),
      uint_param("tx-desc-prefetch", "descriptors", "TX descriptors read ahead (one 16-byte read at a time, on their own PCIe read tag, overlapping the data read); 0: each read when the walk reaches it", &TimingParams::tx_desc_prefetch, 0, 64),
      uint_param("rx-desc-prefetch", "descriptors", "RX descriptors read ahead while the current frame is written (0 or 1)", &TimingParams::rx_desc_prefetch, 0, 1),
      uint_param("tx-fifo-size", "bytes", "TX FIFO (store and forward; must hold the largest frame)", &TimingParams::tx_fifo_size, 2048, 1 << 20),
      uint_param("rx-fifo-size", "bytes", "RX FIFO; a full FIFO back-pressures the host", &TimingParams::rx_fifo_size, 2048, 1 << 20),
      uint_param("phy-an-time", "ns", "Autonegotiation restart to link up (real 1000BASE-T: 2-3 s; shortened)", &TimingParams::phy_an_time, 0, 10'000'000'000ull),
      uint_param("phy-reset-time", "ns", "BMCR RESET/ANRESTART self-clear (IEEE 802.3 22.2.4.1.1: < 0.5 s)", &TimingParams::phy_reset_time, 0, 500'000'000),
      uint_param("phyar-time", "ns", "One MDIO frame via PHYAR (64 bits at 2.5 MHz MDC)", &TimingParams::phyar_time, 0, 500'000),
      uint_param("chip-reset-time", "ns", "ChipCmd reset self-clear (r8169 polls 100 x 100 us)", &TimingParams::chip_reset_time, 0, 10'000'000),
      uint_param("dtccr-time", "ns", "Tally counter command latency before its DMA", &TimingParams::dtccr_time, 0, 10'000'000),
      uint_param("txpoll-ack-time", "ns", "NPQ reads back set this long after a doorbell (docs/HISTORY.md §1: < 90 ns)", &TimingParams::txpoll_ack_time, 0, 1'000'000),
      uint_param("eri-time", "ns", "One ERI (ExGMAC) access, ERIAR command to completion flag (chips with side buses)", &TimingParams::eri_time, 0, 1'000'000),
      uint_param("ephy-time", "ns", "One EPHY (PCIe SerDes PHY) access through EPHYAR (chips with side buses)", &TimingParams::ephy_time, 0, 1'000'000),
      uint_param("csi-time", "ns", "One CSI (configuration space) access through CSIAR (chips with side buses)", &TimingParams::csi_time, 0, 1'000'000),
      uint_param("timer-clock", "MHz", "TCTR count rate (RTL8169 datasheet: the PCI clock; PCIe parts: the 125 MHz core clock)", &TimingParams::timer_clock_mhz, 1, 1000),
      // The fuzz target picks the parameters before `faults` by index too;
      // parameters added later go after it, so that an index keeps naming
      // the parameter it named when the corpus was written.
      {text_doc("faults", "Fault schedule installed at every power-on/PCI reset, faults separated by ';' (docs/FAULTS.md: e.g. 'dma-read:nth=5;link:at=5ms,down'); empty: none"),
       [](Config& c, const std::string& s) -> std::string {
         std::vector<FaultSpec> list;
         std::string err = parse_fault_list(s, list);
         if (!err.empty()) return err;
         c.faults.clear();
         for (const FaultSpec& f : list) c.faults += (c.faults.empty() ? "" : ";") + format_fault(f);
         return {};
       },
       [](const Config& c) { return c.faults; }},
      uint_param("gphy-ocp-time", "ns", "One PHY register access through GPHY_OCP, command to completion flag (8168g class)", &TimingParams::gphy_ocp_time, 0, 1'000'000),
      uint_param("ll-init-time", "ns", "MCU link-list re-initialisation after a MAC OCP 0xe8de write: LINK_LIST_RDY low this long (8168g class)", &TimingParams::ll_init_time, 0, 1'000'000),
      uint_param("aspm-l1-exit-time", "ns", "PCIe ASPM L1 exit: from the wake to the chip's first TLP (profiles that model L1: 8168h)", &TimingParams::aspm_l1_exit_time, 0, 1'000'000),
      {bool_doc("aspm-l1-txpoll-lost", "Quirk (8168h): a TxPoll doorbell that finds the link in ASPM L1 wakes the link but does not start the transmitter (docs/HISTORY.md 'ASPM L1 TX timeouts')"),
       [](Config& c, const std::string& s) { return parse_bool(s, c.quirks.aspm_l1_txpoll_lost); },
       [](const Config& c) { return on_off(c.quirks.aspm_l1_txpoll_lost); }},
      {bool_doc("short-udp-hang", "Quirk (8125b): a UDP frame < 175 bytes with < 8 bytes after the IP header, or < 47 to port 319/320, hangs the TX path until the transmitter is restarted (r8169 rtl8125_quirk_udp_padto; docs/HISTORY.md 'RTL8125 short UDP')"),
       [](Config& c, const std::string& s) { return parse_bool(s, c.quirks.short_udp_hang); },
       [](const Config& c) { return on_off(c.quirks.short_udp_hang); }},
  };
  return table;
}

const Param* find(const std::string& name) {
  for (const Param& p : params()) {
    if (name == p.doc.name) return &p;
  }
  return nullptr;
}

}  // namespace

std::string config_set(Config& cfg, const std::string& name, const std::string& value) {
  const Param* p = find(name);
  if (!p) return "unknown parameter '" + name + "'";
  std::string err = p->set(cfg, value);
  if (!err.empty()) return name + ": " + err;
  return {};
}

std::string config_set_any_order(Config& cfg, std::vector<std::string>& explicit_set,
                                 const std::string& name, const std::string& value) {
  const Config before = cfg;
  std::string err = config_set(cfg, name, value);
  if (!err.empty()) return err;
  if (name != "chip") {
    if (std::find(explicit_set.begin(), explicit_set.end(), name) == explicit_set.end()) {
      explicit_set.push_back(name);
    }
    return {};
  }
  // Every value was accepted when it was set and no range depends on the chip.
  for (const std::string& kept : explicit_set) {
    std::string v;
    config_get(before, kept, v);
    err = config_set(cfg, kept, v);
    if (!err.empty()) return err;
  }
  return {};
}

bool config_get(const Config& cfg, const std::string& name, std::string& out) {
  const Param* p = find(name);
  if (!p) return false;
  out = p->get(cfg);
  return true;
}

size_t param_count() { return params().size(); }
const ParamDoc& param_doc(size_t i) { return params().at(i).doc; }

}  // namespace rtl8168sim
