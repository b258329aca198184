#include "hw/base/sim_time.hpp"
#include "platform/host/nic_nodes.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>

#include "hw/nic/memory_map.hpp"
#include "hw/base/error.hpp"
#include "platform/fw/fw_platform.hpp"
#include "platform/host/nic_network.hpp"
#include "platform/nic/route_table.hpp"
#include "platform/sim/report.hpp"
#include "platform/sim/timeline_nic.hpp"

namespace sanvp::host {

namespace {


nlohmann::json latency_json(std::vector<Time> v) {
  std::sort(v.begin(), v.end());
  return latency_summary(v);
}

class NicNodes : public RunAgents {
 public:
  NicNodes(Network& net, ParamValues& pv, std::uint64_t seed, const std::vector<NicNodeSpec>& specs, NodeRouteSource routes)
      : specs_(specs), route_source_(std::move(routes)) {
    std::map<std::string, std::size_t> loaded;
    for (const auto& s : specs_) {
      if (s.node < 0 || s.node >= net.nodes()) throw UserError(fmt::format("NIC node n{} does not exist", s.node));
      if (s.node >= static_cast<int>(route_abi::kMaxNodes))
        throw UserError(fmt::format("n{}: NIC nodes need ids below {} (the firmware's route table)", s.node, route_abi::kMaxNodes));
      auto [it, fresh] = loaded.emplace(s.firmware, images_.size());
      if (fresh) images_.push_back(fw::Image::load(s.firmware));
      image_of_.push_back(it->second);
      const std::string name = fmt::format("n{}", s.node);
      auto host = std::make_unique<Host>(name + ".host", HostConfig::from_params(pv, name + ".host"), PciConfig::from_params(pv, name + ".pci"));
      const fw::Image& image = images_[it->second];
      auto n = std::make_unique<nic::Nic>(name.c_str(), pv, static_cast<std::uint32_t>(s.node), fw::program_of(image), host->pci(),
                                          &host->memory(), seed);
      host->attach_nic(n.get());
      nic::load_image(*n, image);
      net.set_external(s.node, external_ports(*n));
      if ((s.program || (!s.app.empty() && s.app != "idle")) && !nic::has_route_table(image))
        throw UserError(fmt::format("{}: firmware '{}' has no route table (g_routes/g_nodes or g_route_set, fw/routes.h), so host application '{}' cannot message with it",
                                    name, s.firmware, s.app));
      AppResult r;
      r.node = s.node;
      r.app = s.app.empty() ? "none" : s.app;
      r.args = s.args;
      results_.push_back(std::move(r));
      hosts_.push_back(std::move(host));
      nics_.push_back(std::move(n));
      if (!s.app.empty() && !s.program) apps_.push_back(AppSpec{s.node, s.app, s.args});
      max_node_ = std::max(max_node_, s.node);
    }
    board_.posted.resize(static_cast<std::size_t>(max_node_ + 1));
  }

  void start(Network& net) override {
    // Each NIC's table holds the routes to the NIC nodes (test endpoints never take NIC
    // messages), itself included (the U-turn), indexed by node id.
    std::vector<bool> is_nic(static_cast<std::size_t>(max_node_ + 1), false);
    for (const auto& s : specs_) is_nic[static_cast<std::size_t>(s.node)] = true;
    for (std::size_t i = 0; i < specs_.size(); ++i) {
      const fw::Image& image = images_[image_of_[i]];
      if (!nic::has_route_table(image)) continue;  // a firmware without messaging (checked above: its host runs no application)
      const int src = specs_[i].node;
      nic::RouteSets table(static_cast<std::size_t>(max_node_ + 1));
      for (int d = 0; d <= max_node_; ++d) {
        if (!is_nic[static_cast<std::size_t>(d)]) continue;
        table[static_cast<std::size_t>(d)] = route_source_ ? route_source_(src, d)
                                             : std::vector<nic::RouteBytes>{d != src ? net.route(src, d) : uturn_route(net, src)};
      }
      try {
        nic::load_routes(*nics_[i], image, table);
      } catch (const UserError& e) {
        throw UserError(fmt::format("n{}: {}", specs_[i].node, e.what()));
      }
    }
    for (std::size_t i = 0; i < specs_.size(); ++i) {
      if (specs_[i].program) {
        const std::size_t k = i;
        hosts_[i]->spawn("app", [this, k] {
          specs_[k].program(*hosts_[k], results_[k]);
          ++finished_count_;
        });
        continue;
      }
      if (specs_[i].app.empty()) {
        results_[i].done = true;
        results_[i].phase = "no application";
        continue;
      }
      drivers_.push_back(std::make_unique<MsgDriver>(*hosts_[i]));
      MsgDriver* d = drivers_.back().get();
      const std::size_t k = i;
      hosts_[i]->spawn("app", [this, d, k] {
        run_host_app(AppSpec{specs_[k].node, specs_[k].app, specs_[k].args}, apps_, *d, board_, results_[k]);
        ++finished_count_;
      });
    }
  }

  void declare_traces() override {
    for (auto& n : nics_) n->declare_traces();
  }
  void trace_firmware(int node, std::ostream* out, const std::string& filter) override {
    for (std::size_t i = 0; i < nics_.size(); ++i)
      if (specs_[i].node == node) return nics_[i]->core().enable_trace(out, fw::parse_pc_filter(filter, images_[image_of_[i]]));
    RunAgents::trace_firmware(node, out, filter);
  }
  std::pair<nic::LanaiCore*, const fw::Image*> firmware(int node) override {
    for (std::size_t i = 0; i < nics_.size(); ++i)
      if (specs_[i].node == node) return {&nics_[i]->core(), &images_[image_of_[i]]};
    return RunAgents::firmware(node);
  }
  void attach_probes(const nic::ProbeSink& sink) override {
    for (auto& n : nics_) n->set_probe_sink(sink);
  }
  void attach_timeline(Timeline& tl, bool firmware) override {
    for (std::size_t i = 0; i < nics_.size(); ++i) {
      observe_nic(tl, specs_[i].node, *nics_[i]);
      if (firmware) observe_firmware(tl, specs_[i].node, nics_[i]->core());
    }
  }

  bool finished() const override {
    for (const auto& r : results_)
      if (!r.done) return false;
    return true;
  }

  Time finished_at() const override {
    Time t = 0;
    for (const auto& r : results_) t = std::max(t, r.finished);
    return t;
  }

  std::string fault() override {
    for (std::size_t i = 0; i < nics_.size(); ++i) {
      nic::Nic& n = *nics_[i];
      const auto& r = n.core().result();
      if (r.outcome == nic::LanaiCore::Outcome::kFault) return fmt::format("n{}: {}", specs_[i].node, r.fault_report);
      if (r.outcome == nic::LanaiCore::Outcome::kExited && r.exit_code != 0)
        return fmt::format("n{}: firmware exited with code {} (console: '{}')", specs_[i].node, r.exit_code, n.sys().console_text());
    }
    return {};
  }

  std::uint64_t progress() const override {
    std::uint64_t p = finished_count_;
    for (std::size_t i = 0; i < nics_.size(); ++i) {
      nic::Nic& n = *nics_[i];
      p += n.core().state().instret + n.host_dma().stats().descriptors + n.send_dma().stats().packets + n.recv_dma().stats().packets +
           hosts_[i]->pio_transactions();
    }
    return p;
  }

  bool waiting_on_time() const override {
    for (const auto& n : nics_)
      if (n->core().result().outcome == nic::LanaiCore::Outcome::kRunning && (n->regs().timer_pending(0) || n->regs().timer_pending(1)))
        return true;
    return false;
  }

  std::string describe() override {
    std::string s;
    for (std::size_t i = 0; i < nics_.size(); ++i) {
      nic::Nic& n = *nics_[i];
      std::uint32_t hd_head = 0, hd_tail = 0, rx_tail = 0;
      n.host_dma().reg_read(nic::map::nic::kHdmaHead, hd_head);
      n.host_dma().reg_read(nic::map::nic::kHdmaTail, hd_tail);
      n.recv_dma().reg_read(nic::map::nic::kRxTail, rx_tail);
      const auto& r = n.core().result();
      const char* core = r.outcome == nic::LanaiCore::Outcome::kFault    ? "faulted"
                         : r.outcome == nic::LanaiCore::Outcome::kExited ? "exited"
                         : n.regs().sleeping()                            ? "asleep in WAIT"
                                                                          : "running";
      s += fmt::format(
          "  n{} ({}): pc 0x{:08x}, {} instructions, {}, ISR 0x{:x} IMR 0x{:x}, mailbox 0x{:x}, host DMA {}/{} done, {} packets sent, "
          "{} received (rx tail {}), receiver {}; host app {}: {}; console: '{}'\n",
          specs_[i].node, specs_[i].firmware, n.core().state().pc, n.core().state().instret, core, n.regs().isr(), n.regs().imr(),
          n.regs().mailbox(), hd_tail, hd_head, n.send_dma().stats().packets, n.recv_dma().stats().packets, rx_tail,
          n.recv_dma().waiting_for_buffer() ? "waiting for a buffer" : "not blocked", results_[i].app, results_[i].phase,
          n.sys().console_text());
    }
    return s;
  }

  std::string results(nlohmann::json& out) override {
    nlohmann::json apps = nlohmann::json::array(), nics = nlohmann::json::array();
    std::string s = "host applications:\n";
    for (std::size_t i = 0; i < results_.size(); ++i) {
      const AppResult& r = results_[i];
      nlohmann::json a{{"node", fmt::format("n{}", r.node)}, {"app", r.app}, {"args", r.args}, {"finished", r.done},
                       {"messages_sent", r.sent}, {"messages_received", r.received}, {"bad_messages", r.bad}, {"errors", r.errors},
                       {"latency", latency_json(r.latency)}};
      if (r.bytes_counted) a["bytes_sent"] = r.bytes_sent, a["bytes_received"] = r.bytes_received;
      if (r.done) a["finished_ps"] = r.finished;
      else a["phase"] = r.phase;
      apps.push_back(a);
      std::string args;
      for (const auto& x : r.args) args += (args.empty() ? "" : " ") + x;
      std::string lat = "-";
      if (!r.latency.empty()) {
        const auto& L = a["latency"];
        lat = fmt::format("mean {:.3f}us p50 {:.3f}us max {:.3f}us", L["mean_ps"].get<double>() / 1e6, L["p50_ps"].get<Time>() / 1e6,
                          L["max_ps"].get<Time>() / 1e6);
      }
      const auto bytes = [&](std::uint64_t b) { return r.bytes_counted ? fmt::format(" ({} B)", b) : std::string(); };
      s += fmt::format("  n{:<4} {:<9} {:<16} {} | sent {}{} received {}{} bad {} | latency {}\n", r.node, r.app, args,
                       r.done ? "finished" : "UNFINISHED", r.sent, bytes(r.bytes_sent), r.received, bytes(r.bytes_received), r.bad, lat);
      for (const auto& e : r.errors) s += "    " + e + "\n";
      nic::Nic& n = *nics_[i];
      nlohmann::json j = nic_stats(n, *hosts_[i]);
      j["node"] = fmt::format("n{}", r.node);
      j["firmware"] = specs_[i].firmware;
      j["routes"] = routes_in_sram(i);
      nics.push_back(j);
    }
    out["apps"] = apps;
    out["nics"] = nics;
    return s;
  }

  // The route table as the firmware sees it (read back from SRAM): per NIC destination, the
  // route bytes.
  nlohmann::json routes_in_sram(std::size_t i) {
    nlohmann::json j = nlohmann::json::object();
    const fw::Image& image = images_[image_of_[i]];
    if (!nic::has_route_table(image)) return j;
    for (const auto& d : specs_) {
      if (d.node == specs_[i].node) continue;
      const std::vector<std::uint8_t> r = nic::route_in_sram(*nics_[i], image, d.node);
      j[fmt::format("n{}", d.node)] = std::vector<int>(r.begin(), r.end());
    }
    return j;
  }

  void audit(PacketAudit& audit, Time now) override {
    for (auto& n : nics_) {
      const std::uint32_t node = n->node_id();
      nic::SendDma& send = n->send_dma();
      audit.nic_source(node, send.packets_started());
      if (send.flits_to_send()) audit.found(send.current_packet(), fmt::format("n{} send DMA (sending)", node));
      for (const auto& b : n->recv_dma().input_buffer().entries())
        audit.found(b.flit.packet, b.arrival > now ? fmt::format("link into n{}", node) : fmt::format("n{}.recv buffer", node));
      audit.ended(n->recv_dma().ends());
    }
  }

  bool errors() const override {
    for (const auto& r : results_)
      if (r.bad) return true;
    return false;
  }

 private:
  std::vector<NicNodeSpec> specs_;
  NodeRouteSource route_source_;
  std::vector<fw::Image> images_;
  std::vector<std::size_t> image_of_;
  std::vector<std::unique_ptr<Host>> hosts_;
  std::vector<std::unique_ptr<nic::Nic>> nics_;
  std::vector<std::unique_ptr<MsgDriver>> drivers_;
  std::vector<AppSpec> apps_;
  std::vector<AppResult> results_;
  AppBoard board_;
  int max_node_ = 0;
  std::uint64_t finished_count_ = 0;
};

}  // namespace

std::unique_ptr<RunAgents> make_nic_nodes(Network& net, ParamValues& pv, std::uint64_t seed, const std::vector<NicNodeSpec>& specs,
                                          NodeRouteSource routes) {
  return std::make_unique<NicNodes>(net, pv, seed, specs, std::move(routes));
}

}  // namespace sanvp::host
