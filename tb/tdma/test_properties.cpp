// Properties on generated networks and seeded random demands: every schedule the scheduler
// produces passes the independent checker (conflict-free on every link, every deadline met,
// complete), every rejection has a reason, and the same input gives the same schedule.
#include <catch2/catch.hpp>
#include <random>

#include "platform/tdma/schedule_report.hpp"
#include "tb/tdma/tdma_test_util.hpp"

using namespace sanvp;
using namespace sanvp::tdma;

namespace {

// `count` streams between random distinct nodes; periods divide 40 so the cycle stays 40.
StreamFile random_streams(std::uint64_t seed, int nodes, int count, bool sync) {
  std::mt19937_64 rng(seed);
  auto pick = [&](std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); };
  const std::int64_t periods[] = {4, 5, 8, 10, 20, 40};
  StreamFile f;
  f.file = "random";
  if (sync) f.sync = SyncSpec{0, 1, "sync"};
  for (int i = 0; i < count; ++i) {
    Stream s;
    s.id = 100 + i;
    s.src = static_cast<int>(pick(0, nodes - 1));
    s.dst = static_cast<int>((s.src + pick(1, nodes - 1)) % nodes);
    s.period = periods[pick(0, 5)];
    s.slots = pick(1, std::min<std::int64_t>(3, s.period));
    s.deadline = pick(s.slots, s.period);
    s.where = "random";
    f.streams.push_back(s);
  }
  return f;
}

struct Net { const char* type; std::map<std::string, std::string> args; };

}  // namespace

TEST_CASE("Every generated schedule is conflict-free and meets every deadline", "[tdma][property]") {
  const Net nets[] = {{"tdma-a", {}}, {"tdma-b", {}}, {"single", {{"ports", "8"}}},
                      {"mesh", {{"rows", "3"}, {"cols", "3"}, {"nodes", "2"}}},
                      {"tree", {{"ports", "4"}, {"fanout", "2"}, {"root_fanout", "2"}, {"levels", "4"}}},
                      {"irregular", {{"switches", "8"}, {"nodes", "16"}, {"ports", "6"}, {"f", "0.8"}, {"seed", "3"}}}};
  for (const Net& n : nets) {
    const Topology t = test::generate(n.type, n.args);
    const int nodes = static_cast<int>(t.nodes.size());
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      for (const char* tie : {"list", "id"}) {
        TdmaParams p;
        p.tie_break = tie;
        const ScheduleRun r = test::run(random_streams(seed, nodes, 6 + 2 * nodes, seed % 2 == 0), t, p);
        INFO(n.type << " seed " << seed << " tie " << tie << "\n" << format_tdma_check(r.check));
        REQUIRE(r.check.ok());
        for (const auto& a : r.schedule.admissions) CHECK(a.admitted == a.reason.empty());
      }
    }
  }
}

TEST_CASE("Loaded networks reject some streams and the rest still check", "[tdma][property]") {
  // Twice the demands of the test above on the small networks: rejections must occur.
  std::size_t rejected = 0;
  for (const char* type : {"tdma-a", "tdma-b"}) {
    const Topology t = test::generate(type, {});
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      const ScheduleRun r = test::run(random_streams(seed, 4, 30, true), t);
      REQUIRE(r.check.ok());
      rejected += r.streams.size() - r.schedule.admitted();
    }
  }
  CHECK(rejected > 0);
}

TEST_CASE("Scheduling is deterministic across runs and independent of earlier runs", "[tdma][determinism]") {
  const Topology t = test::generate("mesh", {{"rows", "3"}, {"cols", "3"}, {"nodes", "2"}});
  const StreamFile f = random_streams(7, 18, 40, true);
  const std::string first = schedule_json(test::run(f, t)).dump();
  (void)test::run(random_streams(8, 18, 40, false), t);  // no state carried between runs
  CHECK(schedule_json(test::run(f, t)).dump() == first);
}
