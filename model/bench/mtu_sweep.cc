// SPDX-License-Identifier: GPL-2.0-or-later
// mtu-sweep: TCP goodput of TSO TCP/IPv4 versus MTU and TX DMA burst
// (docs/HISTORY.md §3). A driver without CPU time (ring always full) sends
// TSO super-packets as large as r8169 lets the stack build them (64000
// bytes, at most 64 segments, tso_segments() below): the 66-byte header in its own descriptor (the skb's
// linear part), the payload (whole MSS-sized segments, MSS = MTU - 52) in
// descriptors laid out by --layout:
//   linux  the payload as Linux hands it to r8169: tcp_sendmsg copies the
//          byte stream into 32 KiB page fragments (sk_page_frag, order-3
//          pages, SKB_FRAG_PAGE_ORDER), one after the other, so a
//          super-packet's payload is 2 or 3 fragments split wherever the
//          stream crosses a 32 KiB boundary, one descriptor each
//          (rtl8169_xmit_frags). What the 2012 netperf figures measured.
//   ideal  the whole payload in one descriptor (the DMA engine alone).
// --offloads selects what the stack hands the driver:
//   tso      (default) the TSO super-packets above
//   sg-csum  SG + TX checksum, TSO off: Linux segments in software (GSO,
//            skb_segment) and each MTU-sized frame reaches r8169 as its own
//            66-byte linear header plus the MSS of payload still in the
//            socket's 32 KiB page fragments: one fragment, or two where the
//            stream crosses a page boundary -- 2 or 3 descriptors per frame
//            (the 2019 report's case, docs/HISTORY.md §4)
//   csum     SG off, TX checksum on: the stack linearizes, each frame is one
//            1514-byte buffer, one descriptor
// Goodput is measured in virtual time over whole super-packets (or as many
// frames as a super-packet would carry) after a warm-up, so the steady state
// is measured exactly.
#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <vector>

#include "cli.h"
#include "commands.h"
#include "device.h"
#include "frames.h"
#include "sim_driver.h"

namespace po = boost::program_options;

namespace bench {

namespace {

struct SweepResult {
  double mbps = 0;
  uint64_t segments = 0;
};

unsigned mxdma_of(const std::string& burst) {
  if (burst == "128") return 3;
  if (burst == "256") return 4;
  if (burst == "512") return 5;
  if (burst == "1024") return 6;
  if (burst == "unlimited") return 7;
  throw std::invalid_argument("--burst expects 128, 256, 512, 1024 or unlimited, got '" + burst + "'");
}

enum class Layout { linux_frags, ideal };
enum class Offloads { tso, sg_csum, csum };

Offloads offloads_of(const std::string& name) {
  if (name == "tso") return Offloads::tso;
  if (name == "sg-csum") return Offloads::sg_csum;
  if (name == "csum") return Offloads::csum;
  throw std::invalid_argument("--offloads expects tso, sg-csum or csum, got '" + name + "'");
}

Layout layout_of(const std::string& name) {
  if (name == "linux") return Layout::linux_frags;
  if (name == "ideal") return Layout::ideal;
  throw std::invalid_argument("--layout expects linux or ideal, got '" + name + "'");
}

// Linux's TCP page fragments: 32 KiB (order-3) pages filled in stream order.
constexpr uint32_t kPageFragBytes = 32768;

// Segments per TSO super-packet, as the stack sizes them for r8169: the
// driver advertises netif_set_tso_max_size(RTL_GSO_MAX_SIZE_V2 = 64000) and
// netif_set_tso_max_segs(RTL_GSO_MAX_SEGS_V2 = 64) for the v2 descriptor
// chips (rtl_init_one; guest-tests/driver does the same), and
// tcp_xmit_size_goal makes a super-packet whole MSS segments of at most
// gso_max_size - 1 - IPv4 header - TCP header with timestamps (3.x) bytes,
// and at most gso_max_segs of them (tcp_tso_segs). Below MTU ~1052 the
// 64-segment cap binds: 64 x 524 = 33536 bytes at MTU 576, as the lab's
// trace shows (docs/TIMING.md "Lab versus bench").
constexpr uint32_t kGsoMaxSize = 64000;
constexpr uint32_t kGsoMaxSegs = 64;
uint32_t tso_segments(uint32_t mss) {
  return std::max<uint32_t>(1, std::min((kGsoMaxSize - 1 - 52) / mss, kGsoMaxSegs));
}

SweepResult measure(unsigned mtu, unsigned mxdma, Layout layout, Offloads offl,
                    const ParamList& params, unsigned packets) {
  const uint32_t mss = mtu - 52;
  const uint32_t segs = tso_segments(mss);
  const uint32_t payload = segs * mss;
  Host h(SimDriver::kMemBytes);
  open_device(h, params);
  SimDriver drv(h, DriverOptions{.tx_mxdma = mxdma});
  if (!drv.open()) throw std::runtime_error("link did not come up");

  // Completion time of each super-packet's last segment.
  std::vector<Time> done;
  uint64_t frames = 0;
  h.hooks.after_transmit = [&](Port&, const uint8_t*, size_t) {
    const Time t = h.now;
    if (++frames % segs == 0) done.push_back(t);
  };
  uint32_t seq = 0;
  // header + at most 3 payload fragments (payload < 64000 bytes spans <= 3 pages)
  constexpr unsigned kMaxDescs = 4;
  // v2 checksum offload, TSO off (r8169 rtl8169_tso_csum_v2): IPv4_CS |
  // TCP_CS and the transport offset (34) in opts2.
  constexpr uint32_t kCsumOpts2 = (1u << 29) | (1u << 30) | (34u << 18);
  auto refill_frames = [&] {
    bool posted = false;
    while (drv.tx_free() >= kMaxDescs) {
      const std::vector<uint8_t> header = tcp_ipv4_header(kPeerMac, kNicMac, mss, seq);
      if (offl == Offloads::csum) {
        // Linearized: header and payload in one buffer.
        const uint64_t buf = drv.tx_buffer(0);
        std::copy(header.begin(), header.end(), h.ram.data() + buf);
        const std::vector<Frag> one{{buf, kTcpHeaderBytes + mss}};
        drv.tx_post(one, 0, kCsumOpts2);
      } else {
        const uint64_t hdr = drv.tx_buffer(0);
        std::copy(header.begin(), header.end(), h.ram.data() + hdr);
        std::vector<Frag> frags{{hdr, kTcpHeaderBytes}};
        for (uint32_t at = 0; at < mss;) {
          const uint32_t in_page = kPageFragBytes - (seq + at) % kPageFragBytes;
          const uint32_t len = std::min(in_page, mss - at);
          frags.push_back({drv.tx_buffer(static_cast<unsigned>(frags.size())), len});
          at += len;
        }
        drv.tx_post(frags, 0, kCsumOpts2);
      }
      seq += mss;
      posted = true;
    }
    if (posted) drv.doorbell();
  };
  auto refill_tso = [&] {
    bool posted = false;
    while (drv.tx_free() >= kMaxDescs) {
      const uint64_t hdr = drv.tx_buffer(0);
      const std::vector<uint8_t> header = tcp_ipv4_header(kPeerMac, kNicMac, mss, seq);
      std::copy(header.begin(), header.end(), h.ram.data() + hdr);
      std::vector<Frag> frags{{hdr, kTcpHeaderBytes}};
      if (layout == Layout::ideal) {
        frags.push_back({drv.tx_buffer(1), payload});
      } else {
        for (uint32_t at = 0; at < payload;) {
          const uint32_t in_page = kPageFragBytes - (seq + at) % kPageFragBytes;
          const uint32_t len = std::min(in_page, payload - at);
          frags.push_back({drv.tx_buffer(static_cast<unsigned>(frags.size())), len});
          at += len;
        }
      }
      seq += payload;
      // v2 TSO: GTSENV4 (opts1 26), transport offset 34 (opts1 24:18), MSS in opts2 28:18.
      drv.tx_post(frags, (1u << 26) | (34u << 18), mss << 18);
      posted = true;
    }
    if (posted) drv.doorbell();
  };
  auto refill = [&] {
    if (offl == Offloads::tso) {
      refill_tso();
    } else {
      refill_frames();
    }
  };
  refill();
  const unsigned warm = 4;
  // Generous virtual-time bound: even 16-byte bursts finish long before it.
  const Time limit = h.now + 2'000'000'000ull;
  while (done.size() < warm + packets && h.now < limit) {
    h.step_until(limit);
    if (h.msi_pending) {
      drv.handle_irq(nullptr);
      refill();
    }
  }
  if (done.size() < warm + packets) throw std::runtime_error("sweep point did not complete");
  const Time t0 = done[warm - 1], t1 = done[warm + packets - 1];
  SweepResult r;
  r.segments = static_cast<uint64_t>(packets) * segs;
  r.mbps = static_cast<double>(packets) * payload * 8.0 * 1000.0 / static_cast<double>(t1 - t0);
  return r;
}

}  // namespace

int cmd_mtu_sweep(int argc, char** argv) {
  std::string burst = "unlimited", range = "1500:1500", layout = "linux", offloads = "tso";
  std::vector<std::string> raw_params;
  std::string faults;  // --faults: the `faults` parameter
  unsigned packets = 8;
  po::options_description opts(
      "rtl8168-bench mtu-sweep: TCP goodput (Mbit/s of virtual time) versus MTU and TX burst\n"
      "Prints mtu,burst,mbps lines");
  opts.add_options()("help,h", "this help")(
      "burst", po::value(&burst)->default_value(burst),
      "TX DMA burst: 128, 256, 512, 1024 or unlimited (TxConfig MXDMA 3..7)")(
      "mtu", po::value(&range)->default_value(range), "FROM:TO[:STEP], MTU range (68..9000: IPv4 minimum, RFC 791)")(
      "layout", po::value(&layout)->default_value(layout),
      "TSO payload layout: linux (32 KiB page fragments, as tcp_sendmsg builds them) or ideal "
      "(one descriptor)")(
      "offloads", po::value(&offloads)->default_value(offloads),
      "what the stack hands the driver: tso (TSO super-packets of up to 64000 bytes / 64 segments, r8169's limits), sg-csum (SG + TX "
      "checksum, TSO off: MTU-sized frames of a 66-byte header and 1-2 page fragments, as "
      "Linux GSO builds them) or csum (SG off: each frame linearized in one buffer)")(
      "csv", "print a CSV header line first")(
      "packets", po::value(&packets)->default_value(packets),
      "TSO super-packets (or as many frames) measured per point after warm-up")(
      "param", po::value(&raw_params)->composing(), "model parameter name=value (repeatable)")(
      "faults", po::value(&faults), "fault schedule, 'class:key=value,...;...' (docs/FAULTS.md); same as --param faults=SPEC");
  po::variables_map vm;
  if (const int rc = parse_cli("mtu-sweep", argc, argv, opts, vm); rc >= 0) return rc;
  unsigned from = 0, to = 0, step = 1;
  char tail = 0;
  const int n = std::sscanf(range.c_str(), "%u:%u:%u%c", &from, &to, &step, &tail);
  if (n < 2 || n > 3 || from < 68 || to > 9000 || from > to || step == 0) {
    std::cerr << "mtu-sweep: --mtu expects FROM:TO[:STEP] with 68 <= FROM <= TO <= 9000, got '"
              << range << "'\n";
    return 2;
  }
  try {
    const unsigned mxdma = mxdma_of(burst);
    const Layout lay = layout_of(layout);
    if (!faults.empty()) raw_params.push_back("faults=" + faults);
    const Offloads offl = offloads_of(offloads);
    const ParamList params = parse_params(raw_params);
    if (vm.count("csv")) std::cout << "mtu,burst,mbps\n";
    for (unsigned mtu = from; mtu <= to; mtu += step) {
      const SweepResult r = measure(mtu, mxdma, lay, offl, params, packets);
      std::printf("%u,%s,%.2f\n", mtu, burst.c_str(), r.mbps);
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::cerr << "mtu-sweep: " << e.what() << "\n";
    return 2;
  }
  return 0;
}

ParamList parse_params(const std::vector<std::string>& raw) {
  ParamList out;
  for (const std::string& p : raw) {
    const size_t eq = p.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw std::invalid_argument("--param expects name=value, got '" + p + "'");
    }
    out.emplace_back(p.substr(0, eq), p.substr(eq + 1));
  }
  return out;
}

}  // namespace bench
