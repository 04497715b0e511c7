// SPDX-License-Identifier: GPL-2.0-or-later
#include "eventfd.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

namespace vfio_user {

bool is_eventfd(int fd) {
  char path[64], link[64];
  std::snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  const ssize_t n = readlink(path, link, sizeof link - 1);
  if (n <= 0) return false;
  return std::string(link, size_t(n)) == "anon_inode:[eventfd]";
}

bool signal_eventfd(const UniqueFd& fd) {
  if (!fd.valid()) return false;
  const uint64_t one = 1;
  return ::write(fd.get(), &one, sizeof one) == sizeof one;
}

}  // namespace vfio_user
