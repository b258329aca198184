#include "platform/barrier/group_setup.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "hw/base/error.hpp"

namespace sanvp::barrier {

namespace {

struct MemberInfo {
  std::vector<NodeAddr> sorted;
  std::vector<char> member_switch;
  std::vector<NodeAddr> representative;  // per switch; {-1,-1} for non-member switches
};

MemberInfo check_members(const SwitchGraph& g, const std::vector<NodeAddr>& members) {
  MemberInfo m;
  m.sorted = members;
  std::sort(m.sorted.begin(), m.sorted.end());
  if (m.sorted.size() < 2) throw UserError("barrier group: a group needs at least 2 member nodes");
  for (std::size_t i = 0; i < m.sorted.size(); ++i) {
    if (!g.has_node(m.sorted[i])) throw UserError(fmt::format("barrier group: no node {} in the network", to_string(m.sorted[i])));
    if (i > 0 && m.sorted[i] == m.sorted[i - 1]) throw UserError(fmt::format("barrier group: node {} listed twice", to_string(m.sorted[i])));
  }
  m.member_switch.assign(static_cast<std::size_t>(g.switches()), 0);
  m.representative.assign(static_cast<std::size_t>(g.switches()), NodeAddr{});
  for (const auto& n : m.sorted) {  // sorted by (switch, port): the first of a switch is its lowest port
    auto& rep = m.representative[static_cast<std::size_t>(n.sw)];
    if (!m.member_switch[static_cast<std::size_t>(n.sw)]) rep = n;
    m.member_switch[static_cast<std::size_t>(n.sw)] = 1;
  }
  return m;
}

RegisterWrite register_for(const SwitchGraph& g, const Btin& t, const MemberInfo& m, NodeAddr root_node, int s,
                           std::uint8_t gid) {
  const auto i = static_cast<std::size_t>(s);
  RegisterWrite w;
  w.sw = s;
  w.cmd.op = ConfigOp::Alloc;
  w.cmd.gid = gid;
  w.cmd.parent = static_cast<std::uint8_t>(s == t.root ? root_node.port : t.up_port[i]);
  std::uint64_t c = std::uint64_t{1} << w.cmd.parent;
  for (int child : t.children[i]) c |= std::uint64_t{1} << t.down_port[static_cast<std::size_t>(child)];
  for (const auto& n : m.sorted)
    if (n.sw == s) c |= std::uint64_t{1} << n.port;
  w.cmd.cmask = c;
  if (m.member_switch[i]) {
    w.writer = m.representative[i];
  } else if (!g.nodes(s).empty()) {
    w.writer = NodeAddr{s, g.nodes(s).front()};
  }
  return w;
}

}  // namespace

const RegisterWrite& GroupPlan::write_for(int sw) const {
  for (const auto& w : writes)
    if (w.sw == sw) return w;
  throw SimError(fmt::format("barrier group {}: switch {} is not in the BTIN", gid, sw));
}

namespace {
// Setup_Register's steps 2-6 for member `local`, given the root selection (step 3's input).
LocalSetup local_setup(const SwitchGraph& g, const MemberInfo& m, const RootSelection& sel, NodeAddr local,
                       std::uint8_t gid) {
  LocalSetup out;
  out.root = sel.root;
  out.root_node = m.representative[static_cast<std::size_t>(sel.root)];
  // Step 2: only the representative member node of the local switch goes on.
  if (!(m.representative[static_cast<std::size_t>(local.sw)] == local)) return out;
  out.representative = true;
  const Btin& t = sel.tree;
  // Step 5: the local switch's register.
  RegisterWrite own = register_for(g, t, m, out.root_node, local.sw, gid);
  own.requested_by = local;
  out.own = own;
  // Step 6: non-member descendants reached without passing through a member switch.
  std::vector<int> stack(t.children[static_cast<std::size_t>(local.sw)].rbegin(),
                         t.children[static_cast<std::size_t>(local.sw)].rend());
  while (!stack.empty()) {
    const int s = stack.back();
    stack.pop_back();
    if (m.member_switch[static_cast<std::size_t>(s)]) continue;
    RegisterWrite w = register_for(g, t, m, out.root_node, s, gid);
    w.requested_by = local;
    w.remote = true;
    out.remote.push_back(w);
    const auto& ch = t.children[static_cast<std::size_t>(s)];
    stack.insert(stack.end(), ch.rbegin(), ch.rend());
  }
  return out;
}
}  // namespace

LocalSetup setup_register(const SwitchGraph& g, const std::vector<NodeAddr>& members, NodeAddr local,
                          std::uint8_t gid, LeafRule rule) {
  const MemberInfo m = check_members(g, members);
  if (!std::binary_search(m.sorted.begin(), m.sorted.end(), local))
    throw UserError(fmt::format("barrier group: node {} is not a member", to_string(local)));
  return local_setup(g, m, select_root(g, m.member_switch, rule), local, gid);
}

GroupPlan plan_group(const SwitchGraph& g, const std::vector<NodeAddr>& members, std::uint8_t gid, LeafRule rule,
                     PlanCheck check) {
  const MemberInfo m = check_members(g, members);
  const RootSelection sel = select_root(g, m.member_switch, rule);
  GroupPlan plan;
  plan.gid = gid;
  plan.root = sel.root;
  plan.root_node = m.representative[static_cast<std::size_t>(sel.root)];
  plan.tree = sel.tree;
  plan.candidates = sel.candidates;
  plan.members = m.sorted;
  std::vector<int> written(static_cast<std::size_t>(g.switches()), 0);
  for (const auto& n : m.sorted) {
    if (check == PlanCheck::Representatives && !(m.representative[static_cast<std::size_t>(n.sw)] == n)) continue;
    const LocalSetup ls = check == PlanCheck::EveryMember ? setup_register(g, members, n, gid, rule)
                                                          : local_setup(g, m, sel, n, gid);
    if (ls.root != plan.root || !(ls.root_node == plan.root_node))
      throw SimError(fmt::format("barrier group {}: member {} chose another root", gid, to_string(n)));
    if (!ls.representative) continue;
    std::vector<RegisterWrite> ws{*ls.own};
    ws.insert(ws.end(), ls.remote.begin(), ls.remote.end());
    for (const auto& w : ws) {
      if (written[static_cast<std::size_t>(w.sw)]++)
        throw SimError(fmt::format("barrier group {}: switch {} written twice", gid, w.sw));
      plan.writes.push_back(w);
    }
  }
  for (int s : plan.tree.switches())
    if (!written[static_cast<std::size_t>(s)]) throw SimError(fmt::format("barrier group {}: switch {} not set up", gid, s));
  std::sort(plan.writes.begin(), plan.writes.end(), [](const RegisterWrite& a, const RegisterWrite& b) { return a.sw < b.sw; });
  return plan;
}

const Placement& Deployment::at(int sw) const {
  for (const auto& p : placements)
    if (p.sw == sw) return p;
  throw SimError(fmt::format("barrier deployment: switch {} not placed", sw));
}

std::string Deployment::report() const {
  std::string s;
  for (const auto& p : placements)
    if (!p.in_switch)
      s += fmt::format("switch {}: no free barrier register, register kept in the memory of node {}\n", p.sw,
                       to_string(p.memory_node));
  return s;
}

Deployment deploy(const GroupPlan& plan, const ConfigWriter& write) {
  Deployment d;
  for (const auto& w : plan.writes) {
    Placement p;
    p.sw = w.sw;
    const NodeAddr memory = w.writer.sw >= 0 ? w.writer : w.requested_by;
    if (w.writer.sw < 0) {  // nobody can send a config packet into this switch
      p.in_switch = false;
      p.memory_node = memory;
    } else {
      const ConfigResponse r = write(w.sw, w.writer, w.cmd);
      if (r.status == ConfigStatus::Ok) {
        p.reg = r.reg;
      } else if (r.status == ConfigStatus::Full) {
        p.in_switch = false;
        p.memory_node = memory;
      } else {
        throw SimError(fmt::format("barrier group {}: switch {} refused the setup ({})", plan.gid, w.sw, to_string(r.status)));
      }
    }
    d.fallbacks += p.in_switch ? 0 : 1;
    d.placements.push_back(p);
  }
  return d;
}

void teardown(const GroupPlan& plan, const Deployment& dep, const ConfigWriter& write) {
  for (std::size_t i = 0; i < plan.writes.size(); ++i) {
    if (!dep.placements[i].in_switch) continue;
    const auto& w = plan.writes[i];
    const ConfigResponse r = write(w.sw, w.writer, ConfigCommand{ConfigOp::Release, plan.gid, 0, 0});
    if (r.status != ConfigStatus::Ok)
      throw SimError(fmt::format("barrier group {}: release at switch {} answered {}", plan.gid, w.sw, to_string(r.status)));
  }
}

}  // namespace sanvp::barrier
