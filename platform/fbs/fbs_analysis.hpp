// The analytic side of an FBS run: the schedule's bounded skew (Eq. 8 for SSS, Eq. 10 for HSS on
// the run's tree depth) in both readings of GAP3, Eq. 11's interval and Eq. 12's overhead, all
// from the parameters the simulation runs with (SkewInputs::from_params).
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "platform/fbs/fbs_run.hpp"
#include "platform/fbs/skew_model.hpp"

namespace sanvp::fbs {

struct Analysis {
  Ps printed = 0, paper = 0;  // bound in the (bl-kg) and (bl-ks) readings
  // The model's own bound (0 where not derived: a guard below min_guard). A NIC that leads the one
  // it should wait for by less than dead = (ks + guard + 1) cp - rd - sd (one switch) is not held
  // at all: its header is granted before its slack buffer fills to ks, so no STOP reaches it.
  // The paper's GAP1 (bl p2 cp) is its counterpart; the guard, which the paper does not have,
  // widens it. SSS: dead zone + drift over the round. HSS: Eq. 10's chain with every step's
  // bound replaced by the dead zone of its longest path (path_dead_zone), + drift over the round.
  Ps dead_zone = 0, model = 0;
  Ps bound() const { return printed > paper ? printed : paper; }
  nlohmann::json json;
  std::string summary;
};

// The bound of `in`'s schedule kind ("sss": Eq. 8; otherwise Eq. 10 with in.levels).
Ps schedule_bound(const SkewInputs& si, const RunInput& in, Gap3Reading r);
// (ks + guard + 1) cp - rd - sd of one switch (see Analysis::dead_zone).
Ps dead_zone(const SkewInputs& si, std::int64_t guard);
// The dead zone of a precedence whose slow NIC's packet reaches the blocking switch over p1
// switches and the fast NIC's over p2: every switch before the blocking one delays the fast
// header by ld + rd + sd (the slow tail likewise), so the fast NIC's byte ks arrives that much
// later. Whether it is held depends only on the blocking switch's buffer reaching ks; the buffers
// before it fill only after the STOP, so they add nothing. (p2 - p1) may be negative.
Ps path_dead_zone(const SkewInputs& si, std::int64_t guard, int p1, int p2);
// HSS on m levels: B(m-1) + 2 sum_{i=1..m-2} B(i) as in Eq. 10, with B(i) the largest dead zone
// of a level-i step, whose leaders are 1..2i-1 switches from the blocking one: p1 = 1, p2 = 2i-1.
Ps hss_model_skew(const SkewInputs& si, std::int64_t guard, int levels);
// The smallest guard (bytes) that lets a switch's slack buffer drain the rd + sd a header costs
// between two back-to-back packets of one NIC: ceil((rd + sd) / cp) + 1. With less, each slot
// leaves bytes behind until the buffer reaches ks and STOPs a NIC nobody blocked; the dead-zone
// bound assumes an empty buffer at each packet's start.
std::int64_t min_guard(const SkewInputs& si);
// The smallest guard that keeps slot t's packet, reaching a link over `extra` more switches than
// slot t + 1's packet (schedule_check.hpp, Convergence), from STOPping the later packet's NIC
// with no clock error: its tail reaches the link extra x (ld + rd + sd) late, as if the later NIC
// led by that much over a one-switch path, so (ks + guard + 1) cp must exceed
// rd + sd + extra x (ld + rd + sd); one flit is added to spare. 0 for extra <= 0.
std::int64_t convergence_guard(const SkewInputs& si, int extra);
// The guard a run needs (the default of fbs.guard): max(min_guard, convergence_guard).
std::int64_t needed_guard(const SkewInputs& si, int extra);
Analysis analyse(ParamValues& pv, const RunInput& in, const RunPlan& plan);
// Eq. 11's interval (floor) from the larger bound and fbs.drift: the default of fbs.interval.
// UserError when no interval keeps the skew below half a slot.
std::uint32_t default_interval(ParamValues& pv, const RunInput& in);

}  // namespace sanvp::fbs
