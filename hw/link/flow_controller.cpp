#include "hw/link/flow_controller.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "hw/base/error.hpp"
#include "hw/base/sim_time.hpp"

namespace sanvp {

FlowControlConfig FlowControlConfig::from_params(ParamValues& pv, const std::string& path) {
  FlowControlConfig c;
  c.read_params(pv, path);
  for (const char* n : {"bl", "ks", "kg", "fc"}) {
    const std::string o = pv.origin(path, "fc", n);
    if (!o.empty()) c.set_at += fmt::format("{}fc.{} from {}", c.set_at.empty() ? "" : "; ", n, o);
  }
  return c;
}

std::int64_t FlowControlConfig::in_flight_after_stop(const LinkTiming& lt, Time fc) {
  const Time rt = 2 * lt.ld + 2 * fc;  // no wrap: ld and fc are at most kMaxTime (2^62 ps) / 4 by their ranges
  return static_cast<std::int64_t>((rt + lt.cp - 1) / lt.cp) - 1;
}

void FlowControlConfig::validate(const LinkTiming& lt, Time sd, const std::string& where) const {
  const std::string at = where.empty() ? "fc" : where;
  // "(fc.ks from scen.yaml:7:9: params.fc.ks)": the values in the message came from there.
  const std::string from = set_at.empty() ? "" : " (" + set_at + ")";
  auto fail = [&](const std::string& msg) { throw UserError(msg + from); };
  try {
    check_ranges(at + ": ");
  } catch (const UserError& e) {
    fail(e.what());
  }
  if (ks > bl) fail(fmt::format("{}: ks={} > bl={}: STOP threshold must not exceed the buffer (need kg < ks <= bl)", at, ks, bl));
  if (kg >= ks) fail(fmt::format("{}: kg={} >= ks={}: GO threshold must lie below STOP threshold (need 0 <= kg < ks <= bl)", at, kg, ks));
  if (kg < 0) fail(fmt::format("{}: kg={} is negative", at, kg));
  if (lt.cp == 0) fail(fmt::format("{}: link cp must be > 0", at));
  const std::int64_t n = in_flight_after_stop(lt, fc);
  if (ks + n > bl)
    fail(fmt::format(
        "{}: buffer would overflow: need ks + ceil((2*ld + 2*fc)/cp) - 1 <= bl, but {} + ceil((2*{} + 2*{})/{}) - 1 = {} > {}",
        at, ks, format_time(lt.ld), format_time(fc), format_time(lt.cp), ks + n, bl));
  const Time need = 2 * lt.ld + 2 * fc + sd;
  const Time have = static_cast<Time>(kg + 1) * lt.cp;  // no wrap: kg < bl <= 2^20, cp <= 1 ms
  if (have < need)
    fail(fmt::format(
        "{}: receiver would starve after GO: need (kg+1)*cp >= 2*ld + 2*fc + sd, but ({}+1)*{} = {} < 2*{} + 2*{} + {} = {}",
        at, kg, format_time(lt.cp), format_time(have), format_time(lt.ld), format_time(fc), format_time(sd), format_time(need)));
}

FlowController::FlowController(sc_core::sc_module_name name, const FlowControlConfig& cfg)
    : sc_module(name), ks_(cfg.ks), cfg_(cfg) {
  SC_METHOD(check_proc);
  sensitive << check_ev_;
  dont_initialize();
}

void FlowController::declare_traces() {
  occ_sig_.declare(name(), "occupancy", bits_for(static_cast<std::uint64_t>(cfg_.bl)));  // never above bl: an overflow throws
  stop_sig_.declare(name(), "stop_sent", 1);
}

// Popped flits departing at or after `t` that arrived by `arrived_by`. Along the departing
// range arrivals increase (FIFO) and departures never decrease (one consumer at a time), so two
// binary searches find them; the usual questions (all of them, none) need no search.
int FlowController::departing_from(Time t, Time arrived_by) const {
  std::uint64_t first = ring_.kept(), last = ring_.popped();
  if (first == last || ring_.at(last - 1).departure < t) return 0;
  if (ring_.at(first).departure < t) {
    std::uint64_t lo = first, hi = last - 1;  // at(hi).departure >= t
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      if (ring_.at(mid).departure < t) lo = mid + 1; else hi = mid;
    }
    first = lo;
  }
  if (ring_.at(last - 1).entry.arrival > arrived_by) {
    std::uint64_t lo = first;
    while (lo < last) {
      const std::uint64_t mid = lo + (last - lo) / 2;
      if (ring_.at(mid).entry.arrival <= arrived_by) lo = mid + 1; else last = mid;
    }
  }
  return static_cast<int>(last - first);
}

// Buffered flits arrived by `now`: the few still on the wire are at the back.
int FlowController::arrived_in_buffer(Time now) const {
  std::uint64_t g = ring_.pushed();
  while (g > ring_.popped() && ring_.at(g - 1).entry.arrival > now) --g;
  return static_cast<int>(g - ring_.popped());
}

int FlowController::occupancy(Time now) const { return arrived_in_buffer(now) + departing_from(now + 1, now); }

void FlowController::schedule_check(Time t) {
  checks_.push_back(t);
  rearm(now_ps());
}

void FlowController::go_ahead(Time t) {
  go_at_ = t;
  rearm(now_ps());
}

// One event for both causes: notify(t) keeps only the earliest pending time, so the wake-up is
// recomputed from both every time either changes and after every activation.
void FlowController::rearm(Time now) {
  const Time next = std::min(checks_.empty() ? kNever : checks_.front(), go_at_);
  if (next != kNever) check_ev_.notify(sc_core::sc_time::from_value(next - now));
}

// What pop(now) does after STOP, for the pop ahead that decided the GO: nothing can have arrived
// since, so the occupancy is the one it found.
void FlowController::send_go_ahead(Time now) {
  const int occ = occupancy(now);
  if (go_at_ != now || !stop_sent_ || occ > cfg_.kg)
    throw SimError(fmt::format("{}: internal: GO decided ahead for {} finds occupancy {} at {} (kg={}, STOP {})", name(),
                               format_time(go_at_), occ, format_time(now), cfg_.kg, stop_sent_ ? "sent" : "not sent"));
  go_at_ = kNever;
  send_control(false, now, occ);
}

void FlowController::check_proc() {
  const Time now = now_ps();
  const bool go = go_at_ <= now;
  if (go) send_go_ahead(now);
  const bool due = !checks_.empty() && checks_.front() <= now;
  while (!checks_.empty() && checks_.front() <= now) checks_.pop_front();
  // A wake-up for the GO alone examines nothing: the buffer is at kg or below.
  if (due || !go) check_stop(now);
  rearm(now);
}

// The STOP check at an arrival instant.
void FlowController::check_stop(Time now) {
  const int occ = arrived_in_buffer(now) + departing_from(now, now);  // arrivals at this instant count first
  if (occ > stats_.max_occupancy) stats_.max_occupancy = occ;
  if (occ > cfg_.bl)
    throw SimError(fmt::format("{}: slack buffer overflow at {}: occupancy {} > bl={}", name(), format_time(now), occ, cfg_.bl));
  if (occ_sig_.on()) occ_sig_.change(now, static_cast<std::uint64_t>(occupancy(now)));  // a scan: only when traced
  if (!stop_sent_ && occ >= cfg_.ks) send_control(true, now, occ);
}

void FlowController::refuse_ahead() const {
  throw SimError(fmt::format("{}: flit popped ahead while the occupancy is traced or a GO decided ahead is due", name()));
}

void FlowController::pop(Time now) {
  depart(now, now_ps());  // forgets by the simulation time, as pop_ahead (tests pop at other times)
  // The occupancy scans the flits on the wire: only when traced or a GO may be due.
  if (!stop_sent_ && !occ_sig_.on()) return;
  const int occ = occupancy(now);
  occ_sig_.change(now, static_cast<std::uint64_t>(occ));
  if (stop_sent_ && occ <= cfg_.kg) send_control(false, now, occ);
}

void FlowController::send_control(bool stop, Time now, int occ) {
  stop_sent_ = stop;
  if (stop) ++stats_.stops; else ++stats_.gos;
  if (observer_) observer_(now, stop, occ);
  stop_sig_.change(now, stop ? 1 : 0);
  if (upstream_) upstream_->send_control(stop, now, 2 * cfg_.fc);
}

}  // namespace sanvp
