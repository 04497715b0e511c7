// SPDX-License-Identifier: GPL-2.0-or-later
#include "net_slirp.h"

#include <arpa/inet.h>
#include <poll.h>
#include <slirp/libslirp.h>

#include <chrono>
#include <cstring>
#include <iostream>
#include <list>
#include <vector>

namespace vfio_user {

namespace asio = boost::asio;

namespace {

struct Forward {
  bool udp = false;
  in_addr host{}, guest{};
  int host_port = 0, guest_port = 0;
};

// "tcp:[ADDR]:PORT-[ADDR]:PORT" (QEMU's hostfwd syntax).
bool parse_forward(const std::string& s, Forward& f, std::string& err) {
  auto colon = s.find(':');
  const std::string proto = colon == std::string::npos ? "" : s.substr(0, colon);
  if (proto != "tcp" && proto != "udp") {
    err = "hostfwd must start with tcp: or udp:, got '" + s + "'";
    return false;
  }
  f.udp = proto == "udp";
  const std::string rest = s.substr(colon + 1);
  const auto dash = rest.find('-');
  if (dash == std::string::npos) {
    err = "hostfwd needs HOST-GUEST, got '" + s + "'";
    return false;
  }
  auto side = [&](const std::string& t, in_addr& a, int& port, bool guest) {
    const auto c = t.rfind(':');
    if (c == std::string::npos) return false;
    const std::string addr = t.substr(0, c), p = t.substr(c + 1);
    if (addr.empty())
      a.s_addr = guest ? htonl(0x0a00020fu) : htonl(INADDR_ANY);  // 10.0.2.15 as QEMU
    else if (inet_pton(AF_INET, addr.c_str(), &a) != 1)
      return false;
    char* end = nullptr;
    const long v = std::strtol(p.c_str(), &end, 10);
    if (p.empty() || *end || v < (guest ? 1 : 0) || v > 65535) return false;
    port = int(v);
    return true;
  };
  if (!side(rest.substr(0, dash), f.host, f.host_port, false) ||
      !side(rest.substr(dash + 1), f.guest, f.guest_port, true)) {
    err = "bad hostfwd '" + s + "' (tcp|udp:[HOSTADDR]:PORT-[GUESTADDR]:PORT)";
    return false;
  }
  return true;
}

class SlirpBackend : public NetBackend {
 public:
  SlirpBackend(asio::io_context& io, std::vector<Forward> fwd)
      : io_(io), fwd_(std::move(fwd)), poll_timer_(io), start_(std::chrono::steady_clock::now()) {}
  ~SlirpBackend() override {
    poll_timer_.cancel();
    if (slirp_) slirp_cleanup(slirp_);
  }

  bool initially_up() const override { return true; }

  void start(Receive on_frame, Link) override {
    on_frame_ = std::move(on_frame);
    SlirpConfig cfg{};
    cfg.version = 1;
    cfg.in_enabled = true;
    inet_pton(AF_INET, "10.0.2.0", &cfg.vnetwork);
    inet_pton(AF_INET, "255.255.255.0", &cfg.vnetmask);
    inet_pton(AF_INET, "10.0.2.2", &cfg.vhost);
    inet_pton(AF_INET, "10.0.2.15", &cfg.vdhcp_start);
    inet_pton(AF_INET, "10.0.2.3", &cfg.vnameserver);
    cfg.if_mtu = 1500;
    cfg.if_mru = 1500;
    static const SlirpCb cb = {
        .send_packet = send_packet,
        .guest_error = guest_error,
        .clock_get_ns = clock_get_ns,
        .timer_new = timer_new,
        .timer_free = timer_free,
        .timer_mod = timer_mod,
        .register_poll_fd = [](int, void*) {},
        .unregister_poll_fd = [](int, void*) {},
        .notify = notify,
        .init_completed = nullptr,
        .timer_new_opaque = nullptr,
    };
    slirp_ = slirp_new(&cfg, &cb, this);
    if (!slirp_) {
      std::cerr << "rtl8168-vfio-user: netdev user: slirp_new failed\n";
      return;
    }
    for (const Forward& f : fwd_) {
      if (slirp_add_hostfwd(slirp_, f.udp, f.host, f.host_port, f.guest, f.guest_port) < 0)
        std::cerr << "rtl8168-vfio-user: netdev user: cannot forward host port " << f.host_port
                  << "\n";
    }
    schedule_poll(std::chrono::milliseconds(0));
  }

  void send(const uint8_t* frame, size_t len) override {
    if (slirp_) slirp_input(slirp_, frame, int(len));
    schedule_poll(std::chrono::milliseconds(0));
  }

 private:
  struct Timer {
    Timer(asio::io_context& io, SlirpTimerCb c, void* o) : t(io), cb(c), opaque(o) {}
    asio::steady_timer t;
    SlirpTimerCb cb;
    void* opaque;
  };

  static SlirpBackend* self(void* o) { return static_cast<SlirpBackend*>(o); }
  static ssize_t send_packet(const void* buf, size_t len, void* o) {
    if (self(o)->on_frame_) self(o)->on_frame_(static_cast<const uint8_t*>(buf), len);
    return ssize_t(len);
  }
  static void guest_error(const char* msg, void*) {
    std::cerr << "rtl8168-vfio-user: netdev user: " << msg << "\n";
  }
  static int64_t clock_get_ns(void* o) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                                self(o)->start_)
        .count();
  }
  static void* timer_new(SlirpTimerCb cb, void* cb_opaque, void* o) {
    auto& l = self(o)->timers_;
    l.emplace_back(self(o)->io_, cb, cb_opaque);
    return &l.back();
  }
  static void timer_free(void* t, void* o) {
    self(o)->timers_.remove_if([t](const Timer& x) { return &x == t; });
  }
  // expire_time: milliseconds on clock_get_ns's clock.
  static void timer_mod(void* t, int64_t expire_ms, void* o) {
    auto* tm = static_cast<Timer*>(t);
    tm->t.expires_at(self(o)->start_ + std::chrono::milliseconds(expire_ms));
    tm->t.async_wait([tm](const boost::system::error_code& ec) {
      if (!ec) tm->cb(tm->opaque);
    });
  }
  static void notify(void* o) { self(o)->schedule_poll(std::chrono::milliseconds(0)); }

  // libslirp's sockets: fill, poll without blocking, dispatch; again in 5 ms
  // (or at once when a frame or notify asks).
  void schedule_poll(std::chrono::milliseconds in) {
    if (!slirp_ || polling_) return;
    if (armed_ && in.count() > 0) return;
    armed_ = true;
    poll_timer_.expires_after(in);
    poll_timer_.async_wait([this](const boost::system::error_code& ec) {
      armed_ = false;
      if (ec) return;
      poll_once();
      schedule_poll(std::chrono::milliseconds(5));
    });
  }
  void poll_once() {
    polling_ = true;
    fds_.clear();
    uint32_t timeout = 0;
    slirp_pollfds_fill(
        slirp_, &timeout,
        [](int fd, int events, void* o) {
          short ev = 0;
          if (events & SLIRP_POLL_IN) ev |= POLLIN;
          if (events & SLIRP_POLL_OUT) ev |= POLLOUT;
          if (events & SLIRP_POLL_PRI) ev |= POLLPRI;
          auto& v = self(o)->fds_;
          v.push_back(pollfd{fd, ev, 0});
          return int(v.size() - 1);
        },
        this);
    const int rc = fds_.empty() ? 0 : ::poll(fds_.data(), fds_.size(), 0);
    slirp_pollfds_poll(
        slirp_, rc < 0,
        [](int idx, void* o) {
          const auto& v = self(o)->fds_;
          if (idx < 0 || size_t(idx) >= v.size()) return 0;
          const short r = v[size_t(idx)].revents;
          int out = 0;
          if (r & POLLIN) out |= SLIRP_POLL_IN;
          if (r & POLLOUT) out |= SLIRP_POLL_OUT;
          if (r & POLLPRI) out |= SLIRP_POLL_PRI;
          if (r & POLLERR) out |= SLIRP_POLL_ERR;
          if (r & POLLHUP) out |= SLIRP_POLL_HUP;
          return out;
        },
        this);
    polling_ = false;
  }

  asio::io_context& io_;
  std::vector<Forward> fwd_;
  asio::steady_timer poll_timer_;
  std::chrono::steady_clock::time_point start_;
  Slirp* slirp_ = nullptr;
  Receive on_frame_;
  std::list<Timer> timers_;  // stable addresses: libslirp keeps pointers
  std::vector<pollfd> fds_;
  bool armed_ = false, polling_ = false;
};

}  // namespace

std::unique_ptr<NetBackend> make_slirp_backend(asio::io_context& io, const std::string& spec,
                                               std::string& err) {
  std::vector<Forward> fwd;
  std::string rest = spec == "user" ? "" : spec.substr(5);
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string opt = rest.substr(0, comma);
    rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
    if (opt.rfind("hostfwd=", 0) != 0) {
      err = "netdev user takes hostfwd=... options, got '" + opt + "'";
      return nullptr;
    }
    Forward f;
    if (!parse_forward(opt.substr(8), f, err)) return nullptr;
    fwd.push_back(f);
  }
  return std::make_unique<SlirpBackend>(io, std::move(fwd));
}

}  // namespace vfio_user
