#include "platform/grim/grim_bench.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <memory>

#include "platform/sim/runner.hpp"
#include "hw/base/error.hpp"
#include "platform/grim/grim_run.hpp"
#include "platform/grim/grim_stats.hpp"
#include "platform/host/nic_network.hpp"

namespace sanvp::grim_host {

namespace {

struct Row {
  std::uint32_t size = 0;
  Time rtt_total = 0;
  int iters = 0;
  Time stream_start = 0, stream_end = 0;
  int stream_count = 0;
  std::uint64_t instr0 = 0, instr1 = 0, packets = 0;  // firmware cost while streaming
};

int stream_count(std::uint32_t s) { return static_cast<int>(std::clamp<std::uint64_t>((2ull << 20) / s, 8, grim::kRqEntries)); }

class Bench {
 public:
  Bench(ParamValues& pv, const fw::Image& image, const GrimBenchOptions& o) : o_(o), net_(make(pv, image, o)) {
    for (auto s : o.sizes) rows_.push_back(Row{s});
  }

  GrimBenchResult run() {
    for (int h = 0; h < 2; ++h) {
      drv_[h] = std::make_unique<GrimDriver>(net_.host(h), o_.grim);
      if (o_.fw_profile) net_.nic(h).core().enable_profile();
    }
    start_trace();
    net_.host(0).spawn("grim", [this] { side0(); });
    net_.host(1).spawn("grim", [this] { side1(); });
    while (!(done_[0] && done_[1]) && now_ps() < o_.limit) {
      // An error a host application throws (SystemC wraps it) stops the bench with its text only.
      if (const std::string error = advance(1 * kMs, Catch::AnyError); !error.empty()) throw SimError(error);
      for (int h = 0; h < 2; ++h)
        if (net_.nic(h).core().result().outcome != nic::LanaiCore::Outcome::kRunning)
          throw SimError(fmt::format("n{}: GRIM firmware stopped: {}", h, net_.nic(h).core().result().fault_report));
    }
    GrimBenchResult r;
    if (!(done_[0] && done_[1])) {
      r.exit_code = 3;
      r.table = fmt::format("error: the benchmark did not finish within {}\n", format_time(o_.limit));
      r.report["error"] = r.table;
      return r;
    }
    report(r);
    return r;
  }

 private:
  static host::NicNetwork& make(ParamValues& pv, const fw::Image& image, const GrimBenchOptions& o) {
    if (o.sizes.empty()) throw UserError("--bench-sizes: no sizes");
    for (auto s : o.sizes)
      if (s == 0 || s > (16u << 20)) throw UserError(fmt::format("--bench-sizes: {} is outside 1..16M", s));
    host::NicNetworkSpec spec;
    spec.hosts = 2;
    spec.switches = o.switches;
    spec.check = false;
    apply_grim_defaults(pv);
    auto* net = new host::NicNetwork(pv, o.seed, image, spec);
    pv.check_all_used();
    return *net;
  }

  // Traces both phases: run `--bench-sizes 4` to see a ping-pong instruction by instruction
  // (the report's `pings` give the hosts' send and receive times to line it up with).
  void start_trace() {
    if (o_.fw_trace_node >= 0) start_fw_trace(net_, o_.fw_trace_node, 2, o_.fw_trace_file, trace_out_);
  }

  std::uint32_t max_size() const { return *std::max_element(o_.sizes.begin(), o_.sizes.end()); }

  // Node 0: pings, then streams to node 1 once node 1 says its buffers are posted.
  void side0() {
    GrimDriver& d = *drv_[0];
    host::Host& h = net_.host(0);
    d.open();
    const std::uint64_t sbuf = h.alloc(max_size()), rbuf = h.alloc(max_size());
    for (Row& row : rows_) {
      for (int i = 0; i <= o_.iterations; ++i) {
        d.post_recv(rbuf, row.size);
        const Time t0 = now_ps();
        d.send(1, 0, sbuf, row.size, 2 * i);
        d.wait_for(grim::kCqRecv);
        if (i > 0) row.rtt_total += now_ps() - t0;
        pings_.push_back({{"size", row.size}, {"sent_ps", t0}, {"received_ps", now_ps()}});
        d.wait_for(grim::kCqSent);
      }
      row.iters = o_.iterations;
    }
    for (Row& row : rows_) {
      d.post_recv(rbuf, 4);
      d.wait_for(grim::kCqRecv);  // node 1 is ready
      row.stream_count = stream_count(row.size);
      row.stream_start = now_ps();
      row.instr0 = net_.nic(0).core().state().instret;
      for (int i = 0; i < row.stream_count; ++i) d.send(1, static_cast<std::uint32_t>(i) & 1, sbuf, row.size, 0x1000 + i);
      for (int i = 0; i < row.stream_count; ++i) d.wait_for(grim::kCqSent);
    }
    done_[0] = true;
  }

  void side1() {
    GrimDriver& d = *drv_[1];
    host::Host& h = net_.host(1);
    d.open();
    const std::uint64_t sbuf = h.alloc(max_size()), rbuf = h.alloc(max_size());
    for (Row& row : rows_)
      for (int i = 0; i <= o_.iterations; ++i) {
        d.post_recv(rbuf, row.size);
        d.wait_for(grim::kCqRecv);
        d.send(0, 0, sbuf, row.size, 2 * i + 1);
        d.wait_for(grim::kCqSent);
      }
    std::vector<std::uint64_t> bufs;
    for (std::uint32_t i = 0; i < grim::kRqEntries; ++i) bufs.push_back(h.alloc(max_size()));
    for (Row& row : rows_) {
      const int k = stream_count(row.size);
      for (int i = 0; i < k; ++i) d.post_recv(bufs[static_cast<std::size_t>(i)], row.size);
      const std::uint64_t instr1 = net_.nic(1).core().state().instret;
      d.send(0, 0, sbuf, 4, 0x900);
      for (int i = 0; i < k; ++i) d.wait_for(grim::kCqRecv);
      row.stream_end = now_ps();
      row.instr1 = net_.nic(1).core().state().instret - instr1;
      row.instr0 = net_.nic(0).core().state().instret - row.instr0;
      row.packets = static_cast<std::uint64_t>(k) * ((row.size + o_.grim.mtu - 1) / o_.grim.mtu);
      d.wait_for(grim::kCqSent);
    }
    done_[1] = true;
  }

  void report(GrimBenchResult& r);

  const GrimBenchOptions& o_;
  host::NicNetwork& net_;
  std::vector<Row> rows_;
  std::unique_ptr<GrimDriver> drv_[2];
  bool done_[2] = {false, false};
  std::unique_ptr<std::ofstream> trace_out_;
  nlohmann::json pings_ = nlohmann::json::array();  // host 0's send and receive time per round trip
};

void Bench::report(GrimBenchResult& r) {
  const char* crc = nic::link_crc_name(net_.nic(0).send_dma().crc());
  std::string t = fmt::format("GRIM between n0 and n1 through {} switch{} (mtu {} B, window {}, link CRC {}, seed {})\n", o_.switches,
                              o_.switches == 1 ? "" : "es", o_.grim.mtu, o_.grim.window, crc, o_.seed);
  r.report["link_crc"] = crc;
  t += fmt::format("{:>9} {:>13} {:>17} {:>16} {:>15} {:>15}\n", "size", "latency (us)", "ping-pong (MB/s)", "streaming (MB/s)",
                   "n0 instr/pkt", "n1 instr/pkt");
  nlohmann::json rows = nlohmann::json::array();
  for (const Row& w : rows_) {
    const double lat = static_cast<double>(w.rtt_total) / (2.0 * w.iters) / 1e6;
    const double bw = static_cast<double>(w.size) * w.stream_count / (static_cast<double>(w.stream_end - w.stream_start) / 1e12) / 1e6;
    const double i0 = static_cast<double>(w.instr0) / static_cast<double>(w.packets);
    const double i1 = static_cast<double>(w.instr1) / static_cast<double>(w.packets);
    rows.push_back({{"size", w.size}, {"latency_us", lat}, {"pingpong_MBps", w.size / lat}, {"streaming_MBps", bw},
                    {"n0_instructions_per_packet", i0}, {"n1_instructions_per_packet", i1}, {"packets", w.packets}});
    t += fmt::format("{:>9} {:>13.3f} {:>17.2f} {:>16.2f} {:>15.1f} {:>15.1f}\n", w.size, lat, w.size / lat, bw, i0, i1);
  }
  t += "GRIM paper, Table 1: latency 13 us, bandwidth 106 MB/s (LANai boards of 1999; half-power 6 KB with 48 KiB fragments)\n";
  for (int h = 0; h < 2; ++h) {
    nlohmann::json fw = nlohmann::json::object();
    const std::uint32_t hif = net_.nic(h).regs().mailbox();
    for (std::uint32_t i = 0; i < grim::kStatWords; ++i) fw[stat_name(i)] = net_.nic(h).sram().read32(hif + grim::kHifStats + 4 * i);
    r.report["firmware"].push_back(fw);
    if (o_.fw_profile) t += fmt::format("firmware profile of n{}:\n{}", h, net_.nic(h).core().profile_report());
  }
  r.report["table"] = rows;
  r.report["pings"] = pings_;
  r.table = t;
}

}  // namespace

GrimBenchResult run_grim_bench(ParamValues& pv, const fw::Image& image, const GrimBenchOptions& o) {
  check_config(o.grim);
  return Bench(pv, image, o).run();
}

}  // namespace sanvp::grim_host
