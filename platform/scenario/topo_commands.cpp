// `sanvp topo gen|check|show` and `sanvp routes`: generate, validate and inspect topologies and
// their up*/down* routes. Both accept a topology file or a scenario file.
#include <fmt/format.h>
#include <memory>
#include <optional>

#include "firmware/runtime/include/fw/routes.h"
#include "platform/cli/commands.hpp"
#include "hw/base/error.hpp"
#include "hw/base/io.hpp"
#include "platform/topo/deadlock.hpp"
#include "platform/topo/generators.hpp"
#include "platform/topo/routing.hpp"
#include "platform/scenario/scenario.hpp"
#include "platform/topo/topo_loader.hpp"

namespace sanvp {
namespace {

// A topology file, or a scenario file (its topology, routing options and explicit routes).
Scenario load_any(const std::string& file) {
  YAML::Node root = YamlDoc::load_file(file);
  ParamValues pv;
  if (root.IsMap() && root["topology"]) return load_scenario(file, {}, pv);
  Scenario s;
  s.file = file;
  s.topo = load_topology_file(file);
  s.name = s.topo.name;
  return s;
}

void write_out(const std::string& path, const std::string& text, const char* what) {
  if (path.empty() || path == "-") { fmt::print("{}", text); return; }
  write_file_checked(path, text, what);
}

struct TopoArgs {
  std::string type, out, file, dot;
  std::vector<std::string> kv;
};

const CommandRegistrar reg_topo{"topo", [](CLI::App& app) -> CommandRun {
  auto a = std::make_shared<TopoArgs>();
  auto* topo = app.add_subcommand("topo", "generate, check and inspect network topologies");
  topo->require_subcommand(1);
  auto* gen = topo->add_subcommand("gen", "generate a topology file");
  gen->add_option("type", a->type, "single, star, tree, irregular, mesh, tdma-a, tdma-b")->required();
  gen->add_option("args", a->kv, "generator arguments key=value (see --help)");
  gen->add_option("-o,--output", a->out, "output file (default: standard output)");
  gen->footer("generators and their arguments:\n" + generator_help());
  auto* check = topo->add_subcommand("check", "validate a topology or scenario file, route it and check for deadlock");
  check->add_option("file", a->file, "topology or scenario file")->required();
  auto* show = topo->add_subcommand("show", "print a summary and port table; --dot writes Graphviz");
  show->add_option("file", a->file, "topology or scenario file")->required();
  show->add_option("--dot", a->dot, "write a Graphviz .dot file ('-' = standard output)");
  return [a, gen, check, show]() -> int {
    if (gen->parsed()) {
      GenRequest r;
      r.type = a->type;
      r.where = Origin{"sanvp topo gen", "type"};
      for (const auto& kv : a->kv) {
        auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0) throw UserError(fmt::format("sanvp topo gen: '{}' is not key=value", kv));
        if (r.args.count(kv.substr(0, eq)))
          throw UserError(fmt::format("sanvp topo gen: {} is given twice; give it once", kv.substr(0, eq)));
        r.args[kv.substr(0, eq)] = GenArg{kv.substr(eq + 1), Origin{"sanvp topo gen", kv.substr(0, eq)}};
      }
      if (!a->out.empty() && a->out != "-") check_output_path(a->out, "--output");
      Topology t = generate_topology(r);
      write_out(a->out, t.to_yaml(), "--output");
      if (!a->out.empty() && a->out != "-") fmt::print("{}written: {}\n", t.summary(), a->out);
      return 0;
    }
    Scenario s = load_any(a->file);
    if (check->parsed()) {
      fmt::print("{}", s.topo.summary());
      DeadlockReport rep;
      Scenario relaxed = s;
      relaxed.check_deadlock = false;
      const RouteTable rt = scenario_routes(relaxed, &rep);
      std::size_t longest = 0;
      for (int x = 0; x < rt.nodes(); ++x) for (int y = 0; y < rt.nodes(); ++y) longest = std::max(longest, rt.at(x, y).size);
      fmt::print("routes: {} ({} node pairs, {} route bytes, longest {} hops)\n", s.routing, rt.nodes() * (rt.nodes() - 1),
                 rt.total_bytes(), longest);
      fmt::print("{}", rep.describe(s.topo));
      if (!rep.acyclic) return kExitUserError;
      fmt::print("ok: {}\n", a->file);
      return 0;
    }
    if (show->parsed()) {
      fmt::print("{}", s.topo.summary());
      const auto pm = s.topo.port_map();
      const UpDownTree u = updown_tree(s.topo);
      fmt::print("{:<8} {:>5}  ports (n<j> = node, sw<i>.p<k> = link; ^ = up towards the root)\n", "switch", "level");
      for (std::size_t sw = 0; sw < pm.size(); ++sw) {
        std::string line;
        for (std::size_t p = 0; p < pm[sw].size(); ++p) {
          const auto& e = pm[sw][p];
          std::string what = e.kind == PortEnd::Node     ? fmt::format("n{}", e.id)
                             : e.kind == PortEnd::Switch ? fmt::format("sw{}.p{}{}", e.id, e.remote_port, u.up(static_cast<int>(sw), e.id) ? "^" : "")
                                                         : "-";
          line += fmt::format(" {}:{}", p, what);
        }
        fmt::print("sw{:<6} {:>5} {}\n", sw, u.level[sw], line);
      }
      if (!a->dot.empty()) {
        write_out(a->dot, s.topo.to_dot(), "--dot");
        if (a->dot != "-") fmt::print("graphviz: {} (render: dot -Tpng {} -o topo.png)\n", a->dot, a->dot);
      }
      return 0;
    }
    return 0;
  };
}};

struct RoutesArgs {
  std::string file, algorithm;
  bool no_check = false;
  int alternates = -1, extra_hops = -1;  // -1: the scenario's (routing.alternates, routing.extra_hops)
  bool self = false;
};

const CommandRegistrar reg_routes{"routes", [](CLI::App& app) -> CommandRun {
  auto a = std::make_shared<RoutesArgs>();
  auto* cmd = app.add_subcommand("routes", "print the source route of every node pair (with --alternates and --self, the routes firmware gets) and check them for deadlock");
  cmd->add_option("file", a->file, "topology or scenario file")->required();
  cmd->add_option("--algorithm", a->algorithm, "up-down (default) or shortest (unrestricted, may deadlock)");
  cmd->add_option("--alternates", a->alternates, "also print up to N alternate routes per pair, as firmware gets them (default: the "
                                                 "scenario's routing.alternates, else 0)")
      ->check(CLI::Range(0, static_cast<int>(route_abi::kSetMaxRoutes) - 1));
  cmd->add_option("--extra-hops", a->extra_hops, "alternates at most this many switch hops longer than the shortest (default: the "
                                                 "scenario's routing.extra_hops, else 1)")
      ->check(CLI::Range(0, 8));
  cmd->add_flag("--self", a->self, "also print each node's route to itself (the U-turn through its switch)");
  return [a]() -> int {
    Scenario s = load_any(a->file);
    if (!a->algorithm.empty()) {
      if (a->algorithm != "up-down" && a->algorithm != "shortest")
        throw UserError(fmt::format("--algorithm: unknown '{}' (up-down, shortest)", a->algorithm));
      s.routing = a->algorithm;
    }
    if (a->alternates >= 0) s.alternates = a->alternates;
    if (a->extra_hops >= 0) s.extra_hops = a->extra_hops;
    s.check_deadlock = false;
    DeadlockReport rep;
    const RouteTable rt = scenario_routes(s, &rep);
    const UpDownTree u = updown_tree(s.topo);
    fmt::print("# {} routes of {} (root switch {}); bytes = output port at each switch\n", s.routing,
               s.topo.name.empty() ? a->file : s.topo.name, u.root);
    if (s.alternates > 0)
      fmt::print("# alternates: up to {} per pair, legal under {}, no switch twice, at most {} extra hops; \"alt k\" = route k\n",
                 s.alternates, s.routing, s.extra_hops);
    std::optional<AlternateRoutes> alt;
    std::vector<ExtraRoute> extra;
    if (s.alternates > 0) alt.emplace(s.topo, s.routing != "shortest", s.extra_hops);
    for (int x = 0; x < rt.nodes(); ++x)
      for (int y = 0; y < rt.nodes(); ++y) {
        if (x == y) {
          const auto u_turn = self_route(s.topo, x);
          if (a->self) fmt::print("n{} -> n{}: {} (U-turn)\n", x, y, format_route(RouteTable::View{u_turn.data(), u_turn.size()}));
          continue;
        }
        fmt::print("n{} -> n{}: {}\n", x, y, format_route(rt.at(x, y)));
        if (!alt) continue;
        const auto routes = alt->routes(x, y, rt.at(x, y), s.alternates);
        for (std::size_t k = 0; k < routes.size(); ++k) {
          fmt::print("n{} -> n{} alt {}: {}\n", x, y, k + 1, format_route(RouteTable::View{routes[k].data(), routes[k].size()}));
          extra.push_back(ExtraRoute{x, y, routes[k]});
        }
      }
    if (!extra.empty()) rep = check_deadlock(s.topo, rt, extra);  // the primary routes with their alternates
    fmt::print("{}", rep.describe(s.topo));
    return rep.acyclic ? 0 : kExitUserError;
  };
}};

}  // namespace
}  // namespace sanvp
