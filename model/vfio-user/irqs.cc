// SPDX-License-Identifier: GPL-2.0-or-later
#include "irqs.h"

#include <cerrno>

#include "eventfd.h"

namespace vfio_user {

namespace {
constexpr uint32_t kDataMask = VFIO_IRQ_SET_DATA_TYPE_MASK;
constexpr uint32_t kActionMask = VFIO_IRQ_SET_ACTION_TYPE_MASK;
bool one_bit(uint32_t v) { return v && !(v & (v - 1)); }
}  // namespace

bool Irqs::info(uint32_t index, IrqInfo& out) const {
  out = IrqInfo{sizeof(IrqInfo), 0, index, 0};
  switch (index) {
    case VFIO_PCI_INTX_IRQ_INDEX:
      out.flags = VFIO_IRQ_INFO_EVENTFD | VFIO_IRQ_INFO_MASKABLE | VFIO_IRQ_INFO_AUTOMASKED;
      out.count = 1;
      return true;
    case VFIO_PCI_MSI_IRQ_INDEX:
      out.flags = VFIO_IRQ_INFO_EVENTFD | VFIO_IRQ_INFO_NORESIZE;
      out.count = 1;
      return true;
    case VFIO_PCI_MSIX_IRQ_INDEX:
      // NORESIZE as vfio-pci without dynamic MSI-X: QEMU then re-sends the
      // whole set when it uses a vector beyond the ones it set. Maskable:
      // SET_IRQS MASK/UNMASK reach the table's Mask bits.
      out.flags = VFIO_IRQ_INFO_EVENTFD | VFIO_IRQ_INFO_NORESIZE |
                  (msix_.vectors() ? VFIO_IRQ_INFO_MASKABLE : 0);
      out.count = msix_.vectors();
      return true;
    case VFIO_PCI_ERR_IRQ_INDEX:
    case VFIO_PCI_REQ_IRQ_INDEX:
      out.flags = VFIO_IRQ_INFO_EVENTFD;
      out.count = 1;
      return true;
    default:
      return false;
  }
}

void Irqs::signal(const UniqueFd& fd, uint64_t& counter) {
  if (signal_eventfd(fd)) counter++;
}

int Irqs::set(const IrqSet& req, std::span<const uint8_t> data, std::vector<UniqueFd>& fds) {
  const uint32_t dtype = req.flags & kDataMask, action = req.flags & kActionMask;
  if (req.flags & ~(kDataMask | kActionMask)) return EINVAL;
  if (!one_bit(dtype) || !one_bit(action)) return EINVAL;
  IrqInfo inf;
  if (!info(req.index, inf)) return EINVAL;
  // count 0 with DATA_NONE: disable the whole index (QEMU's irq disable).
  if (req.count == 0) {
    if (dtype != VFIO_IRQ_SET_DATA_NONE || action != VFIO_IRQ_SET_ACTION_TRIGGER || req.start)
      return EINVAL;
    if (!fds.empty()) return EINVAL;
    switch (req.index) {
      case VFIO_PCI_INTX_IRQ_INDEX:
        intx_.reset();
        unmask_fd_.reset();
        masked_ = false;
        break;
      case VFIO_PCI_MSI_IRQ_INDEX:
        msi_.reset();
        break;
      case VFIO_PCI_MSIX_IRQ_INDEX:
        msix_.disable();
        break;
      case VFIO_PCI_ERR_IRQ_INDEX:
        err_.reset();
        break;
      case VFIO_PCI_REQ_IRQ_INDEX:
        req_.reset();
        break;
      default:
        break;
    }
    return 0;
  }
  if (req.start >= inf.count || req.count > inf.count - req.start) return EINVAL;
  if (dtype == VFIO_IRQ_SET_DATA_BOOL && data.size() < req.count) return EINVAL;
  if (dtype == VFIO_IRQ_SET_DATA_EVENTFD) {
    if (!fds.empty() && fds.size() != req.count) return EINVAL;
    for (const UniqueFd& fd : fds)
      if (!is_eventfd(fd.get())) return EINVAL;
  } else if (!fds.empty()) {
    return EINVAL;
  }
  if (req.index == VFIO_PCI_INTX_IRQ_INDEX) return set_intx(req, data, fds);
  if (req.index == VFIO_PCI_MSIX_IRQ_INDEX)
    return msix_.set(action, dtype, req.start, req.count, data, fds);

  // MSI, ERR, REQ: one vector each, TRIGGER only (not maskable).
  if (action != VFIO_IRQ_SET_ACTION_TRIGGER) return EINVAL;
  UniqueFd& slot = req.index == VFIO_PCI_MSI_IRQ_INDEX   ? msi_
                   : req.index == VFIO_PCI_ERR_IRQ_INDEX ? err_
                                                         : req_;
  if (dtype == VFIO_IRQ_SET_DATA_EVENTFD) {
    slot = fds.empty() ? UniqueFd() : std::move(fds[0]);
  } else if (dtype == VFIO_IRQ_SET_DATA_NONE || data[0]) {
    // The client triggers the interrupt itself (loopback through the eventfd).
    if (req.index == VFIO_PCI_MSI_IRQ_INDEX) signal(msi_, msi_signals_);
  }
  return 0;
}

int Irqs::set_intx(const IrqSet& req, std::span<const uint8_t> data, std::vector<UniqueFd>& fds) {
  const uint32_t dtype = req.flags & kDataMask, action = req.flags & kActionMask;
  const bool doit = dtype != VFIO_IRQ_SET_DATA_BOOL || data[0];
  switch (action) {
    case VFIO_IRQ_SET_ACTION_TRIGGER:
      if (dtype == VFIO_IRQ_SET_DATA_EVENTFD) {
        intx_ = fds.empty() ? UniqueFd() : std::move(fds[0]);
        masked_ = false;
        // An asserted line signals the new eventfd at once (vfio-pci does
        // the same when the trigger is installed while pending).
        if (level_) {
          signal(intx_, intx_signals_);
          masked_ = intx_.valid();
        }
      } else if (doit) {
        signal(intx_, intx_signals_);
      }
      return 0;
    case VFIO_IRQ_SET_ACTION_MASK:
      if (dtype == VFIO_IRQ_SET_DATA_EVENTFD) return EINVAL;  // no mask notifier
      if (doit) masked_ = true;
      return 0;
    case VFIO_IRQ_SET_ACTION_UNMASK:
      if (dtype == VFIO_IRQ_SET_DATA_EVENTFD) {
        unmask_fd_ = fds.empty() ? UniqueFd() : std::move(fds[0]);
        return 0;
      }
      if (doit) unmask_intx();
      return 0;
    default:
      return EINVAL;
  }
}

void Irqs::unmask_intx() {
  masked_ = false;
  if (level_ && intx_.valid()) {
    signal(intx_, intx_signals_);
    masked_ = true;
  }
}

void Irqs::set_intx_level(bool level) {
  const bool rising = level && !level_;
  level_ = level;
  if (rising && !masked_ && intx_.valid()) {
    signal(intx_, intx_signals_);
    masked_ = true;
  }
}

void Irqs::msi_notify() { signal(msi_, msi_signals_); }

void Irqs::clear() {
  intx_.reset();
  unmask_fd_.reset();
  msi_.reset();
  err_.reset();
  req_.reset();
  msix_.clear();
  masked_ = false;
}

}  // namespace vfio_user
