// Network: builds a fabric of switches, test endpoints and links from parameters, computes source
// routes, and gathers statistics. Component names are hierarchical and stable (sw<i>.p<k>,
// n<j>), so per-instance parameters, random streams and waves are addressed by the same names.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hw/endpoint/packet.hpp"
#include "hw/endpoint/traffic_endpoint.hpp"
#include "hw/switch/switch.hpp"
#include "platform/sim/fabric_monitor.hpp"

namespace sanvp {

class Network {
 public:
  struct Attachment { int sw = -1, port = -1; };          // where a node plugs in
  struct Trunk { int sw_a, port_a, sw_b, port_b; };       // switch-to-switch link
  // A node whose endpoint is built outside the fabric (a host with a NIC, platform/host): the
  // network still creates its two links (n<j>.out, sw<i>.p<k>.out) and connects them to this
  // port (its name is replaced by n<j>) instead of a TrafficEndpoint. It takes no test traffic and
  // generates none.
  using ExternalNode = LinkPort;

  Network(ParamValues& pv, std::uint64_t seed) : pv_(pv), seed_(seed) {}
  ~Network();

  int add_switch(int ports);                  // returns switch index, named sw<i>
  int add_node(int sw, int port);             // returns node index, named n<j>
  void set_external(int node, ExternalNode ext);  // before build()
  bool is_external(int node) const { return node < static_cast<int>(external_.size()) && external_[node].complete(); }
  // Nodes that run test traffic (the others are NICs, external to the network's own endpoints).
  int traffic_endpoints() const {
    int n = 0;
    for (int i = 0; i < nodes(); ++i) n += is_external(i) ? 0 : 1;
    return n;
  }
  void connect(int sw_a, int port_a, int sw_b, int port_b);
  // The work-conservation monitor (fabric_monitor.hpp) watches every link transmitter from
  // build() on. On by default (every test); `sanvp run` turns it on with --check only.
  void set_check(bool on) { check_ = on; }
  FabricMonitor* monitor() { return monitor_.get(); }
  // Elaborates: creates SystemC modules and links, validates flow control against link timing.
  void build();
  // Shortest-path source routes (BFS over switches, lowest port first). Deadlock-free on trees
  // and chains; irregular topologies use up*/down* routes from the topology layer instead.
  void compute_shortest_routes();
  void set_route(int src, int dst, std::vector<std::uint8_t> route);
  // Installs a whole route table (table[src][dst]) at once: validated with a port map built once,
  // so large networks do not pay set_route's per-hop scans.
  void set_route_table(std::vector<std::vector<std::vector<std::uint8_t>>> table);
  const std::vector<std::uint8_t>& route(int src, int dst) const { return routes_[src][dst]; }
  // Walks `route` from node `src`; throws UserError naming the hop if it leaves the network or
  // does not end at a node. Returns the node reached.
  int check_route(int src, const std::vector<std::uint8_t>& route, const std::string& what) const;

  int switches() const { return static_cast<int>(switch_ports_.size()); }
  int switch_ports(int s) const { return switch_ports_.at(s); }
  const Attachment& attachment(int n) const { return attach_.at(n); }
  const std::vector<Trunk>& trunks() const { return trunks_; }
  int nodes() const { return static_cast<int>(attach_.size()); }
  Switch& sw(int i) { return *switches_.at(i); }
  TrafficEndpoint& node(int i);                  // a test endpoint (throws for an external node)
  PacketTable& packets() { return packets_; }
  const std::vector<std::unique_ptr<LinkChannel>>& channels() const { return channels_; }
  LinkChannel& node_out(int n) { return *node_out_.at(n); }
  // Channel by path ("n0.out", "sw1.p3.out"); throws std::out_of_range if absent.
  LinkChannel& channel(const std::string& path);
  std::uint64_t flit_hops() const;
  // Some link direction injects faults (fault.*, hw/link/link_faults.hpp).
  bool faults_on() const;
  void declare_traces();
  void start_traffic(const TrafficConfig& cfg);
  nlohmann::json topology_json() const;

 private:
  LinkChannel* make_channel(const std::string& path);
  ParamValues& pv_;
  std::uint64_t seed_;
  std::vector<int> switch_ports_;
  std::vector<Attachment> attach_;
  std::vector<Trunk> trunks_;
  std::vector<std::unique_ptr<Switch>> switches_;
  std::unique_ptr<GenerationClock> generators_;           // the endpoints' traffic generators, in node order
  std::vector<std::unique_ptr<TrafficEndpoint>> nodes_;  // null for external nodes
  std::vector<ExternalNode> external_;
  std::vector<std::unique_ptr<LinkChannel>> channels_;
  std::vector<LinkChannel*> node_out_;
  std::vector<std::string> cut_links_;  // link directions fault.cuts names (checked in build())
  std::vector<std::vector<std::vector<std::uint8_t>>> routes_;
  PacketTable packets_;
  bool check_ = true;
  std::unique_ptr<FabricMonitor> monitor_;
  bool built_ = false;
};

}  // namespace sanvp
