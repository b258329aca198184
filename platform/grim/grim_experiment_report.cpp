// What `sanvp grim experiment` writes: results.json (every number), table1.md, fig3.md and
// breakdown.md, each beside the paper's values with the cause of every difference.
#include <cmath>
#include <fmt/format.h>

#include "hw/link/link_params.hpp"
#include "hw/pci/pci_bus_params.hpp"
#include "hw/switch/switch_params.hpp"
#include "platform/grim/grim_experiment.hpp"
#include "platform/grim/grim_experiment_burst.hpp"
#include "platform/sim/report.hpp"
#include "firmware/grim/grim_proto.h"
#include <algorithm>

namespace sanvp::grim_host {
namespace {

std::string num(double v, int prec = 2) { return v < 0 ? "—" : fmt::format("{:.{}f}", v, prec); }

const BenchResult* bench_at(const ExperimentResults& r, const std::string& config, std::uint32_t size) {
  for (const auto& b : r.bench)
    if (b.point.config == config && b.point.size == size && b.latency_us > 0) return &b;
  return nullptr;
}

const BurstResult* burst_at(const ExperimentResults& r, std::uint32_t n, std::uint32_t credits, double loss, int senders) {
  for (const auto& b : r.bursts)
    if (b.point.burst == n && b.point.credits == credits && b.point.loss == loss && b.point.senders == senders && b.exit_code == 0) return &b;
  return nullptr;
}

// The longest loss-free burst of each scheme (the steady state of Figure 3).
const BurstResult* longest(const ExperimentResults& r, std::uint32_t credits) {
  const BurstResult* best = nullptr;
  for (const auto& b : r.bursts)
    if (b.point.credits == credits && b.point.loss == 0 && b.point.senders == 1 && b.exit_code == 0 && (!best || b.point.burst > best->point.burst))
      best = &b;
  return best;
}

double d(const nlohmann::json& j, const char* k) { return j.is_object() && j.contains(k) && j[k].is_number() ? j[k].get<double>() : -1.0; }

// PCI: bytes per DMA burst over the cycles it takes (latency + data), the bus's best DMA rate.
double pci_dma_MBps() {
  const double burst = static_cast<double>(PciParams::kBurst.def), width = static_cast<double>(PciParams::kWidth.def);
  return burst / ((static_cast<double>(PciParams::kLatency.def) + burst / width) / PciParams::kClock.def);
}
double link_MBps() { return 1e6 / static_cast<double>(LinkTiming::kCp.def); }

// Latency split by core speed: the firmware's cycles on the critical path c satisfy
// L(66 MHz) - L(1 GHz) = c (1/f66 - 1/f1000); what is left is host, PCI and link time.
struct LatencySplit { double fw_us = -1, rest_us = -1, cycles = -1; };
LatencySplit split_latency(const ExperimentResults& r, double clock_hz) {
  const BenchResult *slow = bench_at(r, "default", 4), *fast = bench_at(r, "fast-core", 4);
  if (!slow || !fast || clock_hz <= 0) return {};
  LatencySplit s;
  s.cycles = (slow->latency_us - fast->latency_us) * 1e-6 / (1 / clock_hz - 1 / 1e9);
  s.fw_us = s.cycles / clock_hz * 1e6;
  s.rest_us = slow->latency_us - s.fw_us;
  return s;
}

double core_clock(const ExperimentResults& r) {
  for (const auto& b : r.bursts)
    if (b.run.contains("config")) return d(b.run["config"], "core_clock_hz");
  return -1;
}

}  // namespace

// Many to one: every other node bursts into n0; each sender's view, averaged over the senders.
static std::string many_to_one_md(const ExperimentResults& r) {
  std::string rows;
  const std::uint32_t credits = burst_pool() / kBurstNodes;
  for (const auto& b : r.bursts) {
    if (b.point.senders == 1 || b.point.credits != 0) continue;
    const BurstResult* c = burst_at(r, b.point.burst, credits, 0, b.point.senders);
    const nlohmann::json none = nlohmann::json::object();
    const nlohmann::json &o = b.run, &h = c ? c->run : none;
    auto rx = [](const nlohmann::json& j, const char* k) { return j.contains("receiver") ? d(j["receiver"]["firmware"], k) : -1.0; };
    rows += fmt::format("| {} | {} | {} | {} | {:.0f} / {:.0f} | {} | {} | {} | {:.0f} |\n", b.point.burst, num(d(o, "overhead_us")), num(d(o, "gap_us")),
                        num(d(o, "gap_steady_us")), rx(o, "nacks_sent"), rx(o, "nobuf_dropped"), num(d(h, "gap_us")), num(d(h, "gap_steady_us")),
                        num(d(h, "credit_waits"), 0), rx(h, "nacks_sent"));
  }
  if (rows.empty()) return {};
  return fmt::format("\n### many to one: n1..n{} burst into n0 at once, host credits {} per destination (pool {} / {} nodes)\n\n| burst per sender "
                     "| optimistic o_s (µs) | optimistic gap (µs) | steady gap | n0 NACKs / no-buffer drops | credits gap (µs) | steady gap "
                     "| credit waits | n0 NACKs |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n{}",
                     kBurstNodes - 1, credits, burst_pool(), kBurstNodes, rows);
}

std::string table1_markdown(const ExperimentResults& r) {
  const Table1 &p = r.table1.at(0), &f = r.table1.at(1), &q = r.table1.at(2);
  const LatencySplit s = split_latency(r, core_clock(r));
  const BenchResult* fast = bench_at(r, "fast-core", 4);
  std::string t = "| Table 1 | paper | 48 KiB fragments (paper's) | 2 KiB fragments | 4 KiB fragments (default) | cause of the difference |\n"
                  "|---|---:|---:|---:|---:|---|\n";
  t += fmt::format("| host-to-host latency, 4 B (µs, one way = round trip / 2) | {} | {} | {} | {} | firmware: {} µs of the 4 KiB-fragment latency are "
                   "{} NIC-core cycles on the critical path at {} MHz (the same message with a 1 GHz core: {} µs); host PIO, PCI and link: {} µs |\n",
                   PaperValues::kLatencyUs, num(p.latency_us), num(f.latency_us), num(q.latency_us), num(s.fw_us), num(s.cycles, 0),
                   num(core_clock(r) / 1e6, 1), num(fast ? fast->latency_us : -1), num(s.rest_us));
  t += fmt::format("| bandwidth, 1 MiB messages (MB/s, round trip) | {} | {} | {} | {} | the PCI bus: {}-byte DMA bursts at {} MHz x {} B with {} cycles each "
                   "to start carry at most {} MB/s (the link {} MB/s); each fragment crosses the sender's and the receiver's bus; with 48 KiB "
                   "fragments a round trip also waits for the last fragment's store and forward |\n",
                   PaperValues::kBandwidthMBps, num(p.bandwidth_MBps), num(f.bandwidth_MBps), num(q.bandwidth_MBps), PciParams::kBurst.def,
                   PciParams::kClock.def, PciParams::kWidth.def, PciParams::kLatency.def, num(pci_dma_MBps(), 1), num(link_MBps(), 0));
  t += fmt::format("| streaming, 1 MiB messages (MB/s, one way) | — | {} | {} | {} | as above |\n", num(p.streaming_MBps), num(f.streaming_MBps),
                   num(q.streaming_MBps));
  t += fmt::format("| half-power size (bytes) | {:.0f} | {} | {} | {} | a message below one fragment is one packet: host DMA, link, receive and host "
                   "DMA run one after the other (no pipelining), so with 48 KiB fragments the curve reaches half of its peak late; smaller fragments "
                   "pipeline those stages, and 2 KiB is the smallest that keeps the PCI-bound peak (1 KiB fragments are firmware-bound) |\n",
                   PaperValues::kHalfPowerBytes, num(p.half_power_bytes, 0), num(f.half_power_bytes, 0), num(q.half_power_bytes, 0));
  t += "\nHalf-power size: where the round-trip bandwidth first reaches half of its 1 MiB value, interpolated linearly between the measured "
       "sizes around it (";
  // Column names, not the configs' keys: the key "paper" is our run with the paper's fragments.
  const char* names[] = {"48 KiB fragments", "2 KiB fragments", "4 KiB fragments"};
  for (int i = 0; i < 3; ++i) {
    const Table1* x = i == 0 ? &p : i == 1 ? &f : &q;
    t += fmt::format("{}{}: {}", i ? "; " : "", names[i], x->bracket_lo ? fmt::format("{}..{} B", x->bracket_lo, x->bracket_hi) : "not measured");
  }
  t += "; the 48 KiB bracket narrowed by bisection). 1 MB = 1 MiB here; the paper's 6 KB is taken as 6144 B.\n";
  return t;
}

std::string fig3_markdown(const ExperimentResults& r) {
  std::string t;
  for (double loss : {0.0, 1e-4, 1e-3, 1e-2}) {
    std::string rows;
    for (const auto& b : r.bursts) {
      if (b.point.loss != loss || b.point.credits != 0) continue;
      if (b.point.senders != 1) continue;
      const BurstResult* c = burst_at(r, b.point.burst, PaperValues::kCredits, loss, 1);
      const nlohmann::json& o = b.run;
      const nlohmann::json none = nlohmann::json::object();
      const nlohmann::json& h = c ? c->run : none;
      auto rtx = [](const nlohmann::json& j) { return j.contains("sender") ? d(j["sender"]["firmware"], "retransmits") : -1.0; };
      // Damaged packets dropped by either NIC: data (at n0) and ACK/NACK (at n1) lost to the faults.
      auto lost = [](const nlohmann::json& j) {
        return j.contains("sender") ? d(j["sender"]["firmware"], "bad_dropped") + d(j["receiver"]["firmware"], "bad_dropped") : -1.0;
      };
      rows += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.0f} / {:.0f} | {:.0f} / {:.0f} |\n", b.point.burst, num(d(o, "overhead_us")),
                          num(d(o, "gap_us")), num(d(o, "gap_steady_us")), num(d(h, "overhead_us")), num(d(h, "gap_us")), num(d(h, "gap_steady_us")),
                          num(d(h, "credit_waits"), 0), num(loss * b.point.burst, 1), lost(o), lost(h), rtx(o), rtx(h));
    }
    if (rows.empty()) continue;
    t += fmt::format("\n### packet loss {:g}\n\n| burst | optimistic o_s (µs) | optimistic gap (µs) | steady gap | credits o_s (µs) | credits gap (µs) "
                     "| steady gap | credit waits | data packets expected lost (p × burst) | damaged drops opt / credit | retransmissions opt / credit |\n"
                     "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n{}",
                     loss, rows);
  }
  t += many_to_one_md(r);
  return fmt::format("Figure 3: n1 bursts {} B messages to n0 of {} nodes on one switch; host credits = {} per destination (the paper's 128 NI buffers / "
                     "16 nodes), optimistic = GRIM's NI flow control with the firmware's largest pool ({} buffers; the paper's NI had 128). "
                     "o_s = mean host time of a send call that did not wait; gap = time to inject the burst / burst length (the paper's "
                     "definition); steady gap = slope over the burst's second half. Under loss, fault.drop per flit is set so that a data packet is "
                     "lost with the given probability (ACKs, shorter, less often); every rate draws from the same seeded streams, so the "
                     "losses at a lower rate are a subset of those at a higher one. Paper: o_s about {} µs, both gaps converge at about {} µs.\n{}",
                     kBurstSize, kBurstNodes, PaperValues::kCredits, burst_pool(), PaperValues::kOverheadUs, PaperValues::kGapUs, t);
}

namespace {

// One scheme's long-burst gap beside its parts: each NIC's firmware time per message, the host's
// send call, the link and PCI time of one packet. The slowest stage sets the gap.
std::string gap_rows(const BurstResult& b) {
  const nlohmann::json& j = b.run;
  const double snd = d(j["sender"], "busy_us_per_message"), rcv = d(j["receiver"], "busy_us_per_message");
  const double link = (kBurstSize + grim::kDataHeader + 2) * static_cast<double>(LinkTiming::kCp.def) / 1e6;
  const double pci = (static_cast<double>(PciParams::kLatency.def) + 1) / PciParams::kClock.def;  // the 4-byte payload's host DMA read
  const double o = d(j, "overhead_us"), bottleneck = std::max({snd, rcv, o, link, pci}), g = d(j, "gap_steady_us");
  return fmt::format("| {}, burst {} | {} | {:.0f} instr, {:.0f} cycles = {} | {:.0f} instr, {:.0f} cycles = {} | {} | {} | {} | {} | {} |\n",
                     b.point.credits ? "host credits" : "optimistic", b.point.burst, num(g), d(j["sender"], "instructions_per_message"),
                     d(j["sender"], "cycles_per_message"), num(snd), d(j["receiver"], "instructions_per_message"), d(j["receiver"], "cycles_per_message"),
                     num(rcv), num(o), num(link), num(pci), num(bottleneck), num(g > 0 && bottleneck > 0 ? g / bottleneck : -1));
}

std::string profile_rows_md(const nlohmann::json& prof, double messages, std::size_t top) {
  std::string t;
  for (std::size_t i = 0; i < prof.size() && i < top; ++i)
    t += fmt::format("{}{} {:.0f}", i ? ", " : "", prof[i].value("function", std::string("?")), prof[i].value("instructions", 0.0) / messages);
  return t;
}

}  // namespace

std::string breakdown_markdown(const ExperimentResults& r) {
  const double clock = core_clock(r);
  const LatencySplit s = split_latency(r, clock);
  std::string t = fmt::format("Latency of a 4-byte message (4 KiB fragments): {} µs at a {} MHz NIC core, {} µs at 1 GHz. Firmware cycles on the "
                              "critical path (from the two): {}, i.e. {} µs at {} MHz; host PIO, PCI and link: {} µs. The paper's {} µs would need "
                              "the firmware part to shrink to {} µs.\n\n",
                              num(bench_at(r, "default", 4) ? bench_at(r, "default", 4)->latency_us : -1), num(clock / 1e6, 1),
                              num(bench_at(r, "fast-core", 4) ? bench_at(r, "fast-core", 4)->latency_us : -1), num(s.cycles, 0), num(s.fw_us),
                              num(clock / 1e6, 1), num(s.rest_us), PaperValues::kLatencyUs, num(PaperValues::kLatencyUs - s.rest_us));
  t += "Long-burst gap against its parts (per message; firmware from the instructions and cycles each NIC's core retired from the burst's start "
       "to the end of a drain of one rto, so the ACKs are in):\n\n| scheme | steady gap (µs) | sender NIC firmware | receiver NIC firmware | "
       "host o_s (µs) | link, one data packet (µs) | PCI, payload DMA (µs) | slowest part (µs) | gap / slowest |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (std::uint32_t c : {0u, PaperValues::kCredits})
    if (const BurstResult* b = longest(r, c)) t += gap_rows(*b);
  if (const BurstResult* b = longest(r, 0)) {
    const double n = b->point.burst;
    t += fmt::format("\nInstructions per message by function (optimistic, burst {}): sender: {}; receiver: {}.\n", b->point.burst,
                     profile_rows_md(b->run["sender"]["profile"], n, 8), profile_rows_md(b->run["receiver"]["profile"], n, 8));
    const double snd = d(b->run["sender"], "cycles_per_message");
    t += fmt::format("\nThe paper's {} µs per message is its NI's per-message cost; ours is the slower NIC's firmware: {} cycles per message at "
                     "{} MHz on the sender. At the paper's gap the same firmware would need a {} MHz core.\n",
                     PaperValues::kGapUs, num(snd, 0), num(clock / 1e6, 1), num(snd / PaperValues::kGapUs, 1));
  }
  return t;
}

nlohmann::json experiment_json(const ExperimentOptions& o, const ExperimentResults& r) {
  nlohmann::json bench = nlohmann::json::array(), bursts = nlohmann::json::array(), t1 = nlohmann::json::array();
  for (const auto& b : r.bench)
    bench.push_back({{"id", b.point.id}, {"config", b.point.config}, {"config_text", bench_config_text(b.point.config)}, {"size", b.point.size},
                     {"exit_code", b.exit_code}, {"latency_us", b.latency_us}, {"pingpong_MBps", b.pingpong_MBps},
                     {"streaming_MBps", b.streaming_MBps}, {"n0_instructions_per_packet", b.instr_n0}, {"n1_instructions_per_packet", b.instr_n1},
                     {"report", b.report}});
  for (const auto& b : r.bursts)
    bursts.push_back({{"id", b.point.id}, {"burst", b.point.burst}, {"host_credits", b.point.credits}, {"packet_loss", b.point.loss},
                      {"senders", b.point.senders}, {"exit_code", b.exit_code}, {"report", b.report}, {"run", b.run}});
  for (const auto& t : r.table1)
    t1.push_back({{"config", t.config}, {"latency_us", t.latency_us}, {"bandwidth_MBps", t.bandwidth_MBps}, {"streaming_MBps", t.streaming_MBps},
                  {"half_power_bytes", t.half_power_bytes}, {"bracket", {t.bracket_lo, t.bracket_hi}}});
  const double clock = core_clock(r);
  const LatencySplit s = split_latency(r, clock);
  return {{"command", "sanvp grim experiment"}, {"seed", o.seed}, {"quick", o.quick}, {"failures", r.failures},
          {"paper", {{"latency_us", PaperValues::kLatencyUs}, {"bandwidth_MBps", PaperValues::kBandwidthMBps},
                     {"half_power_bytes", PaperValues::kHalfPowerBytes}, {"overhead_us", PaperValues::kOverheadUs}, {"gap_us", PaperValues::kGapUs},
                     {"ni_buffers", PaperValues::kNiBuffers}, {"nodes", PaperValues::kNodes}, {"host_credits", PaperValues::kCredits}}},
          {"limits", {{"pci_dma_MBps", pci_dma_MBps()}, {"link_MBps", link_MBps()}, {"core_clock_hz", clock}, {"burst_pool", burst_pool()}}},
          {"latency_split", {{"firmware_cycles", s.cycles}, {"firmware_us", s.fw_us}, {"host_pci_link_us", s.rest_us}}},
          {"table1", t1}, {"bench", bench}, {"bursts", bursts}};
}

void write_experiment(const ExperimentOptions& o, const ExperimentResults& r) {
  Report rep;
  const auto json = rep.output(o.out + "/results.json", "--out", true);
  const std::string head = fmt::format("# GRIM experiments (`sanvp grim experiment{}`, seed {})\n\n", o.quick ? " --quick" : "", o.seed);
  const std::string t1 = table1_markdown(r), f3 = fig3_markdown(r), bd = breakdown_markdown(r);
  rep.write(rep.output(o.out + "/table1.md", "--out"), head + "## Table 1\n\n" + t1);
  rep.write(rep.output(o.out + "/fig3.md", "--out"), head + "## Figure 3: injection overhead and gap for bursts\n\n" + f3);
  rep.write(rep.output(o.out + "/breakdown.md", "--out"), head + "## Breakdown\n\n" + bd);
  rep.write_json(json, experiment_json(o, r), 1);
}

}  // namespace sanvp::grim_host
