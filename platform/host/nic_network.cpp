#include "platform/host/nic_network.hpp"

#include <fmt/format.h>
#include <optional>

#include "hw/base/error.hpp"
#include "platform/fw/fw_platform.hpp"
#include "platform/topo/routing.hpp"

namespace sanvp::host {

Network::ExternalNode external_ports(nic::Nic& n) {
  Network::ExternalNode x;
  x.attach_output = [&n](LinkChannel* ch) { n.attach_output(ch); };
  x.attach_input = [&n](LinkChannel* ch) { n.attach_input(ch); };
  x.output_control = n.output_control();
  x.input = n.input();
  x.input_fc = &n.input_buffer().config();
  return x;
}

std::vector<std::uint8_t> uturn_route(const Network& net, int node) {
  return {static_cast<std::uint8_t>(net.attachment(node).port)};
}

std::function<std::pair<nic::LanaiCore*, const fw::Image*>(int)> nic_firmware(NicNetwork& net, const fw::Image& image) {
  return [&net, &image](int n) {
    if (n >= net.hosts()) throw UserError(fmt::format("--debug: no node {} in this run (nodes 0..{})", n, net.hosts() - 1));
    return std::pair<nic::LanaiCore*, const fw::Image*>{&net.nic(n).core(), &image};
  };
}

nlohmann::json nic_stats(nic::Nic& n, const Host& host) {
  nlohmann::json j = n.stats_json();  // core, regs, hdma, send and recv each give their keys
  j["pio_transactions"] = host.pio_transactions();
  return j;
}

NicNetwork::NicNetwork(ParamValues& pv, std::uint64_t seed, const fw::Image& image, const NicNetworkSpec& spec) : net_(pv, seed) {
  if (spec.switches < 1) throw UserError("a NIC network needs at least one switch");
  if (spec.hosts < 1) throw UserError("a NIC network needs at least one host");
  net_.set_check(spec.check);
  if (spec.trunks < 1) throw UserError("a NIC network needs at least one link between neighbouring switches");
  const int trunk_ports = spec.switches > 1 ? 2 * spec.trunks : 0;
  if (trunk_ports >= spec.ports)
    throw UserError(fmt::format("{} trunks between neighbouring switches leave no port for hosts on switches of {} ports", spec.trunks, spec.ports));
  for (int s = 0; s < spec.switches; ++s) net_.add_switch(spec.ports);
  for (int s = 0; s + 1 < spec.switches; ++s)
    for (int k = 0; k < spec.trunks; ++k) net_.connect(s, spec.ports - 1 - 2 * k, s + 1, spec.ports - 2 - 2 * k);
  // Hosts spread evenly from the first switch to the last, on the lowest free ports.
  std::vector<int> next_port(static_cast<std::size_t>(spec.switches), 0);
  for (int h = 0; h < spec.hosts; ++h) {
    const int s = spec.hosts == 1 ? 0 : static_cast<int>((static_cast<long>(h) * (spec.switches - 1) + (spec.hosts - 1) / 2) / (spec.hosts - 1));
    const int p = next_port[static_cast<std::size_t>(s)]++;
    if (p >= spec.ports - trunk_ports)
      throw UserError(fmt::format("{} hosts do not fit {} switches of {} ports (switch sw{} is full)", spec.hosts, spec.switches, spec.ports, s));
    attach_.emplace_back(s, p);
  }
  // Each host + NIC is an external node of the fabric: the Network makes and checks its links.
  for (int h = 0; h < spec.hosts; ++h) {
    const std::string name = fmt::format("n{}", h);
    auto host = std::make_unique<Host>(name + ".host", HostConfig::from_params(pv, name + ".host"), PciConfig::from_params(pv, name + ".pci"));
    auto n = std::make_unique<nic::Nic>(name.c_str(), pv, static_cast<std::uint32_t>(h), fw::program_of(image), host->pci(), &host->memory(), seed);
    host->attach_nic(n.get());
    nic::load_image(*n, image);
    const auto [s, p] = attach_[static_cast<std::size_t>(h)];
    net_.set_external(net_.add_node(s, p), external_ports(*n));
    hosts_.push_back(std::move(host));
    nics_.push_back(std::move(n));
  }
  net_.build();
  net_.compute_shortest_routes();  // a chain: deadlock-free
  // Per destination the shortest route, then any alternates; to the node itself the U-turn
  // through its switch.
  std::optional<Topology> topo;
  std::optional<AlternateRoutes> alt;
  if (spec.alternates > 0) {
    topo.emplace(topology_of(net_));
    alt.emplace(*topo, true, spec.extra_hops);
  }
  for (int src = 0; src < spec.hosts; ++src) {
    nic::RouteSets table(static_cast<std::size_t>(spec.hosts));
    for (int dst = 0; dst < spec.hosts; ++dst) {
      auto& rs = table[static_cast<std::size_t>(dst)];
      if (dst == src) { rs = {uturn_route(net_, src)}; continue; }
      rs = {net_.route(src, dst)};
      if (alt) {
        const auto& p = net_.route(src, dst);
        for (auto& r : alt->routes(src, dst, RouteTable::View{p.data(), p.size()}, spec.alternates)) rs.push_back(std::move(r));
      }
    }
    nic::load_routes(*nics_[src], image, table);
  }
}

NicNetwork::~NicNetwork() = default;

void NicNetwork::declare_traces() {
  net_.declare_traces();
  for (auto& n : nics_) n->declare_traces();
}

}  // namespace sanvp::host
