// SPDX-License-Identifier: GPL-2.0-or-later
#include "runtime.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace peer {

Runtime::Runtime(double timeout_seconds)
    : signals_(io_, SIGINT, SIGTERM), deadline_(io_), timeout_seconds_(timeout_seconds) {}

void Runtime::Run() {
  signals_.async_wait([this](const boost::system::error_code& ec, int signo) {
    if (ec) return;
    signal_number_ = signo;
    Stop(StopReason::kSignal);
  });
  if (timeout_seconds_ > 0) {
    deadline_.expires_after(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(timeout_seconds_)));
    deadline_.async_wait([this](const boost::system::error_code& ec) {
      if (!ec) Stop(StopReason::kTimeout);
    });
  }
  io_.run();
}

void Runtime::Finish() { Stop(StopReason::kFinished); }

void Runtime::Fail(const std::string& message) {
  if (reason_ == StopReason::kNone) fatal_message_ = message;
  Stop(StopReason::kFatal);
}

void Runtime::Stop(StopReason reason) {
  if (reason_ != StopReason::kNone) return;  // the first reason wins
  reason_ = reason;
  boost::system::error_code ignored;
  signals_.cancel(ignored);
  deadline_.cancel();
  io_.stop();
}

void Runtime::WriteReadyFile(const std::string& path, const std::string& text) {
  if (path.empty()) return;
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << text << '\n';
    if (!out.flush()) throw std::runtime_error("cannot write ready file '" + tmp + "'");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw std::system_error(errno, std::generic_category(), "rename to '" + path + "'");
}

}  // namespace peer
