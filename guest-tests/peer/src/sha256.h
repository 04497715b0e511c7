// SPDX-License-Identifier: GPL-2.0-or-later
// Incremental SHA-256 through OpenSSL's EVP interface (libssl-dev / libcrypto).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

struct evp_md_ctx_st;

namespace peer {

class Sha256 {
 public:
  Sha256();
  void Update(const void* data, size_t len);
  // Lower-case hex digest; the object cannot be updated afterwards.
  std::string FinalHex();

 private:
  struct CtxDeleter {
    void operator()(evp_md_ctx_st* ctx) const;
  };
  std::unique_ptr<evp_md_ctx_st, CtxDeleter> ctx_;
};

}  // namespace peer
