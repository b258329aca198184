// Waves (hw/base/trace.hpp, docs/waves.md): the writer refuses a value its signal cannot hold; a
// count bounded by a parameter (an input buffer's occupancy, bounded by fc.bl) is declared wide
// enough for the bound; a link's `stop` row shows STOP when the sender obeys it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <limits>
#include <string>

#include "fabric_fixture.hpp"
#include "hw/base/error.hpp"
#include "hw/base/trace.hpp"
#include "platform/sim/run.hpp"
#include "tb/common/scratch.hpp"
#include "tb/common/test_run.hpp"
#include "tb/common/vcd_check.hpp"

using namespace sanvp;
using namespace sanvp::test;
namespace fs = std::filesystem;

namespace {

// The number of bits that hold every value 0..max, counted here independently of bits_for.
int bits_needed(unsigned long long max) {
  int w = 1;
  while (w < 64 && (max >> w) != 0) ++w;
  return w;
}

}  // namespace

TEST_CASE("trace writer: a value wider than its signal's declared width is an error naming signal, value and width", "[waves][trace]") {
  const fs::path d = scratch_dir("sanvp-test", "trace-writer");
  {  // the widest value that fits is written whole
    Tracer tr;
    tr.configure("", 0, kNever);
    tr.open((d / "ok.vcd").string());
    const Tracer::Handle h = tr.declare("sw0.p1.in", "occupancy", 16);
    tr.change(h, 10, 0xFFFF);
    tr.close(20);
    const VcdSignals w = read_vcd(slurp(d / "ok.vcd"));
    CHECK(w.width.at("sw0.p1.in.occupancy") == 16);
    CHECK(w.at("sw0.p1.in.occupancy", 10) == 0xFFFF);
  }
  Tracer tr;
  tr.configure("", 0, kNever);
  tr.open((d / "wide.vcd").string());
  const Tracer::Handle h = tr.declare("sw0.p1.in", "occupancy", 16);
  tr.change(h, 10, 0x10000);  // 65536: 17 bits, which a viewer would show as 0
  try {
    tr.close(20);
    FAIL("a 17-bit value on a 16-bit signal was written");
  } catch (const SimError& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(what.find("sw0.p1.in.occupancy") != std::string::npos);
    CHECK(what.find("65536") != std::string::npos);
    CHECK(what.find("width of 16 bits") != std::string::npos);
  }
  CHECK_FALSE(fs::exists(d / "wide.vcd"));  // never a silently wrong file
  for (unsigned long long max : {0ull, 1ull, 2ull, 64ull, 65535ull, 65536ull, 100000ull, 1048576ull, ~0ull})
    CHECK(bits_for(max) == bits_needed(max));
  fs::remove_all(d);
}

TEST_CASE("waves: a large fc.bl declares the occupancy wide enough and occupancies above 65535 are written exactly", "[waves][trace]") {
  // The review's run: every source sends to one node at full load, so a source's input buffer
  // fills up to ks (and the flits in flight) far past 65535 flits (bl = 100000).
  ParamValues pv = test_params({"fc.bl=100000", "fc.ks=99000", "traffic.pattern=hotspot", "traffic.hotspot_fraction=1",
                                "traffic.load=1", "sim.drain=10ms"});
  const Timing tm(pv);
  const fs::path d = scratch_dir("sanvp-test", "wide-occupancy");
  RunOptions opt = checked_run_options();
  opt.vcd = (d / "wide.vcd").string();
  opt.trace = "sw0.p1*,n1";
  const RunResult res = run_simulation(pv, opt, default_scenario(pv));
  REQUIRE(res.status == RunStatus::Completed);
  const VcdSignals w = read_vcd(slurp(d / "wide.vcd"));
  const std::string occ = "sw0.p1.in.occupancy";
  CHECK(w.width.at(occ) == bits_needed(static_cast<unsigned long long>(tm.bl)));
  CHECK(w.width.at("n1.in.occupancy") == bits_needed(static_cast<unsigned long long>(tm.bl)));
  // The row climbs through 65535 to 65536 and beyond one flit at a time (no wrap to 0 between).
  unsigned long long peak = 0, prev = 0;
  bool steps = true;
  for (const auto& c : w.changes.at(occ)) {
    if (c.v > prev && c.v - prev > 1) steps = false;
    prev = c.v;
    peak = std::max(peak, c.v);
  }
  CHECK(steps);
  CHECK(peak > 65535);
  CHECK(peak >= static_cast<unsigned long long>(tm.ks));  // it filled up to STOP
  CHECK(peak <= static_cast<unsigned long long>(tm.bl));
  fs::remove_all(d);
}

TEST_CASE("waves: a link's stop row rises and falls ld + 2 fc after the buffer's stop_sent, and no flit leaves while it is 1", "[waves][stop]") {
  ParamValues pv = test_params({"traffic.pattern=hotspot", "traffic.hotspot_fraction=1", "traffic.load=1", "sim.duration=100us"});
  const Timing tm(pv);
  const int ports = static_cast<int>(pv.integer("", "switch", "ports"));
  const fs::path d = scratch_dir("sanvp-test", "stop-row");
  RunOptions opt = checked_run_options();
  opt.vcd = (d / "stop.vcd").string();
  const RunResult res = run_simulation(pv, opt, default_scenario(pv));
  REQUIRE(res.status == RunStatus::Completed);
  const VcdSignals w = read_vcd(slurp(d / "stop.vcd"));
  const long long lag = static_cast<long long>(tm.ld + 2 * tm.fc), cp = static_cast<long long>(tm.cp);
  // The edges (value changes after the $dumpvars values) of a 1-bit row.
  auto edges = [&w](const std::string& name) {
    std::vector<VcdSignals::Change> out;
    unsigned long long v = 0;
    for (const auto& c : w.changes.at(name))
      if (c.v != v) out.push_back(c), v = c.v;
    return out;
  };
  int stops = 0;
  for (int i = 0; i < ports; ++i) {
    // Both directions of node i's link (node i is on sw0.p<i>): the sender's stop row, the
    // receiving buffer's stop_sent, the sender's flit kinds.
    const std::string ends[2][3] = {{fmt::format("n{}.out", i), fmt::format("sw0.p{}.in", i), fmt::format("n{}.out.kind", i)},
                                    {fmt::format("sw0.p{}.out", i), fmt::format("n{}.in", i), fmt::format("sw0.p{}.out.kind", i)}};
    for (const auto& e : ends) {
      const auto row = edges(e[0] + ".stop"), sent = edges(e[1] + ".stop_sent");
      INFO(e[0] << ".stop against " << e[1] << ".stop_sent");
      REQUIRE(row.size() == sent.size());
      for (std::size_t k = 0; k < row.size(); ++k) {
        CHECK(row[k].v == sent[k].v);
        CHECK(row[k].t == sent[k].t + lag);
      }
      // STOP in force over [a, b): the last flit before it left by a - 1, so its kind is back
      // to idle by a + cp - 1 and stays idle until b (a flit leaving in [a, b) would show).
      for (std::size_t k = 0; k < row.size(); k += 2) {
        ++stops;
        const long long a = row[k].t, b = k + 1 < row.size() ? row[k + 1].t : std::numeric_limits<long long>::max();
        CHECK(w.at(e[2], a + cp - 1) == 0);
        for (const auto& c : w.changes.at(e[2]))
          if (c.t >= a + cp - 1 && c.t < b) CHECK(c.v == 0);
      }
    }
  }
  CHECK(stops > 0);  // the hotspot does stop its sources
  fs::remove_all(d);
}
