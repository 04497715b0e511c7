// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/test_host.h"

#include <gtest/gtest.h>

#include <string>

namespace rtl8168_test {

Params default_params(bool timing) {
  return {
      {"chip", "8168c"},
      {"mac", kTestMac},
      {"timing", timing ? "on" : "off"},
      {"phy-an-time", std::to_string(kPhyAnTime)},
      {"phy-reset-time", std::to_string(kPhyResetTime)},
      {"phyar-time", std::to_string(kPhyarTime)},
      {"chip-reset-time", std::to_string(kChipResetTime)},
      {"dtccr-time", std::to_string(kDtccrTime)},
  };
}

Params with(Params base, const Params& overrides) {
  for (const auto& [name, value] : overrides) {
    bool replaced = false;
    for (auto& entry : base) {
      if (entry.first == name) {
        entry.second = value;
        replaced = true;
      }
    }
    if (!replaced) base.emplace_back(name, value);
  }
  return base;
}

struct TestHost::Enter {
  explicit Enter(TestHost& h) : host(h) { ++host.depth_; }
  ~Enter() { --host.depth_; }
  TestHost& host;
};

const rtl8168_host_ops& TestHost::ops_template() {
  static const rtl8168_host_ops ops = {
      nullptr,     cb_dma_read, cb_dma_write, cb_msi_enabled, cb_msi_notify,
      cb_set_intx, cb_transmit, cb_timer_arm, cb_rx_ready,    cb_trace,
      cb_trace_event, cb_pme,
  };
  return ops;
}

TestHost::TestHost(const Params& params, uint64_t start_ns, bool optional_callbacks)
    : now_(start_ns) {
  init(params, optional_callbacks);
}

TestHost::TestHost(const Params& params, const FakeMemory& ram, uint64_t start_ns)
    : mem_(ram), now_(start_ns) {
  init(params);
}

void TestHost::init(const Params& params, bool optional_callbacks) {
  rtl8168_config* cfg = rtl8168_config_new();
  if (!cfg) {
    create_error_ = "rtl8168_config_new returned NULL";
    ADD_FAILURE() << create_error_;
    return;
  }
  char err[256] = {};
  for (const auto& [name, value] : params) {
    if (rtl8168_config_set(cfg, name.c_str(), value.c_str(), err, sizeof err) != 0) {
      ADD_FAILURE() << "rtl8168_config_set(" << name << ", " << value << "): " << err;
    }
  }
  rtl8168_host_ops ops = ops_template();
  ops.opaque = this;
  if (!optional_callbacks) {
    ops.trace = nullptr;
    ops.trace_event = nullptr;
    ops.rx_ready = nullptr;
    ops.pme = nullptr;
  }
  err[0] = '\0';
  {
    Enter e(*this);
    dev_ = rtl8168_create(cfg, &ops, err, sizeof err);
  }
  rtl8168_config_free(cfg);
  if (!dev_) {
    create_error_ = err;
    ADD_FAILURE() << "rtl8168_create failed: " << err;
  }
}

TestHost::~TestHost() {
  if (dev_) {
    Enter e(*this);
    rtl8168_destroy(dev_);
  }
}

bool TestHost::run_until(uint64_t t, uint64_t max_events) {
  if (t < now_) {
    ADD_FAILURE() << "test bug: run_until(" << t << ") before now " << now_;
    return false;
  }
  uint64_t events = 0;
  while (dev_ && deadline_ != RTL8168_NO_DEADLINE && deadline_ <= t) {
    if (++events > max_events) {
      ADD_FAILURE() << "model never settled: more than " << max_events
                    << " timer events before t=" << t << " (now " << now_ << ", deadline "
                    << deadline_ << ")\n"
                    << trace_tail();
      now_ = t;
      return false;
    }
    // A deadline in the past (armed before now) fires at now: time never
    // goes backwards.
    if (deadline_ > now_) now_ = deadline_;
    Enter e(*this);
    rtl8168_timer_expired(dev_, now_);
  }
  now_ = t;
  return true;
}

bool TestHost::run_until_idle(uint64_t horizon_ns) {
  const uint64_t end = now_ + horizon_ns;
  uint64_t events = 0;
  while (dev_ && deadline_ != RTL8168_NO_DEADLINE && deadline_ <= end) {
    if (++events > kMaxEventsPerRun) {
      ADD_FAILURE() << "model never settled: more than " << kMaxEventsPerRun
                    << " timer events (now " << now_ << ")\n"
                    << trace_tail();
      return false;
    }
    step_one();
  }
  return deadline_ == RTL8168_NO_DEADLINE;
}

bool TestHost::step_one(uint64_t limit) {
  if (!dev_ || deadline_ == RTL8168_NO_DEADLINE || deadline_ > limit) return false;
  if (deadline_ > now_) now_ = deadline_;
  Enter e(*this);
  rtl8168_timer_expired(dev_, now_);
  return true;
}

int TestHost::add_fault(const std::string& spec, std::string* err) {
  Enter e(*this);
  char msg[512] = "";
  const int rc = rtl8168_fault_add(dev_, now_, spec.c_str(), msg, sizeof msg);
  if (err) *err = msg;
  return rc;
}

void TestHost::clear_faults() {
  Enter e(*this);
  rtl8168_fault_clear(dev_, now_);
}

std::string TestHost::faults_json() const {
  const size_t n = rtl8168_fault_list(dev_, nullptr, 0);
  std::string s(n + 1, '\0');
  rtl8168_fault_list(dev_, s.data(), s.size());
  s.resize(n);
  return s;
}

uint64_t TestHost::read(uint32_t off, unsigned size) {
  Enter e(*this);
  return rtl8168_reg_read(dev_, now_, off, size);
}

void TestHost::write(uint32_t off, uint64_t v, unsigned size) {
  Enter e(*this);
  rtl8168_reg_write(dev_, now_, off, v, size);
}

size_t TestHost::receive(std::span<const uint8_t> frame) {
  Enter e(*this);
  return rtl8168_receive(dev_, now_, frame.data(), frame.size());
}

bool TestHost::can_receive() {
  Enter e(*this);
  return rtl8168_can_receive(dev_, now_);
}

void TestHost::set_link(bool up) {
  Enter e(*this);
  rtl8168_set_link(dev_, now_, up);
}

void TestHost::reset() {
  Enter e(*this);
  rtl8168_reset(dev_, now_);
}

rtl8168_stats TestHost::stats() const {
  rtl8168_stats s{};
  rtl8168_get_stats(dev_, &s);
  return s;
}

std::vector<uint8_t> TestHost::save() const {
  const size_t size = rtl8168_state_size(dev_);
  std::vector<uint8_t> blob(size);
  const size_t n = rtl8168_state_save(dev_, blob.data(), blob.size());
  EXPECT_GT(n, 0u) << "rtl8168_state_save into a buffer of rtl8168_state_size() bytes";
  blob.resize(n);
  return blob;
}

int TestHost::load(std::span<const uint8_t> blob, std::string* err) {
  char msg[256] = {};
  Enter e(*this);
  const int rc = rtl8168_state_load(dev_, blob.data(), blob.size(), msg, sizeof msg);
  if (err) *err = msg;
  return rc;
}

std::string TestHost::trace_tail(size_t lines) const {
  std::string out = "trace tail:\n";
  const size_t from = trace.size() > lines ? trace.size() - lines : 0;
  for (size_t i = from; i < trace.size(); ++i) out += "  " + trace[i] + "\n";
  return out;
}

void TestHost::note_callback() {
  if (depth_ == 0) ++callbacks_outside_calls;
}

int TestHost::cb_dma_read(void* o, uint64_t addr, void* buf, size_t len) {
  auto* h = static_cast<TestHost*>(o);
  h->note_callback();
  return h->mem_.dma_read(addr, buf, len);
}

int TestHost::cb_dma_write(void* o, uint64_t addr, const void* buf, size_t len) {
  auto* h = static_cast<TestHost*>(o);
  h->note_callback();
  return h->mem_.dma_write(addr, buf, len);
}

bool TestHost::cb_msi_enabled(void* o) { return static_cast<TestHost*>(o)->msi; }

void TestHost::cb_msi_notify(void* o, unsigned vector) {
  auto* h = static_cast<TestHost*>(o);
  h->note_callback();
  h->msi_times.push_back(h->now_);
  h->msi_vectors.push_back(vector);
}

void TestHost::cb_set_intx(void* o, int level) {
  auto* h = static_cast<TestHost*>(o);
  h->note_callback();
  h->intx_changes.emplace_back(h->now_, level);
  h->intx_level = level;
}

void TestHost::cb_transmit(void* o, const uint8_t* frame, size_t len) {
  auto* h = static_cast<TestHost*>(o);
  h->note_callback();
  h->tx.push_back({h->now_, std::vector<uint8_t>(frame, frame + len)});
  if (h->on_transmit) h->on_transmit(std::span<const uint8_t>(frame, len));
}

void TestHost::cb_timer_arm(void* o, uint64_t deadline) {
  auto* h = static_cast<TestHost*>(o);
  h->note_callback();
  ++h->timer_arms;
  h->deadline_ = deadline;
}

void TestHost::cb_rx_ready(void* o) {
  auto* h = static_cast<TestHost*>(o);
  h->note_callback();
  ++h->rx_ready_calls;
}

void TestHost::cb_trace(void* o, uint64_t now, const char* line) {
  auto* h = static_cast<TestHost*>(o);
  ++h->trace_lines;
  if (h->trace.size() < kMaxTraceLines) h->trace.push_back(std::to_string(now) + " " + line);
}

void TestHost::cb_trace_event(void* o, uint64_t now, unsigned kind, const uint64_t* args) {
  auto* h = static_cast<TestHost*>(o);
  if (h->trace_events.size() < kMaxTraceLines) h->trace_events.push_back({now, kind, {args[0], args[1], args[2]}});
}

void TestHost::cb_pme(void* o) {
  auto* h = static_cast<TestHost*>(o);
  h->note_callback();
  ++h->pme_calls;
}

}  // namespace rtl8168_test
