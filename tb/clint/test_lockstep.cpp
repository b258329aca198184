// RTL <-> SystemC lockstep under the harness of tb/rtl/lockstep.hpp: the Verilated
// hw/rtl/lcf_arbiter.sv and the SystemC LcfArbiterSc see the same clock, reset, arb strobe and
// random request matrices; their grants must be identical after every clock edge, and the RTL's
// grants must be a valid matching of the requests. Stimulus mixes densities, adversarial shapes
// (full matrix, one hot column, one hot row, permutations), persistent requests that stay until
// granted (the bulk scheduler's real pattern, which exercises the starvation path), arb-idle
// cycles and mid-run resets. The first failure reports the cycle, both grant sets and the stimulus
// of the last cycles.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <memory>
#include <string>
#include <systemc>

#include "Vlcf_arbiter_16.h"
#include "Vlcf_arbiter_4.h"
#include "Vlcf_arbiter_8.h"
#include "hw/base/rng.hpp"
#include "hw/clint/lcf_arbiter_sc.hpp"
#include "tb/rtl/lockstep.hpp"

using namespace sanvp;
using namespace sanvp::clint;

namespace {

template <int N, class Rtl>
struct Bench : sc_core::sc_module {
  using Bv = sc_dt::sc_bv<N * N>;
  tb::Lockstep ls;  // first: it sets up Verilator tracing before the RTL is built
  sc_core::sc_signal<bool> arb{"arb"};
  sc_core::sc_signal<Bv> req{"req"}, gnt_rtl{"gnt_rtl"}, gnt_sc{"gnt_sc"};
  Rtl rtl{"rtl"};
  LcfArbiterSc<N> model{"model"};
  Rng rng;
  long granted_pairs = 0;
  // The stimulus applied at the last edge.
  bool driven = false, do_arb = false, do_reset = false;
  long stimuli = 0;
  RequestMatrix m{N}, prev{N};
  Grants last = Grants(N, -1);

  Bench(sc_core::sc_module_name nm, const tb::LockstepOptions& opt)
      : sc_core::sc_module(nm), ls("ls", opt), rng(ls.options().seed, fmt::format("lockstep{}", N)) {
    rtl.clk(ls.clk);
    rtl.rst_n(ls.rst_n);
    rtl.arb(arb);
    rtl.req(req);
    rtl.gnt(gnt_rtl);
    model.clk(ls.clk);
    model.rst_n(ls.rst_n);
    model.arb(arb);
    model.req(req);
    model.gnt(gnt_sc);
    ls.attach_rtl(rtl);
    ls.input("arb", arb);
    ls.input("req", req);
    ls.output("gnt", gnt_rtl, gnt_sc, tb::Lockstep::Format<Bv>([](const Bv& g) {
      return tb::lockstep_format(g) + " [" + grants_to_string(LcfArbiterSc<N>::unpack_grants(g)) + "]";
    }));
    ls.on_edge([this] { check(); });
    ls.drive([this] { drive(); });
  }

  RequestMatrix stimulus(long cycle, const RequestMatrix& prev, const Grants& last_grants) {
    RequestMatrix m(N);
    long phase = (cycle / 997) % 8;
    double density = 0.05 + 0.12 * static_cast<double>((cycle / 131) % 8);
    switch (phase) {
      case 0: case 1: case 2:  // independent random matrices
        for (int i = 0; i < N; ++i)
          for (int t = 0; t < N; ++t) m.set(i, t, rng.uniform01() < density);
        break;
      case 3: {  // persistent: granted requests leave, new ones arrive
        m = prev;
        for (int i = 0; i < N; ++i)
          if (last_grants[static_cast<std::size_t>(i)] >= 0) m.set(i, last_grants[static_cast<std::size_t>(i)], false);
        for (int i = 0; i < N; ++i)
          for (int t = 0; t < N; ++t)
            if (rng.uniform01() < density / 4) m.set(i, t);
        break;
      }
      case 4:  // full matrix
        for (int i = 0; i < N; ++i) m.rows[static_cast<std::size_t>(i)] = (N == 64) ? ~0ull : ((1ull << N) - 1);
        break;
      case 5: {  // hot column + hot row: many initiators want one target
        int hot = static_cast<int>(rng.below(N));
        for (int i = 0; i < N; ++i) m.set(i, hot);
        for (int t = 0; t < N; ++t) m.set(hot, t);
        break;
      }
      case 6: {  // adversarial for pure LCF: 0 requests everything, k only k (see test_arbiters)
        for (int t = 0; t < N; ++t) m.set(0, t);
        for (int i = 1; i < N; ++i) m.set(i, i);
        break;
      }
      default: {  // random permutation plus noise
        std::vector<int> p(N);
        for (int i = 0; i < N; ++i) p[static_cast<std::size_t>(i)] = i;
        for (int i = N - 1; i > 0; --i) std::swap(p[static_cast<std::size_t>(i)], p[rng.below(static_cast<std::uint64_t>(i) + 1)]);
        for (int i = 0; i < N; ++i) m.set(i, p[static_cast<std::size_t>(i)]);
        for (int k = 0; k < N / 2; ++k) m.set(static_cast<int>(rng.below(N)), static_cast<int>(rng.below(N)));
      }
    }
    return m;
  }

  static Bv pack(const RequestMatrix& m) {
    Bv v;
    for (int i = 0; i < N; ++i)
      for (int t = 0; t < N; ++t)
        if (m.get(i, t)) v[i * N + t] = sc_dt::SC_LOGIC_1;
    return v;
  }

  // RTL and model agree after this edge: the RTL's grants must also be a matching of the requests.
  void check() {
    if (!driven) return;
    const Grants gr = LcfArbiterSc<N>::unpack_grants(gnt_rtl.read());
    if (do_arb && !do_reset) {
      const std::string bad = check_matching(m, gr);
      if (!bad.empty())
        return ls.fail(fmt::format("RTL grants {} are no matching of the requests (row = initiator, col = "
                                   "target):\n{}{}", grants_to_string(gr), m.to_string(), bad));
      last = gr;
      granted_pairs += matching_size(gr);
    } else {
      last.assign(N, -1);
    }
    prev = m;
  }

  void drive() {
    m = stimulus(stimuli++, prev, last);
    do_arb = rng.below(16) != 0;
    do_reset = rng.below(20000) == 0;
    req.write(pack(m));
    arb.write(do_arb);
    ls.rst_n.write(!do_reset);
    driven = true;
  }
};

// Under ASan/UBSan (the asan preset, -O0) the Verilated model runs ~20x slower: the sanitizer
// run checks memory safety on a tenth of the cycles; the default preset runs the full million.
#if defined(__SANITIZE_ADDRESS__)
constexpr long kCycleDivisor = 10;
#else
constexpr long kCycleDivisor = 1;
#endif

constexpr std::uint64_t kResetCycles = 1;

template <int N, class Rtl>
void run_lockstep(std::uint64_t stimulus_cycles) {
  tb::LockstepOptions o;
  o.reset_cycles = kResetCycles;
  o.cycles = kResetCycles + stimulus_cycles / kCycleDivisor;
  if (kCycleDivisor != 1) fmt::print("lockstep: sanitizer build, {} cycles instead of {}\n", o.cycles, stimulus_cycles);
  o.vcd = fmt::format("lcf_arbiter_n{}.vcd", N);
  o.vcd_cycles = 5000;
  auto bench = std::make_unique<Bench<N, Rtl>>("tb", o);
  const tb::LockstepResult r = bench->ls.run();
  const tb::LockstepOptions& opt = bench->ls.options();
  fmt::print("lockstep N={} seed={}: {} cycles compared, {} pairs granted, VCD {} (cycles {}..{})\n", N, opt.seed,
             r.cycles, bench->granted_pairs, opt.vcd, opt.vcd_from, opt.vcd_from + opt.vcd_cycles);
  INFO(r.report);
  REQUIRE(r.ok());
  CHECK(r.cycles == opt.cycles);
  CHECK(bench->granted_pairs > static_cast<long>(opt.cycles / 2));
}

}  // namespace

// 1,000,000 cycles of stimulus for every size, each compared (the N=16 model takes ~45 s of it
// in Release), after one reset edge.
constexpr std::uint64_t kLockstepCycles = 1000000;
TEST_CASE("LCF RTL and SystemC grant identically every cycle for N=4", "[lockstep]") {
  run_lockstep<4, Vlcf_arbiter_4>(kLockstepCycles);
}
TEST_CASE("LCF RTL and SystemC grant identically every cycle for N=8", "[lockstep]") {
  run_lockstep<8, Vlcf_arbiter_8>(kLockstepCycles);
}
TEST_CASE("LCF RTL and SystemC grant identically every cycle for N=16", "[lockstep]") {
  run_lockstep<16, Vlcf_arbiter_16>(kLockstepCycles);
}
