#include "platform/fbs/fbs_analysis.hpp"

#include <cmath>
#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp::fbs {

Ps schedule_bound(const SkewInputs& si, const RunInput& in, Gap3Reading r) {
  return in.schedule.kind == "sss" ? sss_skew(si, r) : hss_skew(si, in.levels, r);
}

Ps dead_zone(const SkewInputs& si, std::int64_t guard) { return (si.ks + guard + 1) * si.cp - si.rd - si.sd; }

Ps path_dead_zone(const SkewInputs& si, std::int64_t guard, int p1, int p2) {
  return dead_zone(si, guard) + static_cast<Ps>(p2 - p1) * (si.ld + si.rd + si.sd);
}

Ps hss_model_skew(const SkewInputs& si, std::int64_t guard, int levels) {
  if (levels < 2 || levels > kMaxLevels) throw UserError(fmt::format("fbs model: {} tree levels outside 2..{}", levels, kMaxLevels));
  const auto step = [&](int i) { return path_dead_zone(si, guard, 1, 2 * i - 1); };
  Ps s = step(levels - 1);
  for (int i = 1; i <= levels - 2; ++i) s += 2 * step(i);
  return s;
}

std::int64_t min_guard(const SkewInputs& si) { return (si.rd + si.sd + si.cp - 1) / si.cp + 1; }

std::int64_t convergence_guard(const SkewInputs& si, int extra) {
  if (extra <= 0) return 0;
  const Ps late = si.rd + si.sd + static_cast<Ps>(extra) * (si.ld + si.rd + si.sd);
  return std::max<std::int64_t>(0, late / si.cp - si.ks + 1);
}

std::int64_t needed_guard(const SkewInputs& si, int extra) { return std::max(min_guard(si), convergence_guard(si, extra)); }

std::uint32_t default_interval(ParamValues& pv, const RunInput& in) {
  const SkewInputs si = SkewInputs::from_params(pv);
  const Ps bound = std::max(schedule_bound(si, in, Gap3Reading::Printed), schedule_bound(si, in, Gap3Reading::BlMinusKs));
  const std::int64_t n = sync_interval(si, bound);
  if (n <= 0)
    throw UserError(fmt::format("Eq. 11 gives no synchronization interval: a bound of {} is half a slot of {} or more", format_ns(bound),
                                format_ns(si.slot())));
  if (n > 100000000)
    throw UserError(fmt::format("Eq. 11 gives an interval of {} slots at {} ppm (more than 10^8): set fbs.interval", n, si.drift_ppm));
  return static_cast<std::uint32_t>(n);
}

namespace {

// How the guard was chosen, and what a smaller one does.
std::string guard_line(const SkewInputs& si, const RunPlan& plan) {
  const std::int64_t conv = convergence_guard(si, plan.convergence.extra());
  std::string s = fmt::format("  guard {} B; needed {} B: the larger of ceil((rd + sd) / cp) + 1 = {} (a NIC's back-to-back packets) and {} "
                              "(consecutive slots converging: {})\n",
                              plan.guard, plan.needed_guard, min_guard(si), conv, format_convergence(plan.convergence));
  if (plan.guard < plan.needed_guard)
    s += fmt::format("  no model bound: fbs.guard = {} B is below {} B, so slots leave packets that STOP NICs nobody blocked\n", plan.guard,
                     plan.needed_guard);
  return s;
}

}  // namespace

Analysis analyse(ParamValues& pv, const RunInput& in, const RunPlan& plan) {
  const SkewInputs si = SkewInputs::from_params(pv);
  Analysis a;
  a.printed = schedule_bound(si, in, Gap3Reading::Printed);
  a.paper = schedule_bound(si, in, Gap3Reading::BlMinusKs);
  const char* eq = in.schedule.kind == "sss" ? "Eq. 8" : "Eq. 10";
  const std::int64_t si_printed = sync_interval(si, a.printed), si_paper = sync_interval(si, a.paper);
  a.json = {{"equation", eq},
            {"levels", in.levels},
            {"bound_printed_ps", a.printed},
            {"bound_bl_minus_ks_ps", a.paper},
            {"interval_eq11_printed_slots", si_printed},
            {"interval_eq11_bl_minus_ks_slots", si_paper},
            {"interval_used_slots", plan.period},
            {"overhead_eq12_percent", overhead_percent(in.schedule.slots, plan.period)}};
  a.dead_zone = dead_zone(si, plan.guard);
  const auto drift = static_cast<Ps>(std::llround(si.drift_ppm * 1e-6 * static_cast<double>(in.schedule.slots) * static_cast<double>(plan.slot)));
  const bool drains = plan.guard >= plan.needed_guard;
  const bool sss = in.schedule.kind == "sss";
  const Ps chain = sss ? a.dead_zone : hss_model_skew(si, plan.guard, in.levels);
  if (drains) a.model = chain + drift;
  a.json["min_guard_bytes"] = plan.needed_guard;
  a.json["drain_guard_bytes"] = min_guard(si);
  a.json["convergence_guard_bytes"] = convergence_guard(si, plan.convergence.extra());
  a.json["convergence"] = format_convergence(plan.convergence);
  a.json["dead_zone_ps"] = a.dead_zone;
  a.json["dead_zone_formula"] = "(fc.ks + fbs.guard + 1) x link.cp - switch.rd - switch.sd";
  if (!sss) {
    a.json["hss_chain_ps"] = chain;
    a.json["hss_chain_formula"] = "B(m-1) + 2 sum_{i=1..m-2} B(i), B(i) = dead zone + (2i - 2) x (link.ld + switch.rd + switch.sd)";
  }
  a.json["drift_over_round_ps"] = drift;
  if (a.model) a.json["model_bound_ps"] = a.model;
  a.summary = fmt::format("  analytic bound ({}): {} (bl-ks, the paper's numbers), {} (bl-kg, as printed); Eq. 11 interval {} / {} slots, "
                          "overhead {:.2f} % at {} slots\n",
                          eq, format_ns(a.paper), format_ns(a.printed), si_paper, si_printed,
                          overhead_percent(in.schedule.slots, plan.period), plan.period);
  if (a.model && sss)
    a.summary += fmt::format("  model's own bound: dead zone {} ((ks + guard + 1) cp - rd - sd, guard {} B) + drift over the round {} = {}\n",
                             format_ns(a.dead_zone), plan.guard, format_ns(drift), format_ns(a.model));
  if (a.model && !sss)
    a.summary += fmt::format("  model's own bound: Eq. 10's chain of {} levels with per-step dead zones (one switch {}, guard {} B; "
                             "+ ld + rd + sd per extra switch of a step's path) {} + drift over the round {} = {}\n",
                             in.levels, format_ns(a.dead_zone), plan.guard, format_ns(chain), format_ns(drift), format_ns(a.model));
  a.summary += guard_line(si, plan);
  return a;
}

}  // namespace sanvp::fbs
