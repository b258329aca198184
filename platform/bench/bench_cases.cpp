#include "platform/bench/bench_cases.hpp"

#include <fmt/format.h>

namespace sanvp::bench {
namespace {

// Fabric shapes: single switch (rows 0) or a rows x cols mesh with one node per switch.
Shape fabric(int rows, int cols, int ports, double load, const char* duration) {
  Shape s;
  s.rows = rows;
  s.cols = cols;
  s.ports = ports;
  s.load = load;
  s.duration = duration;
  return s;
}

Shape btin(int nodes, int switches, int members, int runs) {
  Shape s;
  s.nodes = nodes;
  s.switches = switches;
  s.members = members;
  s.runs = runs;
  return s;
}

// Loads: the single switches and the 4x4 mesh as bench_fabric runs them (0.5 of the link
// bandwidth per node; 0.2 on the mesh, whose up*/down* routes saturate at about 0.29: at 0.3 a
// 100 ms run left 5648 packets queued after its 1 ms drain);
// the size series at a light load (0.01: up*/down* funnels the traffic of a large mesh through
// the root's corner; at 0.05 the 32x32 mesh needed 150 us to drain 16 us of traffic), each run
// long enough for a similar number of crossings (the largest: 40 us of traffic plus its drain).
std::vector<BenchCase> make_cases() {
  std::vector<BenchCase> v;
  auto add = [&v](const char* name, const char* section, std::string what, Kind k, Shape full, Shape quick) {
    v.push_back(BenchCase{name, section, std::move(what), k, std::move(full), std::move(quick)});
  };
  add("switch8", "fabric", "8-port switch, 8 nodes, uniform, load 0.5, 256 B payload, 1 ms", Kind::Fabric,
      fabric(0, 0, 8, 0.5, "1ms"), fabric(0, 0, 8, 0.5, "20us"));
  add("switch16", "fabric", "16-port switch, 16 nodes, uniform, load 0.5, 256 B payload, 1 ms", Kind::Fabric,
      fabric(0, 0, 16, 0.5, "1ms"), fabric(0, 0, 16, 0.5, "20us"));
  add("mesh4x4", "fabric", "4x4 mesh, 16 nodes, up*/down*, uniform, load 0.2, 256 B payload, 1 ms", Kind::Fabric,
      fabric(4, 4, 8, 0.2, "1ms"), fabric(2, 2, 8, 0.2, "20us"));
  add("mesh16", "size", "4x4 mesh (16 switches), load 0.01, 20 ms", Kind::Fabric, fabric(4, 4, 8, 0.01, "20ms"),
      fabric(2, 2, 8, 0.3, "20us"));
  add("mesh64", "size", "8x8 mesh (64 switches), load 0.01, 4 ms", Kind::Fabric, fabric(8, 8, 8, 0.01, "4ms"),
      fabric(2, 4, 8, 0.3, "20us"));
  add("mesh256", "size", "16x16 mesh (256 switches), load 0.01, 600 us", Kind::Fabric, fabric(16, 16, 8, 0.01, "600us"),
      fabric(4, 4, 8, 0.3, "20us"));
  add("mesh1024", "size", "32x32 mesh (1024 switches), load 0.01, 120 us", Kind::Fabric, fabric(32, 32, 8, 0.01, "120us"),
      fabric(4, 8, 8, 0.3, "20us"));
  add("mesh4x4_10ms", "length", "4x4 mesh as mesh4x4, 10 ms", Kind::Fabric, fabric(4, 4, 8, 0.2, "10ms"),
      fabric(2, 2, 8, 0.2, "60us"));
  add("mesh4x4_100ms", "length", "4x4 mesh as mesh4x4, 100 ms", Kind::Fabric, fabric(4, 4, 8, 0.2, "100ms"),
      fabric(2, 2, 8, 0.2, "200us"));
  add("iss", "iss", "sort + CRC-32 firmware on a bare LANai core, default quantum (100 rounds)", Kind::Iss, Shape{}, Shape{});
  add("btin_experiment", "btin", "BTIN experiment, 1024 nodes / 300 switches, 100 runs at n=256", Kind::BtinExperiment,
      btin(1024, 300, 256, 100), btin(64, 20, 16, 3));
  add("btin_flit", "btin", "BTIN flit-level, 1024 nodes / 300 switches, one barrier of 256 members (setup computed once)",
      Kind::BtinFlit, btin(1024, 300, 256, 1), btin(64, 20, 16, 1));
  return v;
}

double num(const nlohmann::json& j, const char* key) { return j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0; }

Figure fig(const BenchCase& c, const char* key, std::string label, const char* unit, double value, bool higher_better) {
  return Figure{c.name, key, std::move(label), unit, value, higher_better};
}

// Rates over the simulation phase's CPU time (measured by the child from the installed routes to
// the end of the run: network construction and route computation are not the fabric's speed).
std::vector<Figure> fabric_figures(const BenchCase& c, const nlohmann::json& counts) {
  const double cpu = num(counts, "sim_cpu_s"), hops = num(counts, "flit_hops"), cross = num(counts, "crossings");
  const double sim_ms = num(counts, "simulated_ps") / 1e9;
  std::vector<Figure> f;
  if (cpu <= 0) return f;
  if (c.section == "fabric") {
    f.push_back(fig(c, "flit_hops_per_cpu_s", "flit-hops per CPU s", "M/s", hops / cpu / 1e6, true));
    f.push_back(fig(c, "crossings_per_cpu_s", "router crossings per CPU s", "k/s", cross / cpu / 1e3, true));
    f.push_back(fig(c, "switch_flits_per_cpu_s", "flits out of switches per CPU s", "M/s", num(counts, "switch_flit_hops") / cpu / 1e6, true));
  }
  if (c.section == "size" && cross > 0) f.push_back(fig(c, "cpu_ns_per_crossing", "CPU per router crossing", "ns", cpu / cross * 1e9, false));
  if ((c.section == "length" || c.name == "mesh4x4") && sim_ms > 0)
    f.push_back(fig(c, "cpu_s_per_sim_ms", "CPU per simulated ms", "s", cpu / sim_ms, false));
  return f;
}

}  // namespace

const std::vector<BenchCase>& bench_cases() {
  static const std::vector<BenchCase> cases = make_cases();
  return cases;
}

const BenchCase* find_case(const std::string& name) {
  for (const auto& c : bench_cases())
    if (c.name == name) return &c;
  return nullptr;
}

std::vector<Figure> case_figures(const BenchCase& c, const nlohmann::json& sample) {
  const nlohmann::json& counts = sample.at("counts");
  switch (c.kind) {
    case Kind::Fabric: return fabric_figures(c, counts);
    case Kind::Iss: {
      const double cpu = num(counts, "sim_cpu_s");
      if (cpu <= 0) return {};
      return {fig(c, "mips_per_cpu_s", "ISS instructions per CPU s", "MIPS", num(counts, "instructions") / cpu / 1e6, true)};
    }
    case Kind::BtinExperiment:
    case Kind::BtinFlit:
      return {fig(c, "wall_s", "wall time", "s", num(sample, "wall_s"), false),
              fig(c, "peak_rss_mib", "peak memory (RSS)", "MiB", num(sample, "peak_rss_kb") / 1024.0, false)};
  }
  return {};
}

void add_ratio_figures(std::vector<Figure>& figures) {
  auto find = [&figures](const std::string& name, const std::string& key) -> const Figure* {
    for (const auto& f : figures)
      if (f.case_name == name && f.key == key) return &f;
    return nullptr;
  };
  std::vector<Figure> extra;
  const Figure* base = find("mesh16", "cpu_ns_per_crossing");
  for (const char* n : {"mesh64", "mesh256", "mesh1024"}) {
    const Figure* f = find(n, "cpu_ns_per_crossing");
    if (base && f && base->value > 0)
      extra.push_back(Figure{n, "crossing_cost_vs_mesh16", "CPU per crossing / mesh16's", "x", f->value / base->value, false});
  }
  // Whole simulation CPU of the long run over the short one (cost per ms times the ms).
  const Figure* one = find("mesh4x4", "cpu_s_per_sim_ms");
  for (const char* n : {"mesh4x4_10ms", "mesh4x4_100ms"}) {
    const Figure* f = find(n, "cpu_s_per_sim_ms");
    if (one && f && one->value > 0)
      extra.push_back(Figure{n, "cpu_per_ms_vs_mesh4x4", "CPU per simulated ms / mesh4x4's", "x", f->value / one->value, false});
  }
  figures.insert(figures.end(), extra.begin(), extra.end());
}

}  // namespace sanvp::bench
