// SPDX-License-Identifier: GPL-2.0-or-later
// A child process for the end-to-end tests: fork/exec with stdout/stderr to files, wait
// with a deadline, signal, and helpers to wait for a ready file and read outputs.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace peer_test {

class ChildProcess {
 public:
  // Starts argv[0] with argv; stdout and stderr go to files in `dir` named after `name`.
  ChildProcess(const std::vector<std::string>& argv, const std::string& dir,
               const std::string& name);
  ~ChildProcess();  // kills a still-running child
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Exit status, or -signal if it died of a signal; nullopt if still running at deadline.
  std::optional<int> Wait(std::chrono::milliseconds timeout = std::chrono::seconds(60));
  void Signal(int signo);
  std::string Stdout() const;
  std::string Stderr() const;

 private:
  pid_t pid_ = -1;
  std::optional<int> status_;
  std::string out_path_, err_path_;
};

// Runs to completion (60 s at most) and returns the exit status.
int RunChild(const std::vector<std::string>& argv, const std::string& dir, const std::string& name,
             std::string* out = nullptr, std::string* err = nullptr);

// Waits for a file to exist (written atomically by the tools) and returns its first line.
std::string WaitForFile(const std::string& path,
                        std::chrono::milliseconds timeout = std::chrono::seconds(10));

std::string ReadFile(const std::string& path);

// A fresh directory under the test's temporary directory.
std::string MakeTempDir();

}  // namespace peer_test
