// The paper's analytical barrier model (Section 5.1): every expected value is derived here from
// the parameters, never copied from a run.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <string>
#include <sys/wait.h>

#include "platform/barrier/group_setup.hpp"
#include "platform/barrier/latency_model.hpp"
#include "platform/barrier/paper_example.hpp"
#include "hw/base/error.hpp"
#include "hw/base/params.hpp"

using namespace sanvp::barrier;
using sanvp::kNs;
using sanvp::kUs;
using sanvp::Time;

TEST_CASE("parameters default to the paper's t_s = 2 us, t_p = 20 ns, t_r = 300 ns and can be set") {
  sanvp::ParamValues pv;
  const LatencyParams d = LatencyParams::from_params(pv, "");
  CHECK(d.t_s == 2 * kUs);
  CHECK(d.t_p == 20 * kNs);
  CHECK(d.t_r == 300 * kNs);
  pv.set("btin.t_s", "10us", "test");
  pv.set("btin.t_r", "500ns", "test");
  const LatencyParams s = LatencyParams::from_params(pv, "");
  CHECK(s.t_s == 10 * kUs);
  CHECK(s.t_r == 500 * kNs);
}

TEST_CASE("one message: t_s + d*t_p + (d+1)*t_r") {
  const LatencyParams p{3 * kUs, 25 * kNs, 400 * kNs, 100 * kNs};
  for (int d = 1; d < 20; ++d)
    CHECK(message_latency(p, d) == p.t_s + static_cast<Time>(d) * p.t_p + static_cast<Time>(d + 1) * p.t_r);
  CHECK_THROWS_AS(message_latency(p, 0), sanvp::SimError);
}

TEST_CASE("BTIN: two messages over h + 2 links, 2 start-ups, 2*(edges + n) links") {
  const LatencyParams p;
  for (int h = 0; h < 12; ++h) {
    const SchemeCost c = btin_cost(p, h, 10, 20);
    CHECK(c.latency == 2 * (p.t_s + static_cast<Time>(h + 2) * p.t_p + static_cast<Time>(h + 3) * p.t_r));
    CHECK(c.startups == 2);
    CHECK(c.links == 2u * (10 + 20));
  }
  // The paper's 11.5 us at 1024 members (Section 5.2) lies between heights 8 and 9.
  CHECK(btin_cost(p, 8, 0, 2).latency < 11500 * kNs);
  CHECK(btin_cost(p, 9, 0, 2).latency > 11500 * kNs);
}

TEST_CASE("unicast and multicast schemes: serialized root, formula per message") {
  const LatencyParams p;  // t_root = t_r by default
  const std::vector<int> d{2, 3, 3};
  auto L = [&](int k) { return message_latency(p, k); };
  // Root interface handles the reductions in arrival order, t_root each.
  Time red = L(2) + p.t_root;
  red = std::max(red, L(3)) + p.t_root;
  red = std::max(red, L(3)) + p.t_root;
  // Unicast distribution: one start-up per message, farthest first.
  const Time dist = std::max({L(3), p.t_s + L(3), 2 * p.t_s + L(2)});
  const SchemeCost u = unicast_cost(p, d);
  CHECK(u.latency == red + dist);
  CHECK(u.startups == 6);
  CHECK(u.links == 2u * 8);
  const SchemeCost m = multicast_cost(p, d, 7, 3);
  CHECK(m.latency == red + L(3));
  CHECK(m.startups == 4);
  CHECK(m.links == 8u + 7u);
}

TEST_CASE("scheme comparison on the paper example: BTIN beats both baselines, in time and links") {
  const PaperExample ex = paper_figure1();
  const GroupPlan plan = plan_group(ex.graph, ex.members, 1);
  const LatencyParams p;
  const SchemeComparison c = compare_schemes(p, plan.tree, plan.members, plan.root_node);
  CHECK(c.height == 2);
  CHECK(c.btin.latency == 2 * message_latency(p, 4));
  CHECK(c.btin.links == 2u * (6 + 14));
  CHECK(c.btin.latency < c.multicast.latency);
  CHECK(c.multicast.latency < c.unicast.latency);
  CHECK(c.btin.links < c.multicast.links);
  CHECK(c.multicast.links < c.unicast.links);
  // 13 other members: 1 on the root switch (2 links away), 7 on switches 0, 6, 7 (3 links),
  // 5 on switches 4, 5 (4 links); each gets a REDUCE in and a unicast out.
  CHECK(c.unicast.links == 2u * (1 * 2 + 7 * 3 + 5 * 4));
}

TEST_CASE("Theorem 1: average height log_(f*k - p/q - 1) n") {
  const double h = theorem1_height(0.75, 8, 256, 75, 256);
  CHECK(h == Approx(std::log(256.0) / std::log(0.75 * 8 - 256.0 / 75 - 1)));
  CHECK_THROWS_AS(theorem1_height(0.5, 8, 256, 75, 256), sanvp::UserError);  // 4 - 3.41 - 1 < 1
}

TEST_CASE("sanvp btin prints the paper example, bad parameters exit 2") {
  const char* bin = std::getenv("SANVP_BIN");
  if (!bin) bin = SANVP_BIN_PATH;
  auto run = [&](const std::string& args, std::string& out) {
    FILE* f = popen((std::string(bin) + " btin " + args + " 2>&1").c_str(), "r");
    REQUIRE(f);
    char buf[4096];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    const int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  };
  std::string out;
  CHECK(run("", out) == 0);
  CHECK(out.find("root switch 3, root node (3,4)") != std::string::npos);
  // BTIN at the paper's parameters, height 2: 2*L(4).
  const LatencyParams p;
  CHECK(out.find(fmt::format("BTIN {:>12.3f}", static_cast<double>(2 * message_latency(p, 4)) / kUs)) != std::string::npos);
  std::string err;
  CHECK(run("--set btin.t_s=-1us", err) == 2);
  CHECK(err.find("error:") != std::string::npos);
}
