// Checks a schedule against the two requirements of a synchronizing schedule (FBS paper 3.2) on
// a topology with the source routes the run uses (self-sends take the U-turn, self_route()):
//   conflict-free: no two messages of one slot share a directed link (n<j>.out, sw<i>.p<k>.out);
//   dependency: every ordered pair s != f of NICs has s -> f, directly (s =>_ts d, f =>_ts+1 d)
//               or through a chain of direct precedences with strictly increasing TIMEs.
#pragma once
#include <string>
#include <vector>

#include "platform/fbs/schedule.hpp"
#include "platform/topo/routing.hpp"
#include "platform/topo/topology.hpp"

namespace sanvp::fbs {

struct Violation {
  enum class Kind { BadMessage, LinkConflict, MissingPrecedence };
  Kind kind = Kind::BadMessage;
  Message first{}, second{};   // LinkConflict: the two messages (first in schedule order);
                               // BadMessage: `first` is the message
  std::string link;            // LinkConflict: the first directed link both routes use
  int more_links = 0;          // LinkConflict: further links they share
  int from = -1, to = -1;      // MissingPrecedence: `from` does not precede `to`
  std::string text;            // BadMessage: what is wrong
};

struct CheckResult {
  std::vector<int> nics;               // U: the NICs the dependency requirement covered
  std::vector<Violation> violations;   // conflicts by slot, then missing precedences by (from, to)
  int conflicts() const;
  int missing() const;
  bool ok() const { return violations.empty(); }
};

// `nics` = U (empty: every node of `topo`). Messages naming nodes outside the topology, or a
// route that does not reach its destination, are BadMessage violations.
CheckResult check_schedule(const Schedule& s, const Topology& topo, const RouteTable& routes, const std::vector<int>& nics = {});

// Two messages of consecutive slots that meet on one directed link: `earlier` (slot t) crosses
// `earlier_switches` switches up to and including the one the link leaves, `later` (slot t + 1)
// `later_switches`. With earlier_switches > later_switches the earlier packet's tail reaches the
// link (earlier - later) x (ld + rd + sd) later than a one-switch packet's would, and can hold
// the later packet long enough to STOP its NIC with no clock error at all (fbs_analysis.hpp,
// convergence_guard). The worst is the largest difference, then the earliest slot.
struct Convergence {
  Message earlier{}, later{};
  std::string link;
  int earlier_switches = 0, later_switches = 0;
  int extra() const { return earlier_switches - later_switches; }
};
// The worst convergence of `s` on `topo` with `routes` (extra() == 0 when no slot's packet
// reaches a link over more switches than the next slot's). Messages with bad routes are skipped
// (check_schedule reports them).
Convergence worst_convergence(const Schedule& s, const Topology& topo, const RouteTable& routes);
std::string format_convergence(const Convergence& c);

// One line per violation (at most `limit`, then a count of the rest) and a verdict line:
//   slot 7: n0=>n4 and n1=>n5 both use link sw4.p3.out
//   missing precedence: n3 -> n5 (no chain of direct precedences with increasing TIMEs)
//   conflict-free: yes|no (N conflicts); dependency: yes|no (N of M ordered pairs missing)
std::string format_check(const CheckResult& r, int limit = 20);
std::string format_violation(const Violation& v);

}  // namespace sanvp::fbs
