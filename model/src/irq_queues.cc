// SPDX-License-Identifier: GPL-2.0-or-later
#include "irq_queues.h"

#include "profile.h"
#include "regs.h"

namespace rtl8168sim {

namespace {

enum class Kind : uint8_t { ImrV2Clear, IsrV2, ImrV2Set, ImrQ, IsrQ };
struct QueueReg {
  uint16_t offset;
  uint8_t width;  // bytes
  Kind kind;
  uint8_t queue;  // ImrQ / IsrQ: the RX queue (1-3)
};
constexpr QueueReg kRegs[] = {
    {reg::IMR_V2_CLEAR_REG_8125, 4, Kind::ImrV2Clear, 0},
    {reg::ISR_V2_8125, 4, Kind::IsrV2, 0},
    {reg::IMR_V2_SET_REG_8125, 4, Kind::ImrV2Set, 0},
    {reg::IMR1_8125, 2, Kind::ImrQ, 1},
    {reg::ISR1_8125, 2, Kind::IsrQ, 1},
    {reg::IMR1_8125 + 4, 2, Kind::ImrQ, 2},
    {reg::ISR1_8125 + 4, 2, Kind::IsrQ, 2},
    {reg::IMR1_8125 + 8, 2, Kind::ImrQ, 3},
    {reg::ISR1_8125 + 8, 2, Kind::IsrQ, 3},
};

bool overlaps(const QueueReg& r, uint32_t off, unsigned size) {
  return off < uint32_t{r.offset} + r.width && r.offset < off + size;
}

}  // namespace

IrqQueues::IrqQueues(const ChipProfile& p) : modelled_(p.queue_irqs) {}

void IrqQueues::reset() {
  isr_v2_ = imr_v2_ = 0;
  isr_q_ = {};
  imr_q_ = {};
}

bool IrqQueues::covers(uint32_t off, unsigned size) const {
  if (!modelled_) return false;
  for (const QueueReg& r : kRegs) {
    if (overlaps(r, off, size)) return true;
  }
  return false;
}

bool IrqQueues::v1_active() const {
  for (unsigned i = 0; i < isr_q_.size(); i++) {
    if (isr_q_[i] & imr_q_[i]) return true;
  }
  return false;
}

uint64_t IrqQueues::read(uint32_t off, unsigned size) const {
  uint64_t v = 0;
  for (const QueueReg& r : kRegs) {
    if (!overlaps(r, off, size)) continue;
    uint32_t value = 0;
    switch (r.kind) {
      case Kind::ImrV2Clear:
      case Kind::ImrV2Set: value = imr_v2_; break;
      case Kind::IsrV2: value = isr_v2_; break;
      case Kind::ImrQ: value = imr_q_[r.queue - 1]; break;
      case Kind::IsrQ: value = isr_q_[r.queue - 1]; break;
    }
    for (unsigned b = 0; b < r.width; b++) {
      const uint32_t at = r.offset + b;
      if (at < off || at >= off + size) continue;
      v |= uint64_t{(value >> (8 * b)) & 0xff} << (8 * (at - off));
    }
  }
  return v;
}

// Each register sees the bytes of the access that fall on it (a 16-bit
// write to IMR_V2_SET's upper half unmasks messages 16-31 only).
void IrqQueues::write(uint32_t off, unsigned size, uint64_t value) {
  for (const QueueReg& r : kRegs) {
    if (!overlaps(r, off, size)) continue;
    uint32_t bits = 0;
    for (unsigned b = 0; b < r.width; b++) {
      const uint32_t at = r.offset + b;
      if (at < off || at >= off + size) continue;
      bits |= static_cast<uint32_t>((value >> (8 * (at - off))) & 0xff) << (8 * b);
    }
    uint32_t mask = 0;  // the register's bytes this access covers
    for (unsigned b = 0; b < r.width; b++) {
      const uint32_t at = r.offset + b;
      if (at >= off && at < off + size) mask |= 0xffu << (8 * b);
    }
    switch (r.kind) {
      case Kind::ImrV2Clear: imr_v2_ &= ~bits; break;
      case Kind::ImrV2Set: imr_v2_ |= bits; break;
      case Kind::IsrV2: isr_v2_ &= ~bits; break;
      case Kind::ImrQ: {
        uint16_t& m = imr_q_[r.queue - 1];
        m = static_cast<uint16_t>(((m & ~mask) | (bits & mask)) & kQueueBits);
        break;
      }
      case Kind::IsrQ: isr_q_[r.queue - 1] = static_cast<uint16_t>(isr_q_[r.queue - 1] & ~bits); break;
    }
  }
}

void IrqQueues::visit(Archive& a) {
  a.io(isr_v2_);
  a.io(imr_v2_);
  for (unsigned i = 0; i < isr_q_.size(); i++) {
    a.io(isr_q_[i]);
    a.io(imr_q_[i]);
  }
}

// Only the events the chip latches can be pending; the queue masks keep
// their two bits (write()).
const char* IrqQueues::check() const {
  if (isr_v2_ & ~kEvents) return "ISR_V2 holds a bit no event sets";
  for (unsigned i = 0; i < isr_q_.size(); i++) {
    if ((isr_q_[i] | imr_q_[i]) & ~kQueueBits) return "RX queue ISR/IMR holds an undefined bit";
  }
  return nullptr;
}

}  // namespace rtl8168sim
