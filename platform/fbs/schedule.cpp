#include "platform/fbs/schedule.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp::fbs {
namespace {

using Idx = std::size_t;

// Leaders_r: the smallest NIC of each child subtree of r (child switches and attached NICs).
std::vector<int> leaders(const SpanningTree& tr, int r) {
  std::vector<int> l = tr.nics[Idx(r)];
  for (int c : tr.children[Idx(r)]) l.push_back(tr.smallest[Idx(c)]);
  std::sort(l.begin(), l.end());
  return l;
}

int max_leaders(const SpanningTree& tr, int level) {
  int m = 0;
  for (int q : tr.at_level(level)) m = std::max(m, static_cast<int>(leaders(tr, q).size()));
  return m;
}

void append(Schedule& into, const Schedule& part) {
  into.messages.insert(into.messages.end(), part.messages.begin(), part.messages.end());
}

}  // namespace

void normalize(Schedule& s) {
  std::sort(s.messages.begin(), s.messages.end(), [](const Message& a, const Message& b) {
    return std::tie(a.slot, a.src, a.dst) < std::tie(b.slot, b.src, b.dst);
  });
  s.slots = s.messages.empty() ? 0 : s.messages.back().slot - s.first_slot + 1;
}

Schedule bbp(const std::vector<int>& members, int ts) {
  if (ts < 0) throw UserError(fmt::format("fbs: BBP start slot {} is negative", ts));
  Schedule s{"bbp", 0, {}, ts};
  const long long n = static_cast<long long>(members.size());
  // t(1+t)/2 mod n in 64 bits: |U| is at most the node count, so no overflow.
  for (long long t = 0; t < n; ++t)
    for (long long i = 0; i < n; ++i)
      s.messages.push_back({static_cast<int>(ts + t), members[Idx(i)], members[Idx((i + t * (t + 1) / 2) % n)]});
  normalize(s);
  return s;
}

Schedule sss(const std::vector<int>& nics, int ts) {
  Schedule s = bbp(nics, ts);
  s.kind = "sss";
  return s;
}

std::vector<HssStep> hss_steps(const SpanningTree& tr, int ts) {
  const int m = tr.levels;
  std::vector<HssStep> steps;
  int g = ts;  // G(ts, 1) = ts; G(ts, i) = G(ts, i-1) + MAX_{q in level(i-1)} |Leaders_q|
  for (int i = 1; i <= m - 1; ++i) {
    if (i > 1) g += max_leaders(tr, i - 1);
    steps.push_back({"gather", i, g, max_leaders(tr, i)});
  }
  // D(ts, m-2) = G(ts, m-1) + |Leaders_root|; D(ts, i) = D(ts, i+1) + MAX_{q in level(i+1)} |Leaders_q|
  int d = g + max_leaders(tr, m - 1);
  for (int i = m - 2; i >= 1; --i) {
    if (i < m - 2) d += max_leaders(tr, i + 1);
    steps.push_back({"distribute", i, d, max_leaders(tr, i)});
  }
  return steps;
}

Schedule hss(const SpanningTree& tr, int ts) {
  if (ts < 0) throw UserError(fmt::format("fbs: HSS start slot {} is negative", ts));
  Schedule s{"hss", 0, {}, ts};
  for (const HssStep& st : hss_steps(tr, ts))
    for (int r : tr.at_level(st.level)) append(s, bbp(leaders(tr, r), st.slot));
  normalize(s);
  return s;
}

Schedule hss(const Topology& topo, int ts) { return hss(spanning_tree(topo), ts); }

long long hss_full_tree_slots(int levels, int ports) {
  return static_cast<long long>(levels - 2) * 2 * (ports - 1) + ports;
}

}  // namespace sanvp::fbs
