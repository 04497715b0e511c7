// SPDX-License-Identifier: GPL-2.0-or-later
// The single-threaded io_context of one peer run, with the things every mode shares:
// SIGINT/SIGTERM handling, the --timeout deadline, the --ready-file, and fatal errors.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <string>

namespace peer {

enum class StopReason { kNone, kFinished, kTimeout, kSignal, kFatal };

class Runtime {
 public:
  explicit Runtime(double timeout_seconds);

  boost::asio::io_context& io() { return io_; }

  // Runs the event loop until Finish(), Fail(), the deadline or a signal.
  void Run();
  // All work done: stop the loop.
  void Finish();
  // Unrecoverable error outside a session (e.g. accept failed): stop the loop.
  void Fail(const std::string& message);

  // Atomically (write + rename) writes `text` and a newline to `path` if it is not empty.
  static void WriteReadyFile(const std::string& path, const std::string& text);

  StopReason reason() const { return reason_; }
  int signal_number() const { return signal_number_; }
  const std::string& fatal_message() const { return fatal_message_; }

 private:
  void Stop(StopReason reason);

  boost::asio::io_context io_{1};  // concurrency hint 1: one thread, no locking
  boost::asio::signal_set signals_;
  boost::asio::steady_timer deadline_;
  double timeout_seconds_;
  StopReason reason_ = StopReason::kNone;
  int signal_number_ = 0;
  std::string fatal_message_;
};

}  // namespace peer
