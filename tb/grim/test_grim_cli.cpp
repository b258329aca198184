// `sanvp grim` as a program: a seed gives byte-identical reports (run twice), another seed a
// different run; bad options are refused with exit code 2 and no report.
#include <catch2/catch.hpp>
#include <cstdio>

#include "tb/firmware/run_util.hpp"

using sanvp::test::run;
using sanvp::test::slurp;

namespace {
const std::string kFaulty = " grim --nodes 3 --channels 2 --messages 60 --sizes 1:5000 --mtu 2048 --rto 150"
                            " --set fault.drop=5e-5 --set fault.corrupt=5e-5";
}

TEST_CASE("sanvp grim: the same seed gives identical results, another seed different ones", "[grim][cli]") {
  const std::string bin = SANVP_BIN;
  std::string reports[3];
  const char* seeds[3] = {"7", "7", "8"};
  for (int i = 0; i < 3; ++i) {
    const std::string rep = "/tmp/sanvp_grim_det_" + std::to_string(i) + ".json";
    std::remove(rep.c_str());
    const auto p = run(bin + kFaulty + " --seed " + seeds[i] + " --report " + rep);
    INFO(p.out << p.err);
    REQUIRE(p.rc == 0);
    reports[i] = slurp(rep);
    REQUIRE(!reports[i].empty());
  }
  CHECK(reports[0] == reports[1]);
  CHECK(reports[0] != reports[2]);
  CHECK(reports[0].find("\"retransmits\"") != std::string::npos);
}

TEST_CASE("sanvp grim refuses bad options with exit code 2 and no report", "[grim][cli]") {
  const std::string bin = SANVP_BIN;
  for (const char* bad : {" grim --nodes 1", " grim --nodes 17", " grim --channels 5", " grim --sizes 5:1", " grim --window 6",
                          " grim --mtu 100000", " grim --pool 0", " grim --set fault.drop=2", " grim --host-credits 1 --sizes 1:8192"}) {
    const std::string rep = "/tmp/sanvp_grim_bad.json";
    std::remove(rep.c_str());
    const auto p = run(bin + bad + " --report " + rep);
    INFO(bad << ": " << p.out << p.err);
    CHECK(p.rc == 2);
    CHECK(!std::ifstream(rep).good());
  }
}
