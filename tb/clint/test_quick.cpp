// Quick channel (Q1, Q2): timing from the parameters, collision rules (only qreq dropped),
// retransmission until delivery, scoreboard without loss or duplicate delivery.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <map>
#include <set>
#include <systemc>

#include "hw/clint/quick_channel.hpp"
#include "hw/base/error.hpp"
#include "hw/base/rng.hpp"

using namespace sanvp;
using namespace sanvp::clint;

namespace {
sc_core::sc_time ps(Time t) { return sc_core::sc_time::from_value(t); }

struct Board {
  std::map<std::pair<int, int>, std::uint64_t> next;
  std::set<std::uint64_t> delivered, completed;
  std::map<std::uint64_t, Time> at;
  std::uint64_t errors = 0;
  std::string first;
  void fail(const std::string& s) { if (errors++ == 0) first = s; }
  void attach(QuickChannel& q) {
    q.on_deliver = [this](const Packet& p, Time t) {
      auto& e = next[{p.src, p.dst}];
      if (p.seq != e) fail(fmt::format("{}->{} seq {} expected {}", p.src, p.dst, p.seq, e));
      e = p.seq + 1;
      if (!delivered.insert(p.id).second) fail(fmt::format("packet {} delivered twice", p.id));
      at[p.id] = t;
    };
    q.on_complete = [this](const Packet& p, Time) {
      if (!delivered.count(p.id)) fail(fmt::format("packet {} acknowledged before delivery", p.id));
      if (!completed.insert(p.id).second) fail(fmt::format("packet {} completed twice", p.id));
    };
  }
};

QuickConfig exact() {
  QuickConfig c;
  c.backoff = 0;  // deterministic retransmission times
  return c;
}
}  // namespace

TEST_CASE("a single qreq and its qack take the parameterised path times", "[quick]") {
  QuickConfig c = exact();
  QuickChannel q("quick", c, TrafficConfig{}, 4, 1, 0);
  q.set_manual_traffic(true);
  const Time born = 1 * kUs;  // outside the bulk signalling window at the slot boundary
  q.inject(0, 1, born);
  Time d = 0, k = 0;
  q.on_deliver = [&](const Packet&, Time t) { d = t; };
  q.on_complete = [&](const Packet&, Time t) { k = t; };
  sc_core::sc_start(ps(20 * kUs));
  const Time qreq = 36 * c.byte_time, qack = 4 * c.byte_time;
  CHECK(qreq == 545472);
  CHECK(d == born + c.wire_delay + c.switch_latency + qreq + c.wire_delay);
  CHECK(k == d + c.wire_delay + c.switch_latency + qack + c.wire_delay);
  CHECK(q.stats().lat_max == 0);  // transmission began at birth
  CHECK(q.stats().collisions == 0);
}

TEST_CASE("no qreq starts inside the bulk signalling window", "[quick]") {
  QuickConfig c = exact();
  QuickChannel q("quick", c, TrafficConfig{}, 4, 1, 0);
  q.set_manual_traffic(true);
  q.inject(0, 1, c.bulk_slot - 100 * kNs);  // would overlap the window at the next boundary
  Time d = 0;
  q.on_deliver = [&](const Packet&, Time t) { d = t; };
  sc_core::sc_start(ps(30 * kUs));
  const Time start = c.bulk_slot + 27 * c.byte_time;
  CHECK(d == start + 2 * c.wire_delay + c.switch_latency + 36 * c.byte_time);
}

TEST_CASE("simultaneous qreqs: round robin picks one and the loser is dropped and retransmitted after the timeout", "[quick]") {
  QuickConfig c = exact();
  QuickChannel q("quick", c, TrafficConfig{}, 4, 1, 0);
  q.set_manual_traffic(true);
  const Time born = 1 * kUs;
  q.inject(0, 1, born);
  q.inject(2, 1, born);
  Board b;
  b.attach(q);
  std::map<int, Time> when;
  auto d = q.on_deliver;
  q.on_deliver = [&](const Packet& p, Time t) { d(p, t); when[p.src] = t; };
  sc_core::sc_start(ps(20 * kUs));
  const Time transit = 2 * c.wire_delay + c.switch_latency + 36 * c.byte_time;
  INFO(b.first);
  REQUIRE(b.errors == 0);
  CHECK(q.stats().collisions == 1);
  CHECK(q.stats().collisions_with_ack == 0);
  CHECK(when.at(0) == born + transit);              // pointer starts at input 0
  CHECK(when.at(2) == born + c.timeout + transit);  // fixed timeout, no back-off
  CHECK(q.stats().timeouts == 1);
}

TEST_CASE("Q1 drops a qreq hit by an ack while Q2 interleaves it and drops nothing for acks", "[quick]") {
  // Both channels elaborate before the kernel starts (SystemC cannot add modules later).
  std::vector<std::unique_ptr<QuickChannel>> qs;
  std::vector<std::unique_ptr<Board>> bs;
  QuickConfig c = exact();
  const Time qreq = 36 * c.byte_time;
  // 1 -> 0 is delivered at d; the qack 0 -> 1 reaches output 1 while 2 -> 1 streams through it.
  const Time d = 1 * kUs + 2 * c.wire_delay + c.switch_latency + qreq;
  for (bool interleave : {false, true}) {
    c.interleave = interleave;
    qs.push_back(std::make_unique<QuickChannel>(interleave ? "q2" : "q1", c, TrafficConfig{}, 4, 1, 0));
    qs.back()->set_manual_traffic(true);
    qs.back()->inject(1, 0, 1 * kUs);
    qs.back()->inject(2, 1, d + c.wire_delay - qreq / 2);
    bs.push_back(std::make_unique<Board>());
    bs.back()->attach(*qs.back());
  }
  sc_core::sc_start(ps(30 * kUs));
  for (int k = 0; k < 2; ++k) {
    const bool interleave = k == 1;
    auto& q = *qs[static_cast<std::size_t>(k)];
    auto& b = *bs[static_cast<std::size_t>(k)];
    INFO("interleave=" << interleave << " " << b.first);
    REQUIRE(b.errors == 0);
    CHECK(b.delivered.size() == 2);
    CHECK(b.completed.size() == 2);
    CHECK(q.stats().collisions_with_ack == (interleave ? 0u : 1u));
    CHECK(q.stats().collisions == (interleave ? 0u : 1u));
  }
}

TEST_CASE("heavy quick traffic: every qreq delivered exactly once and in order despite collisions", "[quick]") {
  std::vector<std::unique_ptr<QuickChannel>> qs;
  std::vector<std::unique_ptr<Board>> bs;
  std::uint64_t n = 0;
  QuickConfig c;
  for (bool interleave : {false, true}) {
    c.interleave = interleave;
    qs.push_back(std::make_unique<QuickChannel>(interleave ? "q2" : "q1", c, TrafficConfig{}, 16, 1, 0));
    auto& q = *qs.back();
    q.set_manual_traffic(true);
    Rng rng(4, "inject");
    n = 0;
    for (int h = 0; h < 16; ++h) {
      Time t = 0;
      for (int k = 0; k < 400; ++k) {
        t += static_cast<Time>(rng.uniform01() * 4.0 * static_cast<double>(c.qreq_time()));  // load ~0.5
        int dst = static_cast<int>(rng.below(15));
        q.inject(h, dst >= h ? dst + 1 : dst, t);
        ++n;
      }
    }
    bs.push_back(std::make_unique<Board>());
    bs.back()->attach(q);
  }
  sc_core::sc_start(ps(20 * kMs));
  for (int k = 0; k < 2; ++k) {
    const bool interleave = k == 1;
    auto& q = *qs[static_cast<std::size_t>(k)];
    auto& b = *bs[static_cast<std::size_t>(k)];
    INFO("interleave=" << interleave << " " << b.first);
    REQUIRE(b.errors == 0);
    CHECK(q.stats().collisions > 50);
    CHECK(b.delivered.size() == n);
    CHECK(b.completed.size() == n);
    CHECK(q.backlog() == 0);
    CHECK(q.stats().acks_sent == q.stats().acks_received);  // collisions drop only qreqs
    CHECK(q.stats().acks_sent >= n);
    if (interleave) CHECK(q.stats().collisions_with_ack == 0);
  }
}

TEST_CASE("a corrupted qreq gets no qack and is retransmitted after the timeout", "[quick][crc]") {
  QuickConfig c = exact();
  QuickChannel q("quick", c, TrafficConfig{}, 4, 1, 0);
  q.set_manual_traffic(true);
  const Time born = 1 * kUs;
  q.inject(3, 2, born);
  q.corrupt_next(3, 2);
  Board b;
  b.attach(q);
  std::vector<Time> when;
  auto d = q.on_deliver;
  q.on_deliver = [&](const Packet& p, Time t) { d(p, t); when.push_back(t); };
  sc_core::sc_start(ps(20 * kUs));
  INFO(b.first);
  REQUIRE(b.errors == 0);
  CHECK(q.stats().crc_errors == 1);
  CHECK(q.stats().timeouts == 1);
  REQUIRE(when.size() == 1);
  CHECK(when[0] == born + c.timeout + 2 * c.wire_delay + c.switch_latency + 36 * c.byte_time);
  CHECK(b.completed.size() == 1);
}

TEST_CASE("the quick enable vector keeps a disabled initiator's qreqs from the host", "[quick]") {
  QuickConfig c;
  TrafficConfig t;
  t.load = 0.1;
  QuickChannel q("quick", c, t, 4, 3, 0);
  q.set_enable(2, 0, false);
  std::uint64_t from0to2 = 0, total = 0;
  q.on_deliver = [&](const Packet& p, Time) { ++total; from0to2 += p.src == 0 && p.dst == 2; };
  sc_core::sc_start(ps(2 * kMs));
  CHECK(total > 500);
  CHECK(from0to2 == 0);
}
