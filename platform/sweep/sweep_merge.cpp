// Merging a sweep's point reports into sweep.csv and sweep.json (see sweep_merge.hpp).
#include "platform/sweep/sweep_merge.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <sstream>

#include "hw/base/error.hpp"
#include "hw/base/time.hpp"
#include "platform/sim/report.hpp"
#include "platform/sweep/process_pool.hpp"

namespace sanvp {
namespace {

double num(const nlohmann::json& j, const char* k) { return j.contains(k) && j[k].is_number() ? j[k].get<double>() : NAN; }

std::string report_status(const nlohmann::json& rep) { return rep.contains("status") ? rep["status"].get<std::string>() : "no-report"; }

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// A `seed` column unless a varied key is already called so (--seeds varies it).
bool seed_axis(const std::vector<SweepAxis>& axes) {
  return std::any_of(axes.begin(), axes.end(), [](const SweepAxis& a) { return a.key == "seed"; });
}

// Throughput and the verdict come from the run's measurement window (sim/run.cpp): accepted =
// payload delivered in it, offered = payload created in it, flit rates in flits per link.cp per
// node; latency percentiles over `samples` packets created in it.
std::string csv_header(const std::vector<SweepAxis>& axes) {
  std::string h = "point";
  for (const auto& ax : axes) h += "," + csv_cell(ax.key);
  return h + ",exit_code,status,packets_created,packets_delivered,latency_mean_ns,latency_p50_ns,latency_p99_ns,latency_max_ns,"
             "net_latency_p50_ns,net_latency_p99_ns,accepted_MBps_per_node,offered_load,max_link_utilization,simulated_us,"
             "offered_MBps_per_node,offered_flit_rate,accepted_flit_rate,samples,backlog_start,backlog_end,saturated,link_MBps" +
         std::string(seed_axis(axes) ? "" : ",seed") + "\n";
}

// The measurement columns of a row (empty cells for a report without a measurement).
std::string measurement_cells(const nlohmann::json& res) {
  if (!res.contains("measurement")) return ",,,,,,,";
  const nlohmann::json& m = res["measurement"];
  const auto& b = m["source_backlog_packets"];
  const double cp = m["cp_ps"].get<double>();  // link bandwidth: one byte per character period
  return fmt::format(",{:.3f},{:.6f},{:.6f},{},{},{},{},{}", m["offered"]["MBps_per_node"].get<double>(),
                     m["offered"]["flits_per_cp_per_node"].get<double>(), m["accepted"]["flits_per_cp_per_node"].get<double>(),
                     m["latency_samples"].get<std::uint64_t>(), b["window_start"].get<std::uint64_t>(), b["window_end"].get<std::uint64_t>(),
                     m["saturated"].get<bool>() ? "yes" : "no", cp > 0 ? fmt::format("{:.3f}", 1e6 / cp) : "");
}

// One CSV row of point i from its report `rep` (empty cells for what it does not have).
std::string csv_row(std::size_t i, const Point& point, int exit_code, const nlohmann::json& rep, bool seed_column) {
  const nlohmann::json res = rep.contains("results") ? rep["results"] : nlohmann::json::object();
  const nlohmann::json L = res.contains("latency") ? res["latency"] : nlohmann::json::object();
  const nlohmann::json N = res.contains("network_latency") ? res["network_latency"] : nlohmann::json::object();
  const double sim_ps = num(rep, "simulated_ps");
  double maxu = 0;
  auto param = [&](const char* key) -> std::string {
    if (!rep.contains("params") || !rep["params"].contains(key)) return "";
    return rep["params"][key]["value"].get<std::string>();
  };
  // The busiest link over the measurement window when the run measured one.
  if (res.contains("links"))
    for (const auto& l : res["links"]) maxu = std::max(maxu, l[l.contains("window_utilization") ? "window_utilization" : "utilization"].get<double>());
  std::string offered;
  for (const auto& [k, v] : point) if (k == "traffic.load") offered = v;
  if (offered.empty()) offered = param("traffic.load");
  auto ns = [](double ps) { return std::isnan(ps) ? std::string("") : fmt::format("{:.3f}", ps / 1000.0); };
  // Accepted throughput: payload delivered per node per second of the measurement window.
  const double thr = res.contains("measurement") ? num(res["measurement"]["accepted"], "MBps_per_node") : NAN;
  std::ostringstream csv;
  csv << i;
  for (const auto& [k, v] : point) csv << "," << csv_cell(v);
  csv << "," << exit_code << "," << report_status(rep) << "," << (res.contains("packets_created") ? res["packets_created"].dump() : "") << ","
      << (res.contains("packets_delivered") ? res["packets_delivered"].dump() : "") << "," << ns(num(L, "mean_ps")) << ","
      << ns(num(L, "p50_ps")) << "," << ns(num(L, "p99_ps")) << "," << ns(num(L, "max_ps")) << "," << ns(num(N, "p50_ps")) << ","
      << ns(num(N, "p99_ps")) << "," << (std::isnan(thr) ? "" : fmt::format("{:.3f}", thr)) << "," << offered << ","
      << (res.contains("links") ? fmt::format("{:.6f}", maxu) : "") << "," << (std::isnan(sim_ps) ? "" : fmt::format("{:.3f}", sim_ps / 1e6))
      << measurement_cells(res);
  if (seed_column) csv << "," << (rep.contains("seed") ? rep["seed"].dump() : "");
  csv << "\n";
  return csv.str();
}

}  // namespace

std::string sweep_point_file(const std::string& out, std::size_t i, const char* ext) { return fmt::format("{}/point-{:03d}.{}", out, i, ext); }

int merge_sweep(const SweepOutput& a, const std::vector<SweepAxis>& axes, const std::vector<Point>& points, const std::vector<int>& exit_codes) {
  std::string csv = csv_header(axes);
  nlohmann::json merged{{"scenario", a.file}, {"vary", a.vary}, {"sets", a.sets}, {"points", nlohmann::json::array()}};
  int worst = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const nlohmann::json rep = read_json_file(sweep_point_file(a.out, i, "json"));
    csv += csv_row(i, points[i], exit_codes[i], rep, !seed_axis(axes));
    nlohmann::json set = nlohmann::json::object();
    for (const auto& [k, v] : points[i]) set[k] = v;
    merged["points"].push_back({{"point", i}, {"set", set}, {"exit_code", exit_codes[i]}, {"status", report_status(rep)},
                                {"report", sweep_point_file(a.out, i, "json")},
                                {"results", rep.contains("results") ? rep["results"] : nlohmann::json::object()}});
    if (exit_codes[i] != 0) worst = worst == kExitUserError || exit_codes[i] == kExitUserError ? kExitUserError : kExitSimError;
  }
  Report out;
  out.write({a.out + "/sweep.csv", "sweep"}, csv);
  out.write_json({a.out + "/sweep.json", "sweep"}, merged, 2);
  return worst;
}

}  // namespace sanvp
