// FlowController accounting of departing flits: a flit popped ahead (pop_ahead, stamped with its
// later departure) still counts in size_at and occupancy until it departs, exactly as if it had
// been popped at its departure; the STOP check does not depend on whether the kernel ran a
// pop or a push first at one instant; and after STOP, pops ahead send the GO when and with what
// the per-flit pops would have.
#include <catch2/catch.hpp>
#include <ostream>
#include <systemc>
#include <vector>

#include "hw/base/error.hpp"
#include "hw/link/flow_controller.hpp"

using namespace sanvp;

namespace {

FlowControlConfig config(int bl, int ks, int kg) {
  FlowControlConfig c;
  c.bl = bl;
  c.ks = ks;
  c.kg = kg;
  c.fc = 0;
  return c;
}

Flit flit(std::uint8_t d) {
  Flit f;
  f.data = d;
  return f;
}

// Pushes three flits arriving at 10, 20 and 30 ps.
void fill(FlowController& fc) {
  fc.push(flit(1), 10);
  fc.push(flit(2), 20);
  fc.push(flit(3), 30);
}

}  // namespace

TEST_CASE("departing: a flit popped ahead counts until its departure") {
  FlowController fc("ahead", config(64, 32, 8));
  fill(fc);
  fc.pop_ahead(25);  // the flit that arrived at 10 leaves at 25
  REQUIRE(fc.entries().size() == 2);
  CHECK(fc.size_at(0) == 3);
  CHECK(fc.size_at(25) == 3);  // departing at that instant: still present for a push's test
  CHECK(fc.size_at(26) == 2);
  CHECK(fc.occupancy(9) == 0);
  CHECK(fc.occupancy(15) == 1);
  CHECK(fc.occupancy(20) == 2);
  CHECK(fc.occupancy(24) == 2);
  CHECK(fc.occupancy(25) == 1);  // departures at t have left for occupancy(t)
  CHECK(fc.occupancy(30) == 2);
  CHECK(fc.arrived_by(20, 0, 99) == 2);
  CHECK(fc.arrived_by(30, 0, 99) == 3);
  CHECK(fc.arrived_by(30, 26, 99) == 2);  // departed before 26: not counted
  CHECK(fc.arrived_by(30, 0, 1) == 1);    // capped
  CHECK(fc.arrived_by(5, 0, 99) == 0);
}

TEST_CASE("departing: popping ahead and popping at the departure give the same counts") {
  FlowController a("a", config(64, 32, 8)), b("b", config(64, 32, 8));
  fill(a);
  fill(b);
  a.pop_ahead(22);
  a.pop_ahead(31);
  b.pop(22);  // the per-flit model: pops at the departure instants
  b.pop(31);
  for (Time t = 0; t <= 40; ++t) {
    INFO("t=" << t);
    CHECK(a.occupancy(t) == b.occupancy(t));
    CHECK(a.size_at(t) == b.size_at(t));
    CHECK(a.arrived_by(t, 0, 99) == b.arrived_by(t, 0, 99));
  }
}

namespace {

// At 100 ps the consumer pops the one buffered flit and the upstream pushes one arriving at
// once; with ks = 2 the check at 100 counts both (arrivals first) and sends STOP, whichever ran
// first. Returns the STOPs seen.
std::vector<int> same_instant(bool pop_first) {
  auto* fc = new FlowController(pop_first ? "pop_first" : "push_first", config(8, 2, 0));
  auto* stops = new std::vector<int>;
  fc->set_control_observer([stops](Time, bool stop, int occ) { if (stop) stops->push_back(occ); });
  sc_core::sc_spawn([fc, pop_first] {
    fc->push(flit(1), 50);
    sc_core::wait(sc_core::sc_time::from_value(100));
    if (pop_first) fc->pop(100);
    fc->push(flit(2), 100);
    if (!pop_first) fc->pop(100);
  });
  sc_core::sc_start(sc_core::sc_time::from_value(1000));
  return *stops;
}

}  // namespace

TEST_CASE("departing: STOP check at an instant with a pop and a push, pop first") {
  CHECK(same_instant(true) == std::vector<int>{2});
}

TEST_CASE("departing: STOP check at an instant with a pop and a push, push first") {
  CHECK(same_instant(false) == std::vector<int>{2});
}

namespace {

struct Control { Time t; bool stop; int occ; };
bool operator==(const Control& a, const Control& b) { return a.t == b.t && a.stop == b.stop && a.occ == b.occ; }
std::ostream& operator<<(std::ostream& o, const Control& c) { return o << (c.stop ? "STOP" : "GO") << "@" << c.t << " occ " << c.occ; }
// The STOP/GO symbols a controller sent; for the one drained ahead, what go_due() said after
// the pops ahead and whether a further pop ahead was refused.
struct Drain { std::vector<Control> seen; Time go_due = kNever; bool refused = false; };

}  // namespace

TEST_CASE("departing: after STOP, pops ahead send the GO at the per-flit model's pop, with its occupancy") {
  // Both controllers in one simulation: the per-flit one and the one drained ahead.
  auto* per_flit = new Drain;
  auto* ahead = new Drain;
  auto* fa = new FlowController("per_flit", config(16, 6, 3));
  auto* fb = new FlowController("ahead", config(16, 6, 3));
  fa->set_control_observer([per_flit](Time t, bool stop, int occ) { per_flit->seen.push_back({t, stop, occ}); });
  fb->set_control_observer([ahead](Time t, bool stop, int occ) { ahead->seen.push_back({t, stop, occ}); });
  auto fill10 = [](FlowController* fc) {
    for (int i = 1; i <= 10; ++i) fc->push(flit(static_cast<std::uint8_t>(i)), 10 * static_cast<Time>(i));
  };
  sc_core::sc_spawn([fa, fill10] {
    fill10(fa);
    sc_core::wait(sc_core::sc_time::from_value(200));
    for (int i = 0; i < 10; ++i) {
      fa->pop(200 + 10 * static_cast<Time>(i));
      sc_core::wait(sc_core::sc_time::from_value(10));
    }
  });
  sc_core::sc_spawn([fb, ahead, fill10] {
    fill10(fb);
    sc_core::wait(sc_core::sc_time::from_value(150));
    CHECK(fb->stopping());
    Time t = 200;
    for (; fb->go_due() == kNever && t < 300; t += 10) fb->pop_ahead(t);
    ahead->go_due = fb->go_due();
    try {
      fb->pop_ahead(t);  // a GO decided ahead and not sent yet: no further pop ahead
    } catch (const SimError&) {
      ahead->refused = true;
    }
  });
  sc_core::sc_start(sc_core::sc_time::from_value(1000));
  // Per flit: STOP at 60 ps (six arrived), GO at the pop that leaves three: the 7th, at 260 ps.
  const std::vector<Control> expect = {{60, true, 6}, {260, false, 3}};
  CHECK(per_flit->seen == expect);
  CHECK(ahead->seen == expect);
  CHECK(ahead->go_due == 260);
  CHECK(ahead->refused);
  CHECK(fb->go_due() == kNever);  // sent
  CHECK_FALSE(fb->stopping());
}
