#include "platform/host/msg_bench.hpp"
#include "platform/core/sim_time.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <memory>
#include <map>

#include "firmware/msg/msg_proto.h"
#include "hw/nic/memory_map.hpp"
#include "platform/core/error.hpp"
#include "platform/core/rng.hpp"
#include "platform/core/trace.hpp"
#include "platform/host/msg_driver.hpp"
#include "platform/host/nic_network.hpp"

namespace sanvp::host {

namespace {

double us(Time t) { return static_cast<double>(t) / 1e6; }

// Content of byte i of every message of `size` bytes from `src`: the receiver checks all of it.
inline std::uint8_t pattern(std::uint32_t src, std::uint32_t size, std::uint64_t i) {
  std::uint64_t x = (std::uint64_t{src} << 56) ^ (std::uint64_t{size} << 24) ^ (i >> 3);
  return static_cast<std::uint8_t>(splitmix64(x) >> (8 * (i & 7)));
}

struct Event {
  Time t;
  int node;
  std::string what;
  std::uint32_t tag;
  std::uint32_t bytes;
};

struct Timeline {
  std::vector<Event> ev;
  void add(Time t, int node, std::string what, std::uint32_t tag, std::uint32_t bytes) { ev.push_back({t, node, std::move(what), tag, bytes}); }
  // First event `what` at `node` with `tag` (kNever if none).
  Time find(int node, const std::string& what, std::uint32_t tag) const {
    for (const auto& e : ev)
      if (e.node == node && e.tag == tag && e.what == what) return e.t;
    return kNever;
  }
};

// Reads a big-endian word from NIC SRAM (for the timeline's view into packet headers).
std::uint32_t sram32(nic::Nic& n, std::uint32_t a) {
  if (std::uint64_t{a} + 4 > n.sram().size()) return 0;
  const std::uint8_t* p = n.sram().data() + a;
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}
std::uint32_t sram16(nic::Nic& n, std::uint32_t a) {
  if (std::uint64_t{a} + 2 > n.sram().size()) return 0;
  const std::uint8_t* p = n.sram().data() + a;
  return (std::uint32_t{p[0]} << 8) | p[1];
}
// Tag of the message packet whose type field is at `a` (kNoTag if it is not one).
constexpr std::uint32_t kNoTag = 0xFFFFFFFFu;
std::uint32_t tag_at(nic::Nic& n, std::uint32_t type_addr) {
  if (sram16(n, type_addr) != msg::kMsgPacketType) return kNoTag;
  return sram32(n, type_addr + msg::kOffTag);
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

std::string size_text(std::uint32_t s) {
  if (s >= (1u << 20) && s % (1u << 20) == 0) return fmt::format("{} MiB", s >> 20);
  if (s >= 1024 && s % 1024 == 0) return fmt::format("{} KiB", s >> 10);
  return fmt::format("{} B", s);
}

}  // namespace

std::vector<std::uint32_t> default_msg_sizes() {
  return {4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576};
}

namespace {

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

}  // namespace

MsgBenchResult run_msg_bench(ParamValues& pv, const fw::Image& image, const MsgBenchOptions& opt) {
  if (opt.sizes.empty()) throw UserError("no message sizes");
  for (auto s : opt.sizes)
    if (s == 0 || s > (64u << 20)) throw UserError(fmt::format("message size {} is outside 1..64 MiB", s));
  for (const char* h : {"n0.host", "n1.host"}) {
    const auto mem = static_cast<std::uint64_t>(pv.integer(h, "host", "memory"));
    if (needed_host_memory(opt) > mem)
      throw UserError(fmt::format("--sizes: these message sizes need {} MiB of host memory on {} (two ping-pong buffers of the "
                                  "largest size, at least 4 streaming buffers per size), host.memory is {} MiB: raise it, e.g. "
                                  "--set host.memory={}, or use --only pingpong",
                                  (needed_host_memory(opt) + (1u << 20) - 1) >> 20, h, mem >> 20,
                                  (needed_host_memory(opt) + (64u << 20) - 1) / (64u << 20) * (64u << 20)));
  }
  NicNetworkSpec spec;
  spec.hosts = 2;
  spec.switches = opt.switches;
  spec.ports = static_cast<int>(pv.integer("", "switch", "ports"));
  // Modules live until the process ends (a SystemC kernel is not restarted), which also keeps
  // them out of destructors while an error unwinds from inside the simulation.
  NicNetwork& net = *new NicNetwork(pv, opt.seed, image, spec);
  pv.check_all_used();

  Tracer& tr = Tracer::global();
  if (!opt.vcd.empty()) {
    tr.configure(opt.trace, opt.trace_from, opt.trace_to);
    if (!tr.open(opt.vcd)) throw UserError(fmt::format("--vcd: cannot create '{}'", opt.vcd));
    tr.set_now_fn(+[]() -> Time { return sc_core::sc_time_stamp().value(); });
    net.declare_traces();
  }

  std::unique_ptr<std::ofstream> trace_out;
  if (opt.fw_trace_node >= 0) {
    if (opt.fw_trace_node >= net.hosts()) throw UserError(fmt::format("--fw-trace: no node {}", opt.fw_trace_node));
    std::ostream* os = &std::cerr;
    if (!opt.fw_trace_file.empty()) {
      trace_out = std::make_unique<std::ofstream>(opt.fw_trace_file);
      if (!*trace_out) throw UserError(fmt::format("--fw-trace-file: cannot create '{}'", opt.fw_trace_file));
      os = trace_out.get();
    }
    net.nic(opt.fw_trace_node).core().enable_trace(os, {});
  }
  if (opt.fw_profile)
    for (int h = 0; h < net.hosts(); ++h) net.nic(h).core().enable_profile();
  Timeline tl;
  MsgDriver d0(net.host(0), opt.mtu), d1(net.host(1), opt.mtu);
  MsgDriver* drv[2] = {&d0, &d1};
  for (int h = 0; h < 2; ++h) {
    drv[h]->set_observer([&tl, h](const char* what, std::uint32_t, std::uint32_t tag, Time t) { tl.add(t, h, what, tag, 0); });
    nic::Nic& n = net.nic(h);
    n.host_dma().set_observer([&tl, &n, h](std::uint32_t, std::uint32_t local, std::uint64_t, std::uint32_t len, bool to_sram, Time s,
                                           Time e) {
      const std::uint32_t hdr = local - msg::kOffData;
      const std::uint32_t tag = tag_at(n, hdr);
      if (tag != kNoTag) {
        const char* what = to_sram ? "hdma_load" : "hdma_deliver";
        tl.add(s, h, std::string(what) + "_start", tag, len);
        tl.add(e, h, std::string(what) + "_end", tag, len);
      } else if (!to_sram && len == msg::kCqEntryBytes) {
        const std::uint32_t t = sram32(n, local + 12);
        tl.add(s, h, "hdma_cq_start", t, len);
        tl.add(e, h, "hdma_cq_end", t, len);
      }
    });
    n.send_dma().set_observer([&tl, &n, h](std::uint32_t addr, std::uint32_t route, Time first, Time last, std::uint32_t bytes) {
      const std::uint32_t tag = tag_at(n, addr + route);
      tl.add(first, h, "inject", tag, bytes);
      tl.add(last, h, "tail_out", tag, bytes);
    });
    n.recv_dma().set_observer([&tl, &n, h](std::uint32_t idx, Time first, Time last, std::uint32_t len, std::uint32_t) {
      const std::uint32_t ring = [&] { std::uint32_t v = 0; n.recv_dma().reg_read(nic::map::nic::kRxRing, v); return v; }();
      const std::uint32_t buf = sram32(n, ring + idx * 8);
      const std::uint32_t tag = tag_at(n, buf);
      tl.add(first, h, "rx_head", tag, len);
      tl.add(last, h, "rx_done", tag, len);
    });
  }

  Scoreboard sb;
  struct PpRow { std::uint32_t size; int iters; Time rtt_total; std::uint32_t last_tag; };
  struct BwRow { std::uint32_t size; int count; Time start, end; };
  std::vector<PpRow> pp;
  std::vector<BwRow> bw;
  bool done0 = false, done1 = false;
  const std::uint32_t max_size = *std::max_element(opt.sizes.begin(), opt.sizes.end());
  auto iters_for = [&](std::uint32_t s) { return opt.iterations > 0 ? opt.iterations : s <= 4096 ? 8 : s <= 65536 ? 4 : 2; };
  auto count_for = [&](std::uint32_t s) { return stream_count(s); };

  // Host 0: ping side, and the sender of the bandwidth runs.
  net.host(0).spawn("app", [&] {
    Host& h = net.host(0);
    d0.open();
    const std::uint64_t sbuf = h.alloc(max_size), rbuf = h.alloc(max_size);
    std::uint32_t tag = 0x10000;
    if (opt.pingpong) {
      for (std::uint32_t s : opt.sizes) {
        fill(h, sbuf, 0, s);
        PpRow row{s, iters_for(s), 0, 0};
        for (int i = 0; i <= row.iters; ++i) {  // iteration 0 warms up
          d0.post_recv(rbuf, s);
          const Time t0 = now_ps();
          d0.send(1, sbuf, s, tag);
          const auto c = d0.wait_for(msg::kCqRecv);
          const Time t1 = now_ps();
          check(h, sb, c, rbuf, s, 1, tag + 1);
          d0.wait_for(msg::kCqSent);
          if (i > 0) row.rtt_total += t1 - t0;
          row.last_tag = tag;
          tag += 2;
        }
        pp.push_back(row);
      }
    }
    if (opt.bandwidth) {
      for (std::uint32_t s : opt.sizes) {
        fill(h, sbuf, 0, s);
        const int k = count_for(s);
        d0.post_recv(rbuf, 4);
        d0.wait_for(msg::kCqRecv);  // host 1 has posted its receive buffers
        BwRow row{s, k, now_ps(), 0};
        for (int i = 0; i < k; ++i) d0.send(1, sbuf, s, 0x800000 + i);
        for (int i = 0; i < k; ++i) d0.wait_for(msg::kCqSent);
        bw.push_back(row);
      }
    }
    done0 = true;
  });
  // Host 1: pong side, and the receiver of the bandwidth runs.
  net.host(1).spawn("app", [&] {
    Host& h = net.host(1);
    d1.open();
    const std::uint64_t sbuf = h.alloc(max_size);
    std::uint32_t tag = 0x10000;
    if (opt.pingpong) {
      std::uint64_t rbuf = h.alloc(max_size);
      for (std::uint32_t s : opt.sizes) {
        fill(h, sbuf, 1, s);
        for (int i = 0; i <= iters_for(s); ++i) {
          d1.post_recv(rbuf, s);
          const auto c = d1.wait_for(msg::kCqRecv);
          check(h, sb, c, rbuf, s, 0, tag);
          d1.send(0, sbuf, s, tag + 1);
          d1.wait_for(msg::kCqSent);
          tag += 2;
        }
      }
    }
    if (opt.bandwidth) {
      std::uint64_t tiny = h.alloc(64);
      fill(h, tiny, 1, 4);
      for (std::size_t si = 0; si < opt.sizes.size(); ++si) {
        const std::uint32_t s = opt.sizes[si];
        const int k = count_for(s);
        std::vector<std::uint64_t> rb;
        for (int i = 0; i < k; ++i) { rb.push_back(h.alloc(s)); d1.post_recv(rb.back(), s); }
        d1.send(0, tiny, 4, 0x700000 + static_cast<std::uint32_t>(si));  // "ready"
        for (int i = 0; i < k; ++i) {
          const auto c = d1.wait_for(msg::kCqRecv);
          check(h, sb, c, rb[static_cast<std::size_t>(i)], s, 0, 0x800000 + static_cast<std::uint32_t>(i));
        }
        bw[si].end = now_ps();  // host 0 pushed the row before its first send
        d1.wait_for(msg::kCqSent);
      }
    }
    done1 = true;
  });

  // Run until both applications are done (or the limit), checking for firmware faults.
  const Time step = 1 * kMs;
  Time t = 0;
  std::string fault;
  while (!(done0 && done1) && t < opt.limit) {
    try {
      sc_core::sc_start(sc_core::sc_time::from_value(step));
    } catch (const std::exception& e) {
      fault = e.what();
      break;
    }
    t = now_ps();
    for (int h = 0; h < 2; ++h) {
      const auto& r = net.nic(h).core().result();
      if (r.outcome == nic::LanaiCore::Outcome::kFault && fault.empty()) fault = fmt::format("n{}: {}", h, r.fault_report);
      if (r.outcome == nic::LanaiCore::Outcome::kExited && fault.empty())
        fault = fmt::format("n{}: firmware exited with code {} (console: {})", h, r.exit_code, net.nic(h).sys().console_text());
    }
    if (!fault.empty()) break;
    if (sc_core::sc_get_status() == sc_core::SC_STOPPED) break;
  }
  const Time end = now_ps();
  if (tr.active()) tr.close(end);

  MsgBenchResult res;
  nlohmann::json& rep = res.report;
  rep["seed"] = opt.seed;
  rep["switches"] = opt.switches;
  rep["mtu"] = opt.mtu;
  rep["simulated_time_ps"] = end;
  rep["parameters"] = pv.effective();
  const Time ld = pv.time("", "link", "ld"), cp = pv.time("", "link", "cp"), rd = pv.time("", "switch", "rd"), sd = pv.time("", "switch", "sd");
  std::string out;
  if (!fault.empty() || !(done0 && done1)) {
    res.exit_code = 3;
    rep["error"] = fault.empty() ? fmt::format("the applications did not finish within {}", format_time(opt.limit)) : fault;
    res.table = "error: " + rep["error"].get<std::string>() + "\n";
    // What each NIC was doing, so a hang can be diagnosed.
    for (int h = 0; h < 2; ++h) {
      nic::Nic& n = net.nic(h);
      std::uint32_t hd_head = 0, hd_tail = 0, rx_tail = 0;
      n.host_dma().reg_read(nic::map::nic::kHdmaHead, hd_head);
      n.host_dma().reg_read(nic::map::nic::kHdmaTail, hd_tail);
      n.recv_dma().reg_read(nic::map::nic::kRxTail, rx_tail);
      res.table += fmt::format(
          "  n{}: pc 0x{:08x} <{}>, {} instructions, {}, ISR 0x{:x} IMR 0x{:x}, mailbox 0x{:x}, host DMA {}/{} done, "
          "{} packets sent, {} received (rx tail {}), receiver {}, console: '{}'\n",
          h, n.core().state().pc, "", n.core().state().instret, n.regs().sleeping() ? "asleep in WAIT" : "running", n.regs().isr(),
          n.regs().imr(), n.regs().mailbox(), hd_tail, hd_head, n.send_dma().stats().packets, n.recv_dma().stats().packets, rx_tail,
          n.recv_dma().waiting_for_buffer() ? "waiting for a buffer" : "not blocked", n.sys().console_text());
    }
    return res;
  }
  // Latency / bandwidth table.
  std::map<std::uint32_t, double> lat, bwv;
  for (const auto& r : pp) lat[r.size] = us(r.rtt_total) / (2.0 * r.iters);
  for (const auto& r : bw) bwv[r.size] = static_cast<double>(r.size) * r.count / (static_cast<double>(r.end - r.start) / 1e12) / 1e6;
  // Half-power size: where a bandwidth curve first reaches half of its peak (log-linear
  // interpolation between the measured sizes).
  auto half_power = [](const std::map<std::uint32_t, double>& curve, double& peak_out) {
    double pk = 0;
    for (auto [sz, v] : curve) pk = std::max(pk, v);
    peak_out = pk;
    double ps = 0, pv_ = 0;
    bool first = true;
    for (auto [sz, v] : curve) {
      if (v >= pk / 2) {
        if (first) return static_cast<double>(sz);
        return std::exp(std::log(ps) + (std::log(static_cast<double>(sz)) - std::log(ps)) * (pk / 2 - pv_) / (v - pv_));
      }
      ps = sz;
      pv_ = v;
      first = false;
    }
    return 0.0;
  };
  double peak = 0, pp_peak = 0;
  const double half = half_power(bwv, peak);
  std::map<std::uint32_t, double> ppbw;  // ping-pong bandwidth: size / one-way latency (GRIM's method)
  for (auto [sz, l] : lat) ppbw[sz] = sz / l;
  const double pp_half = half_power(ppbw, pp_peak);
  nlohmann::json rows = nlohmann::json::array();
  out += fmt::format("message layer between n0 and n1 through {} switch{} (mtu {} B, seed {})\n", opt.switches, opt.switches == 1 ? "" : "es", opt.mtu,
                     opt.seed);
  out += fmt::format("{:>10} {:>14} {:>18} {:>16}\n", "size", "latency (us)", "ping-pong (MB/s)", "streaming (MB/s)");
  for (std::uint32_t s : opt.sizes) {
    nlohmann::json row{{"size", s}};
    std::string l = "-", b = "-", q = "-";
    if (lat.count(s)) {
      row["latency_us"] = lat[s];
      row["pingpong_bandwidth_MBps"] = ppbw[s];
      l = fmt::format("{:.3f}", lat[s]);
      q = fmt::format("{:.2f}", ppbw[s]);
    }
    if (bwv.count(s)) { row["bandwidth_MBps"] = bwv[s]; b = fmt::format("{:.2f}", bwv[s]); }
    rows.push_back(row);
    out += fmt::format("{:>10} {:>14} {:>18} {:>16}\n", size_text(s), l, q, b);
  }
  rep["table"] = rows;
  if (!bwv.empty()) {
    rep["peak_bandwidth_MBps"] = peak;
    rep["half_power_size_bytes"] = half;
    out += fmt::format("streaming: peak {:.2f} MB/s, half-power message size {:.0f} B\n", peak, half);
  }
  if (!ppbw.empty()) {
    rep["pingpong_peak_bandwidth_MBps"] = pp_peak;
    rep["pingpong_half_power_size_bytes"] = pp_half;
    out += fmt::format("ping-pong: peak {:.2f} MB/s, half-power message size {:.0f} B\n", pp_peak, pp_half);
  }
  // Breakdown of the one-way latency of the smallest message (last ping of its run).
  if (!pp.empty()) {
    const std::uint32_t tag = pp.front().last_tag;
    auto T = [&](int node, const char* w) { return tl.find(node, w, tag); };
    const Time t_post = T(0, "host_post"), t_bell = T(0, "doorbell"), t_l0 = T(0, "hdma_load_start"), t_l1 = T(0, "hdma_load_end"),
               t_inj = T(0, "inject"), t_rx = T(1, "rx_done"), t_d0 = T(1, "hdma_deliver_start"), t_d1 = T(1, "hdma_deliver_end"),
               t_c0 = T(1, "hdma_cq_start"), t_c1 = T(1, "hdma_cq_end"), t_seen = T(1, "host_recv");
    const Time all[] = {t_post, t_bell, t_l0, t_l1, t_inj, t_rx, t_d0, t_d1, t_c0, t_c1, t_seen};
    bool ok = true;
    for (std::size_t i = 0; i < std::size(all); ++i) ok = ok && all[i] != kNever && (i == 0 || all[i] >= all[i - 1]);
    if (ok) {
      const int hops = net.hops(0, 1);
      const Time switches = static_cast<Time>(hops) * (rd + sd);
      const Time wire = (t_rx - t_inj) - switches;
      nlohmann::json b{{"message_bytes", pp.front().size},
                       {"host_pio_us", us(t_bell - t_post)},
                       {"firmware_send_us", us((t_l0 - t_bell) + (t_inj - t_l1))},
                       {"host_dma_us", us((t_l1 - t_l0) + (t_d1 - t_d0) + (t_c1 - t_c0))},
                       {"switches_us", us(switches)},
                       {"wire_us", us(wire)},
                       {"firmware_recv_us", us((t_d0 - t_rx) + (t_c0 - t_d1))},
                       {"host_notice_us", us(t_seen - t_c1)},
                       {"total_us", us(t_seen - t_post)}};
      rep["latency_breakdown"] = b;
      out += fmt::format("one-way latency of a {} message, {:.3f} us =\n", size_text(pp.front().size), us(t_seen - t_post));
      auto line = [&](const std::string& what, Time t) { out += fmt::format("  {:<44}{:8.3f} us\n", what, us(t)); };
      line("host PIO (driver call, SQ entry, doorbell)", t_bell - t_post);
      line("firmware, sending NIC", (t_l0 - t_bell) + (t_inj - t_l1));
      line("host DMA (load, deliver, completion)", (t_l1 - t_l0) + (t_d1 - t_d0) + (t_c1 - t_c0));
      line(fmt::format("switches ({} x (rd + sd))", hops), switches);
      line("wire (links and serialization)", wire);
      line("firmware, receiving NIC", (t_d0 - t_rx) + (t_c0 - t_d1));
      line(net.host(1).config().use_irq ? "host notices the completion (interrupt)" : "host notices the completion (polling)", t_seen - t_c1);
      (void)ld;
      (void)cp;
    }
  }
  // Side by side with the GRIM paper's Table 1 (message layers on LANai boards of that era).
  if (!lat.empty() || !bwv.empty()) {
    const double l0 = lat.empty() ? 0 : lat.begin()->second;
    const PciConfig pci = PciConfig::from_params(pv, "");
    const double pci_peak = static_cast<double>(pci.burst) / (static_cast<double>(pci.transaction(static_cast<std::uint32_t>(pci.burst))) / 1e12) / 1e6;
    nlohmann::json cmp{{"paper", "GRIM Table 1: host-to-host latency 4.8-18 us (GRIM 13 us), maximum bandwidth 38-140 MB/s (GRIM 106 MB/s); "
                                 "GRIM half-power size 6 KB with 48 KiB fragments"},
                       {"latency_us", l0},
                       {"peak_bandwidth_MBps", peak},
                       {"pci_peak_MBps", pci_peak}};
    rep["grim_comparison"] = cmp;
    out += fmt::format("GRIM paper, Table 1: latency 4.8-18 us (GRIM 13), bandwidth 38-140 MB/s (GRIM 106), GRIM half-power 6 KB.\n");
    if (!lat.empty())
      out += fmt::format("  ours: {:.1f} us for {} -- {} the range; the breakdown shows where it goes (NIC core at {:.0f} MHz)\n", l0,
                         size_text(lat.begin()->first), l0 >= 4.8 && l0 <= 18 ? "inside" : "outside", pv.real("n0.core", "nic.core", "clock"));
    if (!ppbw.empty())
      out += fmt::format("  ours: ping-pong half-power size {:.0f} B (GRIM measured it by round trips too)\n", pp_half);
    if (!bwv.empty())
      out += fmt::format("  ours: {:.1f} MB/s peak -- bounded by the host's PCI bus ({}-bit, {:.0f} MHz, {}-byte bursts: {:.1f} MB/s)\n", peak,
                         8 * pci.width, pci.clock_mhz, pci.burst, pci_peak);
  }
  // Firmware and engine statistics.
  nlohmann::json nics = nlohmann::json::array();
  for (int h = 0; h < 2; ++h) {
    nlohmann::json j = nic_stats(net.nic(h), net.host(h));
    j["node"] = h;
    nics.push_back(j);
  }
  rep["nics"] = nics;
  if (opt.fw_profile)
    for (int h = 0; h < net.hosts(); ++h) out += fmt::format("firmware profile of n{}:\n{}", h, net.nic(h).core().profile_report());
  rep["scoreboard"] = {{"messages", sb.messages}, {"bytes", sb.bytes}, {"corrupt", sb.corrupt}, {"errors", sb.errors}};
  rep["flit_hops"] = net.flit_hops();
  out += fmt::format("scoreboard: {} messages, {} bytes checked, {} bad\n", sb.messages, sb.bytes, sb.corrupt);
  if (sb.corrupt) {
    res.exit_code = 3;
    for (const auto& e : sb.errors) out += "  " + e + "\n";
  }
  if (!opt.timeline.empty()) {
    std::stable_sort(tl.ev.begin(), tl.ev.end(), [](const Event& a, const Event& b) { return a.t < b.t; });
    nlohmann::json j = nlohmann::json::array();
    for (const auto& e : tl.ev) j.push_back({{"t_ps", e.t}, {"node", e.node}, {"event", e.what}, {"tag", e.tag}, {"bytes", e.bytes}});
    std::ofstream f(opt.timeline);
    if (!f) throw UserError(fmt::format("--timeline: cannot create '{}'", opt.timeline));
    f << j.dump(1) << "\n";
  }
  res.table = out;
  return res;
}

}  // namespace sanvp::host
