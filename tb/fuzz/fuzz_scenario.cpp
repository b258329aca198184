// libFuzzer target: scenario files (platform/topo/scenario.*): load_scenario with --set
// overrides, then what `sanvp topo check` and the report do with a loaded scenario (routes,
// deadlock check, effective configuration as JSON).
//
// Input: the scenario file's text. Lines "#set key=value" (YAML comments, so the file stays a
// valid scenario) are also passed as --set overrides. The file is written to a private folder
// (load_scenario reads a path) that holds `topologies/` (a link to platform/scenarios/topologies,
// for the example scenarios that name a topology file) and `fw.img` (for `firmware: fw.img`).
#include <filesystem>
#include <sstream>

#include "hw/base/error.hpp"
#include "hw/base/params.hpp"
#include "platform/scenario/scenario.hpp"
#include "tb/fuzz/fuzz_util.hpp"

namespace {

void setup() {
  namespace fs = std::filesystem;
  const fs::path dir = sanvp::fuzz::temp_dir();
  std::error_code ec;
  fs::create_directory_symlink(fs::path(SANVP_SOURCE_DIR) / "platform/scenarios/topologies", dir / "topologies", ec);
  const std::uint8_t fw[] = {'S', 'A', 'N', 'V', 'P', 'F', 'W', '1'};
  sanvp::fuzz::write_temp("fw.img", fw, sizeof fw);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool once = (setup(), true);
  (void)once;
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> sets;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("#set ", 0) == 0) sets.push_back(line.substr(5));
  const std::string path = sanvp::fuzz::write_temp("scenario.yaml", data, size);
  try {
    sanvp::ParamValues pv;
    sanvp::Scenario s = sanvp::load_scenario(path, sets, pv);
    // Routing cost grows with nodes^2 x path length: route only small networks (the loader,
    // not the router, is the target here; fuzz_topology routes too).
    if (s.topo.nodes.size() <= 64 && s.topo.switches.size() <= 64) {
      sanvp::DeadlockReport rep;
      sanvp::scenario_routes(s, &rep);
    }
    (void)sanvp::scenario_json(s).dump();
  } catch (const sanvp::UserError&) {
  }
  return 0;
}
