// `sanvp tdma schedule` end to end: the table, the admissions with reasons, the summary, exit
// codes (rejections are not errors) and the JSON report.
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

namespace {

struct Ran { int code = -1; std::string out; };

// `sanvp ARGS` with stdout and stderr captured together.
Ran sanvp(const std::string& args) {
  const char* env = std::getenv("SANVP_BIN");
  const std::string cmd = std::string(env ? env : SANVP_BIN_PATH) + " " + args + " 2>&1";
  Ran r;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  REQUIRE(pipe);
  for (int c; (c = std::fgetc(pipe.get())) != EOF;) r.out.push_back(static_cast<char>(c));
  const int status = pclose(pipe.release());
  if (WIFEXITED(status)) r.code = WEXITSTATUS(status);
  return r;
}

Ran sanvp_tdma(const std::string& args) { return sanvp("tdma " + args); }

bool has(const Ran& r, const std::string& s) { return r.out.find(s) != std::string::npos; }

const std::string kStreams = std::string(SANVP_SOURCE_DIR) + "/platform/tdma/appendix-a.streams.yaml";

}  // namespace

TEST_CASE("sanvp tdma schedule on network A prints the table, the rejections with reasons, exit 0", "[tdma][cli]") {
  const std::string json = std::string(SANVP_BINARY_DIR) + "/tb/tdma/appendix-a.json";
  const Ran r = sanvp_tdma("schedule " + kStreams + " tdma-a --json " + json);
  INFO(r.out);
  CHECK(r.code == 0);
  for (const char* line : {"cycle: 40 slots (lcm of the periods) x tdma.slot 30us = 1.2ms",
                           "slot  n0.out  sw0.p0.out  n1.out  sw0.p1.out  n2.out  sw1.p0.out  n3.out  sw1.p1.out  sw0.p2.out  sw1.p2.out\n",
                           "REJECTED: instance 1 of 4 (released at slot 10, due by slot 18)",
                           "summary: 15 of 18 streams admitted, 3 rejected (31, 34, 32)",
                           "rejections are admission results, not errors: the exit status stays 0", "verdict: valid TDMA schedule"})
    CHECK(has(r, line));
  std::ifstream in(json);
  const auto j = nlohmann::json::parse(in);
  CHECK(j["status"] == "ok");
  CHECK(j["results"]["cycle"] == 40);
  CHECK(j["results"]["rejected"] == 3);
  CHECK(j["results"]["check"]["ok"] == true);
  CHECK(j["params"]["tdma.sync_period"]["value"].dump().find("40") != std::string::npos);
}

TEST_CASE("sanvp tdma schedule on network B admits every stream", "[tdma][cli]") {
  const Ran r = sanvp_tdma("schedule " + kStreams + " tdma-b");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(has(r, "summary: 18 of 18 streams admitted, 0 rejected"));
  CHECK(has(r, "on route 1 [3 0]"));
  CHECK_FALSE(has(r, "REJECTED"));
}

TEST_CASE("sanvp tdma schedule refuses bad input with exit 2", "[tdma][cli]") {
  CHECK(sanvp_tdma("schedule no/such/streams.yaml tdma-a").code == 2);
  CHECK(sanvp_tdma("schedule " + kStreams + " no/such/topo.yaml").code == 2);
  const Ran r = sanvp_tdma("schedule " + kStreams + " tdma-a --set tdma.tie_break=random");
  CHECK(r.code == 2);
  CHECK(has(r, "tdma.tie_break"));
  const Ran c = sanvp_tdma("schedule " + kStreams + " tdma-a --set tdma.max_cycle=30");
  CHECK(c.code == 2);
  CHECK(has(c, "above tdma.max_cycle = 30"));
}

TEST_CASE("sanvp params lists the TDMA parameters", "[tdma][cli]") {
  const Ran r = sanvp("params");
  CHECK(r.code == 0);
  for (const char* k : {"tdma.slot", "tdma.sync_period", "tdma.sync_deadline", "tdma.max_cycle", "tdma.alternates", "tdma.tie_break"})
    CHECK(has(r, k));
}
