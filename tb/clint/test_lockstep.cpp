// RTL <-> SystemC lockstep: the Verilated hw/rtl/lcf_arbiter.sv and the SystemC LcfArbiterSc
// see the same clock, reset, arb strobe and random request matrices; their grants must be
// identical after every clock edge. Stimulus mixes densities, adversarial shapes (full matrix,
// one hot column, one hot row, permutations), persistent requests that stay until granted (the
// bulk scheduler's real pattern, which exercises the starvation path), arb-idle cycles and
// mid-run resets. A mismatch prints the cycle, the request matrix and both grant sets.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fmt/format.h>
#include <memory>
#include <string>
#include <systemc>
#include <verilated.h>
#include <verilated_vcd_sc.h>

#include "Vlcf_arbiter_16.h"
#include "Vlcf_arbiter_4.h"
#include "Vlcf_arbiter_8.h"
#include "hw/clint/lcf_arbiter_sc.hpp"
#include "hw/base/rng.hpp"

using namespace sanvp;
using namespace sanvp::clint;

namespace {

long env_long(const char* name, long def) {
  const char* v = std::getenv(name);
  return v ? std::strtol(v, nullptr, 10) : def;
}

template <int N, class Rtl>
struct Lockstep : sc_core::sc_module {
  using Bv = sc_dt::sc_bv<N * N>;
  sc_core::sc_clock clk{"clk", 10, sc_core::SC_NS};
  sc_core::sc_signal<bool> rst_n{"rst_n"}, arb{"arb"};
  sc_core::sc_signal<Bv> req{"req"}, gnt_rtl{"gnt_rtl"}, gnt_sc{"gnt_sc"};
  Rtl rtl{"rtl"};
  LcfArbiterSc<N> model{"model"};
  long cycles;
  Rng rng;
  long mismatches = 0, compared = 0, granted_pairs = 0;
  std::string first_report;

  SC_HAS_PROCESS(Lockstep);
  Lockstep(sc_core::sc_module_name nm, long cycles_, std::uint64_t seed)
      : sc_core::sc_module(nm), cycles(cycles_), rng(seed, fmt::format("lockstep{}", N)) {
    rtl.clk(clk);
    rtl.rst_n(rst_n);
    rtl.arb(arb);
    rtl.req(req);
    rtl.gnt(gnt_rtl);
    model.clk(clk);
    model.rst_n(rst_n);
    model.arb(arb);
    model.req(req);
    model.gnt(gnt_sc);
    SC_THREAD(drive);
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

  void drive() {
    RequestMatrix prev(N);
    Grants last(N, -1);
    rst_n.write(false);
    arb.write(false);
    wait(clk.negedge_event());
    rst_n.write(true);
    for (long c = 0; c < cycles; ++c) {
      RequestMatrix m = stimulus(c, prev, last);
      bool do_arb = rng.below(16) != 0;
      bool do_reset = rng.below(20000) == 0;
      req.write(pack(m));
      arb.write(do_arb);
      rst_n.write(!do_reset);
      wait(clk.negedge_event());
      const Bv r = gnt_rtl.read(), s = gnt_sc.read();
      ++compared;
      Grants gr = LcfArbiterSc<N>::unpack_grants(r);
      if (r != s || (do_arb && !do_reset && !check_matching(m, gr).empty())) {
        if (++mismatches <= 5)
          first_report += fmt::format(
              "cycle {} (N={}, arb={}, reset={}): request matrix (row = initiator, col = target)\n{}"
              "RTL grants:     {} [{}]\nSystemC grants: {} [{}]\nmatching check of RTL: {}\n",
              c, N, do_arb, do_reset, m.to_string(), grants_to_string(gr), r.to_string(),
              grants_to_string(LcfArbiterSc<N>::unpack_grants(s)), s.to_string(), check_matching(m, gr));
      }
      if (do_arb && !do_reset) {
        last = gr;
        granted_pairs += matching_size(gr);
      } else {
        last.assign(N, -1);
      }
      prev = m;
    }
    sc_core::sc_stop();
  }
};

// Under ASan/UBSan (the asan preset, -O0) the Verilated model runs ~20x slower: the sanitizer
// run checks memory safety on a tenth of the cycles; the default preset runs the full million.
#if defined(__SANITIZE_ADDRESS__)
constexpr long kCycleDivisor = 10;
#else
constexpr long kCycleDivisor = 1;
#endif

template <int N, class Rtl>
void run_lockstep(long default_cycles) {
  long cycles = env_long("SANVP_LOCKSTEP_CYCLES", default_cycles / kCycleDivisor);
  if (kCycleDivisor != 1) fmt::print("lockstep: sanitizer build, {} cycles instead of {}\n", cycles, default_cycles);
  long vcd_cycles = env_long("SANVP_LOCKSTEP_VCD_CYCLES", 5000);
  std::uint64_t seed = static_cast<std::uint64_t>(env_long("SANVP_SEED", 1));
  Verilated::traceEverOn(true);
  auto tb = std::make_unique<Lockstep<N, Rtl>>("tb", cycles, seed);
  std::unique_ptr<VerilatedVcdSc> vcd;
  std::string vcd_path = fmt::format("lcf_arbiter_n{}.vcd", N);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaborate before attaching the trace
  if (vcd_cycles > 0) {
    vcd = std::make_unique<VerilatedVcdSc>();
    tb->rtl.trace(vcd.get(), 99);
    vcd->open(vcd_path.c_str());
    sc_core::sc_start(sc_core::sc_time(10.0 * static_cast<double>(std::min(vcd_cycles, cycles) + 1), sc_core::SC_NS));
    vcd->close();
  }
  if (sc_core::sc_get_status() != sc_core::SC_STOPPED) sc_core::sc_start();
  tb->rtl.final();
  fmt::print("lockstep N={} seed={}: {} cycles compared, {} mismatches, {} pairs granted, VCD {} ({} cycles)\n", N,
             seed, tb->compared, tb->mismatches, tb->granted_pairs, vcd_path, std::min(vcd_cycles, cycles));
  INFO(tb->first_report);
  CHECK(tb->compared == cycles);
  CHECK(tb->granted_pairs > cycles / 2);
  REQUIRE(tb->mismatches == 0);
}

}  // namespace

// 1,000,000 compared cycles for every size (the N=16 model takes ~45 s of it in Release).
constexpr long kLockstepCycles = 1000000;
TEST_CASE("LCF RTL and SystemC grant identically every cycle for N=4", "[lockstep]") {
  run_lockstep<4, Vlcf_arbiter_4>(kLockstepCycles);
}
TEST_CASE("LCF RTL and SystemC grant identically every cycle for N=8", "[lockstep]") {
  run_lockstep<8, Vlcf_arbiter_8>(kLockstepCycles);
}
TEST_CASE("LCF RTL and SystemC grant identically every cycle for N=16", "[lockstep]") {
  run_lockstep<16, Vlcf_arbiter_16>(kLockstepCycles);
}
