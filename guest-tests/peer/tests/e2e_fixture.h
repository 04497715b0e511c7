// SPDX-License-Identifier: GPL-2.0-or-later
// Shared fixture of the end-to-end tests: a temporary directory, servers started with
// --listen 127.0.0.1:0 and a ready file, and JSON parsing of the peer's output.
#pragma once

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "child_process.h"

namespace peer_test {

class E2eTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = MakeTempDir(); }
  void TearDown() override {
    if (!HasFailure()) std::filesystem::remove_all(dir_);  // keep evidence of failures
  }

  // Starts `argv` + --ready-file and waits until it is ready; returns the ready line.
  std::unique_ptr<ChildProcess> StartReady(std::vector<std::string> argv, const std::string& name,
                                           std::string* ready) {
    const std::string file = dir_ + "/" + name + ".ready";
    // rtl-traffic takes its options before the mode; the peer takes them anywhere.
    argv.insert(argv.begin() + 1, {"--ready-file", file});
    auto child = std::make_unique<ChildProcess>(argv, dir_, name);
    *ready = WaitForFile(file);
    return child;
  }

  // A peer server on 127.0.0.1 with an ephemeral port; returns "127.0.0.1:PORT".
  std::unique_ptr<ChildProcess> StartPeer(std::vector<std::string> args, const std::string& name,
                                          std::string* endpoint) {
    args.insert(args.begin(), PEER_BIN);
    args.insert(args.end(), {"--listen", "127.0.0.1:0", "--timeout", "60"});
    return StartReady(args, name, endpoint);
  }

  // A 127.0.0.1 TCP port that nothing listens on (bound once, then released).
  static uint16_t FreePort() {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(a);
    if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0)
      throw std::runtime_error("cannot find a free port");
    close(fd);
    return ntohs(a.sin_port);
  }

  static nlohmann::json Json(const std::string& text) { return nlohmann::json::parse(text); }

  static std::string Port(const std::string& endpoint) {
    return endpoint.substr(endpoint.rfind(':') + 1);
  }

  std::string dir_;
};

}  // namespace peer_test
