#include "platform/sim/hang_report.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace sanvp {

namespace {

struct Loc {
  int sw;
  Switch::WormInfo w;
};

// What is at the far end of a switch port: a node, or (switch, port), or nothing.
struct End { int node = -1, sw = -1, port = -1; };

// The state of a hung network, read once, and the steps that explain it.
class HangAnalysis {
 public:
  HangAnalysis(Network& net, Time now) : net_(net), pt_(net.packets()) {
    map_far_ends();
    // Every worm occupying a switch input, grouped by packet; and who holds each (switch, input).
    for (int s = 0; s < net.switches(); ++s)
      for (const auto& w : net.sw(s).worms(now)) {
        by_pkt_[w.packet].push_back(Loc{s, w});
        at_input_[{s, w.input}] = w.packet;
      }
  }

  HangReport report() {
    HangReport rep;
    rep.json["worms"] = nlohmann::json::array();
    for (auto& entry : by_pkt_) describe_worm(entry.first, worm_chain(entry.second), rep);
    find_cycle(rep);
    if (rep.cycle.empty() && !by_pkt_.empty())
      rep.no_cycle_reason = "no wait-for cycle among the worms: the blocked chains end at a worm stopped by its destination or by a link";
    if (by_pkt_.empty())
      rep.no_cycle_reason = "no worm occupies a switch input: the packets in flight are at their sources or on the last link "
                            "(results.in_flight in the report lists where each is)";
    return rep;
  }

 private:
  void map_far_ends() {
    far_.resize(static_cast<std::size_t>(net_.switches()));
    for (int s = 0; s < net_.switches(); ++s) far_[s].resize(static_cast<std::size_t>(net_.switch_ports(s)));
    for (int n = 0; n < net_.nodes(); ++n) far_[net_.attachment(n).sw][net_.attachment(n).port].node = n;
    for (const auto& t : net_.trunks()) {
      far_[t.sw_a][t.port_a].sw = t.sw_b;
      far_[t.sw_a][t.port_a].port = t.port_b;
      far_[t.sw_b][t.port_b].sw = t.sw_a;
      far_[t.sw_b][t.port_b].port = t.port_a;
    }
  }

  std::string port_name(int s, int p) const {
    const End& e = far_[s][p];
    if (e.node >= 0) return fmt::format("sw{}.p{} (to n{})", s, p, e.node);
    if (e.sw >= 0) return fmt::format("sw{}.p{} (to sw{})", s, p, e.sw);
    return fmt::format("sw{}.p{}", s, p);
  }

  std::string pkt_name(std::uint32_t p) const {
    const PacketRecord& r = pt_[p];
    return fmt::format("packet {} (n{}->n{}, {} flits)", p, r.src, r.dst, r.wire_len());
  }

  // A worm's hops ordered source to destination: a hop is downstream of another when the other's
  // output leads to its input.
  std::vector<const Loc*> worm_chain(const std::vector<Loc>& locs) const {
    auto upstream_of = [&](const Loc& l) -> const Loc* {
      for (const auto& o : locs) {
        const End& e = far_[o.sw][o.w.output];
        if (e.sw == l.sw && e.port == l.w.input) return &o;
      }
      return nullptr;
    };
    const Loc* first = nullptr;
    for (const auto& l : locs) if (!upstream_of(l)) { first = &l; break; }
    if (!first) first = &locs.front();
    std::vector<const Loc*> chain{first};
    while (chain.size() < locs.size()) {
      const End& e = far_[chain.back()->sw][chain.back()->w.output];
      const Loc* next = nullptr;
      for (const auto& o : locs) if (o.sw == e.sw && o.w.input == e.port) next = &o;
      if (!next) break;
      chain.push_back(next);
    }
    return chain;
  }

  // Where the head is and what it waits for (and who holds that, an edge of the wait-for graph).
  std::string head_text(std::uint32_t pkt, const Loc& head, nlohmann::json& j) {
    if (!head.w.waiting) {
      const End& e = far_[head.sw][head.w.output];
      j["head"] = fmt::format("sw{}.p{}", head.sw, head.w.output);
      return fmt::format("head streams out of {}{}", port_name(head.sw, head.w.output),
                         head.w.output_stopped ? (e.node >= 0 ? ", stopped by the sink (not consuming)" : ", stopped by downstream") : "");
    }
    std::string text = fmt::format("head at sw{}.p{} waits for output {}", head.sw, head.w.input, port_name(head.sw, head.w.output));
    j["head"] = fmt::format("sw{}.p{}", head.sw, head.w.input);
    j["waits_for"] = fmt::format("sw{}.p{}", head.sw, head.w.output);
    if (head.w.holder < 0) return text;
    auto it = at_input_.find({head.sw, head.w.holder});
    if (it == at_input_.end()) return text + fmt::format(", held by input sw{}.p{}", head.sw, head.w.holder);
    waits_for_[pkt] = it->second;
    wait_text_[pkt] = fmt::format("at sw{} waits for {} held by", head.sw, port_name(head.sw, head.w.output));
    j["held_by"] = it->second;
    return text + fmt::format(", held by {} from input sw{}.p{}", pkt_name(it->second), head.sw, head.w.holder);
  }

  std::string tail_text(std::uint32_t pkt, const Loc& tail, nlohmann::json& j) const {
    const PacketRecord& r = pt_[pkt];
    const TrafficEndpoint& src = net_.node(r.src);
    if (src.sending_packet() == static_cast<std::int64_t>(pkt)) {
      j["tail"] = fmt::format("n{}", r.src);
      return fmt::format("tail at source n{} ({} of {} flits sent)", r.src, src.sending_flits(), r.wire_len());
    }
    j["tail"] = fmt::format("sw{}.p{}", tail.sw, tail.w.input);
    return fmt::format("tail at sw{}.p{}", tail.sw, tail.w.input);
  }

  // One line and one JSON entry for a blocked worm.
  void describe_worm(std::uint32_t pkt, const std::vector<const Loc*>& chain, HangReport& rep) {
    const PacketRecord& r = pt_[pkt];
    nlohmann::json j{{"packet", pkt}, {"src", r.src}, {"dst", r.dst}, {"flits", r.wire_len()}};
    const std::string head = head_text(pkt, *chain.back(), j);
    const std::string tail = tail_text(pkt, *chain.front(), j);
    std::string path;
    nlohmann::json hops = nlohmann::json::array();
    for (const Loc* l : chain) {
      path += fmt::format("{}sw{}.p{}->p{} [{} buffered{}]", path.empty() ? "" : ", ", l->sw, l->w.input, l->w.output, l->w.buffered,
                          l->w.stop_sent ? ", STOP sent" : "");
      hops.push_back({{"switch", l->sw}, {"input", l->w.input}, {"output", l->w.output}, {"waiting", l->w.waiting},
                      {"buffered", l->w.buffered}, {"stop_sent", l->w.stop_sent}});
    }
    j["hops"] = hops;
    rep.worms.push_back(fmt::format("{}: {}; {}; occupies {}", pkt_name(pkt), head, tail, path));
    rep.json["worms"].push_back(j);
  }

  // Wait-for graph: each blocked header waits for exactly one worm, so following the edges from
  // any worm either reaches a worm that is not waiting (chain) or revisits one (cycle).
  void find_cycle(HangReport& rep) {
    for (const auto& [start, unused] : waits_for_) {
      std::vector<std::uint32_t> seen_order;
      std::map<std::uint32_t, std::size_t> pos;
      std::uint32_t p = start;
      while (waits_for_.count(p) && !pos.count(p)) {
        pos[p] = seen_order.size();
        seen_order.push_back(p);
        p = waits_for_[p];
      }
      if (!pos.count(p)) continue;
      // Rotate so the cycle starts at its lowest packet id: the report is the same whichever
      // worm the search started from.
      std::vector<std::uint32_t> cyc(seen_order.begin() + static_cast<std::ptrdiff_t>(pos[p]), seen_order.end());
      std::rotate(cyc.begin(), std::min_element(cyc.begin(), cyc.end()), cyc.end());
      for (std::size_t i = 0; i < cyc.size(); ++i) {
        const std::uint32_t a = cyc[i], b = cyc[(i + 1) % cyc.size()];
        rep.cycle.push_back(fmt::format("{} {} {}", pkt_name(a), wait_text_[a], pkt_name(b)));
      }
      rep.json["cycle"] = cyc;
      return;
    }
  }

  Network& net_;
  const PacketTable& pt_;
  std::vector<std::vector<End>> far_;
  std::map<std::uint32_t, std::vector<Loc>> by_pkt_;
  std::map<std::pair<int, int>, std::uint32_t> at_input_;
  std::map<std::uint32_t, std::uint32_t> waits_for_;  // packet -> packet holding what its head wants
  std::map<std::uint32_t, std::string> wait_text_;
};

}  // namespace

HangReport analyze_hang(Network& net, Time now) { return HangAnalysis(net, now).report(); }

Standstill longest_standstill(Network& net) {
  Time ld = 0, cp = 0, fc = 0, route = 0;
  for (const auto& c : net.channels()) {
    ld = std::max(ld, c->timing().ld);
    cp = std::max(cp, c->timing().cp);
    if (c->rx_buffer()) fc = std::max(fc, c->rx_buffer()->config().fc);
  }
  for (int s = 0; s < net.switches(); ++s) {
    const SwitchConfig& k = net.sw(s).config();
    route = std::max(route, k.rd + k.sd);
    fc = std::max(fc, k.fc.fc);
  }
  Standstill out;
  out.bound = ld + route + ld + 2 * fc + cp;
  out.formula = fmt::format("ld {} + rd + sd {} + ld {} + 2 fc {} + cp {}, the largest of each in the network", format_time(ld),
                            format_time(route), format_time(ld), format_time(2 * fc), format_time(cp));
  return out;
}

}  // namespace sanvp
