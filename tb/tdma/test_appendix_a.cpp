// The thesis's Appendix A (Table A.1 on networks A and B): which streams are schedulable, the
// reasons of the rejections, the clock-sync streams, determinism, and the tie-break's part.
#include <algorithm>
#include <catch2/catch.hpp>

#include "platform/tdma/schedule_report.hpp"
#include "tb/tdma/tdma_test_util.hpp"

using namespace sanvp;
using namespace sanvp::tdma;
using namespace sanvp::tdma::test;

TEST_CASE("Appendix A on network A: streams 31, 32 and 34 are rejected, the rest scheduled", "[tdma][appendix]") {
  const ScheduleRun r = run(load_stream_file(kAppendixA), network_a());
  CHECK(r.schedule.cycle == 40);
  CHECK(r.streams.size() == 18);
  CHECK(rejected(r) == std::vector<std::int64_t>{31, 32, 34});
  CHECK(r.schedule.admitted() == 15);
  INFO(format_tdma_check(r.check));
  CHECK(r.check.ok());
  // Network A has no redundant path: every admitted message takes its only route.
  for (const auto& x : r.schedule.reservations) CHECK(x.path == 0);
}

TEST_CASE("Appendix A on network B: every stream is scheduled, the second trunk carries the overflow", "[tdma][appendix]") {
  const ScheduleRun r = run(load_stream_file(kAppendixA), network_b());
  CHECK(r.schedule.cycle == 40);
  CHECK(rejected(r).empty());
  INFO(format_tdma_check(r.check));
  CHECK(r.check.ok());
  // The first choice (trunk R4, port 2) is used as far as it goes; the alternate (R5, port 3) is
  // used, and less (Table A.3's caption).
  std::int64_t first = 0, alternate = 0;
  for (const auto& x : r.schedule.reservations) (x.path == 0 ? first : alternate) += 1;
  CHECK(alternate > 0);
  CHECK(first > alternate);
  for (const auto& x : r.schedule.reservations)
    if (x.path == 1) CHECK(x.route.front() == 3);
}

TEST_CASE("A rejected stream carries its reason: the instance, its window and the blocking link", "[tdma][appendix]") {
  const ScheduleRun r = run(load_stream_file(kAppendixA), network_a());
  const Admission& a = admission(r, 31);
  CHECK_FALSE(a.admitted);
  CHECK(a.failed_instance == 1);
  CHECK(a.reason.find("instance 1 of 4 (released at slot 10, due by slot 18) found no 1 contiguous free slot within [10, 18)") == 0);
  // Node 1 -> node 2 crosses the trunk sw0 port 2 (the thesis's R4 left to right); it is full.
  CHECK(a.reason.find("route 0 [2 0] (first choice): link sw0.p2.out has no 1 contiguous free slot") != std::string::npos);
  CHECK(a.reason.find("its only route") != std::string::npos);
  for (std::int64_t id : {32, 34}) {
    const Admission& b = admission(r, id);
    CHECK(b.failed_instance >= 0);
    CHECK(b.reason.find("sw0.p2.out") != std::string::npos);
  }
  // Rejected streams hold no slot.
  for (const auto& x : r.schedule.reservations) CHECK((x.stream != 31 && x.stream != 32 && x.stream != 34));
}

TEST_CASE("The clock-sync streams are scheduled like others: period 40, deadline 20, in the first half", "[tdma][appendix][sync]") {
  for (const Topology& t : {network_a(), network_b()}) {
    const ScheduleRun r = run(load_stream_file(kAppendixA), t);
    int syncs = 0;
    for (const Stream& s : r.streams) {
      if (!s.sync) continue;
      ++syncs;
      CHECK(s.src == 0);
      CHECK(s.period == 40);
      CHECK(s.deadline == 20);
      CHECK(s.slots == 1);
      CHECK(admission(r, s.id).admitted);
      for (const auto& x : r.schedule.reservations)
        if (x.stream == s.id) CHECK(x.start + x.slots <= 20);
    }
    CHECK(syncs == 3);
    CHECK(r.streams[0].id == 1);
    CHECK(r.streams[2].dst == 3);
  }
}

TEST_CASE("tdma.sync_period and tdma.sync_deadline set the sync streams", "[tdma][sync]") {
  TdmaParams p;
  p.sync_period = 20;
  p.sync_deadline = 5;
  const ScheduleRun r = run(load_stream_file(kAppendixA), network_b(), p);
  CHECK(r.streams[0].period == 20);
  CHECK(r.streams[0].deadline == 5);
  CHECK(r.check.ok());
  p.sync_deadline = 21;
  CHECK_THROWS_WITH(run(load_stream_file(kAppendixA), network_b(), p), Catch::Contains("tdma.sync_deadline = 21 is above tdma.sync_period = 20"));
}

TEST_CASE("The same demands give the same schedule, byte for byte", "[tdma][determinism]") {
  for (const Topology& t : {network_a(), network_b()}) {
    const ScheduleRun a = run(load_stream_file(kAppendixA), t);
    const ScheduleRun b = run(load_stream_file(kAppendixA), t);
    CHECK(schedule_text(a) == schedule_text(b));
    CHECK(schedule_json(a).dump() == schedule_json(b).dump());
  }
}

TEST_CASE("The tie-break decides Appendix A: by stream id, stream 13 is rejected too", "[tdma][appendix][tie]") {
  // Table A.1's order is not an order of any field: the thesis sorts the gathered demands by
  // deadline, stably. Ordering ties by id instead changes which streams fit (docs/tdma.md).
  TdmaParams p;
  p.tie_break = "id";
  const ScheduleRun a = run(load_stream_file(kAppendixA), network_a(), p);
  const ScheduleRun b = run(load_stream_file(kAppendixA), network_b(), p);
  CHECK(rejected(a) == std::vector<std::int64_t>{13, 31, 32, 34});
  CHECK(rejected(b) == std::vector<std::int64_t>{13, 34});
  CHECK(a.check.ok());
  CHECK(b.check.ok());
}

TEST_CASE("Table A.1's exact order (sync streams 2, 1, 3 among the others) gives the same result", "[tdma][appendix][tie]") {
  StreamFile f = load_stream_file(kAppendixA);
  f.sync.reset();
  auto sync = [](std::int64_t id) { return Stream{id, 0, static_cast<int>(id), 40, 20, 1, false, "test"}; };
  auto at = [&](std::int64_t id) {
    return std::find_if(f.streams.begin(), f.streams.end(), [&](const Stream& s) { return s.id == id; });
  };
  f.streams.insert(at(92), {sync(2), sync(1)});  // ... 11, 2, 1, 92, 3, 14 as in the table
  f.streams.insert(at(14), sync(3));
  CHECK(rejected(run(f, network_a())) == std::vector<std::int64_t>{31, 32, 34});
  CHECK(rejected(run(f, network_b())).empty());
  // The sync streams after every other tie instead cost stream 31 on B (docs/tdma.md).
  StreamFile last = load_stream_file(kAppendixA);
  last.sync.reset();
  for (std::int64_t id : {1, 2, 3}) last.streams.push_back(sync(id));
  CHECK(rejected(run(last, network_b())) == std::vector<std::int64_t>{31});
}
