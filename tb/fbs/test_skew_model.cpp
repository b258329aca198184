// The skew model against the paper's section 5. Expected values are worked out by hand from
// Eq. 1-12 with the Myrinet defaults (ld 17, cp 6.25, sd 2, rd 100, fc 3.26 ns; bl 64, ks 53,
// kg 17), in ps; comments show the arithmetic.
#include <catch2/catch.hpp>

#include "platform/fbs/model_report.hpp"
#include "platform/fbs/schedule.hpp"
#include "platform/fbs/skew_model.hpp"

using namespace sanvp;
using namespace sanvp::fbs;

namespace {

constexpr auto kKs = Gap3Reading::BlMinusKs;
constexpr auto kPrinted = Gap3Reading::Printed;

SkewInputs defaults() {
  ParamValues pv;
  return SkewInputs::from_params(pv);
}

}  // namespace

TEST_CASE("Model inputs come from the simulation's parameters", "[fbs][model]") {
  const SkewInputs in = defaults();
  CHECK(in.ld == 17000);
  CHECK(in.cp == 6250);
  CHECK(in.sd == 2000);
  CHECK(in.rd == 100000);
  CHECK(in.fc == 3260);
  CHECK(in.bl == 64);
  CHECK(in.ks == 53);
  CHECK(in.kg == 17);
  CHECK(in.slot() == 12500000);  // 2000 B x 6.25 ns = 12.5 us (paper-notes)
  ParamValues pv;
  apply_sets(pv, {"switch.rd=140ns", "sw1.sd=3ns", "fc.bl=256", "fbs.drift=100"});
  const SkewInputs x = SkewInputs::from_params(pv, "sw1");
  CHECK(x.rd == 140000);
  CHECK(x.sd == 3000);
  CHECK(x.bl == 256);
  CHECK(x.drift_ppb() == 100000);
  ParamValues bad;
  CHECK_THROWS_WITH([&] { apply_sets(bad, {"fbs.slot_bytes=0"}); SkewInputs::from_params(bad); }(), Catch::Contains("fbs.slot_bytes"));
}

TEST_CASE("GAP1..3 and Eq. 5 at p1 = p2 = 1", "[fbs][model]") {
  const SkewInputs in = defaults();
  const Gaps g = gaps(in, 1, 1, kPrinted);
  CHECK(g.gap1 == 400000);      // 64 * 6.25
  CHECK(g.gap2_min == 19000);   // 17 + 2
  CHECK(g.gap2_max == 121000);  // 17 + 2 * 52
  CHECK(g.gap3 == 215520);      // 100 + (47 - 1) * 2 + (17 + 2 * 3.26)
  CHECK(gaps(in, 1, 1, kKs).gap3 == 143520);  // 100 + (11 - 1) * 2 + 23.52
  CHECK(gap_min(in, 1, 1, kPrinted) == -165480);
  CHECK(gap_max(in, 1, 1, kPrinted) == -63480);
  CHECK(gap_min(in, 1, 1, kKs) == -237480);
  CHECK(gap_max(in, 1, 1, kKs) == -135480);
}

TEST_CASE("Bounded skew of SSS (Eq. 8): 237 ns in the bl-ks reading, 165.48 ns as printed", "[fbs][model]") {
  const SkewInputs in = defaults();
  CHECK(sss_skew(in, kKs) == 237480);  // paper: 237 ns
  CHECK(sss_skew(in, kPrinted) == 165480);
  CHECK(format_ns(sss_skew(in, kKs)) == "237.48 ns");
  CHECK(format_ns(-165480) == "-165.48 ns");
  CHECK(format_ns(1000) == "1 ns");
}

TEST_CASE("Bounded skew of HSS (Eq. 10): 1.42 us (m = 3) and 4.02 us (m = 4)", "[fbs][model]") {
  const SkewInputs in = defaults();
  // bl-ks: B(1) = 237.48; B(2) = |GAP_min(1,3)| = |100 + 2*33 + 17*4 + 6.52*3 - 1200| = 946.44;
  // B(3) = |GAP_min(1,5)| = |100 + 2*55 + 17*6 + 6.52*5 - 2000| = 1655.4.
  CHECK(hss_level_bound(in, 1, kKs) == 237480);
  CHECK(hss_level_bound(in, 2, kKs) == 946440);
  CHECK(hss_level_bound(in, 3, kKs) == 1655400);
  CHECK(hss_skew(in, 3, kKs) == 946440 + 2 * 237480);              // 1421.4 ns: paper 1.42 us
  CHECK(hss_skew(in, 4, kKs) == 1655400 + 2 * (237480 + 946440));  // 4023.24 ns: paper 4.02 us
  // Printed: B(1) = 165.48; B(2) = |100 + 2*141 + 68 + 19.56 - 1200| = 730.44.
  CHECK(hss_skew(in, 3, kPrinted) == 730440 + 2 * 165480);
  CHECK(hss_skew(in, 2, kKs) == sss_skew(in, kKs));  // a single switch
}

TEST_CASE("Figures 4-6: the points the text quotes", "[fbs][model]") {
  SkewInputs in = defaults();
  in.rd = 140000;
  CHECK(sss_skew(in, kKs) == 197480);  // Fig. 4: 197 ns at rd = 140 ns
  in.rd = 50000;
  CHECK(sss_skew(in, kKs) == 287480);  // Fig. 4 prints 298 ns at rd = 50 ns: not reproduced (paper-notes)
  in = defaults();
  in.bl = 256;                          // ks, kg stay 53, 17
  CHECK(sss_skew(in, kKs) == 1053480);  // Fig. 5: 1.05 us = |100 + 2*203 + 40.52 - 1600|
  in = defaults();
  in.cp = 12500;  // 0.64 Gb/s; ks = 53, kg = 17 as at 1.28 Gb/s
  // Fig. 6, m = 4: B(3) = |344.6 - 4000|, B(1) = |162.52 - 800|, B(2) = |253.56 - 2400|.
  CHECK(hss_skew(in, 4, kKs) == 3655400 + 2 * (637480 + 2146440));  // 9223.24 ns: paper 9.223 us
  // Printed reading: B(3) = |100 + 2*235 + 102 + 32.6 - 4000|, B(1) = |234.52 - 800|, B(2) = |469.56 - 2400|.
  CHECK(hss_skew(in, 4, kPrinted) == 3295400 + 2 * (565480 + 1930440));  // 8287.24 ns
}

TEST_CASE("Table 3: SSS sync interval exactly, overheads to the paper's rounding", "[fbs][model]") {
  const SkewInputs base = defaults();
  const int ports[] = {4, 8, 16};
  for (const auto& row : paper_table3()) {
    CAPTURE(row.drift_ppm);
    SkewInputs in = base;
    in.drift_ppm = row.drift_ppm;
    // si = floor((1/2 - 237.48/12500) / drift), e.g. 100 ppm: floor(4810.016) = 4810.
    const auto si = sync_interval(in, sss_skew(in, kKs));
    CHECK(si == row.si);
    for (std::size_t k = 0; k < 3; ++k) CHECK(overhead_hundredths(ports[k], si, true) == row.overhead[k]);
    // The printed reading gives a longer interval (100 ppm: floor(4867.6) = 4867).
    if (row.drift_ppm == 100) CHECK(sync_interval(in, sss_skew(in, kPrinted)) == 4867);
  }
}

TEST_CASE("Table 4: HSS (4 levels) sync interval exactly, overheads truncated as printed", "[fbs][model]") {
  const SkewInputs base = defaults();
  for (const auto& row : paper_table4()) {
    CAPTURE(row.drift_ppm);
    SkewInputs in = base;
    in.drift_ppm = row.drift_ppm;
    // si = floor((1/2 - 4023.24/12500) / drift), e.g. 100 ppm: floor(1781.408) = 1781.
    const auto si = sync_interval(in, hss_skew(in, 4, kKs));
    CHECK(si == row.si);
    CHECK(overhead_hundredths(hss_full_tree_slots(4, 4), si, false) == row.overhead[0]);  // 16 slots
    CHECK(overhead_hundredths(hss_full_tree_slots(4, 8), si, false) == row.overhead[1]);  // 36 slots
  }
  // Rounding instead of truncating would print 8.09 at 400 ppm (36 / 445 = 8.0899 %).
  CHECK(overhead_hundredths(36, 445, true) == 809);
}

TEST_CASE("Eq. 11 has no interval once the skew reaches half a slot", "[fbs][model]") {
  SkewInputs in = defaults();
  CHECK(sync_interval(in, in.slot() / 2) == 0);
  CHECK(overhead_hundredths(8, 0, true) == -1);
  CHECK(format_hundredths(-1) == "-");
  in.slot_bytes = 40;  // a 250 ns slot: SSS's 237.48 ns skew is more than half of it
  CHECK(sync_interval(in, sss_skew(in, kKs)) == 0);
  in.slot_bytes = 80;  // 500 ns: floor((500 - 474.96) / 1000 / 300e-6) = floor(83.47)
  CHECK(sync_interval(in, sss_skew(in, kKs)) == 83);
}
