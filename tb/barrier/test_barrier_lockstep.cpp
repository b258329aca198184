// RTL <-> SystemC lockstep equivalence of the barrier unit (>= 1 million compared cycles in
// total across the cases below), plus a self-test proving the checker catches a divergence.
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "tb/barrier/lockstep.hpp"

using namespace sanvp::barrier::tb;

namespace {

void require_clean(const LockstepResult& r, std::uint64_t cycles) {
  INFO(r.report << r.scoreboard_error);
  REQUIRE_FALSE(r.mismatch);
  REQUIRE(r.scoreboard_error.empty());
  REQUIRE(r.cycles == cycles);
}

void print(const char* what, const LockstepOptions& o, const LockstepResult& r) {
  std::cout << what << ": seed " << o.seed << ", " << r.cycles << " cycles identical; messages in "
            << r.messages_in << " out " << r.messages_out << " (REDUCE " << r.reduces_out << ")"
            << ", episodes " << r.episodes << ", allocs ok " << r.allocs_ok << " full " << r.allocs_full
            << ", releases " << r.releases << ", bad config " << r.config_errors << ", drops " << r.drops
            << ", stalled port-cycles " << r.stall_cycles << "; drops by reason";
  for (auto d : r.drop_reasons) std::cout << ' ' << d;
  std::cout << "\n";
}

}  // namespace

TEST_CASE("lockstep protocol mode, NREGS=4: 1.5M cycles identical, scoreboard clean, VCD written") {
  LockstepOptions o;
  o.cycles = 1500000;
  o.seed = 1;
  o.vcd = "barrier_unit_lockstep.vcd";
  o.vcd_cycles = 10000;
  const auto r = run_lockstep_r4(o);
  print("protocol r4", o, r);
  require_clean(r, o.cycles);
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
  LockstepOptions o;
  o.cycles = 1000000;
  o.seed = 2;
  const auto r = run_lockstep_r5(o);
  print("protocol r5", o, r);
  require_clean(r, o.cycles);
  CHECK(r.episodes > 1000);
  CHECK(r.allocs_full > 10);
}

TEST_CASE("lockstep chaos mode, NREGS=4: 500k cycles of unconstrained stimulus identical") {
  LockstepOptions o;
  o.cycles = 500000;
  o.seed = 3;
  o.chaos = true;
  const auto r = run_lockstep_r4(o);
  print("chaos r4", o, r);
  require_clean(r, o.cycles);
  CHECK(r.reduces_out > 1000);
  for (int i = 0; i < 6; ++i) CHECK(r.drop_reasons[i] > 0);  // every drop path, in both models
}

TEST_CASE("lockstep chaos mode, NREGS=5: 500k cycles of unconstrained stimulus identical") {
  LockstepOptions o;
  o.cycles = 500000;
  o.seed = 4;
  o.chaos = true;
  const auto r = run_lockstep_r5(o);
  print("chaos r5", o, r);
  require_clean(r, o.cycles);
  CHECK(r.reduces_out > 1000);
  for (int i = 0; i < 6; ++i) CHECK(r.drop_reasons[i] > 0);  // every drop path, in both models
}

TEST_CASE("lockstep checker reports the first divergence with cycle, inputs and both outputs") {
  LockstepOptions o;
  o.cycles = 5000;
  o.seed = 1;
  o.fault_at = 1234;
  const auto r = run_lockstep_r4(o);
  REQUIRE(r.mismatch);
  CHECK(r.mismatch_cycle == 1234);
  CHECK(r.report.find("cycle 1234") != std::string::npos);
  CHECK(r.report.find("inputs :") != std::string::npos);
  CHECK(r.report.find("golden :") != std::string::npos);
  CHECK(r.report.find("rtl    :") != std::string::npos);
  std::cout << r.report;
}

TEST_CASE("lockstep protocol mode, NPORTS=16, NREGS=6: 400k cycles identical, scoreboard clean") {
  LockstepOptions o;
  o.cycles = 400000;
  o.seed = 5;
  const auto r = run_lockstep_p16(o);
  print("protocol p16", o, r);
  require_clean(r, o.cycles);
  CHECK(r.episodes > 1000);
  CHECK(r.allocs_full > 10);
  CHECK(r.releases > 100);
}

TEST_CASE("lockstep NPORTS=16, NREGS=6 chaos: 300k cycles identical") {
  LockstepOptions o;
  o.cycles = 300000;
  o.seed = 6;
  o.chaos = true;
  const auto r = run_lockstep_p16(o);
  print("chaos p16", o, r);
  require_clean(r, o.cycles);
  CHECK(r.reduces_out > 1000);
  for (int i = 0; i < 6; ++i) CHECK(r.drop_reasons[i] > 0);
}
