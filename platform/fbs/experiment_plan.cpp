#include "platform/fbs/experiment_plan.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "hw/base/error.hpp"
#include "hw/link/flow_controller.hpp"
#include "platform/fbs/model_report.hpp"
#include "platform/fbs/schedule.hpp"

namespace sanvp::fbs {
namespace {

const SkewInputs kPaper;  // the paper's defaults (Myrinet-1280/SAN), as SkewInputs declares them

// Link speeds of Figures 5 and 6: 0.64, 1.28, 1.92, 2.56 Gb/s, cp as the paper rounds it.
const Ps kCps[] = {12500, 6250, 4170, 3130};

std::string set(const char* key, const std::string& v) { return fmt::format("{}={}", key, v); }
std::string ps(Ps v) { return fmt::format("{}ps", v); }

ExpPoint base_point(const std::string& group, const std::string& label, const ExpNetwork& net) {
  ExpPoint p;
  p.group = group;
  p.label = label;
  p.paper_net = p.sim_net = net;
  return p;
}

ExpNetwork tree(int ports, int levels) { return {ports, levels}; }

// Table 3: SSS on one 4-, 8- or 16-port switch at 100..500 ppm.
void table3(std::vector<ExpPoint>& v) {
  for (const PaperRow& r : paper_table3()) {
    const int ports[] = {4, 8, 16};
    for (std::size_t k = 0; k < 3; ++k) {
      ExpPoint p = base_point("table3", fmt::format("{} ppm, {} ports", r.drift_ppm, ports[k]), {ports[k], 0});
      p.sets = {set("fbs.drift", std::to_string(r.drift_ppm))};
      p.paper_si = r.si;
      p.paper_overhead = r.overhead[k];
      v.push_back(p);
    }
  }
}

// Table 4: HSS on 4 levels of 4- and 8-port switches; the 8-port tree is simulated with
// `tree_levels` levels (392 NICs at 4 levels).
void table4(std::vector<ExpPoint>& v, int tree_levels) {
  for (const PaperRow& r : paper_table4()) {
    const int ports[] = {4, 8};
    for (std::size_t k = 0; k < 2; ++k) {
      ExpPoint p = base_point("table4", fmt::format("{} ppm, {} ports", r.drift_ppm, ports[k]), tree(ports[k], 4));
      if (ports[k] == 8) p.sim_net.levels = tree_levels;
      p.sets = {set("fbs.drift", std::to_string(r.drift_ppm))};
      p.paper_si = r.si;
      p.paper_overhead = r.overhead[k];
      v.push_back(p);
    }
  }
}

// Figure 4: SSS on one 8-port switch, rd 50..140 ns.
void fig4(std::vector<ExpPoint>& v) {
  for (Ps rd = 50000; rd <= 140000; rd += 10000) {
    ExpPoint p = base_point("fig4", fmt::format("rd = {}", format_ns(rd)), {8, 0});
    p.sets = {set("switch.rd", ps(rd))};
    p.paper_skew = rd == 50000 ? 298000 : rd == 140000 ? 197000 : -1;
    v.push_back(p);
  }
}

// A point that changes cp and/or bl, its thresholds by the rule or the paper's fixed ones.
ExpPoint flow_point(const std::string& group, const std::string& series, const std::string& label, const ExpNetwork& net, Ps cp,
                    std::int64_t bl, bool rule) {
  ExpPoint p = base_point(group, label, net);
  p.series = series;
  const Thresholds t = thresholds(kPaper, cp, bl, rule);
  p.sets = {set("link.cp", ps(cp)), set("fc.bl", std::to_string(bl)), set("fc.ks", std::to_string(t.ks)), set("fc.kg", std::to_string(t.kg))};
  p.note = t.why;
  SkewInputs in = kPaper;
  in.cp = cp, in.bl = bl, in.ks = t.ks, in.kg = t.kg;
  const std::string bad = threshold_violation(in);
  if (!bad.empty()) p.simulate = false, p.note = "not simulated, the flow controller refuses it: " + bad;
  return p;
}

// Figure 5: SSS on one 8-port switch, cp 12.5..3.13 ns and bl 64..256, each by the rule and
// with the paper's fixed ks, kg.
void fig5(std::vector<ExpPoint>& v) {
  for (bool rule : {true, false}) {
    const std::string how = rule ? "rule" : "paper ks/kg";
    for (Ps cp : kCps) {
      ExpPoint p = flow_point("fig5", "cp, " + how, fmt::format("cp = {}", format_ns(cp)), {8, 0}, cp, kPaper.bl, rule);
      if (cp == kPaper.cp) p.paper_skew = 237000;
      v.push_back(p);
    }
    for (std::int64_t bl : {64, 128, 192, 256}) {
      ExpPoint p = flow_point("fig5", "bl, " + how, fmt::format("bl = {}", bl), {8, 0}, kPaper.cp, bl, rule);
      p.paper_skew = bl == 64 ? 237000 : bl == 256 ? 1050000 : -1;
      v.push_back(p);
    }
  }
}

// Figure 6: HSS on 4 levels of 8-port switches vs link speed (simulated with `tree_levels`).
void fig6(std::vector<ExpPoint>& v, int tree_levels) {
  for (bool rule : {true, false}) {
    for (Ps cp : kCps) {
      ExpPoint p = flow_point("fig6", rule ? "rule" : "paper ks/kg", fmt::format("cp = {}", format_ns(cp)), tree(8, 4), cp, kPaper.bl, rule);
      p.sim_net.levels = tree_levels;
      if (cp == 12500) p.paper_skew = 9223000;
      v.push_back(p);
    }
  }
}

// --quick: the first and the last point of every series.
std::vector<ExpPoint> ends_only(const std::vector<ExpPoint>& v) {
  std::vector<ExpPoint> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const bool first = i == 0 || v[i - 1].group != v[i].group || v[i - 1].series != v[i].series;
    const bool last = i + 1 == v.size() || v[i + 1].group != v[i].group || v[i + 1].series != v[i].series;
    if (first || last) out.push_back(v[i]);
  }
  return out;
}

}  // namespace

std::vector<std::string> ExpNetwork::args() const {
  if (levels == 0) return {"single", fmt::format("ports={}", ports)};
  return {"tree", fmt::format("ports={}", ports), fmt::format("fanout={}", ports - 1), fmt::format("root_fanout={}", ports),
          fmt::format("levels={}", levels)};
}

int ExpNetwork::nics() const {
  int n = ports;
  for (int l = 2; l < levels; ++l) n *= ports - 1;
  return n;
}

std::string ExpNetwork::name() const {
  if (levels == 0) return fmt::format("{}-port switch", ports);
  return fmt::format("{}-level tree of {}-port switches ({} NICs)", levels, ports, nics());
}

long long ExpNetwork::sync_slots() const { return levels == 0 ? ports : hss_full_tree_slots(levels, ports); }

Thresholds thresholds(const SkewInputs& base, Ps cp, std::int64_t bl, bool rule) {
  if (!rule) return {base.ks, base.kg, "the paper's ks, kg"};
  const Ps rt = 2 * base.ld + 2 * base.fc;
  const std::int64_t in_flight = (rt + cp - 1) / cp - 1;             // flits after STOP
  const std::int64_t kg_min = (rt + base.sd + cp - 1) / cp - 1;      // (kg + 1) cp >= rt + sd
  Thresholds t{bl - std::max(base.bl - base.ks, in_flight), std::max(base.kg, kg_min), {}};
  std::vector<std::string> why;
  if (bl != base.bl) why.push_back(fmt::format("ks = bl - {} (the paper's headroom)", base.bl - base.ks));
  if (in_flight > base.bl - base.ks) why.push_back(fmt::format("ks = bl - {} (flits in flight after STOP at this cp)", in_flight));
  if (t.kg != base.kg) why.push_back(fmt::format("kg = {} (starvation at this cp)", t.kg));
  for (const auto& w : why) t.why += (t.why.empty() ? "" : "; ") + w;
  return t;
}

std::string threshold_violation(const SkewInputs& in) {
  FlowControlConfig c;
  c.bl = static_cast<int>(in.bl), c.ks = static_cast<int>(in.ks), c.kg = static_cast<int>(in.kg), c.fc = static_cast<Time>(in.fc);
  LinkTiming lt;
  lt.ld = static_cast<Time>(in.ld), lt.cp = static_cast<Time>(in.cp);
  try {
    c.validate(lt, static_cast<Time>(in.sd), "fc");
  } catch (const UserError& e) {
    return e.what();
  }
  return {};
}

const std::vector<std::string>& experiment_groups() {
  static const std::vector<std::string> g{"table3", "table4", "fig4", "fig5", "fig6"};
  return g;
}

std::vector<ExpPoint> experiment_points(const ExperimentOptions& o) {
  for (const auto& g : o.only)
    if (std::find(experiment_groups().begin(), experiment_groups().end(), g) == experiment_groups().end())
      throw UserError(fmt::format("--only: unknown group '{}' (table3, table4, fig4, fig5, fig6)", g));
  auto want = [&](const char* g) { return o.only.empty() || std::find(o.only.begin(), o.only.end(), g) != o.only.end(); };
  std::vector<ExpPoint> v;
  if (want("table3")) table3(v);
  if (want("table4")) table4(v, o.tree_levels);
  if (want("fig4")) fig4(v);
  if (want("fig5")) fig5(v);
  if (want("fig6")) fig6(v, o.tree_levels);
  if (o.quick) v = ends_only(v);
  for (std::size_t i = 0; i < v.size(); ++i) v[i].id = fmt::format("{:03d}-{}", i, v[i].group);
  return v;
}

}  // namespace sanvp::fbs
