// NicNetwork: hosts with LANai-like NICs on a chain of switches, built by the fabric's Network
// (each host + Nic is an external node: the Network makes and checks its links). Each host gets
// a PCI bus, host memory and a Nic running the given firmware image.
// Source routes (shortest paths, a chain is deadlock-free; to itself the U-turn; alternates
// through parallel trunks if asked for) are written into every NIC's SRAM before the cores
// start, as a Myrinet mapper would (platform/nic/route_table.hpp).
#pragma once
#include <cstdint>
#include <functional>
#include <utility>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hw/nic/nic.hpp"
#include "platform/fw/image.hpp"
#include "platform/host/host.hpp"
#include "platform/nic/firmware_loader.hpp"
#include "platform/nic/route_table.hpp"
#include "platform/sim/network.hpp"

namespace sanvp::host {

struct NicNetworkSpec {
  int hosts = 2;
  int switches = 1;  // in a chain; hosts are spread from the first switch to the last
  int ports = 8;
  // Parallel links between neighbouring switches: link k joins port ports-1-2k of switch s to
  // port ports-2-2k of switch s+1 (k = 0 is the one link of the default chain).
  int trunks = 1;
  // Alternate routes per host pair in the NICs' route sets (fw/routes.h), besides the primary
  // shortest route: other up*/down*-legal paths through the other trunks (AlternateRoutes), at
  // most `extra_hops` switch hops longer.
  int alternates = 0;
  int extra_hops = 1;
  bool check = true;  // the fabric's work-conservation monitor (off in benchmarks)
};

class NicNetwork {
 public:
  NicNetwork(ParamValues& pv, std::uint64_t seed, const fw::Image& image, const NicNetworkSpec& spec);
  ~NicNetwork();
  int hosts() const { return static_cast<int>(hosts_.size()); }
  Host& host(int i) { return *hosts_.at(static_cast<std::size_t>(i)); }
  nic::Nic& nic(int i) { return *nics_.at(static_cast<std::size_t>(i)); }
  Network& fabric() { return net_; }
  const std::vector<std::uint8_t>& route(int src, int dst) const { return net_.route(src, dst); }
  int switch_of(int host) const { return attach_.at(static_cast<std::size_t>(host)).first; }
  // Switch hops between two hosts.
  int hops(int src, int dst) const { return static_cast<int>(route(src, dst).size()); }
  void declare_traces();
  std::uint64_t flit_hops() const { return net_.flit_hops(); }

 private:
  Network net_;
  std::vector<std::pair<int, int>> attach_;  // host -> (switch, port)
  std::vector<std::unique_ptr<Host>> hosts_;
  std::vector<std::unique_ptr<nic::Nic>> nics_;
};

// The route from `node` to itself: a U-turn out of its switch through the port it entered by
// (as platform/topo's self_route, for networks built without a Topology).
std::vector<std::uint8_t> uturn_route(const Network& net, int node);
// A NIC's link ports as a Network external node.
Network::ExternalNode external_ports(nic::Nic& nic);
// `--debug`'s view of the network (platform/fw/debug_attach.hpp): node n's core and `image`, which
// every NIC runs; a UserError naming the nodes for an n outside them.
std::function<std::pair<nic::LanaiCore*, const fw::Image*>(int)> nic_firmware(NicNetwork& net, const fw::Image& image);
// Statistics of a NIC and its host for reports: core, sleep, engines, PIO.
nlohmann::json nic_stats(nic::Nic& nic, const Host& host);

}  // namespace sanvp::host
