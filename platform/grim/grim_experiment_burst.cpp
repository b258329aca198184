#include "platform/grim/grim_experiment_burst.hpp"

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <deque>
#include <fmt/format.h>
#include <memory>

#include "hw/base/asan_stack.hpp"
#include "hw/base/error.hpp"
#include "hw/base/sim_time.hpp"
#include "platform/grim/grim_run.hpp"
#include "platform/grim/grim_stats.hpp"
#include "platform/grim/grim_workload.hpp"
#include "platform/host/nic_network.hpp"

namespace sanvp::grim_host {

std::uint32_t droppable_flits(std::uint32_t size, int switches) {
  // Link k (0..switches) carries the route bytes not yet consumed, the header and the payload,
  // then the CRC, which drop never hits (it is the worm's last flit).
  std::uint32_t n = 0;
  for (int k = 0; k <= switches; ++k) n += static_cast<std::uint32_t>(switches - k) + grim::kDataHeader + size;
  return n;
}

double flit_drop_rate(double packet_loss, std::uint32_t size, int switches) {
  if (packet_loss <= 0) return 0;
  return -std::expm1(std::log1p(-packet_loss) / droppable_flits(size, switches));
}

namespace {

struct Sender {
  std::vector<Time> sent_at;        // when each send call returned
  Time start = 0;                   // the first send call of the burst
  Time overhead_sum = 0;            // send calls that did not wait for the send queue
  std::uint64_t overhead_n = 0;
  std::uint64_t credit_waits = 0;   // messages that waited for a credit
  bool done = false;
};

struct Nic {
  std::uint64_t instr = 0, cycles = 0;
};

class Burst {
 public:
  Burst(ParamValues& pv, const fw::Image& image, const GrimBurstOptions& o)
      : o_(o), net_(make(pv, image, o)), credits_(o.nodes, o.credits, o.grim.mtu), senders_(static_cast<std::size_t>(o.senders)),
        next_(static_cast<std::size_t>(o.nodes), 0) {}

  GrimBurstResult run() {
    for (int n = 0; n < net_.hosts(); ++n) {
      drv_.push_back(std::make_unique<GrimDriver>(net_.host(n), o_.grim));
      net_.nic(n).core().enable_profile();
    }
    net_.host(0).spawn("grim burst receiver", [this] { receiver(); });
    for (int s = 1; s <= o_.senders; ++s) net_.host(s).spawn("grim burst sender", [this, s] { sender(s); });
    // The other nodes run the firmware too, as in a cluster: a NIC whose receiver was never
    // enabled back-pressures forever, so a worm misrouted to it (a lost route byte makes the
    // type's first byte, 0x06, the route) would hold its switch path and stop the sender's link.
    for (int n = o_.senders + 1; n < net_.hosts(); ++n)
      net_.host(n).spawn("grim burst idle node", [this, n] { drv_[static_cast<std::size_t>(n)]->open(); });
    GrimBurstResult r;
    std::string err;
    while (err.empty() && !(recv_done_ && all_sent()) && now_ps() < o_.limit) {
      sc_core::sc_start(sc_core::sc_time::from_value(kMs));
      back_on_main_stack();
      for (int n = 0; n < net_.hosts(); ++n)
        if (net_.nic(n).core().result().outcome != nic::LanaiCore::Outcome::kRunning)
          err = fmt::format("n{}: GRIM firmware stopped: {}", n, net_.nic(n).core().result().fault_report);
    }
    if (err.empty() && !(recv_done_ && all_sent())) err = fmt::format("the burst did not finish within {}", format_time(o_.limit));
    // Drain: the last ACKs and their processing belong to the burst's firmware cost.
    if (err.empty()) sc_core::sc_start(sc_core::sc_time::from_value(Time{o_.grim.rto_us} * kUs));
    back_on_main_stack();
    for (int n = 0; n < 2; ++n) nic_end_[n] = nic_now(n);
    if (err.empty() && !errors_.empty()) err = errors_.front();
    report(r);
    if (!err.empty()) {
      r.exit_code = 3;
      r.report["error"] = err;
      r.table += "error: " + err + "\n";
    }
    return r;
  }

 private:
  static host::NicNetwork& make(ParamValues& pv, const fw::Image& image, const GrimBurstOptions& o) {
    if (o.nodes < 2 || o.nodes > static_cast<int>(grim::kMaxNodes)) throw UserError(fmt::format("--nodes: {} is outside 2..16", o.nodes));
    if (o.senders < 1 || o.senders >= o.nodes) throw UserError(fmt::format("--senders: {} is outside 1..{}", o.senders, o.nodes - 1));
    if (o.burst < 1 || o.burst > (1u << 16)) throw UserError(fmt::format("--burst: {} is outside 1..65536", o.burst));
    if (o.size < 1 || o.size > o.grim.mtu) throw UserError(fmt::format("--size: {} is outside 1..mtu ({})", o.size, o.grim.mtu));
    if (!(o.packet_loss >= 0 && o.packet_loss < 0.5)) throw UserError(fmt::format("--packet-loss: {} is outside [0, 0.5)", o.packet_loss));
    if (o.packet_loss > 0) apply_sets(pv, {fmt::format("fault.drop={:.6e}", flit_drop_rate(o.packet_loss, o.size, 1))});
    host::NicNetworkSpec spec;
    spec.hosts = o.nodes;
    spec.switches = 1;
    spec.ports = std::max(8, o.nodes);
    spec.check = false;
    apply_grim_defaults(pv);
    auto* net = new host::NicNetwork(pv, o.seed, image, spec);  // lives until the process ends
    pv.check_all_used();
    return *net;
  }

  bool all_sent() const {
    return std::all_of(senders_.begin(), senders_.end(), [](const Sender& s) { return s.done; });
  }

  Nic nic_now(int n) { return {net_.nic(n).core().state().instret, net_.nic(n).core().state().cycles}; }

  // Node 0: keeps every receive buffer posted, checks order per sender, returns credits.
  void receiver() {
    GrimDriver& d = *drv_[0];
    host::Host& h = net_.host(0);
    d.open();
    const std::uint64_t buf = h.alloc(o_.size);
    for (std::uint32_t i = 0; i < grim::kRqEntries; ++i) d.post_recv(buf, o_.size);
    const std::uint64_t expected = static_cast<std::uint64_t>(o_.senders) * (o_.burst + 1);  // + one warm-up each
    for (std::uint64_t got = 0; got < expected;) {
      const GrimDriver::Completion c = d.wait_completion();
      if (c.kind != grim::kCqRecv) { errors_.push_back(fmt::format("n0: unexpected completion kind {}", c.kind)); continue; }
      ++got;
      check(c);
      d.post_recv(buf, o_.size);
      if (credits_.enabled()) credits_.give(c.peer, 0, o_.size);
      if (got == static_cast<std::uint64_t>(o_.senders)) warmed_ = true, warm_.notify(sc_core::SC_ZERO_TIME);  // every warm-up arrived
    }
    end_ = now_ps();
    recv_done_ = true;
  }

  void check(const GrimDriver::Completion& c) {
    if (c.peer < 1 || c.peer > static_cast<std::uint32_t>(o_.senders)) return void(errors_.push_back(fmt::format("n0: a message from n{}", c.peer)));
    std::uint32_t& next = next_[c.peer];
    if (tag_index(c.tag) != next || c.length != o_.size)
      errors_.push_back(fmt::format("n0: from n{} expected message {} ({} B), got {} ({} B)", c.peer, next, o_.size, tag_index(c.tag), c.length));
    next = tag_index(c.tag) + 1;
  }

  // Takes a credit for node 0, taking completions (or sleeping until a credit returns) meanwhile.
  void take_credit(GrimDriver& d, int s, Sender& st) {
    if (!credits_.enabled() || credits_.take(static_cast<std::uint32_t>(s), 0, o_.size)) return;
    ++st.credit_waits;
    while (!credits_.take(static_cast<std::uint32_t>(s), 0, o_.size)) {
      GrimDriver::Completion c;
      if (!d.poll_completion(c)) sc_core::wait(sc_core::sc_time::from_value(kUs), credits_.returned(static_cast<std::uint32_t>(s)));
    }
  }

  void sender(int s) {
    GrimDriver& d = *drv_[static_cast<std::size_t>(s)];
    Sender& st = senders_[static_cast<std::size_t>(s - 1)];
    const std::uint32_t self = static_cast<std::uint32_t>(s);
    d.open();
    const std::uint64_t buf = net_.host(s).alloc(o_.size);
    take_credit(d, s, st);  // warm-up message 0: every stream and path set up before timing
    d.send(0, 0, buf, o_.size, message_tag(self, 0, 0, 0));
    d.wait_for(grim::kCqSent);
    if (!warmed_) sc_core::wait(warm_);
    if (s == 1) nic_start_[0] = nic_now(0), nic_start_[1] = nic_now(1), pio_start_ = net_.host(1).pio_time();
    st.start = now_ps();
    for (std::uint32_t i = 1; i <= o_.burst; ++i) {
      take_credit(d, s, st);
      const bool free_entry = d.sends_outstanding() < grim::kSqEntries;
      const Time t0 = now_ps();
      d.send(0, 0, buf, o_.size, message_tag(self, 0, 0, i));
      st.sent_at.push_back(now_ps());
      if (free_entry) st.overhead_sum += now_ps() - t0, ++st.overhead_n;
    }
    if (s == 1) pio_end_ = net_.host(1).pio_time();
    while (d.sends_outstanding() > 0) d.wait_for(grim::kCqSent);
    st.done = true;
  }

  void report(GrimBurstResult& r);

  const GrimBurstOptions& o_;
  host::NicNetwork& net_;
  HostCredits credits_;
  std::vector<Sender> senders_;
  std::vector<std::uint32_t> next_;  // next message index expected from each node
  std::vector<std::unique_ptr<GrimDriver>> drv_;
  std::vector<std::string> errors_;
  sc_core::sc_event warm_;
  bool warmed_ = false, recv_done_ = false;
  Time end_ = 0, pio_start_ = 0, pio_end_ = 0;  // sender n1's host PIO time during its injection
  Nic nic_start_[2], nic_end_[2];  // [0] receiver n0, [1] sender n1: from the burst's start to the end of the drain
};

// The flat profile's rows (profile_report's text) as JSON: the per-function breakdown.
nlohmann::json profile_rows(const std::string& text) {
  nlohmann::json rows = nlohmann::json::array();
  std::size_t pos = text.find('\n', text.find('\n') + 1);  // after the title and the header
  while (pos != std::string::npos && pos + 1 < text.size()) {
    const std::size_t end = text.find('\n', pos + 1);
    const std::string line = text.substr(pos + 1, end == std::string::npos ? std::string::npos : end - pos - 1);
    pos = end;
    double pct = 0;
    unsigned long long cycles = 0, insns = 0;
    char tbuf[32] = {}, name[256] = {};
    if (std::sscanf(line.c_str(), "%lf%% %llu %llu %31s %255[^\n]", &pct, &cycles, &insns, tbuf, name) == 5)
      rows.push_back({{"function", name}, {"cycles", cycles}, {"instructions", insns}, {"percent", pct}});
  }
  return rows;
}

nlohmann::json nic_json(const Nic& a, const Nic& b, double messages, double clock_hz) {
  const double cyc = static_cast<double>(b.cycles - a.cycles) / messages;
  return {{"instructions_per_message", static_cast<double>(b.instr - a.instr) / messages}, {"cycles_per_message", cyc},
          {"busy_us_per_message", cyc / clock_hz * 1e6}};
}

void Burst::report(GrimBurstResult& r) {
  const double n = o_.burst;
  double o_sum = 0, gap = 0, steady = 0, inject = 0;
  std::uint64_t o_n = 0, waits = 0;
  for (const Sender& s : senders_) {
    if (s.sent_at.size() != o_.burst) continue;
    o_sum += static_cast<double>(s.overhead_sum), o_n += s.overhead_n, waits += s.credit_waits;
    inject += static_cast<double>(s.sent_at.back() - s.start) / 1e6;
    const std::size_t h = o_.burst / 2;
    if (o_.burst >= 8) steady += static_cast<double>(s.sent_at.back() - s.sent_at[h - 1]) / static_cast<double>(o_.burst - h) / 1e6;
  }
  const double k = o_.senders;
  inject /= k, gap = inject / n, steady /= k;
  const double clock = static_cast<double>(net_.nic(0).core().config().clock_hz());
  nlohmann::json& j = r.report;
  j["config"] = {{"nodes", o_.nodes}, {"senders", o_.senders}, {"burst", o_.burst}, {"size", o_.size}, {"host_credits", o_.credits},
                 {"flow_control", o_.credits ? "host credits" : "optimistic (GRIM)"}, {"packet_loss", o_.packet_loss},
                 {"flit_drop", flit_drop_rate(o_.packet_loss, o_.size, 1)}, {"droppable_flits", droppable_flits(o_.size, 1)},
                 {"mtu", o_.grim.mtu}, {"pool", o_.grim.pool}, {"window", o_.grim.window}, {"send_buffers", o_.grim.send_buffers},
                 {"seed", o_.seed}, {"core_clock_hz", clock}, {"link_crc", nic::link_crc_name(net_.nic(0).send_dma().crc())}};
  j["overhead_us"] = o_n ? o_sum / static_cast<double>(o_n) / 1e6 : -1.0;
  j["overhead_samples"] = o_n;
  j["inject_us"] = inject;
  j["gap_us"] = gap;
  j["gap_steady_us"] = o_.burst >= 8 ? steady : -1.0;
  j["credit_waits"] = waits;
  j["delivered_us"] = senders_.front().start ? static_cast<double>(end_ - senders_.front().start) / 1e6 : -1.0;
  j["host_pio_us_per_message"] = static_cast<double>(pio_end_ - pio_start_) / 1e6 / n;
  j["receiver"] = nic_json(nic_start_[0], nic_end_[0], n * k, clock);
  j["sender"] = nic_json(nic_start_[1], nic_end_[1], n, clock);
  for (int h = 0; h < 2; ++h) {
    nlohmann::json fw = nlohmann::json::object();
    const std::uint32_t hif = net_.nic(h).regs().mailbox();
    for (std::uint32_t i = 0; i < grim::kStatWords; ++i) fw[stat_name(i)] = net_.nic(h).sram().read32(hif + grim::kHifStats + 4 * i);
    j[h == 0 ? "receiver" : "sender"]["firmware"] = fw;
    j[h == 0 ? "receiver" : "sender"]["profile"] = profile_rows(net_.nic(h).core().profile_report());
  }
  r.table = fmt::format("GRIM burst: n1..n{} -> n0 of {} nodes, {} x {} B, {}, packet loss {:g}, seed {}\n", o_.senders, o_.nodes, o_.burst,
                        o_.size, o_.credits ? fmt::format("{} host credits", o_.credits) : "optimistic", o_.packet_loss, o_.seed);
  r.table += fmt::format("overhead o_s {:.3f} us ({} samples), gap {:.3f} us (steady {:.3f} us), credit waits {}\n", j["overhead_us"].get<double>(),
                         o_n, gap, steady, waits);
  r.table += fmt::format("firmware per message: sender {:.0f} instr / {:.2f} us, receiver {:.0f} instr / {:.2f} us\n",
                         j["sender"]["instructions_per_message"].get<double>(), j["sender"]["busy_us_per_message"].get<double>(),
                         j["receiver"]["instructions_per_message"].get<double>(), j["receiver"]["busy_us_per_message"].get<double>());
}

}  // namespace

GrimBurstResult run_grim_burst(ParamValues& pv, const fw::Image& image, const GrimBurstOptions& o) {
  check_config(o.grim);
  return Burst(pv, image, o).run();
}

}  // namespace sanvp::grim_host
