#include "platform/sim/fabric_monitor.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <functional>
#include <unordered_set>

#include "hw/base/error.hpp"
#include "platform/sim/network.hpp"

namespace sanvp {

namespace {
std::string packet_name(std::uint32_t p) { return p == kNoPacket ? "a barrier packet" : fmt::format("packet {}", p); }
}  // namespace

FabricMonitor::FabricMonitor(sc_core::sc_module_name name) : sc_module(name) {
  SC_METHOD(run_checks);
  sensitive << wake_.event();
  dont_initialize();
}

void FabricMonitor::watch(Network& net) {
  for (const auto& ch : net.channels())
    if (ch->connected() && ch->transmitter()) watch(*ch->transmitter(), ch->path());
}

void FabricMonitor::watch(LinkTransmitter& tx, std::string name) {
  if (tx.watched()) return;
  tx.set_watcher(this, watched_.size());
  watched_.push_back(Watched{&tx, std::move(name)});
}

void FabricMonitor::poke(std::size_t id, Time at) { schedule(id, at); }

void FabricMonitor::schedule(std::size_t i, Time at) {
  Watched& w = watched_[i];
  const Time now = now_ps();
  if (at < now) at = now;
  // Every request is kept (a check that finds STOP in force relies on the GO's own request):
  // only an identical one is dropped.
  if (w.last_request == at) return;
  w.last_request = at;
  heap_.emplace_back(at, i);
  std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
  wake_.at(at);
}

void FabricMonitor::run_checks() {
  wake_.fired();
  const Time now = now_ps();
  while (!heap_.empty() && heap_.front().first <= now) {
    const std::size_t i = heap_.front().second;
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
    heap_.pop_back();
    Watched& w = watched_[i];
    if (w.checked_at == now) continue;  // examined at this instant already
    w.checked_at = now;
    check(w, now);
  }
}

void FabricMonitor::sweep() {
  const Time now = now_ps();
  for (auto& w : watched_) check(w, now);
}

void FabricMonitor::check(Watched& w, Time now) {
  ++checks_;
  LinkTransmitter& tx = *w.tx;
  const LinkTransmitter::Work work = tx.work();
  if (work.ready == kNever) return;  // nothing to send: idle is right
  const auto [stopped, since] = tx.state_at(now);
  if (stopped) return;  // the GO that ends it pokes us
  const Time cp = tx.channel()->timing().cp;
  const Time last = tx.last_departure();
  const Time due = std::max({work.ready, last == kNever ? Time{0} : last + cp, since});
  if (now > due + cp) {
    throw SimError(fmt::format(
        "work-conservation check failed at {}: {} idle for {} while its downstream was GO and {} waited "
        "(flit ready at {}, previous flit left at {}, GO in force since {}; it was due at {})",
        format_time(now), w.name, format_time(now - due),
        packet_name(work.packet), format_time(work.ready), last == kNever ? std::string("never") : format_time(last),
        format_time(since), format_time(due)));
  }
  schedule(static_cast<std::size_t>(&w - watched_.data()), due + cp + 1);  // still pending then is a violation
}

}  // namespace sanvp
