#include "platform/grim/grim_run.hpp"

#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <memory>

#include "platform/sim/runner.hpp"
#include "hw/base/error.hpp"
#include "hw/nic/nic_params.hpp"
#include "platform/grim/grim_device_endpoint.hpp"
#include "platform/grim/grim_stats.hpp"
#include "platform/host/nic_network.hpp"

namespace sanvp::grim_host {

std::uint64_t GrimRunResult::total(grim::Stat s) const {
  std::uint64_t t = 0;
  for (const auto& n : nodes) t += n.stats[s];
  return t;
}

namespace {

// Modules live until the process ends (a SystemC kernel is not restarted). The device
// endpoints' PCI devices (pcidev.* parameters) are read here, before the unused-key check.
host::NicNetwork& make_network(ParamValues& pv, const fw::Image& image, const GrimRunOptions& o, PciDeviceConfig& dev) {
  host::NicNetworkSpec spec;
  spec.hosts = o.work.nodes;
  spec.switches = o.switches;
  spec.ports = static_cast<int>(SwitchParams::kPorts.get(pv));
  spec.check = o.check;
  apply_grim_defaults(pv);
  auto* net = new host::NicNetwork(pv, o.work.seed, image, spec);
  if (o.work.devices) dev = PciDeviceConfig::from_params(pv, "grimdev");
  pv.check_all_used();
  return *net;
}

// What a device endpoint's memory must hold: its completion queue, 32 send and the receive
// buffers of the largest message, the AM layer's few registry messages.
std::uint64_t device_memory(const WorkloadOptions& w) {
  const std::uint64_t buf = (std::uint64_t{w.max_size} + 63) & ~std::uint64_t{63};
  return 128 * grim::kCqEntryBytes + (grim::kSqEntries + w.recv_buffers) * buf + 64 * 1024;
}

GrimConfig host_config(const GrimRunOptions& o) {
  GrimConfig g = o.grim;
  if (o.work.devices) {
    g.channels = endpoint_channels(0, o.work.devices);
    g.endpoints = 1 + o.work.devices;
  }
  return g;
}

class GrimRun {
 public:
  GrimRun(ParamValues& pv, const fw::Image& image, const GrimRunOptions& o)
      : o_(o), grim_(host_config(o)), plan_(make_plan(o.work)), net_(make_network(pv, image, o, dev_cfg_)),
        scores_(static_cast<std::size_t>(o.work.nodes) * grim::kMaxEndpoints), credits_(o.work.nodes, o.work.host_credits, o.grim.mtu) {
    // Refused before the run: a message larger than the credits could never be injected.
    if (credits_.enabled() && credits_.packets(o.work.max_size) > o.work.host_credits)
      throw UserError(fmt::format("--host-credits {}: a {}-byte message (--sizes) is {} packets of the {}-byte mtu; give at least that many credits "
                                  "or smaller messages", o.work.host_credits, o.work.max_size, credits_.packets(o.work.max_size),
                                  o.grim.mtu ? o.grim.mtu : grim::kDefaultMtu));
    crc_ = apply_grim_defaults(pv);
  }

  GrimRunResult run() {
    if (o_.setup) o_.setup(net_);
    start_debug();
    pio_after_open_.assign(static_cast<std::size_t>(net_.hosts()), 0);
    for (int n = 0; n < net_.hosts(); ++n) {
      const auto node = static_cast<std::uint32_t>(n);
      drv_.push_back(std::make_unique<GrimDriver>(net_.host(n), grim_));
      net_.host(n).spawn("grim", [this, n, node] {
        run_node(*drv_[node], n, plan_, o_.work, scores_[ep_slot(node, 0)], credits_);
        pio_after_open_[node] = net_.host(n).pio_transactions();  // an idle host's program ends once its endpoint is open
      });
      add_devices(n);
    }
    GrimRunResult r;
    r.link_crc = crc_;
    r.error = simulate(o_.limit, true);
    r.finished = now_ps();
    if (r.error.empty() && !all_done()) r.error = fmt::format("the hosts did not finish within {}", format_time(o_.limit));
    if (r.error.empty()) r.error = simulate(r.finished + drain_time(), false);
    r.end = now_ps();
    collect(r);
    r.credit_waits = credits_.waits;
    r.report = run_report(r, o_);
    r.table = run_table(r, o_);
    if (o_.fw_profile)
      for (int n = 0; n < net_.hosts(); ++n) r.table += fmt::format("firmware profile of n{}:\n{}", n, net_.nic(n).core().profile_report());
    return r;
  }

 private:
  Time drain_time() const { return o_.drain ? o_.drain : 20 * Time{o_.grim.rto_us} * kUs; }

  // Device endpoints 1..devices on node n's PCI bus, each running its part of the workload
  // as the device's program: no host CPU involved.
  void add_devices(int n) {
    const auto node = static_cast<std::uint32_t>(n);
    for (std::uint32_t d = 1; d <= o_.work.devices; ++d) {
      PciDeviceConfig c = dev_cfg_;
      c.base = 0;  // placed by the host
      c.memory = std::max<std::uint64_t>(c.memory, device_memory(o_.work));
      if (c.memory > (16u << 20))
        throw UserError(fmt::format("grim: a device endpoint needs {} bytes of memory for {}-byte messages, more than pcidev.memory's 16 MiB",
                                    c.memory, o_.work.max_size));
      PciDevice& dev = net_.host(n).add_device(fmt::format("grimdev{}", d), c);
      dev_eps_.push_back(std::make_unique<GrimDeviceEndpoint>(dev, net_.host(n).pci(),
                                                              GrimDeviceConfig{d, endpoint_channels(d, o_.work.devices), 128}));
      GrimDeviceEndpoint* ep = dev_eps_.back().get();
      dev.run([this, ep, n, node, d](PciDevice&) { run_node(*ep, n, plan_, o_.work, scores_[ep_slot(node, d)], credits_); });
    }
  }

  bool all_done() const {
    for (int n = 0; n < net_.hosts(); ++n)
      for (std::uint32_t e = 0; e <= o_.work.devices; ++e)
        if (!scores_[ep_slot(static_cast<std::uint32_t>(n), e)].done) return false;
    return true;
  }

  void start_debug() {
    if (o_.fw_trace_node >= 0) start_fw_trace(net_, o_.fw_trace_node, net_.hosts(), o_.fw_trace_file, trace_out_);
    if (o_.fw_profile)
      for (int n = 0; n < net_.hosts(); ++n) net_.nic(n).core().enable_profile();
  }

  // Runs to `until` (or, with stop_when_done, until every host is done); the error if any.
  std::string simulate(Time until, bool stop_when_done) {
    const Time step = 100 * kUs;
    while (now_ps() < until && !(stop_when_done && all_done())) {
      // An error a host application throws (SystemC wraps it) is the run's error, its text only.
      if (std::string error = advance(std::min(step, until - now_ps()), Catch::AnyError); !error.empty()) return error;
      const std::string fault = firmware_fault();
      if (!fault.empty()) return fault;
      if (sc_core::sc_get_status() == sc_core::SC_STOPPED) return "the simulation stopped";
    }
    return {};
  }

  std::string firmware_fault() {
    for (int n = 0; n < net_.hosts(); ++n) {
      const auto& r = net_.nic(n).core().result();
      if (r.outcome == nic::LanaiCore::Outcome::kFault) return fmt::format("n{}: {}", n, r.fault_report);
      if (r.outcome == nic::LanaiCore::Outcome::kExited)
        return fmt::format("n{}: firmware exited with code {} (console: {})", n, r.exit_code, net_.nic(n).sys().console_text());
    }
    return {};
  }

  void collect(GrimRunResult& r) {
    for (int n = 0; n < net_.hosts(); ++n) {
      nic::Nic& x = net_.nic(n);
      NodeResult nr;
      const auto node = static_cast<std::uint32_t>(n);
      nr.score = scores_[ep_slot(node, 0)];
      for (std::uint32_t e = 1; e <= o_.work.devices; ++e) nr.devices.push_back(scores_[ep_slot(node, e)]);
      nr.host_pio_after_open = pio_after_open_[node];
      nr.host_pio = net_.host(n).pio_transactions();
      nr.host_completion_waiting = drv_[node]->completion_waiting();
      const std::uint32_t hif = x.regs().mailbox();
      for (std::uint32_t i = 0; hif && i < grim::kStatWords; ++i) nr.stats[i] = x.sram().read32(hif + grim::kHifStats + 4 * i);
      nr.instructions = x.core().state().instret;
      nr.packets_sent = x.send_dma().stats().packets;
      nr.packets_received = x.recv_dma().stats().packets;
      nr.leaked = nr.stats[grim::kStatPoolFree] != o_.grim.pool || nr.stats[grim::kStatSendFree] != o_.grim.send_buffers;
      for (std::uint32_t e = 0; e < grim::kMaxEndpoints; ++e) {
        const std::size_t slot = ep_slot(node, e);
        r.planned += plan_.expected[slot] - plan_.bogus[slot];
        r.bogus_planned += plan_.bogus[slot];
        r.delivered += scores_[slot].received;
        r.am_unknown += scores_[slot].am_unknown;
      }
      r.nodes.push_back(std::move(nr));
      probe_undetected(r, n);
    }
    explain_corruption(r);
    if (!r.error.empty()) {
      r.exit_code = 3;
      for (int n = 0; n < net_.hosts(); ++n)
        for (std::uint32_t e = 0; e <= o_.work.devices; ++e)
          r.error += fmt::format("\n  n{}.e{}: {}", n, e, scores_[ep_slot(static_cast<std::uint32_t>(n), e)].phase);
      return;
    }
    const auto bad = [](const NodeScore& s) {
      return s.duplicates || s.out_of_order || s.corrupt || s.unexpected || s.send_errors || s.am_unknown || !s.errors.empty();
    };
    for (const auto& n : r.nodes) {
      if (n.leaked || bad(n.score)) r.exit_code = 3;
      for (const auto& d : n.devices)
        if (bad(d)) r.exit_code = 3;
    }
  }

  // The receive probe of node n's NIC: damaged packets its CRC passed.
  void probe_undetected(GrimRunResult& r, int n) {
    const nic::RecvDma& rx = net_.nic(n).recv_dma();
    r.damaged += rx.stats().damaged;
    r.undetected += rx.stats().undetected;
    r.undetected_lost += rx.stats().undetected_lost;
    for (const auto& u : rx.undetected()) r.undetected_list.push_back(fmt::format("n{}: {}", n, describe_undetected(u)));
  }

  // A corrupt delivery is the link CRC's miss when a damaged packet with every flit there passed
  // the CRC at that node; otherwise the protocol failed.
  void explain_corruption(GrimRunResult& r) {
    for (int n = 0; n < net_.hosts(); ++n) {
      NodeResult& nr = r.nodes[static_cast<std::size_t>(n)];
      std::uint64_t corrupt = nr.score.corrupt;
      for (const auto& d : nr.devices) corrupt += d.corrupt;
      if (!corrupt) continue;
      const auto& rx = net_.nic(n).recv_dma();
      const std::string why = rx.stats().undetected
          ? fmt::format("undetected by the link CRC ({}): {} damaged packet(s) with every flit passed it at n{}, e.g. {}", r.link_crc,
                        rx.stats().undetected, n, describe_undetected(rx.undetected().front()))
          : fmt::format("a protocol failure: no damaged packet passed n{}'s link CRC ({})", n, r.link_crc);
      nr.score.fail(fmt::format("n{}: {} corrupt deliver{}: {}", n, corrupt, corrupt == 1 ? "y" : "ies", why));
      nr.corruption_cause = rx.stats().undetected ? "link_crc" : "protocol";
    }
  }

  const GrimRunOptions& o_;
  std::string crc_;  // nic.link_crc
  GrimConfig grim_;  // o_.grim with the host's channels and the endpoint count when there are devices
  PciDeviceConfig dev_cfg_;
  Plan plan_;
  host::NicNetwork& net_;
  std::vector<NodeScore> scores_;
  HostCredits credits_;
  std::vector<std::unique_ptr<GrimDriver>> drv_;
  std::vector<std::unique_ptr<GrimDeviceEndpoint>> dev_eps_;
  std::vector<std::uint64_t> pio_after_open_;
  std::unique_ptr<std::ofstream> trace_out_;
};

}  // namespace

void start_fw_trace(host::NicNetwork& net, int node, int nodes, const std::string& file, std::unique_ptr<std::ofstream>& holder) {
  if (node >= nodes) throw UserError(fmt::format("--fw-trace: no node {} (nodes 0..{})", node, nodes - 1));
  std::ostream* os = &std::cerr;
  if (!file.empty()) {
    holder = std::make_unique<std::ofstream>(file);
    if (!*holder) throw UserError(fmt::format("--fw-trace-file: cannot create '{}'", file));
    os = holder.get();
  }
  net.nic(node).core().enable_trace(os, {});
}

GrimRunResult run_grim(ParamValues& pv, const fw::Image& image, const GrimRunOptions& o) {
  check_config(o.grim);
  return GrimRun(pv, image, o).run();
}

std::string apply_grim_defaults(ParamValues& pv) {
  if (!pv.has("nic.link_crc")) pv.set("nic.link_crc", "crc32", "GRIM default");
  return pv.string("", "nic", "link_crc");
}

std::string describe_undetected(const nic::RecvDma::Undetected& u) {
  std::string flips;
  for (const auto& [off, bit] : u.flips)
    flips += fmt::format("{}byte {} {}", flips.empty() ? "" : ", ", off, bit == 0xFF ? std::string("several bits") : fmt::format("bit {}", bit));
  return fmt::format("packet {:#x} from n{} ({} bytes, at {}){}: flips at {}", u.packet, nic_packet_node(u.packet), u.length,
                     format_time(u.at), u.lost ? ", flits lost" : "", flips.empty() ? "none" : flips);
}

}  // namespace sanvp::grim_host
