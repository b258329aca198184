// `--timeline FILE` of the commands that run a network: the file is a valid trace-event
// document (tb/timeline/trace_check.hpp), holds what each command's model does, is byte-identical
// for the same inputs, and --timeline-window limits it.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include "tb/common/scratch.hpp"
#include "tb/timeline/trace_check.hpp"

namespace fs = std::filesystem;
using sanvp::test::check_trace;
using sanvp::test::trace_events;
using sanvp::test::trace_ps;

namespace {

using sanvp::test::slurp;
fs::path scratch(const std::string& name) { return sanvp::test::scratch_dir("sanvp-timeline", name); }

int run(const fs::path& dir, const std::string& args) {
  const std::string cmd = "cd '" + dir.string() + "' && '" SANVP_BIN "' " + args + " > out.txt 2> err.txt";
  const int st = std::system(cmd.c_str());
  return WEXITSTATUS(st);
}

// The parsed file, after the format check.
nlohmann::json valid(const fs::path& file) {
  nlohmann::json doc;
  const auto bad = check_trace(slurp(file), doc);
  INFO(file << ": " << bad.size() << " problems, first: " << (bad.empty() ? "" : bad.front()));
  REQUIRE(bad.empty());
  return doc;
}

}  // namespace

TEST_CASE("sanvp run --timeline: valid, every kind of fabric event, deterministic", "[timeline][cli]") {
  auto d = scratch("run");
  // Loaded enough for blocking (STOP/GO) on an 8-port switch.
  const std::string args = "run --set sim.duration=10us --set traffic.load=0.9 --report r.json --timeline ";
  REQUIRE(run(d, args + "a.json") == 0);
  REQUIRE(run(d, args + "b.json") == 0);
  CHECK(slurp(d / "a.json") == slurp(d / "b.json"));
  const nlohmann::json doc = valid(d / "a.json");
  CHECK(doc["otherData"]["command"] == "run");
  CHECK(doc["otherData"]["seed"] == 1);
  CHECK(trace_events(doc, "X", "link").size() > 50);
  CHECK(trace_events(doc, "b", "hop").size() > 10);
  CHECK(trace_events(doc, "b", "packet").size() > 10);
  CHECK(trace_events(doc, "i", "flow").size() > 0);
  REQUIRE(run(d, "run --set sim.duration=10us --set traffic.load=0.9 --report r.json --seed 2 --timeline c.json") == 0);
  CHECK(slurp(d / "a.json") != slurp(d / "c.json"));
  fs::remove_all(d);
}

TEST_CASE("sanvp run --timeline-window writes only the events that start in it", "[timeline][cli]") {
  auto d = scratch("window");
  REQUIRE(run(d, "run --set sim.duration=10us --report r.json --timeline all.json") == 0);
  REQUIRE(run(d, "run --set sim.duration=10us --report r.json --timeline w.json --timeline-window 3us:5us") == 0);
  // Without --timeline-window, --trace-window applies.
  REQUIRE(run(d, "run --set sim.duration=10us --report r.json --timeline t.json --trace-window 3us:5us") == 0);
  const nlohmann::json all = valid(d / "all.json"), w = valid(d / "w.json");
  CHECK(slurp(d / "t.json") == slurp(d / "w.json"));
  std::size_t inside = 0;
  for (const auto& e : all["traceEvents"])
    if (e["ph"] != "M" && e["ph"] != "e" && trace_ps(e["ts"]) >= 3000000 && trace_ps(e["ts"]) < 5000000) ++inside;
  std::size_t written = 0;
  for (const auto& e : w["traceEvents"]) {
    if (e["ph"] == "M" || e["ph"] == "e") continue;
    ++written;
    CHECK(trace_ps(e["ts"]) >= 3000000);
    CHECK(trace_ps(e["ts"]) < 5000000);
  }
  CHECK(written > 0);
  CHECK(written == inside);
  CHECK(w["otherData"]["window_from_ps"] == 3000000);
  CHECK(run(d, "run --set sim.duration=10us --report r.json --timeline x.json --timeline-window 5us:3us") == 2);
  fs::remove_all(d);
}

TEST_CASE("sanvp msg --timeline: messages, DMA transfers and the latency breakdown", "[timeline][cli]") {
  auto d = scratch("msg");
  REQUIRE(run(d, "msg --sizes 4,5000 --only pingpong --iterations 2 --report r.json --timeline m.json --timeline-fw") == 0);
  const nlohmann::json doc = valid(d / "m.json");
  CHECK(doc["otherData"]["command"] == "msg");
  // Every message the scoreboard checked has its span.
  const std::string out = slurp(d / "out.txt");
  const auto at = out.find("scoreboard: ");
  REQUIRE(at != std::string::npos);
  CHECK(trace_events(doc, "b", "message").size() == std::stoul(out.substr(at + 12)));
  CHECK(trace_events(doc, "X", "dma").size() > 20);
  CHECK(!trace_events(doc, "X", "firmware").empty());
  CHECK(trace_events(doc, "b", "hop").size() > 8);
  // A message spans at least its packets: the first one posted starts before its first packet.
  const auto msgs = trace_events(doc, "b", "message");
  const auto pkts = trace_events(doc, "b", "packet");
  REQUIRE(!pkts.empty());
  CHECK(trace_ps(msgs.front()["ts"]) < trace_ps(pkts.front()["ts"]));
  CHECK(out.find("one-way latency of one 4 B message") != std::string::npos);
  const nlohmann::json rep = nlohmann::json::parse(slurp(d / "r.json"));
  CHECK(rep.contains("latency_breakdown"));
  fs::remove_all(d);
}

TEST_CASE("sanvp tdma sync --timeline: the protocol's packets and DMA transfers", "[timeline][cli]") {
  auto d = scratch("tdma");
  REQUIRE(run(d, "tdma sync --report r.json --timeline s.json") == 0);
  const nlohmann::json doc = valid(d / "s.json");
  CHECK(doc["otherData"]["command"] == "tdma sync");
  CHECK(trace_events(doc, "X", "dma").size() > 10);
  CHECK(trace_events(doc, "b", "packet").size() > 5);
  fs::remove_all(d);
}

TEST_CASE("bad timeline options are errors that name the option", "[timeline][cli]") {
  auto d = scratch("errors");
  CHECK(run(d, "run --set sim.duration=2us --report r.json --timeline no/such/dir/t.json") == 2);
  CHECK(slurp(d / "err.txt").find("--timeline") != std::string::npos);
  CHECK(run(d, "run --set sim.duration=2us --report r.json --timeline t.json --timeline-fw") == 2);
  CHECK(slurp(d / "err.txt").find("--timeline-fw") != std::string::npos);
  CHECK(run(d, "run --set sim.duration=2us --report r.json --timeline t.json --timeline-window nonsense") == 2);
  CHECK(slurp(d / "err.txt").find("--timeline-window") != std::string::npos);
  fs::remove_all(d);
}
