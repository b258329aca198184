#include "platform/fbs/model_report.hpp"

#include <fmt/format.h>
#include <functional>

#include "platform/fbs/schedule.hpp"

namespace sanvp::fbs {
namespace {

constexpr Gap3Reading kReadings[2] = {Gap3Reading::BlMinusKs, Gap3Reading::Printed};

// One line of a section: a label, the value in each reading (text and JSON), the paper's value.
struct Row {
  std::string label, paper;
  std::string text[2];
  nlohmann::json json[2];
};
struct Section { std::string title, key; std::vector<Row> rows; };

using Eval = std::function<std::pair<std::string, nlohmann::json>(const SkewInputs&, Gap3Reading)>;

Row row(const std::string& label, const SkewInputs& in, const Eval& f, const std::string& paper = {}) {
  Row r{label, paper, {}, {}};
  for (int k = 0; k < 2; ++k) std::tie(r.text[k], r.json[k]) = f(in, kReadings[k]);
  return r;
}

std::pair<std::string, nlohmann::json> ps_value(Ps v) { return {format_ns(v), v}; }

Eval skew_of(int levels) {  // levels 0: SSS
  return [levels](const SkewInputs& in, Gap3Reading r) { return ps_value(levels ? hss_skew(in, levels, r) : sss_skew(in, r)); };
}

Eval interval_of(int levels) {
  return [levels](const SkewInputs& in, Gap3Reading r) {
    const auto si = sync_interval(in, levels ? hss_skew(in, levels, r) : sss_skew(in, r));
    return std::pair<std::string, nlohmann::json>{si ? fmt::format("{} slots", si) : "none (skew >= slot/2)", si};
  };
}

Eval overhead_of(int levels, std::int64_t slots, bool round) {
  return [=](const SkewInputs& in, Gap3Reading r) {
    const auto si = sync_interval(in, levels ? hss_skew(in, levels, r) : sss_skew(in, r));
    const auto h = overhead_hundredths(slots, si, round);
    return std::pair<std::string, nlohmann::json>{format_hundredths(h) + (h < 0 ? "" : " %"), overhead_percent(slots, si)};
  };
}

Section equations(const ModelRequest& q) {
  Section s{"Equations (p1 = p2 = 1 for Eq. 5)", "equations", {}};
  const auto& in = q.in;
  s.rows.push_back(row("GAP_min(1,1)  Eq. 5", in, [](const SkewInputs& x, Gap3Reading r) { return ps_value(gap_min(x, 1, 1, r)); }));
  s.rows.push_back(row("GAP_max(1,1)  Eq. 5", in, [](const SkewInputs& x, Gap3Reading r) { return ps_value(gap_max(x, 1, 1, r)); }));
  s.rows.push_back(row("skew(SSS)     Eq. 8", in, skew_of(0), "237 ns"));
  for (int m : q.levels)
    s.rows.push_back(row(fmt::format("skew(HSS) m={} Eq. 10", m), in, skew_of(m), m == 3 ? "1.42 us" : m == 4 ? "4.02 us" : ""));
  const std::string at = fmt::format("{} ppm", in.drift_ppm);
  s.rows.push_back(row("si SSS        Eq. 11, " + at, in, interval_of(0)));
  for (int m : q.levels) s.rows.push_back(row(fmt::format("si HSS m={}    Eq. 11, {}", m, at), in, interval_of(m)));
  s.rows.push_back(row(fmt::format("overhead SSS, {} slots  Eq. 12", q.ports), in, overhead_of(0, q.ports, true)));
  for (int m : q.levels) {
    const auto slots = hss_full_tree_slots(m, q.ports);
    s.rows.push_back(row(fmt::format("overhead HSS m={}, {} slots  Eq. 12", m, slots), in, overhead_of(m, slots, true)));
  }
  return s;
}

// Table 3 (SSS, overhead = ports/si rounded) or Table 4 (HSS m = 4, truncated).
Section table(const ModelRequest& q, bool hss) {
  const std::vector<int> ports = hss ? std::vector<int>{4, 8} : std::vector<int>{4, 8, 16};
  Section s{hss ? "Table 4 (HSS, 4 levels; overhead = HSS slots / si, truncated)" : "Table 3 (SSS; overhead = switch ports / si, rounded)",
            hss ? "table4" : "table3", {}};
  const auto& paper = hss ? paper_table4() : paper_table3();
  for (const auto& p : paper) {
    SkewInputs in = q.in;
    in.drift_ppm = p.drift_ppm;
    s.rows.push_back(row(fmt::format("{} ppm  si", p.drift_ppm), in, interval_of(hss ? 4 : 0), std::to_string(p.si)));
    for (std::size_t k = 0; k < ports.size(); ++k) {
      const auto slots = hss ? hss_full_tree_slots(4, ports[k]) : ports[k];
      s.rows.push_back(row(fmt::format("{} ppm  {}-port overhead ({} slots)", p.drift_ppm, ports[k], slots), in,
                           overhead_of(hss ? 4 : 0, slots, !hss), format_hundredths(p.overhead[k]) + " %"));
    }
  }
  return s;
}

// The points of Figures 4-6 the text quotes, and the sweeps around them.
Section figures(const ModelRequest& q) {
  Section s{"Figures 4-6 (one parameter changed from the inputs above)", "figures", {}};
  for (Ps rd = 50000; rd <= 140000; rd += 10000) {
    SkewInputs in = q.in;
    in.rd = rd;
    s.rows.push_back(row(fmt::format("Fig. 4 SSS rd={}", format_ns(rd)), in, skew_of(0), rd == 50000 ? "298 ns" : rd == 140000 ? "197 ns" : ""));
  }
  const Ps cps[] = {12500, 6250, 4170, 3130};  // 0.64, 1.28, 1.92, 2.56 Gb/s as the paper rounds them
  for (Ps cp : cps) {
    SkewInputs in = q.in;
    in.cp = cp;
    s.rows.push_back(row(fmt::format("Fig. 5 SSS cp={}", format_ns(cp)), in, skew_of(0)));
  }
  for (std::int64_t bl : {64, 128, 192, 256}) {
    SkewInputs in = q.in;
    in.bl = bl;
    s.rows.push_back(row(fmt::format("Fig. 5 SSS bl={}", bl), in, skew_of(0), bl == 64 ? "237 ns" : bl == 256 ? "1.05 us" : ""));
  }
  for (Ps cp : cps) {
    SkewInputs in = q.in;
    in.cp = cp;
    s.rows.push_back(row(fmt::format("Fig. 6 HSS m=4 cp={}", format_ns(cp)), in, skew_of(4), cp == 12500 ? "9.223 us" : ""));
  }
  return s;
}

std::vector<Section> sections(const ModelRequest& q) { return {equations(q), table(q, false), table(q, true), figures(q)}; }

}  // namespace

const std::vector<PaperRow>& paper_table3() {
  static const std::vector<PaperRow> t{{100, 4810, {8, 17, 33}}, {200, 2405, {17, 33, 67}}, {300, 1603, {25, 50, 100}},
                                       {400, 1202, {33, 67, 133}}, {500, 962, {42, 83, 166}}};
  return t;
}

const std::vector<PaperRow>& paper_table4() {
  static const std::vector<PaperRow> t{{100, 1781, {89, 202}}, {200, 890, {179, 404}}, {300, 593, {269, 607}},
                                       {400, 445, {359, 808}}, {500, 356, {449, 1011}}};
  return t;
}

std::string model_text(const ModelRequest& q) {
  const auto& in = q.in;
  std::string out = fmt::format(
      "FBS skew model (paper section 4): ld={} cp={} sd={} rd={} fc={} bl={} ks={} kg={}; slot = {} B x {} = {}; drift {} ppm\n",
      format_ns(in.ld), format_ns(in.cp), format_ns(in.sd), format_ns(in.rd), format_ns(in.fc), in.bl, in.ks, in.kg, in.slot_bytes,
      format_ns(in.cp), format_ns(in.slot()), in.drift_ppm);
  out += "GAP3 readings: bl-ks reproduces the paper's section 5; bl-kg is Eq. 3 as printed\n";
  for (const auto& s : sections(q)) {
    out += fmt::format("\n{}\n{:<44} {:>24} {:>18} {:>10}\n", s.title, "", reading_name(kReadings[0]), reading_name(kReadings[1]), "paper");
    for (const auto& r : s.rows) out += fmt::format("{:<44} {:>24} {:>18} {:>10}\n", r.label, r.text[0], r.text[1], r.paper);
  }
  return out;
}

nlohmann::json model_json(const ModelRequest& q) {
  const auto& in = q.in;
  nlohmann::json j;
  j["inputs"] = {{"ld_ps", in.ld}, {"cp_ps", in.cp}, {"sd_ps", in.sd}, {"rd_ps", in.rd}, {"fc_ps", in.fc}, {"bl", in.bl}, {"ks", in.ks},
                 {"kg", in.kg}, {"slot_bytes", in.slot_bytes}, {"slot_ps", in.slot()}, {"drift_ppm", in.drift_ppm}, {"ports", q.ports},
                 {"levels", q.levels}};
  for (const auto& s : sections(q)) {
    auto& arr = j[s.key] = nlohmann::json::array();
    for (const auto& r : s.rows)
      arr.push_back({{"label", r.label}, {"bl-ks", r.json[0]}, {"bl-kg", r.json[1]}, {"paper", r.paper}});
  }
  return j;
}

}  // namespace sanvp::fbs
