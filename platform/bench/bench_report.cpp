#include "platform/bench/bench_report.hpp"

#include <algorithm>
#include <ctime>
#include <map>
#include <fmt/format.h>
#include <fstream>
#include <thread>

#include "platform/bench/bench_child.hpp"

namespace sanvp::bench {
namespace {

std::string utc_date() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char b[32];
  std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return b;
}

// Four significant digits, without an exponent for large values (ns per crossing).
std::string num_text(double v) { return v >= 1e4 ? fmt::format("{:.0f}", v) : fmt::format("{:.4g}", v); }

const char* section_title(const std::string& s) {
  if (s == "fabric") return "fabric speed";
  if (s == "size") return "scaling with network size (light load)";
  if (s == "length") return "scaling with run length (4x4 mesh)";
  if (s == "iss") return "ISS, compute-bound firmware";
  return "BTIN barrier, 1024 nodes / 300 switches";
}

std::vector<Figure> figures_of(const std::vector<CaseResult>& results, bool other) {
  std::vector<Figure> f;
  for (const auto& r : results) {
    const Sample* s = (other ? r.other : r.self).best_sample();
    if (!s) continue;
    auto v = case_figures(*r.c, s->result);
    f.insert(f.end(), v.begin(), v.end());
  }
  add_ratio_figures(f);
  return f;
}

const Figure* find(const std::vector<Figure>& v, const Figure& like) {
  for (const auto& f : v)
    if (f.case_name == like.case_name && f.key == like.key) return &f;
  return nullptr;
}

// How far the repeated runs of one binary lie apart, and what the ratio was run by run: a
// machine shared with other work slows single runs by up to half, so a figure is read with its
// spread. Per figure key of one case: [lo, hi] over the successful runs (ratio: over the runs
// of this and the other binary paired in order; the ratio of the bests lies inside it).
struct Range {
  double lo = 0, hi = 0;
  int n = 0;
  void add(double v) {
    lo = n == 0 ? v : std::min(lo, v);
    hi = n == 0 ? v : std::max(hi, v);
    ++n;
  }
};
using Ranges = std::map<std::string, Range>;  // "case/key"

std::string range_key(const Figure& f) { return f.case_name + "/" + f.key; }

void add_runs(const CaseResult& r, Ranges& spread, Ranges& ratio) {
  const auto& a = r.self.runs;
  const auto& b = r.other.runs;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!a[i].ok) continue;
    const auto mine = case_figures(*r.c, a[i].result);
    const std::vector<Figure> theirs = i < b.size() && b[i].ok ? case_figures(*r.c, b[i].result) : std::vector<Figure>{};
    for (const auto& f : mine) {
      spread[range_key(f)].add(f.value);
      const Figure* o = find(theirs, f);
      if (o && o->value != 0) ratio[range_key(f)].add(f.value / o->value);
    }
  }
}

struct Spreads {
  Ranges spread, ratio;
  const Range* of(const Ranges& m, const Figure& f) const {
    const auto it = m.find(range_key(f));
    return it != m.end() && it->second.n > 1 ? &it->second : nullptr;
  }
};

Spreads spreads_of(const std::vector<CaseResult>& results) {
  Spreads s;
  for (const auto& r : results) add_runs(r, s.spread, s.ratio);
  return s;
}

// The worst run's distance from the best, in per cent of the lesser.
std::string spread_text(const Range* r) { return r && r->lo > 0 ? fmt::format("{:.0f}%", (r->hi / r->lo - 1) * 100) : "-"; }
std::string ratio_range_text(const Range* r) { return r ? fmt::format("{:.2f}-{:.2f}", r->lo, r->hi) : "-"; }

nlohmann::json runs_json(const CaseRuns& r) {
  nlohmann::json j = {{"ok", r.best >= 0}, {"runs", nlohmann::json::array()}, {"errors", nlohmann::json::array()}};
  for (const auto& s : r.runs) {
    if (s.ok) j["runs"].push_back(s.result);
    else j["errors"].push_back(s.error);
  }
  if (const Sample* b = r.best_sample()) j["best"] = b->result;
  return j;
}

std::string header(const nlohmann::json& d, const BenchOptions& o) {
  const auto& h = d["host"];
  const auto& b = d["build"];
  std::string s = fmt::format("sanvp bench | {} | host {} ({} cores) | {} build, {}, sanvp {} | seed {}{}{}\n", d["date"].get<std::string>(),
                              h["cpu"].get<std::string>(), h["cores"].get<int>(), b["build_type"].get<std::string>(),
                              b["compiler"].get<std::string>(), b["sanvp"].get<std::string>(), o.seed, o.quick ? " | quick" : "",
                              o.repeat > 1 ? fmt::format(" | best of {}", o.repeat) : "");
  if (!o.against.empty()) {
    const auto& ob = d["other_build"];
    s += fmt::format("other: {}{}\n", o.against,
                     ob.is_object() ? fmt::format(" ({} build, {}, sanvp {})", ob.value("build_type", "?"), ob.value("compiler", "?"), ob.value("sanvp", "?"))
                                    : "");
  }
  return s;
}

// One line per figure, grouped by section; with --against: other, and ratio = this / other; with
// --repeat: this binary's spread and the range of the run-by-run ratios.
std::string table_row(const Figure& f, const std::vector<Figure>& theirs, const Spreads* sp, bool against) {
  const std::string label = fmt::format("{} ({})", f.label, f.unit);
  const char* better = f.higher_better ? "higher" : "lower";
  std::string row = fmt::format("{:<15} {:<36} {:>12}", f.case_name, label, num_text(f.value));
  if (against) {
    const Figure* o = find(theirs, f);
    row += fmt::format(" {:>12} {:>8}", o ? num_text(o->value) : "-", o && o->value != 0 ? fmt::format("{:.3f}", f.value / o->value) : "-");
  }
  if (sp) row += fmt::format(" {:>7}", spread_text(sp->of(sp->spread, f)));
  if (sp && against) row += fmt::format(" {:>11}", ratio_range_text(sp->of(sp->ratio, f)));
  return row + fmt::format("  {}\n", better);
}

std::string table(const std::vector<CaseResult>& results, const std::vector<Figure>& mine, const std::vector<Figure>& theirs,
                  const Spreads* sp, bool against) {
  std::string t = fmt::format("{:<15} {:<36} {:>12}", "case", "figure", against ? "this" : "value");
  if (against) t += fmt::format(" {:>12} {:>8}", "other", "ratio");
  if (sp) t += fmt::format(" {:>7}", "spread");
  if (sp && against) t += fmt::format(" {:>11}", "ratio range");
  t += "  better\n";
  std::string section;
  for (const auto& r : results) {
    if (r.c->section != section) {
      section = r.c->section;
      t += fmt::format("-- {}\n", section_title(section));
    }
    bool any = false;
    for (const auto& f : mine) {
      if (f.case_name != r.c->name) continue;
      any = true;
      t += table_row(f, theirs, sp, against);
    }
    if (!any) t += fmt::format("{:<15} FAILED (see the errors)\n", r.c->name);
  }
  return t;
}

nlohmann::json figure_json(const Figure& f, const Figure* other, const Spreads& sp) {
  nlohmann::json j = {{"case", f.case_name}, {"key", f.key}, {"label", f.label}, {"unit", f.unit}, {"value", f.value},
                      {"higher_is_better", f.higher_better}};
  if (const Range* r = sp.of(sp.spread, f)) j["runs"] = {{"min", r->lo}, {"max", r->hi}, {"count", r->n}};
  if (other) {
    j["other"] = other->value;
    if (other->value != 0) j["ratio"] = f.value / other->value;
    if (const Range* r = sp.of(sp.ratio, f)) j["ratio_runs"] = {{"min", r->lo}, {"max", r->hi}, {"count", r->n}};
  }
  return j;
}

}  // namespace

nlohmann::json host_info() {
  std::string cpu = "unknown";
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon != std::string::npos) cpu = line.substr(line.find_first_not_of(" \t", colon + 1));
    break;
  }
  return {{"cpu", cpu}, {"cores", static_cast<int>(std::thread::hardware_concurrency())}};
}

BenchReport make_report(const std::vector<CaseResult>& results, const BenchOptions& o) {
  BenchReport rep;
  auto& d = rep.doc;
  d["date"] = utc_date();
  d["host"] = host_info();
  d["build"] = build_info();
  d["seed"] = o.seed;
  d["quick"] = o.quick;
  d["repeat"] = o.repeat;
  d["against"] = o.against.empty() ? nlohmann::json() : nlohmann::json(o.against);
  d["other_build"] = nlohmann::json();
  d["cases"] = nlohmann::json::object();
  for (const auto& r : results) {
    nlohmann::json c = {{"section", r.c->section}, {"what", r.c->what}, {"this", runs_json(r.self)}};
    if (!o.against.empty()) c["other"] = runs_json(r.other);
    if (const Sample* s = r.other.best_sample(); s && d["other_build"].is_null()) d["other_build"] = s->result.value("build", nlohmann::json());
    for (const auto& s : r.self.runs) if (!s.ok) rep.errors.push_back(s.error);
    for (const auto& s : r.other.runs) if (!s.ok) rep.errors.push_back(s.error);
    d["cases"][r.c->name] = std::move(c);
  }
  const auto mine = figures_of(results, false), theirs = figures_of(results, true);
  const Spreads sp = spreads_of(results);
  d["figures"] = nlohmann::json::array();
  for (const auto& f : mine) d["figures"].push_back(figure_json(f, o.against.empty() ? nullptr : find(theirs, f), sp));
  d["errors"] = rep.errors;
  rep.table = header(d, o) + table(results, mine, theirs, o.repeat > 1 ? &sp : nullptr, !o.against.empty());
  return rep;
}

}  // namespace sanvp::bench
