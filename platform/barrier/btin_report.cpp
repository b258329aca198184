#include "platform/barrier/btin_report.hpp"

#include <fmt/format.h>

#include "platform/barrier/functional_net.hpp"
#include "platform/barrier/group_setup.hpp"
#include "platform/barrier/paper_example.hpp"

namespace sanvp::barrier {

namespace {
std::string us(Time t) { return fmt::format("{:.3f}", static_cast<double>(t) / kUs); }
std::string ports(std::uint64_t m) {
  std::string s;
  for (int p = 0; p < 64; ++p)
    if (m >> p & 1) s += (s.empty() ? "" : ",") + std::to_string(p);
  return "{" + s + "}";
}
}  // namespace

std::string btin_example_report(const LatencyParams& p) {
  std::string out = fmt::format("parameters: t_s={} t_p={} t_r={} t_root={}\n\n", format_time(p.t_s),
                                format_time(p.t_p), format_time(p.t_r), format_time(p.t_root));
  const PaperExample ex = paper_figure1();
  const GroupPlan plan = plan_group(ex.graph, ex.members, 1);
  out += fmt::format("Paper Figure 1 (reconstruction): 9 switches, 12 links, 26 nodes, 14 members\n");
  out += fmt::format("root candidates (switch: height edges leaves-on-deepest-level):");
  for (const auto& c : plan.candidates) out += fmt::format("  {}: {} {} {}", c.sw, c.height, c.edges, c.leaves);
  out += fmt::format("\nroot switch {}, root node {}\n", plan.root, to_string(plan.root_node));
  out += fmt::format("{:>6} {:>6} {:>4} {:>20} {:>8} {:>8}\n", "switch", "parent", "P", "C", "writer", "remote");
  for (const auto& w : plan.writes)
    out += fmt::format("{:>6} {:>6} {:>4} {:>20} {:>8} {:>8}\n", w.sw, plan.tree.parent[static_cast<std::size_t>(w.sw)],
               int(w.cmd.parent), ports(w.cmd.cmask), to_string(w.writer), w.remote ? "yes" : "no");

  const SchemeComparison c = compare_schemes(p, plan.tree, plan.members, plan.root_node);
  out += fmt::format("\nanalytical model, n = {}, BTIN height {}:\n", c.members, c.height);
  out += fmt::format("{:>10} {:>12} {:>8} {:>9}\n", "scheme", "latency_us", "links", "startups");
  for (auto [name, s] : {std::pair{"BTIN", c.btin}, {"multicast", c.multicast}, {"unicast", c.unicast}})
    out += fmt::format("{:>10} {:>12} {:>8} {:>9}\n", name, us(s.latency), s.links, s.startups);

  FunctionalBtinNet hw(ex.graph, std::vector<int>(9, 4), p);
  hw.create(plan);
  const auto r = hw.run({&plan}, {}, 1);
  std::vector<int> regs(9, 4);
  regs[1] = regs[4] = 0;
  FunctionalBtinNet scarce(ex.graph, regs, p);
  const Deployment d = scarce.create(plan);
  const auto rs = scarce.run({&plan}, {}, 1);
  out += fmt::format("\nfunctional BTIN network (event per hop, no contention):\n");
  out += fmt::format("  registers everywhere          : latency {} us, {} links\n", us(r[0].latency), r[0].links);
  out += fmt::format("  no register in switches 1 and 4: latency {} us, {} links, {} messages in software\n{}",
             us(rs[0].latency), rs[0].links, rs[0].software_messages, d.report());

  out += fmt::format("\nBTIN latency 2*L(h+2) by height:\n");
  for (int h = 1; h <= 12; ++h) out += fmt::format("  h={:2d}: {} us\n", h, us(btin_cost(p, h, 0, 2).latency));
  out += fmt::format("\nTheorem 1 height log_(fk-p/q-1) n at f=0.75, k=8: 256/75 n=256: {:.2f}; 1024/300 n=1024: {:.2f}\n",
             theorem1_height(0.75, 8, 256, 75, 256), theorem1_height(0.75, 8, 1024, 300, 1024));
  // What the paper's figures imply (docs/btin.md): the 11.5 us of BTIN at 1024 members is
  // 2*L(h+2) for a height between 8 and 9; the multicast scheme's 120.5 us then leaves
  // 120.5 - 11.5/2 - 11.5/2 for 1023 serialized reduction messages at the root.
  const LatencyParams paper;  // the paper's own t_s, t_p, t_r, whatever was set
  const double h_paper = (11.5e6 / 2 - static_cast<double>(paper.t_s) - 2 * static_cast<double>(paper.t_p) -
                          3 * static_cast<double>(paper.t_r)) / static_cast<double>(paper.t_p + paper.t_r);
  out += fmt::format("paper parameters: 11.5 us (BTIN, 1024 members) -> mean height {:.2f}; multicast 120.5 us -> {:.1f} ns per reduction message at the root\n",
             h_paper, (120.5e6 - 11.5e6) / 1023 / 1e3);
  return out;
}

}  // namespace sanvp::barrier
