// SPDX-License-Identifier: GPL-2.0-or-later
#include "tcp_sessions.h"

#include <exception>
#include <memory>

#include "asio_coro.h"
#include "endpoint.h"

namespace asio = boost::asio;
using asio::ip::tcp;

namespace peer {
namespace {

struct Shared {
  Runtime* rt;
  SessionFn session;
  SessionErrorFn on_error;
  std::string ready_file;
  size_t count = 0;
  size_t done = 0;
  size_t connected = 0;
};

std::string ErrorText(std::exception_ptr e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& ex) {
    return ex.what();
  } catch (...) {
    return "unknown error";
  }
}

void Launch(const std::shared_ptr<Shared>& sh, tcp::socket socket, size_t index) {
  asio::co_spawn(socket.get_executor(), sh->session(std::move(socket), index),
                 [sh, index](std::exception_ptr e) {
                   if (e) sh->on_error(index, ErrorText(e));
                   if (++sh->done == sh->count) sh->rt->Finish();
                 });
}

asio::awaitable<void> AcceptLoop(std::shared_ptr<Shared> sh, tcp::acceptor acceptor) {
  for (size_t i = 0; i < sh->count; ++i) {
    tcp::socket socket = co_await acceptor.async_accept(asio::use_awaitable);
    Launch(sh, std::move(socket), i);
  }
}

asio::awaitable<void> ConnectOne(std::shared_ptr<Shared> sh, tcp::endpoint remote, size_t index) {
  tcp::socket socket(co_await asio::this_coro::executor);
  try {
    co_await socket.async_connect(remote, asio::use_awaitable);
  } catch (const std::exception& e) {
    sh->on_error(index, std::string("connect to ") + ToString(remote) + ": " + e.what());
    if (++sh->done == sh->count) sh->rt->Finish();
    co_return;
  }
  if (++sh->connected == sh->count) Runtime::WriteReadyFile(sh->ready_file, ToString(remote));
  Launch(sh, std::move(socket), index);
}

}  // namespace

std::string StartTcpSessions(Runtime& rt, const Options& opts, SessionFn session,
                             SessionErrorFn on_error) {
  auto sh = std::make_shared<Shared>();
  sh->rt = &rt;
  sh->session = std::move(session);
  sh->on_error = std::move(on_error);
  sh->ready_file = opts.ready_file;
  sh->count = opts.count;

  if (opts.listen) {
    const tcp::endpoint local = ResolveTcp(rt.io(), ParseHostPort(*opts.listen, "--listen"));
    tcp::acceptor acceptor(rt.io());
    acceptor.open(local.protocol());
    acceptor.set_option(tcp::acceptor::reuse_address(true));
    acceptor.bind(local);
    acceptor.listen();
    const std::string bound = ToString(acceptor.local_endpoint());
    Runtime::WriteReadyFile(opts.ready_file, bound);
    asio::co_spawn(rt.io(), AcceptLoop(sh, std::move(acceptor)), [&rt](std::exception_ptr e) {
      if (e) rt.Fail("accept: " + ErrorText(e));
    });
    return bound;
  }
  const tcp::endpoint remote = ResolveTcp(rt.io(), ParseHostPort(*opts.connect, "--connect"));
  for (size_t i = 0; i < opts.count; ++i)
    asio::co_spawn(rt.io(), ConnectOne(sh, remote, i), asio::detached);
  return ToString(remote);
}

}  // namespace peer
