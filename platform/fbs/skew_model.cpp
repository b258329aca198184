#include "platform/fbs/skew_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>

#include "hw/base/error.hpp"
#include "hw/link/flow_controller_params.hpp"
#include "hw/link/link_params.hpp"
#include "hw/switch/switch_params.hpp"
#include "platform/fbs/fbs_model_params.hpp"

namespace sanvp::fbs {
namespace {

// Bounds that keep every product of the model inside 64 bits (times <= 1 ms, counts <= 2^20,
// p <= 2*31-1 for m <= 32 levels); Eq. 11 widens to 128 bits.
constexpr Ps kMaxTime = 1000000000;
constexpr std::int64_t kMaxFlits = 1 << 20;

Ps k_of(const SkewInputs& in, Gap3Reading r) { return r == Gap3Reading::Printed ? in.kg : in.ks; }

void check_hops(int p1, int p2) {
  if (p1 < 1 || p2 < 1 || p1 > 2 * kMaxLevels || p2 > 2 * kMaxLevels)
    throw UserError(fmt::format("fbs model: routers p1={} p2={} outside 1..{}", p1, p2, 2 * kMaxLevels));
}

}  // namespace

const char* reading_name(Gap3Reading r) { return r == Gap3Reading::Printed ? "bl-kg (printed)" : "bl-ks (paper's numbers)"; }

SkewInputs SkewInputs::from_params(ParamValues& pv, const std::string& switch_path, const std::string& link_path, const std::string& fbs_path) {
  SkewInputs in;
  const auto link = LinkTiming::from_params(pv, link_path);
  const auto fc = FlowControlParams::from_params(pv, switch_path);
  in.ld = static_cast<Ps>(link.ld);
  in.cp = static_cast<Ps>(link.cp);
  in.sd = static_cast<Ps>(SwitchParams::kSd.get(pv, switch_path));
  in.rd = static_cast<Ps>(SwitchParams::kRd.get(pv, switch_path));
  in.fc = static_cast<Ps>(fc.fc);
  in.bl = fc.bl;
  in.ks = fc.ks;
  in.kg = fc.kg;
  const auto f = FbsModelParams::from_params(pv, fbs_path);
  in.slot_bytes = f.slot_bytes;
  in.drift_ppm = f.drift;
  in.check();
  return in;
}

std::int64_t SkewInputs::drift_ppb() const { return std::llround(drift_ppm * 1000.0); }

void SkewInputs::check() const {
  const std::pair<const char*, Ps> times[] = {{"link.ld", ld}, {"link.cp", cp}, {"switch.sd", sd}, {"switch.rd", rd}, {"fc.fc", fc}};
  for (const auto& [k, v] : times)
    if (v < 0 || v > kMaxTime) throw UserError(fmt::format("fbs model: {} = {} ps outside 0..1ms", k, v));
  if (cp == 0) throw UserError("fbs model: link.cp must be greater than 0");
  const std::pair<const char*, std::int64_t> counts[] = {{"fc.bl", bl}, {"fc.ks", ks}, {"fc.kg", kg}, {"fbs.slot_bytes", slot_bytes}};
  for (const auto& [k, v] : counts)
    if (v < 0 || v > kMaxFlits * 16) throw UserError(fmt::format("fbs model: {} = {} outside 0..{}", k, v, kMaxFlits * 16));
  if (slot_bytes < 1) throw UserError("fbs model: fbs.slot_bytes must be at least 1");
  if (!(drift_ppm > 0) || drift_ppb() < 1) throw UserError(fmt::format("fbs model: fbs.drift = {} ppm must be at least 0.001", drift_ppm));
}

Gaps gaps(const SkewInputs& in, int p1, int p2, Gap3Reading r) {
  check_hops(p1, p2);
  Gaps g;
  g.gap1 = in.bl * p2 * in.cp;
  g.gap2_min = p1 * (in.ld + in.sd);
  g.gap2_max = p1 * (in.ld + in.sd * (in.ks - 1));
  g.gap3 = in.rd + (p2 * (in.bl - k_of(in, r)) - 1) * in.sd + p2 * (in.ld + 2 * in.fc);
  return g;
}

Ps gap_min(const SkewInputs& in, int p1, int p2, Gap3Reading r) {
  const Gaps g = gaps(in, p1, p2, r);
  return g.gap2_min + g.gap3 - g.gap1;
}

Ps gap_max(const SkewInputs& in, int p1, int p2, Gap3Reading r) {
  const Gaps g = gaps(in, p1, p2, r);
  return g.gap2_max + g.gap3 - g.gap1;
}

Ps direct_skew(const SkewInputs& in, int p1, int p2, Gap3Reading r) {
  return std::max(std::llabs(gap_min(in, p1, p2, r)), std::llabs(gap_max(in, p1, p2, r)));
}

Ps sss_skew(const SkewInputs& in, Gap3Reading r) { return direct_skew(in, 1, 1, r); }

Ps hss_level_bound(const SkewInputs& in, int i, Gap3Reading r) {
  if (i < 1 || i >= kMaxLevels) throw UserError(fmt::format("fbs model: level {} outside 1..{}", i, kMaxLevels - 1));
  const int far = 2 * i - 1;  // leaders of a level-i subtree are 2..2i hops apart: 1..2i-1 routers
  const Ps lo = std::min(gap_min(in, 1, 1, r), gap_min(in, 1, far, r));
  const Ps hi = std::max(gap_max(in, far, 1, r), gap_max(in, far, far, r));
  return std::max(std::llabs(lo), std::llabs(hi));
}

Ps hss_skew(const SkewInputs& in, int m, Gap3Reading r) {
  if (m < 2 || m > kMaxLevels) throw UserError(fmt::format("fbs model: {} tree levels outside 2..{}", m, kMaxLevels));
  Ps s = hss_level_bound(in, m - 1, r);
  for (int i = 1; i <= m - 2; ++i) s += 2 * hss_level_bound(in, i, r);
  return s;
}

std::int64_t sync_interval(const SkewInputs& in, Ps skew) {
  // floor((1/2 - skew/slot) / (ppb * 1e-9)) = floor((slot - 2 skew) * 1e9 / (2 slot ppb)), exact.
  const __int128 num = static_cast<__int128>(in.slot() - 2 * skew) * 1000000000;
  if (num <= 0) return 0;
  return static_cast<std::int64_t>(num / (static_cast<__int128>(2) * in.slot() * in.drift_ppb()));
}

std::int64_t overhead_hundredths(std::int64_t slots, std::int64_t si, bool round) {
  if (si <= 0) return -1;
  const __int128 num = static_cast<__int128>(slots) * 10000;  // slots/si in 1/100 %
  return static_cast<std::int64_t>(round ? (2 * num + si) / (2 * static_cast<__int128>(si)) : num / si);
}

double overhead_percent(std::int64_t slots, std::int64_t si) {
  return si <= 0 ? -1.0 : 100.0 * static_cast<double>(slots) / static_cast<double>(si);
}

std::string format_ns(Ps ps) {
  const std::int64_t a = std::llabs(ps);
  std::string frac = fmt::format("{:03}", a % 1000);
  while (!frac.empty() && frac.back() == '0') frac.pop_back();
  return fmt::format("{}{}{}{} ns", ps < 0 ? "-" : "", a / 1000, frac.empty() ? "" : ".", frac);
}

std::string format_hundredths(std::int64_t h) {
  if (h < 0) return "-";
  return fmt::format("{}.{:02}", h / 100, h % 100);
}

}  // namespace sanvp::fbs
