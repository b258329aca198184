// Stream files: every mistake is one error naming the file, line, column and key; integers are
// read as 64 bits and range-checked; the cycle's size is bounded.
#include <catch2/catch.hpp>
#include <fstream>

#include "hw/base/error.hpp"
#include "tb/tdma/tdma_test_util.hpp"

using namespace sanvp;
using namespace sanvp::tdma;

namespace {

std::string error_of(const std::string& text) {
  try {
    parse_stream_text(text, "bad.yaml");
  } catch (const UserError& e) {
    return e.what();
  }
  return "no error";
}

const std::string kHead = "streams:\n";

}  // namespace

TEST_CASE("The Appendix A file reads as Table A.1", "[tdma][file]") {
  const StreamFile f = load_stream_file(test::kAppendixA);
  CHECK(f.name == "appendix-a");
  REQUIRE(f.sync);
  CHECK(f.sync->master == 0);
  REQUIRE(f.streams.size() == 15);
  const Stream& s = f.streams[1];
  CHECK((s.id == 34 && s.src == 1 && s.dst == 3 && s.period == 10 && s.deadline == 8 && s.slots == 2));
  CHECK(s.where == test::kAppendixA + ":11:5");
}

// Each case: a stream file and the one error it must give.
struct BadFile { std::string text, error; };

TEST_CASE("Bad stream files name file, line, column and key", "[tdma][file]") {
  const BadFile cases[] = {
      {kHead + "  - {id: 1, src: 0, dst: 1, period: 10, deadline: 8}\n",
       "bad.yaml:2:5: streams[0].slots: missing (a stream needs id, src, dst, period, deadline, slots)"},
      {kHead + "  - {id: 1, src: 0, dst: 1, period: 10, deadline: 12, slots: 1}\n",
       "bad.yaml:2:51: streams[0].deadline: 12 is outside 1..10 (a deadline is at most the period)"},
      {kHead + "  - {id: 1, src: 0, dst: 1, period: 10, deadline: 8, slots: 9}\n",
       "bad.yaml:2:61: streams[0].slots: 9 is outside 1..8 (a message must fit in its deadline)"},
      {kHead + "  - {id: 1, src: -1, dst: 1, period: 10, deadline: 8, slots: 1}\n", "bad.yaml:2:18: streams[0].src: -1 is outside 0..1048576"},
      {kHead + "  - {id: 1, src: 0, dst: 1, period: 10, deadline: 8, slots: 1}\n  - {id: 2, prio: 1}\n",
       "bad.yaml:3:13: streams[1].prio: unknown key 'prio' (expected one of: id, src, dst, period, deadline, slots)"},
      {"stream: []\n", "bad.yaml:1:1: stream: unknown key 'stream' (expected one of: name, description, sync, streams, changes)"},
      {"name: x\n", "bad.yaml:1:1: streams: missing (the list of streams, possibly empty: streams: [])"},
      {"sync: {master: x}\nstreams: []\n", "bad.yaml:1:16: sync.master: expected an integer, got 'x'"},
      // 64 bits, never wrapped: 2^64 + 10 would wrap to 10 in 64 bits, 2^32 + 10 to 10 in 32.
      {kHead + "  - {id: 1, src: 0, dst: 1, period: 18446744073709551626, deadline: 8, slots: 1}\n",
       "bad.yaml:2:37: streams[0].period: expected an integer, got '18446744073709551626'"},
      {kHead + "  - {id: 1, src: 0, dst: 1, period: 4294967306, deadline: 8, slots: 1}\n",
       "bad.yaml:2:37: streams[0].period: 4294967306 is outside 1..1000000"},
      {kHead + "  - {id: 4294967297, src: 0, dst: 1, period: 10, deadline: 8, slots: 1}\n",
       "bad.yaml:2:10: streams[0].id: 4294967297 is outside 0..2147483647"},
  };
  for (const BadFile& c : cases) CHECK(error_of(c.text) == c.error);
}

TEST_CASE("A file that cannot be read, or is not YAML, is an error naming it", "[tdma][file]") {
  CHECK_THROWS_WITH(load_stream_file("/no/such/streams.yaml"), Catch::Contains("/no/such/streams.yaml"));
  const std::string path = std::string(SANVP_BINARY_DIR) + "/tb/tdma/syntax.streams.yaml";
  std::ofstream(path) << "streams:\n  - {id: 1, src: 0\n";
  CHECK_THROWS_WITH(load_stream_file(path), Catch::StartsWith(path + ":") && Catch::Contains("YAML syntax error"));
}

TEST_CASE("Streams are checked against the network and each other", "[tdma][file]") {
  const Topology a = test::network_a();
  auto run_text = [&](const std::string& text) { return test::run(parse_stream_text(text, "s.yaml"), a); };
  CHECK_THROWS_WITH(run_text(kHead + "  - {id: 5, src: 0, dst: 9, period: 10, deadline: 8, slots: 1}\n"),
                    "s.yaml:2:5: stream 5: node 9 is not in the network (4 nodes)");
  CHECK_THROWS_WITH(run_text(kHead + "  - {id: 5, src: 2, dst: 2, period: 10, deadline: 8, slots: 1}\n"),
                    "s.yaml:2:5: stream 5: src and dst are both node 2");
  CHECK_THROWS_WITH(run_text("sync: {master: 0}\n" + kHead + "  - {id: 2, src: 1, dst: 2, period: 10, deadline: 8, slots: 1}\n"),
                    "s.yaml:3:5: stream id 2 is already used by the clock-sync stream n0->n2 (see sync.first_id)");
  CHECK_THROWS_WITH(run_text(kHead + "  - {id: 2, src: 1, dst: 2, period: 10, deadline: 8, slots: 1}\n" +
                             "  - {id: 2, src: 1, dst: 3, period: 10, deadline: 8, slots: 1}\n"),
                    "s.yaml:3:5: stream id 2 is already used by the stream at s.yaml:2:5");
  CHECK_THROWS_WITH(run_text("sync: {master: 7}\nstreams: []\n"), "s.yaml:1:7: sync.master: node 7 is not in the network");
}

TEST_CASE("The cycle (lcm of the periods) is bounded by tdma.max_cycle, naming the period that exceeds it", "[tdma][file]") {
  // 331 and 317 are prime: their lcm is 104927, just above 100000.
  const StreamFile f = parse_stream_text(kHead + "  - {id: 1, src: 0, dst: 1, period: 331, deadline: 8, slots: 1}\n" +
                                             "  - {id: 2, src: 0, dst: 2, period: 317, deadline: 8, slots: 1}\n",
                                         "big.yaml");
  CHECK_THROWS_WITH(test::run(f, test::network_a()),
                    "big.yaml:3:5: stream 2: period 317 makes the TDMA cycle (lcm of the periods) 331 x 317 / 1 slots, above "
                    "tdma.max_cycle = 100000");
  TdmaParams p;
  p.max_cycle = 104927;
  const ScheduleRun r = test::run(f, test::network_a(), p);
  CHECK(r.schedule.cycle == 104927);
  CHECK(r.schedule.reservations.size() == 317 + 331);
  CHECK(r.check.ok());
}
