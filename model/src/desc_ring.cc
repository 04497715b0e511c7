// SPDX-License-Identifier: GPL-2.0-or-later
#include "desc_ring.h"

#include "device.h"

namespace rtl8168sim {

DescRing::DescRing(Device& d, const RingSpec& spec)
    : d_(d),
      spec_(&spec),
      file_(spec.base_lo < reg::kFileSize && spec.base_hi < reg::kFileSize ? &d.regs : nullptr),
      v3_capable_(spec.dir == RingDir::Rx && spec.rx_desc_v3) {}

uint64_t DescRing::base_above_file() const { return d_.reg64(spec_->base_lo, spec_->base_hi); }

bool DescRing::v3_selected() const { return d_.regs.u32(reg::RxConfig) & reg::EnableRxDescV3; }

void DescRing::advance(uint32_t opts1) {
  if (opts1 & desc::RingEnd) {
    pos_ = 0;
  } else if (++pos_ >= kMaxRing) {
    // No EOR within kMaxRing descriptors: wrap to the base (model bound).
    pos_ = 0;
    report_no_eor();
  }
}

void DescRing::report_no_eor() {
  d_.stats.ring_no_eor++;
  d_.trace.ring_no_eor(static_cast<uint32_t>(spec_->id), base());
}

bool DescRing::read_at(uint64_t addr, uint32_t index, RingDesc& out) const {
  uint8_t raw[desc::kSize];
  if (v3()) {
    // RxDescV3's upper half: address, opts2, opts1 (rx_desc_v3.h).
    const bool ok = d_.dma_read(addr + desc_v3::kFetch, raw, sizeof raw);
    out = RingDesc{index, load_le32(raw + 12), load_le32(raw + 8),
                   uint64_t{load_le32(raw + 4)} << 32 | load_le32(raw)};
    return ok;
  }
  const bool ok = d_.dma_read(addr, raw, sizeof raw);  // zeros when it failed
  const RawDesc rd = decode_desc(raw);
  out = RingDesc{index, rd.opts1, rd.opts2, rd.addr};
  return ok;
}

bool DescRing::write32(uint64_t addr, uint32_t value) const {
  uint8_t v[4];
  store_le32(v, value);
  return d_.dma_write(addr, v, 4);
}

bool DescRing::write_back(uint32_t index, uint32_t opts1, uint32_t opts2, desc_v3::RssResult rss) const {
  const uint64_t at = slot_addr(index);
  if (v3()) {
    uint8_t r[8] = {};  // RSSResult, HeaderBufferLen 0, HeaderInfo
    store_le32(r, rss.hash);
    store_le32(r + 4, uint32_t{rss.info} << 16);
    return d_.dma_write(at + desc_v3::kRss, r, sizeof r) &&
           write32(at + desc_v3::kOpts2, desc_v3::opts2_from(opts1, opts2)) &&
           write32(at + desc_v3::kOpts1, desc_v3::opts1_from(opts1));
  }
  return write32(at + 4, opts2) && write32(at, opts1);
}

}  // namespace rtl8168sim
