// Differential suite: every program in diff/ runs natively and on the simulated LANai core;
// stdout and the exit code must be identical.
#include <catch2/catch.hpp>
#include <string>

#include "tb/firmware/run_util.hpp"

namespace {

void check_program(const std::string& name, const std::string& variant = "") {
  const std::string dir = FW_BIN_DIR;
  const auto native = sanvp::test::run(dir + "/native/diff_native_" + name);
  const std::string image = dir + "/diff_fw_" + (variant.empty() ? "" : variant + "_") + name + ".img";
  const auto lanai = sanvp::test::run(sanvp::test::sanvp_bin() + " fw run " + image);
  INFO("lanai stderr: " << lanai.err);
  REQUIRE(native.rc == 0);
  CHECK(lanai.rc == native.rc);
  REQUIRE(!native.out.empty());
  CHECK(lanai.out == native.out);
}

}  // namespace

#define DIFF_CASE(n) \
  TEST_CASE("diff " #n, "[diff]") { check_program(#n); }
#define DIFF_VARIANT(n, v) \
  TEST_CASE("diff " #n " " #v, "[diff]") { check_program(#n, #v); }
#include "diff_cases.inc"
