// Benchmark: time and memory to generate, load, validate and route the BTIN paper's largest
// network (1024 nodes on 300 8-port switches, f = 0.75), and to prove its routes deadlock-free.
// Usage: bench_topo [topology.yaml]   (default: generate the network into a temporary file)
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sys/resource.h>
#include <systemc>
#include <unistd.h>

#include "platform/topo/deadlock.hpp"
#include "platform/topo/generators.hpp"
#include "platform/topo/routing.hpp"
#include "platform/topo/topo_loader.hpp"

using namespace sanvp;
using Clock = std::chrono::steady_clock;

namespace {
// No SystemC banner in the figures (set before the kernel starts).
const bool g_quiet_banner = [] { return setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0; }();
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }
long peak_rss_kb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}
}  // namespace

int sc_main(int argc, char* argv[]) {
  std::string file;
  const long rss0 = peak_rss_kb();
  if (argc > 1) {
    file = argv[1];
  } else {
    auto t0 = Clock::now();
    GenRequest r;
    r.type = "irregular";
    r.where = Origin{"bench", "generate"};
    for (auto [k, v] : {std::pair{"switches", "300"}, {"nodes", "1024"}, {"ports", "8"}, {"f", "0.75"}, {"seed", "1"}})
      r.args[k] = GenArg{v, Origin{"bench", k}};
    Topology g = generate_topology(r);
    file = (std::filesystem::temp_directory_path() / fmt::format("sanvp-bench-topo-{}.yaml", ::getpid())).string();
    std::ofstream(file) << g.to_yaml();
    fmt::print("generate irregular q=300 p=1024 k=8 f=0.75: {:8.2f} ms ({} links)\n", ms_since(t0), g.links.size());
  }
  auto t0 = Clock::now();
  Topology t = load_topology_file(file);
  const double t_load = ms_since(t0);
  t0 = Clock::now();
  const RouteTable rt = updown_routes(t);
  const double t_route = ms_since(t0);
  t0 = Clock::now();
  const DeadlockReport rep = check_deadlock(t, rt);
  const double t_check = ms_since(t0);
  const long rss1 = peak_rss_kb();
  std::size_t longest = 0;
  for (int s = 0; s < rt.nodes(); ++s) for (int d = 0; d < rt.nodes(); ++d) longest = std::max(longest, rt.at(s, d).size);

  fmt::print("file: {} ({} bytes)\n", file, std::filesystem::file_size(file));
  fmt::print("network: {} switches, {} nodes, {} links\n", t.switches.size(), t.nodes.size(), t.links.size());
  fmt::print("load + validate YAML:        {:8.2f} ms\n", t_load);
  fmt::print("up*/down* routes, all pairs: {:8.2f} ms ({} routes, {} route bytes, longest {} hops, table {:.1f} MiB)\n", t_route,
             static_cast<long>(rt.nodes()) * (rt.nodes() - 1), rt.total_bytes(), longest, rt.memory_bytes() / 1048576.0);
  fmt::print("deadlock check (CDG):        {:8.2f} ms ({} channels, {} dependencies, {})\n", t_check, rep.channels, rep.dependencies,
             rep.acyclic ? "acyclic" : "CYCLE");
  fmt::print("total load+validate+route+check: {:.2f} ms\n", t_load + t_route + t_check);
  fmt::print("peak RSS: {:.1f} MiB (before: {:.1f} MiB)\n", rss1 / 1024.0, rss0 / 1024.0);
  if (argc <= 1) std::filesystem::remove(file);
  return rep.acyclic ? 0 : 1;
}
