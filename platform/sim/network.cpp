#include "platform/sim/network.hpp"

#include <deque>
#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp {

Network::~Network() = default;

int Network::add_switch(int ports) {
  switch_ports_.push_back(ports);
  return static_cast<int>(switch_ports_.size()) - 1;
}

int Network::add_node(int sw, int port) {
  attach_.push_back(Attachment{sw, port});
  return static_cast<int>(attach_.size()) - 1;
}

void Network::set_external(int node, ExternalNode ext) {
  if (built_) throw std::logic_error("Network::set_external after build()");
  if (node < 0 || node >= nodes()) throw std::out_of_range(fmt::format("no node n{}", node));
  if (!ext.complete()) throw std::logic_error("Network::set_external: incomplete link port");
  if (external_.size() < attach_.size()) external_.resize(attach_.size());
  external_[static_cast<std::size_t>(node)] = std::move(ext);
}

TrafficEndpoint& Network::node(int i) {
  TrafficEndpoint* n = nodes_.at(static_cast<std::size_t>(i)).get();
  if (!n) throw std::logic_error(fmt::format("n{} is not a test endpoint", i));
  return *n;
}

void Network::connect(int sw_a, int port_a, int sw_b, int port_b) { trunks_.push_back(Trunk{sw_a, port_a, sw_b, port_b}); }

LinkChannel* Network::make_channel(const std::string& path) {
  LinkTiming t;
  t.read_params(pv_, path);
  if (t.cp == 0) throw UserError(fmt::format("{}: link.cp must be greater than 0", path));
  channels_.push_back(std::make_unique<LinkChannel>(path, t));
  LinkChannel* ch = channels_.back().get();
  const LinkFaultConfig fc = LinkFaultConfig::from_params(pv_, path, &cut_links_);
  if (fc.any()) {
    auto f = std::make_unique<LinkFaults>(fc, seed_, path);
    // A packet of the table a fault touched may arrive bad (expected, not a model error); one
    // whose end was lost here is done (the run does not wait for it).
    f->set_on_fault([this](std::uint32_t p) { if (p < packets_.size()) packets_[p].faulted = true; });
    f->set_on_lost([this](std::uint32_t p, Time) { if (p < packets_.size()) packets_.set_dropped(p); });
    ch->set_faults(std::move(f));
  }
  return ch;
}

void Network::build() {
  // Port occupancy check before any module exists, so a bad wiring is a one-line error.
  std::vector<std::vector<std::string>> used(switch_ports_.size());
  for (std::size_t s = 0; s < switch_ports_.size(); ++s) used[s].assign(static_cast<std::size_t>(switch_ports_[s]), "");
  auto claim = [&](int sw, int port, const std::string& who) {
    if (sw < 0 || sw >= switches()) throw UserError(fmt::format("{}: no switch sw{}", who, sw));
    if (port < 0 || port >= switch_ports_[sw])
      throw UserError(fmt::format("{}: port {} does not exist on sw{} ({} ports)", who, port, sw, switch_ports_[sw]));
    auto& u = used[sw][port];
    if (!u.empty()) throw UserError(fmt::format("{}: sw{}.p{} is already used by {}", who, sw, port, u));
    u = who;
  };
  for (int n = 0; n < nodes(); ++n) claim(attach_[n].sw, attach_[n].port, fmt::format("n{}", n));
  for (const auto& t : trunks_) {
    const std::string who = fmt::format("link sw{}.p{}-sw{}.p{}", t.sw_a, t.port_a, t.sw_b, t.port_b);
    claim(t.sw_a, t.port_a, who);
    claim(t.sw_b, t.port_b, who);
  }

  for (int s = 0; s < switches(); ++s) {
    const std::string path = fmt::format("sw{}", s);
    SwitchConfig cfg = SwitchConfig::from_params(pv_, path, switch_ports_[s]);
    cfg.seed = seed_;
    switches_.push_back(std::make_unique<Switch>(path.c_str(), cfg));
  }
  external_.resize(attach_.size());
  generators_ = std::make_unique<GenerationClock>("traffic_generators");
  for (int n = 0; n < nodes(); ++n) {
    if (is_external(n)) { nodes_.push_back(nullptr); continue; }
    const std::string path = fmt::format("n{}", n);
    FlowControlConfig fc = FlowControlConfig::from_params(pv_, path);
    nodes_.push_back(std::make_unique<TrafficEndpoint>(path.c_str(), n, packets_, *generators_, seed_, fc));
  }
  // Node links first (n<j>.out, then sw<i>.p<k>.out), then trunks, as channels are traced.
  const ChannelFactory make = [this](const std::string& path) { return make_channel(path); };
  for (int n = 0; n < nodes(); ++n) {
    LinkPort np = is_external(n) ? external_[static_cast<std::size_t>(n)] : nodes_[n]->link_port();
    np.name = fmt::format("n{}", n);
    sanvp::connect(np, switches_[attach_[n].sw]->link_port(attach_[n].port), make);
    node_out_.push_back(channels_[channels_.size() - 2].get());
  }
  for (const auto& t : trunks_) sanvp::connect(switches_[t.sw_a]->link_port(t.port_a), switches_[t.sw_b]->link_port(t.port_b), make);
  // fault.cuts may name link directions: each must exist.
  for (const auto& l : cut_links_) {
    bool found = false;
    for (const auto& c : channels_) found = found || c->path() == l;
    if (!found) pv_.fail("", "fault", "cuts", fmt::format("no link direction '{}' (channels are named n<j>.out and sw<i>.p<k>.out)", l));
  }
  // A worm a switch consumes (bad route byte, runt) is done: the run does not wait for it.
  for (auto& sw : switches_)
    sw->set_consume_observer([this](std::uint32_t p, Time) { if (p < packets_.size()) packets_.set_dropped(p); });
  routes_.assign(static_cast<std::size_t>(nodes()), std::vector<std::vector<std::uint8_t>>(static_cast<std::size_t>(nodes())));
  if (check_) {
    monitor_ = std::make_unique<FabricMonitor>("monitor");
    monitor_->watch(*this);
  }
  built_ = true;
}

void Network::compute_shortest_routes() {
  // Adjacency: switch -> (port, neighbour switch)
  std::vector<std::vector<std::pair<int, int>>> adj(static_cast<std::size_t>(switches()));
  for (const auto& t : trunks_) {
    adj[t.sw_a].emplace_back(t.port_a, t.sw_b);
    adj[t.sw_b].emplace_back(t.port_b, t.sw_a);
  }
  for (auto& a : adj) std::sort(a.begin(), a.end());
  for (int src = 0; src < nodes(); ++src) {
    const int s0 = attach_[src].sw;
    std::vector<int> prev_sw(static_cast<std::size_t>(switches()), -1), prev_port(static_cast<std::size_t>(switches()), -1);
    std::vector<char> seen(static_cast<std::size_t>(switches()), 0);
    std::deque<int> q{s0};
    seen[s0] = 1;
    while (!q.empty()) {
      int s = q.front();
      q.pop_front();
      for (auto [port, nb] : adj[s]) {
        if (seen[nb]) continue;
        seen[nb] = 1;
        prev_sw[nb] = s;
        prev_port[nb] = port;
        q.push_back(nb);
      }
    }
    for (int dst = 0; dst < nodes(); ++dst) {
      if (dst == src) continue;
      const int sd = attach_[dst].sw;
      if (!seen[sd]) throw UserError(fmt::format("network: node n{} cannot reach node n{} (disconnected)", src, dst));
      std::vector<std::uint8_t> r{static_cast<std::uint8_t>(attach_[dst].port)};
      for (int s = sd; s != s0; s = prev_sw[s]) r.insert(r.begin(), static_cast<std::uint8_t>(prev_port[s]));
      set_route(src, dst, std::move(r));
    }
  }
}

void Network::set_route(int src, int dst, std::vector<std::uint8_t> route) {
  int reached = check_route(src, route, fmt::format("route n{}->n{}", src, dst));
  if (reached != dst)
    throw UserError(fmt::format("route n{}->n{}: ends at node n{}, not n{}", src, dst, reached, dst));
  routes_[src][dst] = std::move(route);
  if (nodes_[src]) nodes_[src]->set_routes(routes_[src]);
}

int Network::check_route(int src, const std::vector<std::uint8_t>& route, const std::string& what) const {
  int s = attach_.at(src).sw;
  for (std::size_t h = 0; h < route.size(); ++h) {
    const int port = route[h];
    if (port >= switch_ports_[s])
      throw UserError(fmt::format("{}: hop {} names port {} but sw{} has {} ports", what, h, port, s, switch_ports_[s]));
    int next = -1, node = -1;
    for (int n = 0; n < nodes(); ++n) if (attach_[n].sw == s && attach_[n].port == port) node = n;
    for (const auto& t : trunks_) {
      if (t.sw_a == s && t.port_a == port) next = t.sw_b;
      if (t.sw_b == s && t.port_b == port) next = t.sw_a;
    }
    if (node >= 0) {
      if (h + 1 != route.size()) throw UserError(fmt::format("{}: hop {} reaches node n{} with {} route bytes left", what, h, node, route.size() - h - 1));
      return node;
    }
    if (next < 0) throw UserError(fmt::format("{}: hop {} goes through unconnected port sw{}.p{}", what, h, s, port));
    s = next;
  }
  throw UserError(fmt::format("{}: route ends inside the network at sw{}", what, s));
}

LinkChannel& Network::channel(const std::string& path) {
  for (auto& c : channels_) if (c->path() == path) return *c;
  throw std::out_of_range("no channel " + path);
}

bool Network::faults_on() const {
  for (const auto& c : channels_) if (c->faults()) return true;
  return false;
}

std::uint64_t Network::flit_hops() const {
  std::uint64_t n = 0;
  for (const auto& c : channels_) n += c->flits();
  return n;
}

void Network::declare_traces() {
  for (auto& c : channels_) c->declare_traces();
  for (auto& s : switches_) s->declare_traces();
  for (auto& n : nodes_) if (n) n->input_buffer().declare_traces();
}

void Network::start_traffic(const TrafficConfig& cfg) {
  TrafficConfig c = cfg;
  if (c.pattern == "hotspot" && (c.hotspot < 0 || c.hotspot >= nodes()))
    pv_.fail("", "traffic", "hotspot", fmt::format("node {} does not exist (nodes are 0..{})", c.hotspot, nodes() - 1));
  std::vector<int> eps;  // the test endpoints: only they send and receive test packets
  for (int n = 0; n < nodes(); ++n) if (nodes_[n]) eps.push_back(n);
  const int senders = static_cast<int>(eps.size());
  if (c.pattern == "permutation" && c.shift != 0 && senders > 0 && c.shift % senders == 0)
    pv_.fail("", "traffic", "shift", fmt::format("{} is a multiple of the {} test endpoints: the permutation "
                                                 "would map every node to itself (no traffic)", c.shift, senders));
  if (static_cast<int>(eps.size()) < nodes()) {
    if (c.pattern == "hotspot" && !nodes_[c.hotspot])
      pv_.fail("", "traffic", "hotspot", fmt::format("node {} is a NIC node; test traffic goes to test endpoints only", c.hotspot));
    c.targets = eps;
    if (c.pattern == "permutation" && c.permutation.empty()) {
      // The same construction over the test endpoints only; NIC nodes stay out (-1).
      const int n = static_cast<int>(eps.size());
      c.permutation.assign(static_cast<std::size_t>(nodes()), -1);
      std::vector<int> perm(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i) perm[i] = i;
      if (c.shift != 0) {
        for (int i = 0; i < n; ++i) perm[i] = ((i + c.shift) % n + n) % n;
      } else {
        Rng rng(seed_, "traffic.permutation");
        for (int i = n - 1; i > 0; --i) std::swap(perm[i], perm[rng.below(static_cast<std::uint64_t>(i))]);
      }
      for (int i = 0; i < n; ++i) c.permutation[eps[i]] = n > 1 ? eps[perm[i]] : -1;
    }
    for (auto& e : nodes_) if (e) e->start_traffic(c, nodes());
    return;
  }
  if (c.pattern == "permutation" && c.permutation.empty() && nodes() > 1) {
    // One permutation for the whole network, from the run seed: every node sends to one partner.
    const int n = nodes();
    c.permutation.resize(static_cast<std::size_t>(n));
    if (c.shift != 0) {
      for (int i = 0; i < n; ++i) c.permutation[i] = ((i + c.shift) % n + n) % n;
    } else {
      // Sattolo's algorithm: a uniformly random cyclic permutation, so nobody sends to itself.
      Rng rng(seed_, "traffic.permutation");
      for (int i = 0; i < n; ++i) c.permutation[i] = i;
      for (int i = n - 1; i > 0; --i) std::swap(c.permutation[i], c.permutation[rng.below(static_cast<std::uint64_t>(i))]);
    }
  }
  for (auto& n : nodes_) n->start_traffic(c, nodes());
}

void Network::set_route_table(std::vector<std::vector<std::vector<std::uint8_t>>> table) {
  if (static_cast<int>(table.size()) != nodes()) throw UserError(fmt::format("route table has {} rows for {} nodes", table.size(), nodes()));
  // Port map built once: what each switch port leads to (node id, or switch id as -2-sw).
  std::vector<std::vector<int>> to(static_cast<std::size_t>(switches()));
  std::vector<std::vector<int>> node_at(static_cast<std::size_t>(switches()));
  for (int s = 0; s < switches(); ++s) { to[s].assign(static_cast<std::size_t>(switch_ports_[s]), -1); node_at[s] = to[s]; }
  for (int n = 0; n < nodes(); ++n) node_at[attach_[n].sw][attach_[n].port] = n;
  for (const auto& t : trunks_) { to[t.sw_a][t.port_a] = t.sw_b; to[t.sw_b][t.port_b] = t.sw_a; }
  for (int src = 0; src < nodes(); ++src) {
    for (int dst = 0; dst < nodes(); ++dst) {
      const auto& r = table[src].at(static_cast<std::size_t>(dst));
      if (src == dst) continue;
      int s = attach_[src].sw, reached = -1;
      for (std::size_t h = 0; h < r.size() && reached < 0; ++h) {
        if (r[h] >= switch_ports_[s]) break;
        if (node_at[s][r[h]] >= 0) reached = h + 1 == r.size() ? node_at[s][r[h]] : -2;
        else if (to[s][r[h]] >= 0) s = to[s][r[h]];
        else break;
      }
      if (reached != dst) check_route(src, r, fmt::format("route n{}->n{}", src, dst));  // throws with the reason
      if (reached != dst) throw UserError(fmt::format("route n{}->n{}: ends at node n{}, not n{}", src, dst, reached, dst));
    }
    if (nodes_[src]) nodes_[src]->set_routes(table[src]);
  }
  routes_ = std::move(table);
}

nlohmann::json Network::topology_json() const {
  nlohmann::json j;
  j["switches"] = nlohmann::json::array();
  for (int s = 0; s < switches(); ++s) j["switches"].push_back({{"id", s}, {"ports", switch_ports_[s]}});
  j["nodes"] = nlohmann::json::array();
  for (int n = 0; n < nodes(); ++n) j["nodes"].push_back({{"id", n}, {"switch", attach_[n].sw}, {"port", attach_[n].port}});
  j["links"] = nlohmann::json::array();
  for (const auto& t : trunks_) j["links"].push_back({{"a", fmt::format("sw{}.p{}", t.sw_a, t.port_a)}, {"b", fmt::format("sw{}.p{}", t.sw_b, t.port_b)}});
  return j;
}

}  // namespace sanvp
