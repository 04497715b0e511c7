// SPDX-License-Identifier: GPL-2.0-or-later
// The Boost.Asio C++20 coroutine headers the peer uses, in one place.
// Boost 1.74's awaitable.hpp calls std::exchange without including <utility>: include it
// first (fixed upstream in later Boost releases).
#pragma once

// clang-format off
#include <utility>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
// clang-format on
