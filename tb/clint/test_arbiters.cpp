// Properties of the bulk-scheduler arbiters (hw/clint/arbiter.hpp) on random and adversarial
// request matrices: matchings of requested pairs only, LCF maximality and starvation bound,
// LCF matching size against iSLIP (round robin) and maximum-size matching.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "hw/clint/arbiter.hpp"
#include "hw/base/error.hpp"
#include "hw/base/rng.hpp"

using namespace sanvp;
using namespace sanvp::clint;

namespace {

RequestMatrix random_matrix(Rng& rng, int n, double p) {
  RequestMatrix m(n);
  for (int i = 0; i < n; ++i)
    for (int t = 0; t < n; ++t) m.set(i, t, rng.uniform01() < p);
  return m;
}

// Pure LCF's worst case: initiator 0 requests every target, initiator k (k >= 1) only target k.
// Target 0 has one requester, so least choice first always gives it to initiator 0 and then each
// target k to initiator k: the pairs (0, k >= 1) are never served without the priority position.
RequestMatrix adversarial(int n) {
  RequestMatrix m(n);
  for (int t = 0; t < n; ++t) m.set(0, t);
  for (int i = 1; i < n; ++i) m.set(i, i);
  return m;
}

std::vector<RequestMatrix> shapes(int n, Rng& rng) {
  std::vector<RequestMatrix> v;
  RequestMatrix full(n), col(n), row(n), diag(n), empty(n);
  for (int i = 0; i < n; ++i)
    for (int t = 0; t < n; ++t) { full.set(i, t); }
  for (int i = 0; i < n; ++i) { col.set(i, n / 2); row.set(n / 2, i); diag.set(i, (i + 1) % n); }
  v.insert(v.end(), {full, col, row, diag, empty, adversarial(n)});
  for (double p : {0.02, 0.1, 0.3, 0.6, 0.95})
    for (int k = 0; k < 200; ++k) v.push_back(random_matrix(rng, n, p));
  return v;
}

bool maximal(const RequestMatrix& r, const Grants& g) {
  std::uint64_t tu = 0;
  for (int t : g) if (t >= 0) tu |= std::uint64_t{1} << t;
  for (int i = 0; i < r.size(); ++i) {
    if (g[static_cast<std::size_t>(i)] >= 0) continue;
    if (r.rows[static_cast<std::size_t>(i)] & ~tu) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("every arbiter grants a matching of requested pairs only", "[arbiter]") {
  for (const char* name : {"lcf", "islip", "maxsize"}) {
    for (int n : {1, 2, 3, 4, 5, 8, 16, 32}) {
      auto arb = make_arbiter(name, n, 4);
      Rng rng(7, fmt::format("{}{}", name, n));
      for (const auto& m : shapes(n, rng)) {
        Grants g = arb->arbitrate(m);
        std::string err = check_matching(m, g);
        INFO(name << " N=" << n << "\n" << m.to_string() << grants_to_string(g));
        REQUIRE(err.empty());
        if (std::string(name) != "islip") REQUIRE(maximal(m, g));
      }
    }
  }
}

TEST_CASE("unknown arbiter names and sizes are user errors", "[arbiter]") {
  REQUIRE_THROWS_AS(make_arbiter("fifo", 16), UserError);
  REQUIRE_THROWS_AS(make_arbiter("lcf", 0), UserError);
  REQUIRE_THROWS_AS(make_arbiter("lcf", 65), UserError);
  REQUIRE_THROWS_AS(make_arbiter("islip", 4, 0), UserError);
}

TEST_CASE("maxsize finds the perfect matching a greedy choice would miss", "[arbiter]") {
  // 0 wants {0,1}, 1 wants {0}: greedy 0->0 leaves 1 unmatched; the maximum is 0->1, 1->0.
  RequestMatrix m(2);
  m.set(0, 0); m.set(0, 1); m.set(1, 0);
  MaxSizeArbiter a(2);
  for (int k = 0; k < 4; ++k) REQUIRE(matching_size(a.arbitrate(m)) == 2);
  // LCF serves initiator 1 (one choice) first, except when its round-robin priority position
  // sits on (0, 0): then the forced pair costs one grant (r = 0, d = 0 is the first cycle).
  LcfArbiter l(2);
  std::vector<int> sizes;
  for (int k = 0; k < 4; ++k) sizes.push_back(matching_size(l.arbitrate(m)));
  REQUIRE(sizes == std::vector<int>{1, 2, 2, 2});
}

TEST_CASE("LCF starvation bound N*N holds under the adversarial pattern where pure LCF starves", "[arbiter][starvation]") {
  for (int n : {4, 8, 16}) {
    const long bound = static_cast<long>(n) * n;
    const RequestMatrix m = adversarial(n);
    // Requests held forever: every pair must be granted at least once in every window of N*N cycles.
    LcfArbiter lcf(n);
    std::vector<long> last(static_cast<std::size_t>(n * n), -1);
    long worst = 0;
    for (long c = 0; c < 20 * bound; ++c) {
      Grants g = lcf.arbitrate(m);
      for (int i = 0; i < n; ++i)
        if (int t = g[static_cast<std::size_t>(i)]; t >= 0) last[static_cast<std::size_t>(i * n + t)] = c;
      for (int i = 0; i < n; ++i)
        for (int t = 0; t < n; ++t)
          if (m.get(i, t)) worst = std::max(worst, c - last[static_cast<std::size_t>(i * n + t)]);
    }
    INFO("N=" << n << " worst gap " << worst);
    REQUIRE(worst <= bound);
    // Without the round-robin priority position the pairs (0, k >= 1) are never granted.
    LcfArbiter pure(n, false);
    long served_other = 0, served_00 = 0;
    for (long c = 0; c < 20 * bound; ++c) {
      int t = pure.arbitrate(m)[0];
      served_other += t >= 1;
      served_00 += t == 0;
    }
    REQUIRE(served_00 == 20 * bound);
    REQUIRE(served_other == 0);
  }
}

TEST_CASE("LCF starvation bound holds for queued requests that stay until granted", "[arbiter][starvation]") {
  for (int n : {4, 8, 16}) {
    for (double p : {0.05, 0.2, 0.6}) {
      LcfArbiter lcf(n);
      Rng rng(3, fmt::format("queue{}{}", n, p));
      RequestMatrix m(n);
      std::vector<long> since(static_cast<std::size_t>(n * n), -1);
      long worst = 0;
      for (long c = 0; c < 50000; ++c) {
        for (int i = 0; i < n; ++i)
          for (int t = 0; t < n; ++t)
            if (!m.get(i, t) && rng.uniform01() < p) { m.set(i, t); since[static_cast<std::size_t>(i * n + t)] = c; }
        Grants g = lcf.arbitrate(m);
        REQUIRE(check_matching(m, g).empty());
        for (int i = 0; i < n; ++i)
          if (int t = g[static_cast<std::size_t>(i)]; t >= 0) {
            worst = std::max(worst, c - since[static_cast<std::size_t>(i * n + t)] + 1);
            m.set(i, t, false);
          }
      }
      INFO("N=" << n << " p=" << p << " worst wait " << worst << " cycles");
      REQUIRE(worst <= static_cast<long>(n) * n);
    }
  }
}

// The property LCF guarantees is maximality (so size >= ceil(max/2), like any maximal matching);
// it does not guarantee size >= iSLIP's on every input. This test measures how often iSLIP
// finds a larger matching on the same input sequence, prints the first counterexamples, and
// holds the measured rates and means to the figures documented in docs/clint.md.
TEST_CASE("LCF matching size against iSLIP and maximum matching on the same inputs", "[arbiter][quality]") {
  for (int n : {4, 8, 16}) {
    for (double p : {0.1, 0.25, 0.5, 0.75}) {
      LcfArbiter lcf(n);
      IslipArbiter rr1(n, 1), rr4(n, 4);
      MaxSizeArbiter mx(n);
      Rng rng(11, fmt::format("q{}{}", n, p));
      const long cycles = 20000;
      long below1 = 0, below4 = 0, above1 = 0;
      double sl = 0, s1 = 0, s4 = 0, sm = 0;
      std::string examples;
      for (long c = 0; c < cycles; ++c) {
        RequestMatrix m = random_matrix(rng, n, p);
        int a = matching_size(lcf.arbitrate(m)), b1 = matching_size(rr1.arbitrate(m)),
            b4 = matching_size(rr4.arbitrate(m)), x = matching_size(mx.arbitrate(m));
        REQUIRE(2 * a >= x);
        REQUIRE(a <= x);
        below1 += a < b1;
        below4 += a < b4;
        above1 += a > b1;
        if (a < b4 && examples.size() < 400)
          examples += fmt::format("cycle {} lcf {} < islip4 {}:\n{}", c, a, b4, m.to_string());
        sl += a; s1 += b1; s4 += b4; sm += x;
      }
      const double r1 = 100.0 * below1 / cycles, r4 = 100.0 * below4 / cycles;
      fmt::print("N={:2} p={:.2f}: LCF/max {:.4f}  iSLIP1/max {:.4f}  iSLIP4/max {:.4f}  LCF<iSLIP1 {:.3f}%  LCF>iSLIP1 {:.3f}%  LCF<iSLIP4 {:.3f}%\n",
                 n, p, sl / sm, s1 / sm, s4 / sm, r1, 100.0 * above1 / cycles, r4);
      if (below4 > 0) fmt::print("  first inputs where iSLIP4 beats LCF:\n{}", examples);
      INFO("N=" << n << " p=" << p);
      CHECK(sl / sm >= 0.96);  // mean within 4 % of maximum matching
      CHECK(sl >= s1);         // never worse on average than round robin
      CHECK(sl >= s4);
      CHECK(r1 < 2.5);         // per-input violations are rare (documented in docs/clint.md)
      CHECK(r4 < 5.0);
    }
  }
}
