// The FBS firmware on simulated NICs (platform/fbs/fbs_run.hpp): skew measured by probes against
// global time, pinned by bounds derived from the parameters.
#include <catch2/catch.hpp>
#include <algorithm>
#include <string>
#include <vector>

#include "platform/fbs/fbs_analysis.hpp"
#include "platform/fbs/fbs_run.hpp"
#include "tb/common/test_run.hpp"

using namespace sanvp;
using namespace sanvp::fbs;

namespace {

struct Outcome {
  RunResult run;
  const nlohmann::json& fbs() const { return run.report["results"]["fbs"]; }
  std::int64_t after_max() const { return fbs()["skew_after_round"]["max_ps"].get<std::int64_t>(); }
};

Outcome run(ParamValues& pv, const std::string& topo, const std::vector<std::string>& gen) {
  const RunInput in = make_run_input(load_network_arg(topo, gen), "auto");
  return Outcome{run_fbs(pv, test::checked_run_options(), in)};
}

// The single-switch dead zone with the run's guard (auto: ceil((rd + sd) / cp) + 1 bytes).
Ps dead_zone_of(ParamValues& pv) {
  const SkewInputs si = SkewInputs::from_params(pv);
  REQUIRE(min_guard(si) == (100000 + 2000 + 6250 - 1) / 6250 + 1);  // 18 B at the defaults
  return dead_zone(si, min_guard(si));
}

void require_completed(const Outcome& o) {
  REQUIRE(o.run.report["status"] == "completed");
  for (const auto& n : o.fbs()["nics"]) {
    REQUIRE(n["finished"] == true);
    REQUIRE(n["refused_sends"] == 0);
  }
}

}  // namespace

TEST_CASE("identical clocks never pause and keep their boundaries together, without reading global time") {
  ParamValues pv = test::test_params({"fbs.drift=0.001", "fbs.initial_skew=0", "fbs.interval=20", "fbs.rounds=2", "nic.sys.time_access=false"});
  const Outcome o = run(pv, "single", {"ports=8"});
  require_completed(o);
  for (const auto& n : o.fbs()["nics"]) REQUIRE(n["pauses"] == 0);
  REQUIRE(o.after_max() <= 1);  // ps: rounding of the probe-to-boundary correction
  // Every NIC sent its 8 packets per round and received 8 (one from each, itself included).
  for (const auto& n : o.fbs()["nics"]) {
    REQUIRE(n["packets_sent"] == 16);
    REQUIRE(n["packets_received"] == 16);
  }
}

namespace {

// Figure 1 on two NICs: n1 starts `lead` ps past the dead zone ahead of n0 (ticks are 1 ns),
// both clocks exact. With `switches` > 1 the two NICs sit at the two ends of a chain of switches
// (SSS: slot 0 the U-turns, slot 1 each to the other), so n1's packet meets n0's U-turn at n0's
// switch after crossing p2 = switches, n0's after p1 = 1.
void figure1(Ps lead, int switches = 1) {
  ParamValues probe = test::test_params({});
  const Ps dead = dead_zone_of(probe);  // 348 ns at the defaults
  REQUIRE(dead == (53 + 18 + 1) * 6250 - 100000 - 2000);
  const SkewInputs si = SkewInputs::from_params(probe);
  const Ps zone = path_dead_zone(si, min_guard(si), 1, switches);
  REQUIRE(zone == dead + (switches - 1) * (17000 + 100000 + 2000));  // + ld + rd + sd per switch before the blocking one
  const std::string offset = "n1.fbs.offset_ticks=-" + std::to_string((zone + lead) / 1000);
  ParamValues pv = test::test_params({"fbs.drift=0.001", "fbs.initial_skew=0", "fbs.interval=10", "fbs.rounds=1", offset.c_str()});
  const NetworkArg net = switches == 1   ? load_network_arg("single", {"ports=2"})
                         : switches == 2 ? load_network_arg("mesh", {"rows=1", "cols=2", "nodes=1", "ports=6"})
                                         : load_network_arg(std::string(SANVP_SOURCE_DIR) + "/tb/fbs/chain-3.yaml", {});
  REQUIRE(net.topo.nodes.size() == 2);
  const Outcome o{run_fbs(pv, test::checked_run_options(), make_run_input(net, "sss"))};
  require_completed(o);
  const auto& n1 = o.fbs()["nics"][1];
  const std::int64_t after = o.fbs()["rounds"][0]["skew_after_ps"].get<std::int64_t>();
  const Ps x = zone + lead;
  if (x < zone) {  // granted before its slack buffer reached ks: no STOP, the lead stays
    REQUIRE(n1["pauses"] == 0);
    REQUIRE(std::llabs(after - x) <= 2);  // ps
  } else {  // STOP: paused for the lead less what stays ahead
    REQUIRE(n1["pauses"] == 1);
    REQUIRE(after > 0);
    REQUIRE(after < zone);
    REQUIRE(std::llabs(n1["paused_ticks"].get<std::int64_t>() * 1000 - (x - after)) <= 1000);
  }
}

}  // namespace

TEST_CASE("Figure 1: a fast NIC leading by 1 ns less than the dead zone is not held back") { figure1(-1000); }
TEST_CASE("Figure 1: a fast NIC leading by the dead zone is held back by the slow one") { figure1(0); }
TEST_CASE("Figure 1: a fast NIC leading by 2 us is held back by the slow one") { figure1(2000000); }

TEST_CASE("multi-hop dead zone: 1 ns short of it across 2 switches, the fast NIC is not held back") { figure1(-1000, 2); }
TEST_CASE("multi-hop dead zone: leading by it across 2 switches, the fast NIC is held back") { figure1(0, 2); }
TEST_CASE("multi-hop dead zone: leading by it across 3 switches, the fast NIC is held back") { figure1(0, 3); }
TEST_CASE("multi-hop dead zone: 1 ns short of it across 3 switches, the fast NIC is not held back") { figure1(-1000, 3); }

TEST_CASE("SSS at 500 ppm keeps every round within the model's bound over 100 rounds") {
  ParamValues pv = test::test_params({"fbs.drift=500", "fbs.rounds=100"});
  const Outcome o = run(pv, "single", {"ports=8"});
  require_completed(o);
  const auto& a = o.fbs()["analysis"];
  const std::int64_t bound = a["model_bound_ps"].get<std::int64_t>();
  REQUIRE(bound == dead_zone_of(pv) + 500 * 8 * 12500000LL / 1000000);  // dead zone + drift over the 8-slot round
  for (const auto& r : o.fbs()["rounds"]) {
    CAPTURE(r.dump());
    REQUIRE(r["skew_after_ps"].get<std::int64_t>() <= bound);
    // Eq. 11's interval keeps the skew below half a slot until the next round.
    REQUIRE(r["skew_before_next_ps"].get<std::int64_t>() < 12500000 / 2);
  }
  REQUIRE(o.fbs()["within_model_bound"] == true);
  REQUIRE(o.fbs()["rounds_entered_half_slot_apart"].empty());
  REQUIRE(!o.fbs().contains("warnings"));
  REQUIRE(o.fbs()["skew_entering_round"]["count"] == 99);
  // fbs.interval defaults to Eq. 11 with the larger of the two bounds: the shorter interval.
  REQUIRE(a["interval_used_slots"] == std::min(a["interval_eq11_printed_slots"].get<std::int64_t>(),
                                                a["interval_eq11_bl_minus_ks_slots"].get<std::int64_t>()));
}

TEST_CASE("an interval beyond Eq. 11 breaks FBS's half-slot precondition, and the report says so") {
  // 300 ppm over 3000 slots of 12.5 us parts the extreme clocks by about 11 us before round 1:
  // more than half a slot, so round 1 starts outside what the paper's section 4.4 assumes.
  ParamValues pv = test::test_params({"fbs.drift=300", "fbs.rounds=3", "fbs.interval=3000"});
  const Outcome o = run(pv, "single", {"ports=8"});
  require_completed(o);
  const double drift_ps = 300e-6 * (3000 - 8) * 12500000.0;  // the oscillators at +-150 ppm, from round 0's end
  REQUIRE(drift_ps > 12500000 / 2);
  REQUIRE(o.fbs()["half_slot_ps"] == 12500000 / 2);
  const auto& apart = o.fbs()["rounds_entered_half_slot_apart"];
  REQUIRE(apart.size() == 2);
  REQUIRE(apart[0] == 1);
  REQUIRE(apart[1] == 2);
  REQUIRE(o.fbs()["skew_entering_round"]["min_ps"].get<double>() >= 12500000 / 2);
  REQUIRE(o.fbs()["warnings"].size() == 1);
  REQUIRE(o.fbs()["warnings"][0].get<std::string>().rfind("FBS's precondition (paper 4.4) does not hold: round(s) 1, 2 started", 0) == 0);
}

TEST_CASE("one round: the skew after it and the verdict are reported") {
  ParamValues pv = test::test_params({"fbs.rounds=1"});
  const Outcome o = run(pv, "single", {"ports=4"});
  require_completed(o);
  REQUIRE(o.fbs()["skew_after_round"]["count"] == 0);
  REQUIRE(o.fbs()["skew_after_first_round"]["count"] == 1);
  REQUIRE(o.fbs()["mean_pair_skew_after_round"]["count"] == 0);  // the rounds skew_after_round covers: 1..
  REQUIRE(o.fbs()["within_model_bound"] == true);
  REQUIRE(!o.fbs().contains("warnings"));
}

TEST_CASE("without re-synchronization the skew grows at the drift rate") {
  ParamValues pv = test::test_params({"fbs.drift=500", "fbs.sync_rounds=1", "fbs.rounds=4", "fbs.interval=200", "fbs.probe_every=10"});
  const Outcome o = run(pv, "single", {"ports=4"});
  require_completed(o);
  const auto& f = o.fbs()["free_run"];
  REQUIRE(f["points"].get<int>() > 50);
  // The fastest and slowest oscillators run at (1 +- 250e-6) of the nominal: the slow one's
  // boundaries fall behind at (1 + 250e-6) / (1 - 250e-6) - 1 of the fast one's time.
  REQUIRE(f["slowest_fastest_slope_ppm"].get<double>() == Approx(((1 + 250e-6) / (1 - 250e-6) - 1) * 1e6).epsilon(1e-5));
  // The skew (max - min) grows no faster, and reaches that rate once the extreme pair leads.
  REQUIRE(f["slope_ppm"].get<double>() <= 500.1);
  REQUIRE(f["slope_ppm"].get<double>() > 450);
}

TEST_CASE("HSS on the Figure 2 tree synchronizes within Eq. 10 and the model's chain of dead zones") {
  ParamValues pv = test::test_params({"fbs.drift=300", "fbs.rounds=3"});
  const Outcome o = run(pv, "tree", {"ports=4", "fanout=2", "root_fanout=2", "levels=4"});
  require_completed(o);
  const auto& a = o.fbs()["analysis"];
  REQUIRE(a["levels"] == 4);
  REQUIRE(a["bound_printed_ps"] == 3087240);
  REQUIRE(o.after_max() < 3087240);
  REQUIRE(o.fbs()["skew_after_first_round"]["max_ps"].get<std::int64_t>() < 3087240);
  // The guard: slot 5's n4=>n0 reaches n0's link over 5 switches, slot 6's U-turn over 1, so
  // (ks + guard + 1) cp must exceed rd + sd + 4 (ld + rd + sd), with a flit to spare.
  const Ps hop = 17000 + 100000 + 2000;
  const std::int64_t guard = (100000 + 2000 + 4 * hop) / 6250 - 53 + 1;
  REQUIRE(guard == 40);
  REQUIRE(a["min_guard_bytes"] == guard);
  // Eq. 10's chain, B(3) + 2 (B(1) + B(2)), with B(i) the dead zone of a path of 2i - 1 switches.
  const Ps dz = dead_zone(SkewInputs::from_params(pv), guard);
  REQUIRE(a["hss_chain_ps"] == (dz + 4 * hop) + 2 * (dz + (dz + 2 * hop)));
  REQUIRE(a["model_bound_ps"] == a["hss_chain_ps"].get<Ps>() + 300 * 10 * 12500000LL / 1000000);  // + drift over the 10-slot round
  for (const auto& r : o.fbs()["rounds"]) REQUIRE(r["skew_after_ps"].get<std::int64_t>() <= a["model_bound_ps"].get<Ps>());
  REQUIRE(o.fbs()["within_model_bound"] == true);
}

namespace {

// Identical clocks on a 4-level tree of 4-port switches (36 NICs): any pause is a STOP the
// schedule made by itself.
std::int64_t pauses_with_identical_clocks(const char* guard) {
  ParamValues pv = test::test_params({"fbs.drift=0.001", "fbs.initial_skew=0", "fbs.interval=100", "fbs.rounds=1", guard});
  const Outcome o = run(pv, "tree", {"ports=4", "fanout=3", "root_fanout=4", "levels=4"});
  require_completed(o);
  std::int64_t pauses = 0;
  for (const auto& n : o.fbs()["nics"]) pauses += n["pauses"].get<std::int64_t>();
  if (pauses == 0) REQUIRE(o.fbs()["skew_after_first_round"]["max_ps"].get<std::int64_t>() <= 1);
  return pauses;
}

}  // namespace

TEST_CASE("HSS with identical clocks never pauses: the guard covers packets converging from longer paths") {
  REQUIRE(pauses_with_identical_clocks("fbs.guard=-1") == 0);  // auto: 40 B
}

TEST_CASE("HSS with identical clocks and only the one-switch guard pauses NICs nobody blocked") {
  REQUIRE(pauses_with_identical_clocks("fbs.guard=18") > 0);
}

TEST_CASE("at cp = 3.13 ns (6.26 us slots) the firmware meets every slot: no timed send refused") {
  // ks = 52: the flow controller refuses 53 at this cp (experiment_plan.cpp's rule). The 66 MHz
  // core's path per sync slot (about 4.7 us) must fit the slot; before it did not, sends came late.
  ParamValues pv = test::test_params({"link.cp=3.13ns", "fc.ks=52", "fbs.rounds=4"});
  const Outcome o = run(pv, "single", {"ports=8"});
  require_completed(o);  // every NIC: refused_sends == 0
  const SkewInputs si = SkewInputs::from_params(pv);
  REQUIRE(min_guard(si) == (100000 + 2000 + 3130 - 1) / 3130 + 1);  // 34 B
  REQUIRE(o.fbs()["analysis"]["model_bound_ps"] == dead_zone(si, 34) + 300 * 8 * 2000 * 3130LL / 1000000);
  REQUIRE(o.fbs()["within_model_bound"] == true);
}

TEST_CASE("a start the firmware cannot meet is reported, not run") {
  ParamValues pv = test::test_params({"fbs.start=1us", "fbs.initial_skew=0"});
  const Outcome o = run(pv, "single", {"ports=2"});
  REQUIRE(o.run.report["status"] != "completed");
  REQUIRE(o.run.report["results"]["fault"].get<std::string>().find("raise fbs.start") != std::string::npos);
}
