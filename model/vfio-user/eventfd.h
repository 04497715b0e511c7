// SPDX-License-Identifier: GPL-2.0-or-later
// The interrupt eventfds a client passes with SET_IRQS: checked to be
// eventfds before they are kept (a client passing a regular file must not
// get it written to), and signalled by adding one to their counter.
#pragma once

#include "unique_fd.h"

namespace vfio_user {

bool is_eventfd(int fd);

// Signal fd; false when it is not set or its counter is full (2^64-2 unread
// signals: the client has that many pending already, nothing is lost).
bool signal_eventfd(const UniqueFd& fd);

}  // namespace vfio_user
