#include "platform/host/msg_bench.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>

#include "firmware/msg/msg_proto.h"
#include "hw/base/log.hpp"
#include "hw/nic/memory_map.hpp"
#include "hw/base/error.hpp"
#include "hw/base/rng.hpp"
#include "hw/base/sim_time.hpp"
#include "hw/base/trace.hpp"
#include "platform/host/msg_driver.hpp"
#include "platform/host/msg_timeline.hpp"
#include "platform/host/nic_network.hpp"
#include "platform/sim/runner.hpp"

namespace sanvp::host {

namespace {

// Content of byte i of every message of `size` bytes from `src`: the receiver checks all of it.
inline std::uint8_t pattern(std::uint32_t src, std::uint32_t size, std::uint64_t i) {
  std::uint64_t x = (std::uint64_t{src} << 56) ^ (std::uint64_t{size} << 24) ^ (i >> 3);
  return static_cast<std::uint8_t>(splitmix64(x) >> (8 * (i & 7)));
}

struct Scoreboard {
  std::uint64_t messages = 0, bytes = 0, corrupt = 0, out_of_order = 0;
  std::vector<std::string> errors;
  void fail(std::string s) { if (errors.size() < 20) errors.push_back(std::move(s)); }
};

void fill(Host& h, std::uint64_t addr, std::uint32_t src, std::uint32_t size) {
  std::vector<std::uint8_t> b(std::min<std::uint32_t>(size, 1u << 16));
  for (std::uint64_t off = 0; off < size; off += b.size()) {
    const std::uint32_t n = static_cast<std::uint32_t>(std::min<std::uint64_t>(b.size(), size - off));
    for (std::uint32_t i = 0; i < n; ++i) b[i] = pattern(src, size, off + i);
    h.memory().write(addr, b.data(), n);
    addr += n;
  }
}

void check(Host& h, Scoreboard& sb, const MsgDriver::Completion& c, std::uint64_t addr, std::uint32_t size, std::uint32_t src,
           std::uint32_t tag) {
  ++sb.messages;
  sb.bytes += c.length;
  if (c.kind != msg::kCqRecv || c.length != size || c.peer != src || c.tag != tag) {
    ++sb.corrupt;
    sb.fail(fmt::format("{}: expected message tag {:#x} of {} bytes from n{}, got kind {} tag {:#x} {} bytes from n{}", h.name(), tag, size,
                        src, c.kind, c.tag, c.length, c.peer));
    if (c.tag < tag) ++sb.out_of_order;
    return;
  }
  std::vector<std::uint8_t> b(std::min<std::uint32_t>(size, 1u << 16));
  for (std::uint64_t off = 0; off < size; off += b.size()) {
    const std::uint32_t n = static_cast<std::uint32_t>(std::min<std::uint64_t>(b.size(), size - off));
    h.memory().read(addr + off, b.data(), n);
    for (std::uint32_t i = 0; i < n; ++i)
      if (b[i] != pattern(src, size, off + i)) {
        ++sb.corrupt;
        sb.fail(fmt::format("{}: message tag {:#x} ({} bytes) byte {} is {:#x}, expected {:#x}", h.name(), tag, size, off + i, b[i],
                            pattern(src, size, off + i)));
        return;
      }
  }
}

// Messages streamed per size in the bandwidth test (about 4 MiB, at least 4).
int stream_count(std::uint32_t s) { return static_cast<int>(std::clamp<std::uint64_t>((4ull << 20) / s, 4, msg::kRqEntries)); }

// Host memory the receiving host (n1) allocates: two ping-pong buffers of the largest size, and
// for streaming a receive buffer per message of every size (the bump allocator never frees),
// plus the driver's queues. Checked before the run: with 64 MiB messages the allocation that
// fails would come after minutes of simulation.
std::uint64_t needed_host_memory(const MsgBenchOptions& opt) {
  auto aligned = [](std::uint64_t b) { return (b + 63) & ~std::uint64_t{63}; };
  const std::uint64_t max_size = *std::max_element(opt.sizes.begin(), opt.sizes.end());
  std::uint64_t need = (1u << 20) + aligned(max_size) * (opt.pingpong ? 2 : 1);
  if (opt.bandwidth) {
    need += 64;
    for (auto s : opt.sizes) need += static_cast<std::uint64_t>(stream_count(s)) * aligned(s);
  }
  return need;
}

// Refuses message sizes the run cannot take, before anything is built.
void check_options(ParamValues& pv, const MsgBenchOptions& opt) {
  if (opt.sizes.empty()) throw UserError("no message sizes");
  for (auto s : opt.sizes)
    if (s == 0 || s > (64u << 20)) throw UserError(fmt::format("message size {} is outside 1..64 MiB", s));
  const std::uint64_t need = needed_host_memory(opt);
  for (const char* h : {"n0.host", "n1.host"}) {
    const auto mem = static_cast<std::uint64_t>(host::HostParams::kMemory.get(pv, h));
    if (need > mem)
      throw UserError(fmt::format("--sizes: these message sizes need {} MiB of host memory on {} (two ping-pong buffers of the "
                                  "largest size, at least 4 streaming buffers per size), host.memory is {} MiB: raise it, e.g. "
                                  "--set host.memory={}, or use --only pingpong",
                                  (need + (1u << 20) - 1) >> 20, h, mem >> 20, (need + (64u << 20) - 1) / (64u << 20) * (64u << 20)));
  }
}

// Two hosts through a chain of switches. Modules live until the process ends (a SystemC kernel
// is not restarted), which also keeps them out of destructors while an error unwinds from
// inside the simulation.
NicNetwork& make_network(ParamValues& pv, const fw::Image& image, const MsgBenchOptions& opt) {
  check_options(pv, opt);
  NicNetworkSpec spec;
  spec.hosts = 2;
  spec.switches = opt.switches;
  spec.ports = static_cast<int>(SwitchParams::kPorts.get(pv));
  NicNetwork& net = *new NicNetwork(pv, opt.seed, image, spec);
  pv.check_all_used();
  return net;
}

// Where a bandwidth curve first reaches half of its peak (log-linear interpolation between the
// measured sizes); its peak in `peak_out`.
double half_power(const std::map<std::uint32_t, double>& curve, double& peak_out) {
  double pk = 0;
  for (auto [sz, v] : curve) pk = std::max(pk, v);
  peak_out = pk;
  double ps = 0, pv = 0;
  bool first = true;
  for (auto [sz, v] : curve) {
    if (v >= pk / 2) {
      if (first) return static_cast<double>(sz);
      return std::exp(std::log(ps) + (std::log(static_cast<double>(sz)) - std::log(ps)) * (pk / 2 - pv) / (v - pv));
    }
    ps = sz;
    pv = v;
    first = false;
  }
  return 0.0;
}

// What the applications measured, as curves over the message size.
struct Curves {
  std::map<std::uint32_t, double> lat;   // one-way latency (us)
  std::map<std::uint32_t, double> bw;    // streaming bandwidth (MB/s)
  std::map<std::uint32_t, double> ppbw;  // ping-pong bandwidth: size / one-way latency (GRIM's method)
  double peak = 0, half = 0, pp_peak = 0, pp_half = 0;
};

}  // namespace

std::vector<std::uint32_t> default_msg_sizes() {
  return {4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576};
}

namespace {

// One run of the benchmark: n0 pings and streams, n1 pongs and sinks; then the report.
class MsgBench {
 public:
  MsgBench(ParamValues& pv, const fw::Image& image, const MsgBenchOptions& opt)
      : pv_(pv), opt_(opt), net_(make_network(pv, image, opt)), max_size_(*std::max_element(opt.sizes.begin(), opt.sizes.end())) {}
  MsgBenchResult run();

 private:
  struct PpRow { std::uint32_t size; int iters; Time rtt_total; std::uint32_t last_tag; };
  struct BwRow { std::uint32_t size; int count; Time start, end; };

  void start_waves();
  void start_firmware_debug();
  void start_applications();
  void ping_side();
  void pong_side();
  void ping(std::uint32_t size, std::uint64_t sbuf, std::uint64_t rbuf, std::uint32_t& tag);
  void pong(std::uint32_t size, std::uint64_t sbuf, std::uint64_t rbuf, std::uint32_t& tag);
  void stream_out(std::uint32_t size, std::uint64_t sbuf, std::uint64_t rbuf);
  void stream_in(std::size_t size_index, std::uint64_t ready_msg);
  int iterations(std::uint32_t s) const { return opt_.iterations > 0 ? opt_.iterations : s <= 4096 ? 8 : s <= 65536 ? 4 : 2; }
  std::string simulate();
  std::string firmware_fault();
  void report_hang(MsgBenchResult& res, const std::string& fault);
  Curves curves() const;
  std::string size_table(const Curves& c, nlohmann::json& rep);
  std::string grim_comparison(const Curves& c, nlohmann::json& rep);
  std::string nic_report(MsgBenchResult& res);

  ParamValues& pv_;
  const MsgBenchOptions& opt_;
  NicNetwork& net_;
  const std::uint32_t max_size_;
  std::unique_ptr<std::ofstream> fw_trace_out_;
  std::unique_ptr<MsgDriver> drv_[2];
  MsgTimeline tl_;
  Scoreboard sb_;
  std::vector<PpRow> pp_;
  std::vector<BwRow> bw_;
  bool done_[2] = {false, false};
};

void MsgBench::start_waves() {
  Tracer& tr = Tracer::global();
  if (opt_.vcd.empty()) return;
  tr.configure(opt_.trace, opt_.trace_from, opt_.trace_to);
  if (!tr.open(opt_.vcd)) throw UserError(fmt::format("--vcd: cannot create '{}'", opt_.vcd));
  tr.set_now_fn(&now_ps);
  net_.declare_traces();
  tr.check_patterns();
}

void MsgBench::start_firmware_debug() {
  if (opt_.fw_trace_node >= 0) {
    if (opt_.fw_trace_node >= net_.hosts()) throw UserError(fmt::format("--fw-trace: no node {}", opt_.fw_trace_node));
    std::ostream* os = &std::cerr;
    if (!opt_.fw_trace_file.empty()) {
      fw_trace_out_ = std::make_unique<std::ofstream>(opt_.fw_trace_file);
      if (!*fw_trace_out_) throw UserError(fmt::format("--fw-trace-file: cannot create '{}'", opt_.fw_trace_file));
      os = fw_trace_out_.get();
    }
    net_.nic(opt_.fw_trace_node).core().enable_trace(os, {});
  }
  if (opt_.fw_profile)
    for (int h = 0; h < net_.hosts(); ++h) net_.nic(h).core().enable_profile();
}

void MsgBench::start_applications() {
  for (int h = 0; h < 2; ++h) drv_[h] = std::make_unique<MsgDriver>(net_.host(h), opt_.mtu);
  if (!opt_.timeline.empty()) tl_.record(net_.fabric(), opt_.timeline_from, opt_.timeline_to, opt_.timeline_fw, opt_.seed);
  for (int h = 0; h < 2; ++h) tl_.observe(h, *drv_[h], net_.nic(h));
  net_.host(0).spawn("app", [this] { ping_side(); });
  net_.host(1).spawn("app", [this] { pong_side(); });
}

// Host 0: ping side, and the sender of the bandwidth runs.
void MsgBench::ping_side() {
  Host& h = net_.host(0);
  drv_[0]->open();
  const std::uint64_t sbuf = h.alloc(max_size_), rbuf = h.alloc(max_size_);
  std::uint32_t tag = 0x10000;
  if (opt_.pingpong)
    for (std::uint32_t s : opt_.sizes) ping(s, sbuf, rbuf, tag);
  if (opt_.bandwidth)
    for (std::uint32_t s : opt_.sizes) stream_out(s, sbuf, rbuf);
  done_[0] = true;
}

// Host 1: pong side, and the receiver of the bandwidth runs.
void MsgBench::pong_side() {
  Host& h = net_.host(1);
  drv_[1]->open();
  const std::uint64_t sbuf = h.alloc(max_size_);
  std::uint32_t tag = 0x10000;
  if (opt_.pingpong) {
    const std::uint64_t rbuf = h.alloc(max_size_);
    for (std::uint32_t s : opt_.sizes) pong(s, sbuf, rbuf, tag);
  }
  if (opt_.bandwidth) {
    const std::uint64_t ready_msg = h.alloc(64);
    fill(h, ready_msg, 1, 4);
    for (std::size_t si = 0; si < opt_.sizes.size(); ++si) stream_in(si, ready_msg);
  }
  done_[1] = true;
}

// Round trips of one size (the first warms up); tags go up by two per round trip.
void MsgBench::ping(std::uint32_t s, std::uint64_t sbuf, std::uint64_t rbuf, std::uint32_t& tag) {
  Host& h = net_.host(0);
  MsgDriver& d = *drv_[0];
  fill(h, sbuf, 0, s);
  PpRow row{s, iterations(s), 0, 0};
  for (int i = 0; i <= row.iters; ++i) {
    d.post_recv(rbuf, s);
    const Time t0 = now_ps();
    d.send(1, sbuf, s, tag);
    const auto c = d.wait_for(msg::kCqRecv);
    const Time t1 = now_ps();
    check(h, sb_, c, rbuf, s, 1, tag + 1);
    d.wait_for(msg::kCqSent);
    if (i > 0) row.rtt_total += t1 - t0;
    row.last_tag = tag;
    tag += 2;
  }
  pp_.push_back(row);
}

void MsgBench::pong(std::uint32_t s, std::uint64_t sbuf, std::uint64_t rbuf, std::uint32_t& tag) {
  Host& h = net_.host(1);
  MsgDriver& d = *drv_[1];
  fill(h, sbuf, 1, s);
  for (int i = 0; i <= iterations(s); ++i) {
    d.post_recv(rbuf, s);
    const auto c = d.wait_for(msg::kCqRecv);
    check(h, sb_, c, rbuf, s, 0, tag);
    d.send(0, sbuf, s, tag + 1);
    d.wait_for(msg::kCqSent);
    tag += 2;
  }
}

// Streams messages of one size once n1 says (a small message) that its buffers are posted.
void MsgBench::stream_out(std::uint32_t s, std::uint64_t sbuf, std::uint64_t rbuf) {
  MsgDriver& d = *drv_[0];
  fill(net_.host(0), sbuf, 0, s);
  const int k = stream_count(s);
  d.post_recv(rbuf, 4);
  d.wait_for(msg::kCqRecv);  // host 1 has posted its receive buffers
  BwRow row{s, k, now_ps(), 0};
  for (int i = 0; i < k; ++i) d.send(1, sbuf, s, 0x800000 + i);
  for (int i = 0; i < k; ++i) d.wait_for(msg::kCqSent);
  bw_.push_back(row);
}

void MsgBench::stream_in(std::size_t si, std::uint64_t ready_msg) {
  Host& h = net_.host(1);
  MsgDriver& d = *drv_[1];
  const std::uint32_t s = opt_.sizes[si];
  const int k = stream_count(s);
  std::vector<std::uint64_t> rb;
  for (int i = 0; i < k; ++i) {
    rb.push_back(h.alloc(s));
    d.post_recv(rb.back(), s);
  }
  d.send(0, ready_msg, 4, 0x700000 + static_cast<std::uint32_t>(si));
  for (int i = 0; i < k; ++i) {
    const auto c = d.wait_for(msg::kCqRecv);
    check(h, sb_, c, rb[static_cast<std::size_t>(i)], s, 0, 0x800000 + static_cast<std::uint32_t>(i));
  }
  bw_[si].end = now_ps();  // host 0 pushed the row before its first send
  d.wait_for(msg::kCqSent);
}

// Runs until both applications are done (or the limit), checking for firmware faults; returns
// the fault (empty if none).
std::string MsgBench::simulate() {
  const Time step = 1 * kMs;
  Time t = 0;
  while (!(done_[0] && done_[1]) && t < opt_.limit) {
    // An error a host application throws (SystemC wraps it) is the run's error, its text only.
    if (std::string error = advance(step, Catch::AnyError); !error.empty()) return error;
    t = now_ps();
    const std::string fault = firmware_fault();
    if (!fault.empty()) return fault;
    if (sc_core::sc_get_status() == sc_core::SC_STOPPED) break;
  }
  return {};
}

std::string MsgBench::firmware_fault() {
  for (int h = 0; h < 2; ++h) {
    const auto& r = net_.nic(h).core().result();
    if (r.outcome == nic::LanaiCore::Outcome::kFault) return fmt::format("n{}: {}", h, r.fault_report);
    if (r.outcome == nic::LanaiCore::Outcome::kExited)
      return fmt::format("n{}: firmware exited with code {} (console: {})", h, r.exit_code, net_.nic(h).sys().console_text());
  }
  return {};
}

// The error, and what each NIC was doing, so that a hang can be diagnosed.
void MsgBench::report_hang(MsgBenchResult& res, const std::string& fault) {
  res.exit_code = 3;
  res.report["error"] = fault.empty() ? fmt::format("the applications did not finish within {}", format_time(opt_.limit)) : fault;
  res.errors = "error: " + res.report["error"].get<std::string>() + "\n";
  for (int h = 0; h < 2; ++h) {
    nic::Nic& n = net_.nic(h);
    std::uint32_t hd_head = 0, hd_tail = 0, rx_tail = 0;
    n.host_dma().reg_read(nic::map::nic::kHdmaHead, hd_head);
    n.host_dma().reg_read(nic::map::nic::kHdmaTail, hd_tail);
    n.recv_dma().reg_read(nic::map::nic::kRxTail, rx_tail);
    res.errors += fmt::format(
        "  n{}: pc 0x{:08x}, {} instructions, {}, ISR 0x{:x} IMR 0x{:x}, mailbox 0x{:x}, host DMA {}/{} done, "
        "{} packets sent, {} received (rx tail {}), receiver {}, console: '{}'\n",
        h, n.core().state().pc, n.core().state().instret, n.regs().sleeping() ? "asleep in WAIT" : "running", n.regs().isr(),
        n.regs().imr(), n.regs().mailbox(), hd_tail, hd_head, n.send_dma().stats().packets, n.recv_dma().stats().packets, rx_tail,
        n.recv_dma().waiting_for_buffer() ? "waiting for a buffer" : "not blocked", n.sys().console_text());
  }
}

Curves MsgBench::curves() const {
  Curves c;
  for (const auto& r : pp_) c.lat[r.size] = us(r.rtt_total) / (2.0 * r.iters);
  for (const auto& r : bw_) c.bw[r.size] = static_cast<double>(r.size) * r.count / (static_cast<double>(r.end - r.start) / 1e12) / 1e6;
  c.half = half_power(c.bw, c.peak);
  for (auto [sz, l] : c.lat) c.ppbw[sz] = sz / l;
  c.pp_half = half_power(c.ppbw, c.pp_peak);
  return c;
}

// Latency and bandwidth per size, and the peaks.
std::string MsgBench::size_table(const Curves& c, nlohmann::json& rep) {
  std::string out = fmt::format("message layer between n0 and n1 through {} switch{} (mtu {} B, seed {})\n", opt_.switches,
                                opt_.switches == 1 ? "" : "es", opt_.mtu, opt_.seed);
  // The latency column is a ping-pong round trip / 2, averaged; the breakdown below follows one message.
  out += fmt::format("{:>10} {:>14} {:>18} {:>16}   (latency: ping-pong round trip / 2, mean)\n", "size", "latency (us)",
                     "ping-pong (MB/s)", "streaming (MB/s)");
  nlohmann::json rows = nlohmann::json::array();
  for (std::uint32_t s : opt_.sizes) {
    nlohmann::json row{{"size", s}};
    std::string l = "-", b = "-", q = "-";
    if (c.lat.count(s)) {
      row["latency_us"] = c.lat.at(s);
      row["pingpong_bandwidth_MBps"] = c.ppbw.at(s);
      l = fmt::format("{:.3f}", c.lat.at(s));
      q = fmt::format("{:.2f}", c.ppbw.at(s));
    }
    if (c.bw.count(s)) {
      row["bandwidth_MBps"] = c.bw.at(s);
      b = fmt::format("{:.2f}", c.bw.at(s));
    }
    rows.push_back(row);
    out += fmt::format("{:>10} {:>14} {:>18} {:>16}\n", size_text(s), l, q, b);
  }
  rep["table"] = rows;
  if (!c.bw.empty()) {
    rep["peak_bandwidth_MBps"] = c.peak;
    rep["half_power_size_bytes"] = c.half;
    out += fmt::format("streaming: peak {:.2f} MB/s, half-power message size {:.0f} B\n", c.peak, c.half);
  }
  if (!c.ppbw.empty()) {
    rep["pingpong_peak_bandwidth_MBps"] = c.pp_peak;
    rep["pingpong_half_power_size_bytes"] = c.pp_half;
    out += fmt::format("ping-pong: peak {:.2f} MB/s, half-power message size {:.0f} B\n", c.pp_peak, c.pp_half);
  }
  return out;
}

// Side by side with the GRIM paper's Table 1 (message layers on LANai boards of that era).
std::string MsgBench::grim_comparison(const Curves& c, nlohmann::json& rep) {
  if (c.lat.empty() && c.bw.empty()) return {};
  const double l0 = c.lat.empty() ? 0 : c.lat.begin()->second;
  const PciConfig pci = PciConfig::from_params(pv_, "");
  const double pci_peak = static_cast<double>(pci.burst) / (static_cast<double>(pci.transaction(static_cast<std::uint32_t>(pci.burst))) / 1e12) / 1e6;
  rep["grim_comparison"] = {{"paper", "GRIM Table 1: host-to-host latency 4.8-18 us (GRIM 13 us), maximum bandwidth 38-140 MB/s (GRIM 106 MB/s); "
                                      "GRIM half-power size 6 KB with 48 KiB fragments"},
                            {"latency_us", l0},
                            {"peak_bandwidth_MBps", c.peak},
                            {"pci_peak_MBps", pci_peak}};
  std::string out = "GRIM paper, Table 1: latency 4.8-18 us (GRIM 13), bandwidth 38-140 MB/s (GRIM 106), GRIM half-power 6 KB.\n";
  if (!c.lat.empty())
    out += fmt::format("  ours: {:.1f} us for {} -- {} the range; the breakdown shows where it goes (NIC core at {:.0f} MHz)\n", l0,
                       size_text(c.lat.begin()->first), l0 >= 4.8 && l0 <= 18 ? "inside" : "outside", nic::CoreParams::kClock.get(pv_, "n0.core"));
  if (!c.ppbw.empty()) out += fmt::format("  ours: ping-pong half-power size {:.0f} B (GRIM measured it by round trips too)\n", c.pp_half);
  if (!c.bw.empty())
    out += fmt::format("  ours: {:.1f} MB/s peak -- bounded by the host's PCI bus ({}-bit, {:.0f} MHz, {}-byte bursts: {:.1f} MB/s)\n", c.peak,
                       8 * pci.width, pci.clock_mhz, pci.burst, pci_peak);
  return out;
}

// Firmware and engine statistics, profiles and the scoreboard (a bad message fails the run).
std::string MsgBench::nic_report(MsgBenchResult& res) {
  nlohmann::json& rep = res.report;
  std::string out;
  nlohmann::json nics = nlohmann::json::array();
  for (int h = 0; h < 2; ++h) {
    nlohmann::json j = nic_stats(net_.nic(h), net_.host(h));
    j["node"] = h;
    nics.push_back(j);
  }
  rep["nics"] = nics;
  if (opt_.fw_profile)
    for (int h = 0; h < net_.hosts(); ++h) out += fmt::format("firmware profile of n{}:\n{}", h, net_.nic(h).core().profile_report());
  rep["scoreboard"] = {{"messages", sb_.messages}, {"bytes", sb_.bytes}, {"corrupt", sb_.corrupt}, {"errors", sb_.errors}};
  rep["flit_hops"] = net_.flit_hops();
  out += fmt::format("scoreboard: {} messages, {} bytes checked, {} bad\n", sb_.messages, sb_.bytes, sb_.corrupt);
  if (sb_.corrupt) {
    res.exit_code = 3;
    for (const auto& e : sb_.errors) out += "  " + e + "\n";
  }
  return out;
}

MsgBenchResult MsgBench::run() {
  start_waves();
  start_firmware_debug();
  if (opt_.setup) opt_.setup(net_);
  start_applications();
  const std::string fault = simulate();
  const Time end = now_ps();
  std::string waves_error;  // a wave file that cannot be finished (disk full, vcd2fst failed) must not cost the report
  const std::string waves_warning = Tracer::global().empty_window_warning(end);
  if (!waves_warning.empty()) log::warn("{}", waves_warning);
  try { if (Tracer::global().active()) Tracer::global().close(end); } catch (const IoError& e) { waves_error = e.what(); }

  MsgBenchResult res;
  nlohmann::json& rep = res.report;
  rep["seed"] = opt_.seed;
  rep["switches"] = opt_.switches;
  rep["mtu"] = opt_.mtu;
  rep["simulated_time_ps"] = end;
  rep["parameters"] = pv_.effective();
  if (!fault.empty() || !(done_[0] && done_[1])) {
    report_hang(res, fault);
    if (!waves_error.empty()) res.errors += "error: " + waves_error + "\n";
    return res;
  }
  const Curves c = curves();
  std::string out = size_table(c, rep);
  if (!pp_.empty()) {  // the smallest message, last ping of its run
    BreakdownInputs in;
    in.tag = pp_.front().last_tag;
    in.bytes = pp_.front().size;
    in.hops = net_.hops(0, 1);
    in.switch_delay = SwitchParams::kRd.get(pv_) + SwitchParams::kSd.get(pv_);
    in.irq = net_.host(1).config().use_irq;
    out += latency_breakdown(tl_, in, rep);
  }
  out += grim_comparison(c, rep);
  out += nic_report(res);
  if (!opt_.timeline.empty()) tl_.write_json(opt_.timeline);
  if (!waves_error.empty()) {
    res.exit_code = 3;
    rep["error"] = waves_error;
    res.errors += "error: " + waves_error + "\n";
  }
  res.table = out;
  return res;
}

}  // namespace

MsgBenchResult run_msg_bench(ParamValues& pv, const fw::Image& image, const MsgBenchOptions& opt) {
  return MsgBench(pv, image, opt).run();
}

}  // namespace sanvp::host
