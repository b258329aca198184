// The Slurm backend against a real single-node cluster (scripts/slurm_local_cluster.sh, started by
// the ctest fixture; label `slurm`): a sweep through one job array merges byte for byte like the
// local backend, a point failing once is retried, --submit-only + collect and --resume, and a bad
// partition is a clear error. Skipped (ctest SKIP) when sbatch is not installed or no cluster answers.
#include <catch2/catch.hpp>
#include <iostream>

#include "hw/base/error.hpp"
#include "tb/sweep/sweep_test_util.hpp"

using namespace sweep_test;

namespace {

const std::string kSix = "--vary traffic.load=0.1:0.6:0.1 --set duration=10us --out res";
const std::string kFour = "--vary traffic.load=0.1:0.4:0.1 --set duration=10us --out res";

// The cluster of scripts/slurm_local_cluster.sh unless SLURM_CONF names another one. Prints the
// skip marker ctest looks for (SKIP_REGULAR_EXPRESSION) and returns false when there is none.
bool have_cluster() {
  if (run("command -v sbatch > /dev/null 2>&1") != 0) {
    std::cout << "SANVP_SKIP: sbatch is not installed (Debian: slurm-client; scripts/setup.sh installs it)" << std::endl;
    return false;
  }
  const char* dir = std::getenv("SANVP_SLURM_DIR");
  const std::string conf = std::string(dir ? dir : "/tmp/sanvp-slurm") + "/slurm.conf";
  if (!std::getenv("SLURM_CONF") && fs::exists(conf)) ::setenv("SLURM_CONF", conf.c_str(), 1);
  if (run("timeout 20 sinfo > /dev/null 2>&1") != 0) {
    std::cout << "SANVP_SKIP: no Slurm cluster answers (start one as root: scripts/slurm_local_cluster.sh start)" << std::endl;
    return false;
  }
  return true;
}

// The local backend's merged files for the same points, the reference of every case.
struct Reference {
  std::string csv, json;
};
Reference local_reference(const TempDir& t, const std::string& args) {
  fs::create_directories(t.path / "local");
  REQUIRE(sweep_in(t.path / "local", "sweep", scenario() + " " + args + " --jobs 2") == 0);
  return {slurp(t.path / "local/res/sweep.csv"), slurp(t.path / "local/res/sweep.json")};
}

}  // namespace

TEST_CASE("a sweep through a Slurm job array merges byte for byte like the local backend") {
  if (!have_cluster()) return;
  ::alarm(300);  // never hang CI
  TempDir t("slurm-match");
  const Reference ref = local_reference(t, kSix);
  fs::create_directories(t.path / "slurm");
  REQUIRE(sweep_in(t.path / "slurm", "sweep", scenario() + " " + kSix + " --backend slurm --max-parallel 2") == 0);
  REQUIRE(count_lines_with(t.path / "slurm/sweep.err", "as Slurm job") == 1);
  REQUIRE(count_lines_with(t.path / "slurm/sweep.err", "] point ") == 6);
  REQUIRE(count_lines_with(t.path / "slurm/sweep.err", "/6] point 5 (traffic.load=0.6): ok in") == 1);
  REQUIRE(slurp(t.path / "slurm/res/sweep.csv") == ref.csv);
  REQUIRE(slurp(t.path / "slurm/res/sweep.json") == ref.json);
  // Every point ran as its own array task (the Slurm log of each task is there).
  int tasks = 0;
  for (const auto& e : fs::directory_iterator(t.path / "slurm/res/slurm")) tasks += e.path().filename().string().rfind("slurm-", 0) == 0;
  REQUIRE(tasks == 6);
}

TEST_CASE("a point that fails once is resubmitted and the merge still matches") {
  if (!have_cluster()) return;
  ::alarm(300);
  TempDir t("slurm-retry");
  const Reference ref = local_reference(t, kFour);
  fs::create_directories(t.path / "slurm");
  REQUIRE(sweep_in(t.path / "slurm", "sweep", scenario() + " " + kFour + " --backend slurm", "SANVP_SWEEP_FAIL_ONCE=3") == 0);
  REQUIRE(fs::exists(t.path / "slurm/res/slurm/failed-once-003"));
  REQUIRE(count_lines_with(t.path / "slurm/sweep.err", "1 point(s) ended without a result; resubmitting (retry 1 of 2)") == 1);
  REQUIRE(count_lines_with(t.path / "slurm/sweep.err", "] point ") == 4);
  REQUIRE(slurp(t.path / "slurm/res/sweep.csv") == ref.csv);
  REQUIRE(slurp(t.path / "slurm/res/sweep.json") == ref.json);
  // With no retries left the point has no result: exit code -1 in the merge, the sweep fails.
  fs::create_directories(t.path / "noretry");
  REQUIRE(sweep_in(t.path / "noretry", "sweep", scenario() + " --vary traffic.load=0.1,0.2 --set duration=10us --out res --backend slurm --retries 0",
                   "SANVP_SWEEP_FAIL_ONCE=1") == sanvp::kExitSimError);
  REQUIRE(count_lines_with(t.path / "noretry/res/sweep.csv", "1,0.2,-1,no-report,") == 1);
}

TEST_CASE("submit-only then sweep collect and resume through Slurm") {
  if (!have_cluster()) return;
  ::alarm(300);
  TempDir t("slurm-collect");
  const Reference ref = local_reference(t, kFour);
  fs::create_directories(t.path / "slurm");
  REQUIRE(sweep_in(t.path / "slurm", "submit", scenario() + " " + kFour + " --backend slurm --submit-only") == 0);
  REQUIRE(count_lines_with(t.path / "slurm/submit.out", "sanvp sweep collect res") == 1);
  // Wait for the array (at most 4 minutes), then merge from another folder.
  REQUIRE(run("for i in $(seq 240); do [ -z \"$(squeue --noheader --name=sanvp-sweep)\" ] && exit 0; sleep 1; done; exit 1") == 0);
  REQUIRE(run(fmt::format("cd / && {} sweep collect {} > /dev/null 2>&1", sanvp_bin(), (t.path / "slurm/res").string())) == 0);
  REQUIRE(slurp(t.path / "slurm/res/sweep.csv") == ref.csv);
  REQUIRE(slurp(t.path / "slurm/res/sweep.json") == ref.json);
  // A point lost after the fact (its report gone): --resume runs only that one through Slurm.
  fs::remove(t.path / "slurm/res/point-002.json");
  REQUIRE(sweep_in(t.path / "slurm", "resume", scenario() + " " + kFour + " --backend slurm --resume") == 0);
  REQUIRE(count_lines_with(t.path / "slurm/resume.err", "(1 to run)") == 1);
  REQUIRE(count_lines_with(t.path / "slurm/resume.err", "[1/1] point 2 (traffic.load=0.3): ok") == 1);
  REQUIRE(slurp(t.path / "slurm/res/sweep.csv") == ref.csv);
  REQUIRE(slurp(t.path / "slurm/res/sweep.json") == ref.json);
}

TEST_CASE("an unknown Slurm partition is a clear error") {
  if (!have_cluster()) return;
  TempDir t("slurm-partition");
  REQUIRE(sweep_in(t.path, "p", scenario() + " --vary traffic.load=0.1,0.2 --set duration=10us --out res --backend slurm --partition nosuch") ==
          sanvp::kExitUserError);
  REQUIRE(count_lines_with(t.path / "p.err", "sbatch refused the job array (--partition nosuch)") == 1);
}
