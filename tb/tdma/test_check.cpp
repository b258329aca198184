// The checker on hand-made schedules: it must refuse link conflicts, missed deadlines, missing
// instances and wrong routes, naming them, whatever produced the schedule.
#include <catch2/catch.hpp>

#include "platform/tdma/check.hpp"
#include "tb/tdma/tdma_test_util.hpp"

using namespace sanvp;
using namespace sanvp::tdma;
using Kind = CheckViolation::Kind;

namespace {

// One switch, nodes 0..3 on ports 0..3: every route is one byte, the destination's port.
Topology single4() { return test::generate("single", {{"ports", "4"}}); }

// Stream 1: 0 -> 1 every 4 slots, 2 slots within 4. Stream 2: 2 -> 1 every 4 slots, 1 slot within 2.
std::vector<Stream> two_streams() {
  return {Stream{1, 0, 1, 4, 4, 2, false, "test"}, Stream{2, 2, 1, 4, 2, 1, false, "test"}};
}

TdmaSchedule good_schedule() {
  TdmaSchedule s;
  s.cycle = 4;
  s.admissions = {Admission{1, true, {}, -1, {1}}, Admission{2, true, {}, -1, {1}}};
  s.reservations = {Reservation{2, 0, 0, 1, 0, {1}}, Reservation{1, 0, 1, 2, 0, {1}}};
  return s;
}

std::vector<std::string> texts(const TdmaCheck& c, Kind k) {
  std::vector<std::string> v;
  for (const auto& x : c.violations)
    if (x.kind == k) v.push_back(x.text);
  return v;
}

}  // namespace

TEST_CASE("The checker accepts a valid hand-made schedule", "[tdma][check]") {
  const TdmaCheck c = check_tdma_schedule(single4(), two_streams(), good_schedule());
  INFO(format_tdma_check(c));
  CHECK(c.ok());
  CHECK(c.link_slots == 6);  // (n0.out, sw0.p1.out) x 2 slots + (n2.out, sw0.p1.out) x 1
  CHECK(format_tdma_check(c).find("verdict: valid TDMA schedule") != std::string::npos);
}

TEST_CASE("The checker refuses a link conflict and names the link, the slot and both streams", "[tdma][check]") {
  TdmaSchedule s = good_schedule();
  s.reservations[0].start = 1;  // stream 2 now shares sw0.p1.out (towards node 1) with stream 1 at slot 1
  const TdmaCheck c = check_tdma_schedule(single4(), two_streams(), s);
  CHECK_FALSE(c.ok());
  const auto v = texts(c, Kind::LinkConflict);
  REQUIRE(v.size() == 1);
  CHECK(v[0] == "link sw0.p1.out at slot 1: stream 2 instance 0 and stream 1 instance 0");
  CHECK(c.violations[0].link == "sw0.p1.out");
  CHECK(format_tdma_check(c).find("conflict-free: no (1 conflicts)") != std::string::npos);
  CHECK(format_tdma_check(c).find("verdict: NOT a valid TDMA schedule") != std::string::npos);
}

TEST_CASE("The checker counts every shared slot of a conflict once", "[tdma][check]") {
  TdmaSchedule s = good_schedule();
  s.reservations = {Reservation{1, 0, 0, 2, 0, {1}}, Reservation{1, 0, 0, 2, 0, {1}}, Reservation{2, 0, 1, 1, 0, {1}}};
  const TdmaCheck c = check_tdma_schedule(single4(), two_streams(), s);
  const auto v = texts(c, Kind::LinkConflict);
  REQUIRE(v.size() == 3);  // the duplicate on n0.out and sw0.p1.out, stream 2 on sw0.p1.out
  CHECK(v[0] == "link n0.out at slot 0: stream 1 instance 0 and stream 1 instance 0 (and 1 more slots)");
  CHECK(texts(c, Kind::BadReservation) == std::vector<std::string>{"stream 1 instance 0 has 2 reservations"});
}

TEST_CASE("The checker refuses a missed deadline and an early start, naming the instance", "[tdma][check]") {
  TdmaSchedule s = good_schedule();
  s.reservations[0].start = 3;  // stream 2 (d = 2) in slot 3: ends at 4 > 2
  TdmaCheck c = check_tdma_schedule(single4(), two_streams(), s);
  CHECK(texts(c, Kind::MissedDeadline) ==
        std::vector<std::string>{"stream 2 instance 0: ends at slot 4, after its deadline at slot 2 (released at 0, d = 2)"});
  CHECK(format_tdma_check(c).find("deadlines: no (1 missed)") != std::string::npos);
  std::vector<Stream> st = two_streams();
  st[1].period = 2;  // stream 2 now has instances at 0 and 2
  s = good_schedule();
  s.reservations[0] = Reservation{2, 1, 1, 1, 0, {1}};  // instance 1 released at 2, placed at 1
  c = check_tdma_schedule(single4(), st, s);
  CHECK(texts(c, Kind::MissedDeadline) == std::vector<std::string>{"stream 2 instance 1: starts at slot 1, before its release at slot 2"});
  CHECK(texts(c, Kind::MissingInstance) == std::vector<std::string>{"stream 2 instance 0 (released at slot 0) has no reservation"});
}

TEST_CASE("The checker refuses wrong routes, lengths and reservations of rejected streams", "[tdma][check]") {
  TdmaSchedule s = good_schedule();
  s.reservations[1].route = {2};  // 0 -> 1 sent to port 2 reaches node 2
  s.reservations[0].slots = 2;    // stream 2 needs 1 slot
  TdmaCheck c = check_tdma_schedule(single4(), two_streams(), s);
  const auto bad = texts(c, Kind::BadReservation);
  REQUIRE(bad.size() == 2);
  CHECK(bad[0] == "stream 2 instance 0: reserves 2 slots, the stream needs 1");
  CHECK(bad[1] == "stream 1 instance 0: route n0->n1 [2] reaches n2");
  s = good_schedule();
  s.admissions[1].admitted = false;
  c = check_tdma_schedule(single4(), two_streams(), s);
  CHECK(texts(c, Kind::BadReservation) == std::vector<std::string>{"stream 2 instance 0: reserved, but the stream was rejected"});
}
