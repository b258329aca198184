// FBS synchronizing schedules (paper section 3): which NIC sends to which in which time slot.
//   bbp  Definition 1: s = idx(i) =>_{ts+t} idx((i + t(1+t)/2) mod |U|), 0 <= i, t < |U|
//   sss  the BBP over every NIC of a single switch network (Table 1 for 8 NICs)
//   hss  Definition 2 on the topology's spanning tree (spanning_tree.hpp; Table 2 for Figure 2)
// Messages name topology node ids; src == dst is a self-send (the U-turn route). A schedule is
// checked against a topology and its routes by schedule_check.hpp.
#pragma once
#include <string>
#include <vector>

#include "platform/fbs/spanning_tree.hpp"
#include "platform/topo/topology.hpp"

namespace sanvp::fbs {

struct Message { int slot; int src; int dst; };   // src =>_slot dst
struct Schedule {
  std::string kind;                // "bbp", "sss", "hss", or a caller's name
  int slots = 0;                   // time slots it takes, from first_slot
  std::vector<Message> messages;   // sorted by (slot, src)
  int first_slot = 0;              // ts it was applied at
};

Schedule bbp(const std::vector<int>& members, int ts);
// idx_U(i) = nics[i]: the order given is the BBP's index order (ascending ids reproduce Table 1).
Schedule sss(const std::vector<int>& nics, int ts = 0);
// HSS over every node of `topo`, on spanning_tree(topo).
Schedule hss(const Topology& topo, int ts = 0);
// HSS over the tree's NICs; leaders ordered by ascending node id.
Schedule hss(const SpanningTree& tree, int ts = 0);

// A step of HSS (one level of the gather or the distribute phase), for reports.
struct HssStep {
  std::string phase;  // "gather" or "distribute"
  int level = 0;      // tree level i of the roots r whose Leaders_r the BBPs run over
  int slot = 0;       // G(ts, i) or D(ts, i)
  int length = 0;     // MAX |Leaders_r| over the level: slots the step takes
};
std::vector<HssStep> hss_steps(const SpanningTree& tree, int ts = 0);

// Slots HSS takes on a full tree of m levels of k-port switches: (m-2)*2*(k-1) + k (paper 5.2).
long long hss_full_tree_slots(int levels, int ports);

// Sorts by (slot, src, dst) and sets `slots` from the first and last slot.
void normalize(Schedule& s);

}  // namespace sanvp::fbs
