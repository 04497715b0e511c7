// SPDX-License-Identifier: GPL-2.0-or-later
// Accept (--listen) or open (--connect) --count TCP connections and run one coroutine
// per connection; Runtime::Finish() once every session has returned.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <functional>
#include <string>

#include "asio_coro.h"
#include "options.h"
#include "runtime.h"

namespace peer {

using SessionFn =
    std::function<boost::asio::awaitable<void>(boost::asio::ip::tcp::socket, size_t index)>;
using SessionErrorFn = std::function<void(size_t index, const std::string& message)>;

// Binds/listens immediately (throws on failure) and returns the local endpoint text
// ("ADDR:PORT" for --listen, the remote "HOST:PORT" for --connect). The ready file is
// written once listening, or once every connection is established.
std::string StartTcpSessions(Runtime& rt, const Options& opts, SessionFn session,
                             SessionErrorFn on_error);

}  // namespace peer
