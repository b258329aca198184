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

}  // namespace

HangReport analyze_hang(Network& net, Time now) {
  // What is at the far end of every switch port: (node id) or (switch, port).
  struct End { int node = -1, sw = -1, port = -1; };
  std::vector<std::vector<End>> far(static_cast<std::size_t>(net.switches()));
  for (int s = 0; s < net.switches(); ++s) far[s].resize(static_cast<std::size_t>(net.switch_ports(s)));
  for (int n = 0; n < net.nodes(); ++n) far[net.attachment(n).sw][net.attachment(n).port].node = n;
  for (const auto& t : net.trunks()) {
    far[t.sw_a][t.port_a].sw = t.sw_b;
    far[t.sw_a][t.port_a].port = t.port_b;
    far[t.sw_b][t.port_b].sw = t.sw_a;
    far[t.sw_b][t.port_b].port = t.port_a;
  }
  auto port_name = [&](int s, int p) {
    const End& e = far[s][p];
    if (e.node >= 0) return fmt::format("sw{}.p{} (to n{})", s, p, e.node);
    if (e.sw >= 0) return fmt::format("sw{}.p{} (to sw{})", s, p, e.sw);
    return fmt::format("sw{}.p{}", s, p);
  };

  // Every worm occupying a switch input, grouped by packet; and who holds each (switch, input).
  std::map<std::uint32_t, std::vector<Loc>> by_pkt;
  std::map<std::pair<int, int>, std::uint32_t> at_input;
  for (int s = 0; s < net.switches(); ++s)
    for (const auto& w : net.sw(s).worms(now)) {
      by_pkt[w.packet].push_back(Loc{s, w});
      at_input[{s, w.input}] = w.packet;
    }
  const PacketTable& pt = net.packets();
  auto pkt_name = [&](std::uint32_t p) {
    const PacketRecord& r = pt[p];
    return fmt::format("packet {} (n{}->n{}, {} flits)", p, r.src, r.dst, r.wire_len());
  };

  HangReport rep;
  rep.json["worms"] = nlohmann::json::array();
  std::map<std::uint32_t, std::uint32_t> waits_for;  // packet -> packet holding what its head wants
  std::map<std::uint32_t, std::string> wait_text;
  for (auto& entry : by_pkt) {
    const auto pkt = entry.first;
    auto& locs = entry.second;  // not a structured binding: lambdas below capture it (clang, C++17)
    const PacketRecord& r = pt[pkt];
    // Order the worm's hops source to destination: a hop is downstream of another when the
    // other's output leads to its input.
    auto upstream_of = [&](const Loc& l) -> const Loc* {
      for (const auto& o : locs) {
        const End& e = far[o.sw][o.w.output];
        if (e.sw == l.sw && e.port == l.w.input) return &o;
      }
      return nullptr;
    };
    const Loc* first = nullptr;
    for (const auto& l : locs) if (!upstream_of(l)) { first = &l; break; }
    if (!first) first = &locs.front();
    std::vector<const Loc*> chain{first};
    while (chain.size() < locs.size()) {
      const End& e = far[chain.back()->sw][chain.back()->w.output];
      const Loc* next = nullptr;
      for (const auto& o : locs) if (o.sw == e.sw && o.w.input == e.port) next = &o;
      if (!next) break;
      chain.push_back(next);
    }
    const Loc& head = *chain.back();
    const Loc& tail = *chain.front();
    // Head.
    std::string head_text, holder_text;
    nlohmann::json j{{"packet", pkt}, {"src", r.src}, {"dst", r.dst}, {"flits", r.wire_len()}};
    if (head.w.waiting) {
      head_text = fmt::format("head at sw{}.p{} waits for output {}", head.sw, head.w.input, port_name(head.sw, head.w.output));
      j["head"] = fmt::format("sw{}.p{}", head.sw, head.w.input);
      j["waits_for"] = fmt::format("sw{}.p{}", head.sw, head.w.output);
      if (head.w.holder >= 0) {
        auto it = at_input.find({head.sw, head.w.holder});
        if (it != at_input.end()) {
          holder_text = fmt::format(", held by {} from input sw{}.p{}", pkt_name(it->second), head.sw, head.w.holder);
          waits_for[pkt] = it->second;
          wait_text[pkt] = fmt::format("at sw{} waits for {} held by", head.sw, port_name(head.sw, head.w.output));
          j["held_by"] = it->second;
        } else {
          holder_text = fmt::format(", held by input sw{}.p{}", head.sw, head.w.holder);
        }
      }
    } else {
      const End& e = far[head.sw][head.w.output];
      head_text = fmt::format("head streams out of {}{}", port_name(head.sw, head.w.output),
                              head.w.output_stopped ? (e.node >= 0 ? ", stopped by the sink (not consuming)" : ", stopped by downstream") : "");
      j["head"] = fmt::format("sw{}.p{}", head.sw, head.w.output);
    }
    // Tail.
    std::string tail_text;
    const TestEndpoint& src = net.node(r.src);
    if (src.sending_packet() == static_cast<std::int64_t>(pkt)) {
      tail_text = fmt::format("tail at source n{} ({} of {} flits sent)", r.src, src.sending_flits(), r.wire_len());
      j["tail"] = fmt::format("n{}", r.src);
    } else {
      tail_text = fmt::format("tail at sw{}.p{}", tail.sw, tail.w.input);
      j["tail"] = fmt::format("sw{}.p{}", tail.sw, tail.w.input);
    }
    std::string path;
    nlohmann::json hops = nlohmann::json::array();
    for (const Loc* l : chain) {
      path += fmt::format("{}sw{}.p{}->p{} [{} buffered{}]", path.empty() ? "" : ", ", l->sw, l->w.input, l->w.output, l->w.buffered,
                          l->w.stop_sent ? ", STOP sent" : "");
      hops.push_back({{"switch", l->sw}, {"input", l->w.input}, {"output", l->w.output}, {"waiting", l->w.waiting},
                      {"buffered", l->w.buffered}, {"stop_sent", l->w.stop_sent}});
    }
    j["hops"] = hops;
    rep.worms.push_back(fmt::format("{}: {}{}; {}; occupies {}", pkt_name(pkt), head_text, holder_text, tail_text, path));
    rep.json["worms"].push_back(j);
  }

  // Wait-for graph: each blocked header waits for exactly one worm, so following the edges from
  // any worm either reaches a worm that is not waiting (chain) or revisits one (cycle).
  for (const auto& [start, unused] : waits_for) {
    std::vector<std::uint32_t> seen_order;
    std::map<std::uint32_t, std::size_t> pos;
    std::uint32_t p = start;
    while (waits_for.count(p) && !pos.count(p)) {
      pos[p] = seen_order.size();
      seen_order.push_back(p);
      p = waits_for[p];
    }
    if (pos.count(p)) {
      // Rotate so the cycle starts at its lowest packet id: the report is the same whichever
      // worm the search started from.
      std::vector<std::uint32_t> cyc(seen_order.begin() + static_cast<std::ptrdiff_t>(pos[p]), seen_order.end());
      std::rotate(cyc.begin(), std::min_element(cyc.begin(), cyc.end()), cyc.end());
      for (std::size_t i = 0; i < cyc.size(); ++i) {
        const std::uint32_t a = cyc[i], b = cyc[(i + 1) % cyc.size()];
        rep.cycle.push_back(fmt::format("{} {} {}", pkt_name(a), wait_text[a], pkt_name(b)));
      }
      rep.json["cycle"] = cyc;
      break;
    }
  }
  if (rep.cycle.empty() && !by_pkt.empty())
    rep.no_cycle_reason = "no wait-for cycle among the worms: the blocked chains end at a worm stopped by its destination or by a link";
  return rep;
}

}  // namespace sanvp
