// The analytic skew model of FBS (paper section 4), exact in integer picoseconds:
//   GAP1 = bl*p2*cp                                          (Eq. 1)
//   p1*(ld+sd) <= GAP2 <= p1*(ld + sd*(ks-1))                (Eq. 2)
//   GAP3 = rd + (p2*(bl-K) - 1)*sd + p2*(ld + 2*fc)          (Eq. 3)
//   GAP_min/max(p1,p2) = GAP2 min/max + GAP3 - GAP1          (Eq. 5)
//   skew(SSS) <= max(|GAP_min(1,1)|, |GAP_max(1,1)|)         (Eq. 8)
//   skew(HSS) <= B(m-1) + 2*sum_{i=1..m-2} B(i),             (Eq. 10, B(i) = Eq. 9 of level i)
//     B(i) = max(|min(GAP_min(1,1), GAP_min(1,2i-1))|, |max(GAP_max(2i-1,1), GAP_max(2i-1,2i-1))|)
//   si = floor((1/2 - skew/slot) / drift)                    (Eq. 11, in slots)
//   overhead = slots to run the schedule / si                (Eq. 12)
// K in Eq. 3 is the GAP3 reading: kg as printed, or ks, which reproduces every number of the
// paper's section 5 (docs/fbs.md, "Schedules and analysis").
#pragma once
#include <cstdint>
#include <string>

#include "hw/base/params.hpp"
#include "hw/base/time.hpp"

namespace sanvp::fbs {

enum class Gap3Reading {
  Printed,     // (bl - kg): Eq. 3 as printed; gives 165.48 ns for SSS at the defaults
  BlMinusKs,   // (bl - ks): reproduces the paper's 237 ns, Tables 3, 4 and Figures 4-6
};
const char* reading_name(Gap3Reading r);  // "bl-kg (printed)", "bl-ks (paper's numbers)"

using Ps = std::int64_t;  // signed picoseconds: gaps may be negative
inline constexpr int kMaxLevels = 32;  // tree levels the model takes (keeps its products in 64 bits)

struct SkewInputs {
  Ps ld = 17000, cp = 6250, sd = 2000, rd = 100000, fc = 3260;   // link.ld, link.cp, switch.sd, switch.rd, fc.fc
  std::int64_t bl = 64, ks = 53, kg = 17;                        // fc.bl, fc.ks, fc.kg (flits)
  std::int64_t slot_bytes = 2000;                                // fbs.slot_bytes
  double drift_ppm = 300;                                        // fbs.drift

  // The values the simulation uses: switch.* and fc.* of switch `switch_path`, link.* of link
  // direction `link_path`, fbs.* (empty paths: class level). Range-checked like every parameter.
  static SkewInputs from_params(ParamValues& pv, const std::string& switch_path = {}, const std::string& link_path = {},
                                const std::string& fbs_path = {});
  Ps slot() const { return slot_bytes * cp; }
  // Drift in parts per billion, rounded: Eq. 11 is then exact integer arithmetic.
  std::int64_t drift_ppb() const;
  // Throws UserError for values the model cannot use (cp = 0, negative counts, overflow).
  void check() const;
};

struct Gaps { Ps gap1, gap2_min, gap2_max, gap3; };
Gaps gaps(const SkewInputs& in, int p1, int p2, Gap3Reading r);
Ps gap_min(const SkewInputs& in, int p1, int p2, Gap3Reading r);
Ps gap_max(const SkewInputs& in, int p1, int p2, Gap3Reading r);
Ps direct_skew(const SkewInputs& in, int p1, int p2, Gap3Reading r);  // Eq. 4-5
Ps sss_skew(const SkewInputs& in, Gap3Reading r);                     // Eq. 8
Ps hss_level_bound(const SkewInputs& in, int level, Gap3Reading r);   // Eq. 9
Ps hss_skew(const SkewInputs& in, int levels, Gap3Reading r);         // Eq. 10, m >= 2

// Eq. 11: 0 when the skew is half a slot or more (no interval keeps FBS working).
std::int64_t sync_interval(const SkewInputs& in, Ps skew);
// Eq. 12 as an exact fraction slots/si, in hundredths of a percent, truncated or rounded half up
// (Table 4 truncates, Table 3 rounds); -1 when si is 0.
std::int64_t overhead_hundredths(std::int64_t slots, std::int64_t si, bool round);
double overhead_percent(std::int64_t slots, std::int64_t si);

// "237.48 ns", "-165.48 ns", "4023.24 ns": exact, trailing zeros dropped.
std::string format_ns(Ps ps);
// Hundredths of a percent as "0.83".
std::string format_hundredths(std::int64_t h);

}  // namespace sanvp::fbs
