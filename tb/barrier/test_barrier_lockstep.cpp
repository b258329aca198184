// RTL <-> SystemC lockstep equivalence of the barrier unit (>= 1 million compared cycles in
// total across the cases below), plus a self-test proving the checker catches a divergence.
#include <catch2/catch.hpp>
#include <fstream>
#include <iostream>

#include "tb/barrier/lockstep.hpp"

using namespace sanvp::barrier::tb;

namespace {

using Runner = LockstepResult (*)(const LockstepOptions&);

void print(const char* what, const LockstepOptions& o, const LockstepResult& r) {
  std::cout << what << ": seed " << o.seed << ", " << r.cycles << " cycles identical; messages in "
            << r.messages_in << " out " << r.messages_out << " (REDUCE " << r.reduces_out << ")"
            << ", episodes " << r.episodes << ", allocs ok " << r.allocs_ok << " full " << r.allocs_full
            << ", releases " << r.releases << ", bad config " << r.config_errors << ", drops " << r.drops
            << ", stalled port-cycles " << r.stall_cycles << "; drops by reason";
  for (auto d : r.drop_reasons) std::cout << ' ' << d;
  std::cout << "\n";
}

// Runs one mode with one seed: every cycle identical, the scoreboard clean.
LockstepResult run_clean(const char* what, Runner run, LockstepOptions o) {
  const auto r = run(o);
  print(what, o, r);
  INFO(r.report);
  REQUIRE(r.ok());
  REQUIRE(r.cycles == o.cycles);
  return r;
}
LockstepResult run_clean(const char* what, Runner run, std::uint64_t cycles, std::uint64_t seed, bool chaos) {
  LockstepOptions o;
  o.cycles = cycles;
  o.seed = seed;
  o.chaos = chaos;
  return run_clean(what, run, o);
}

// Chaos mode reaches every drop path, in both models.
void check_chaos_coverage(const LockstepResult& r) {
  CHECK(r.reduces_out > 1000);
  for (int i = 0; i < 6; ++i) CHECK(r.drop_reasons[i] > 0);
}

}  // namespace

TEST_CASE("lockstep protocol mode, NREGS=4: 1.5M cycles identical, scoreboard clean, VCD written") {
  LockstepOptions o;
  o.cycles = 1500000;
  o.seed = 1;
  o.vcd = "barrier_unit_lockstep.vcd";
  o.vcd_cycles = 10000;
  const auto r = run_clean("protocol r4", run_lockstep_r4, o);
  // The run must have exercised what it claims to verify.
  CHECK(r.episodes > 1000);
  CHECK(r.allocs_ok > 100);
  CHECK(r.allocs_full > 10);  // register exhaustion
  CHECK(r.releases > 100);    // teardown and re-use
  CHECK(r.config_errors > 10);
  CHECK(r.drops > 100);
  CHECK(r.same_cycle_multi_arrivals > 1000);
  CHECK(r.stall_cycles > 1000);
  std::ifstream vcd(o.vcd);
  REQUIRE(vcd.good());
  std::string line;
  bool has_var = false;
  while (std::getline(vcd, line) && !has_var) has_var = line.find("$var") != std::string::npos && line.find("st_drops") != std::string::npos;
  CHECK(has_var);
}

TEST_CASE("lockstep protocol mode, NREGS=5: 1M cycles identical, scoreboard clean") {
  const auto r = run_clean("protocol r5", run_lockstep_r5, 1000000, 2, false);
  CHECK(r.episodes > 1000);
  CHECK(r.allocs_full > 10);
}

TEST_CASE("lockstep chaos mode, NREGS=4: 500k cycles of unconstrained stimulus identical") {
  check_chaos_coverage(run_clean("chaos r4", run_lockstep_r4, 500000, 3, true));
}

TEST_CASE("lockstep chaos mode, NREGS=5: 500k cycles of unconstrained stimulus identical") {
  check_chaos_coverage(run_clean("chaos r5", run_lockstep_r5, 500000, 4, true));
}

TEST_CASE("lockstep checker reports the first divergence with cycle, outputs and stimulus history") {
  LockstepOptions o;
  o.cycles = 5000;
  o.seed = 1;
  o.fault_at = 1234;
  const auto r = run_lockstep_r4(o);
  REQUIRE(r.mismatch);
  CHECK(r.mismatch_cycle == 1234);
  CHECK(r.report.find("lockstep mismatch at cycle 1234 (seed 1)") != std::string::npos);
  CHECK(r.report.find("  X ") != std::string::npos);     // the differing output, with both values
  CHECK(r.report.find("  rtl   ") != std::string::npos);
  CHECK(r.report.find("  model ") != std::string::npos);
  CHECK(r.report.find("stimulus of the last 8 cycles") != std::string::npos);
  CHECK(r.report.find("cycle     1227: rst_n=1 in_valid=") != std::string::npos);
  CHECK(r.report.find("cycle     1234: rst_n=1 in_valid=") != std::string::npos);
  std::cout << r.report;
}

TEST_CASE("lockstep protocol mode, NPORTS=16, NREGS=6: 400k cycles identical, scoreboard clean") {
  const auto r = run_clean("protocol p16", run_lockstep_p16, 400000, 5, false);
  CHECK(r.episodes > 1000);
  CHECK(r.allocs_full > 10);
  CHECK(r.releases > 100);
}

TEST_CASE("lockstep NPORTS=16, NREGS=6 chaos: 300k cycles identical") {
  check_chaos_coverage(run_clean("chaos p16", run_lockstep_p16, 300000, 6, true));
}
