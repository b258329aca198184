// GRIM endpoints and active messages (issue 17 parts 2 and 3), in-process, one simulation per
// test case: a PCI device endpoint that sends and receives without its host CPU; host and
// device endpoints of one node sending at once on their own channels under drops and CRC
// faults (exactly once, in order per (source endpoint, destination endpoint, channel), no leak,
// the run finishes); sends on a channel the endpoint does not own refused with an error
// completion, and an endpoint claiming taken channels refused; active messages: registration
// through the master, handlers run in order with the right arguments, unknown ids counted;
// `sanvp grim` with devices and active messages reproducible per seed.
#include <catch2/catch.hpp>
#include <cstdio>

#include "hw/base/error.hpp"
#include "hw/base/sim_time.hpp"
#include "platform/grim/grim_device_endpoint.hpp"
#include "platform/grim/grim_run.hpp"
#include "platform/host/nic_network.hpp"
#include "tb/grim/grim_test_util.hpp"
#include "tb/firmware/run_util.hpp"

using namespace sanvp;
using namespace sanvp::grim_host;
using sanvp::grim_test::run;

namespace {

GrimRunOptions options(int nodes, std::uint32_t devices, std::uint32_t messages, std::uint32_t max_size) {
  GrimRunOptions o;
  o.work.nodes = nodes;
  o.work.devices = devices;
  o.work.channels = 4;
  o.work.messages = messages;
  o.work.max_size = max_size;
  return o;
}

bool clean(const NodeScore& s) {
  return s.done && s.duplicates == 0 && s.out_of_order == 0 && s.corrupt == 0 && s.unexpected == 0 && s.send_errors == 0 && s.errors.empty();
}

// Every endpoint finished, every planned message arrived once, in order and intact; no leak.
void check_scoreboard(const GrimRunResult& r) {
  INFO(r.table);
  CHECK(r.exit_code == 0);
  CHECK(r.delivered == r.planned);
  for (const auto& n : r.nodes) {
    CHECK(clean(n.score));
    for (const auto& d : n.devices) CHECK(clean(d));
    CHECK_FALSE(n.leaked);
  }
}

}  // namespace

TEST_CASE("A device endpoint sends to and receives from a remote host without its own host CPU", "[grim][endpoints]") {
  ParamValues pv;
  GrimRunOptions o = options(2, 1, 120, 6000);
  o.work.idle_hosts = 1;  // n0's host only opens its NIC; n0's device talks to n1's host and device
  const auto r = run(pv, o);
  check_scoreboard(r);
  const NodeResult& n0 = r.nodes[0];
  CHECK(n0.score.sent == 0);
  CHECK(n0.score.received == 0);
  CHECK(n0.devices[0].sent == 120);
  CHECK(n0.devices[0].received > 0);
  // n1's host received from n0's device (the scoreboard keys streams by source endpoint).
  CHECK(r.nodes[1].score.received > 0);
  // Not one PIO of n0's host after its endpoint was open, and no completion entry reached it.
  CHECK(n0.host_pio_after_open > 0);
  CHECK(n0.host_pio == n0.host_pio_after_open);
  CHECK_FALSE(n0.host_completion_waiting);
  CHECK(r.total(grim::kStatSendRefused) == 0);
  CHECK(r.total(grim::kStatNoEndpoint) == 0);
}

TEST_CASE("Host and device endpoints of one node send at once on their own channels under drops and CRC faults", "[grim][endpoints][faults]") {
  ParamValues pv;
  pv.set("fault.drop", "2e-5", "test");
  pv.set("fault.corrupt", "2e-5", "test");
  GrimRunOptions o = options(3, 2, 120, 5000);  // per node: host on channels 0-1, devices on 3 and 2
  o.grim.mtu = 2048;
  o.grim.rto_us = 150;
  const auto r = run(pv, o);
  check_scoreboard(r);
  CHECK(r.planned == 3 * 3 * 120);
  for (const auto& n : r.nodes) {
    CHECK(n.score.received > 0);
    for (const auto& d : n.devices) CHECK(d.received > 0);
  }
  // The faults happened and were recovered from.
  CHECK(r.total(grim::kStatBadDropped) > 0);
  CHECK(r.total(grim::kStatRetransmits) > 0);
  CHECK(r.total(grim::kStatSendRefused) == 0);
}

namespace {
struct Refusals {
  std::vector<GrimCompletion> host, device;
  std::string open_error;
  bool done = false;
};
}  // namespace

TEST_CASE("A send on a channel the endpoint does not own is refused with an error completion", "[grim][endpoints]") {
  ParamValues pv;
  const fw::Image im = fw::Image::load(GRIM_FW);
  host::NicNetworkSpec spec;
  spec.hosts = 2;
  apply_grim_defaults(pv);
  auto* net = new host::NicNetwork(pv, 1, im, spec);
  host::Host& h = net->host(0);
  GrimConfig g;
  g.channels = 0x7;  // the host: channels 0..2
  g.endpoints = 3;   // and devices 1 and 2 may open
  auto* drv = new GrimDriver(h, g);
  auto* drv1 = new GrimDriver(net->host(1), GrimConfig{});
  PciDevice& d1 = h.add_device("dev1", PciDeviceConfig{});
  PciDevice& d2 = h.add_device("dev2", PciDeviceConfig{});
  auto* ep1 = new GrimDeviceEndpoint(d1, h.pci(), GrimDeviceConfig{1, 0x8, 128});
  auto* ep2 = new GrimDeviceEndpoint(d2, h.pci(), GrimDeviceConfig{2, 0x1, 128});  // channel 0: the host's
  auto* res = new Refusals;
  h.spawn("t", [drv, res] {
    drv->open();
    const std::uint64_t buf = drv->alloc(64);
    drv->send(1, 3, buf, 64, 0x33);  // channel 3 is device 1's
    res->host.push_back(drv->wait_completion());
    drv->send_to(1, 0, 0, buf, 0, 0x34, 0);  // length 0
    res->host.push_back(drv->wait_completion());
  });
  net->host(1).spawn("t", [drv1] { drv1->open(); });
  d1.run([ep1, res](PciDevice&) {
    ep1->open();
    const std::uint64_t buf = ep1->alloc(64);
    ep1->send_to(1, 0, 1, buf, 64, 0x11, 0);  // channel 1 is the host's
    res->device.push_back(ep1->wait_completion());
    ep1->send_to(1, 0, 3, buf, 64, 0x12, 0);  // its own: sent
    res->device.push_back(ep1->wait_completion());
    res->done = true;
  });
  d2.run([ep2, res](PciDevice&) {
    try {
      ep2->open();
    } catch (const SimError& e) {
      res->open_error = e.what();
    }
  });
  sc_core::sc_start(sc_core::sc_time::from_value(2 * kMs));
  REQUIRE(res->done);
  REQUIRE(res->host.size() == 2);
  CHECK(res->host[0].kind == grim::kCqSendError);
  CHECK(res->host[0].tag == 0x33);
  CHECK(res->host[1].kind == grim::kCqSendError);
  REQUIRE(res->device.size() == 2);
  CHECK(res->device[0].kind == grim::kCqSendError);
  CHECK(res->device[0].tag == 0x11);
  CHECK(res->device[1].kind == grim::kCqSent);
  CHECK(res->device[1].tag == 0x12);
  CHECK(res->open_error.find("refused endpoint 2") != std::string::npos);
  const grim_host::Stats s = [&] {
    grim_host::Stats st{};
    const std::uint32_t hif = net->nic(0).regs().mailbox();
    for (std::uint32_t i = 0; i < grim::kStatWords; ++i) st[i] = net->nic(0).sram().read32(hif + grim::kHifStats + 4 * i);
    return st;
  }();
  CHECK(s[grim::kStatSendRefused] == 3);
  CHECK(s[grim::kStatDataSent] == 1);
}

TEST_CASE("Active messages: handlers registered with the master run at the receiving endpoint, in order", "[grim][am]") {
  ParamValues pv;
  pv.set("fault.drop", "1e-5", "test");
  GrimRunOptions o = options(3, 1, 100, 3000);
  o.work.am = true;
  o.grim.rto_us = 150;
  const auto r = run(pv, o);
  check_scoreboard(r);  // each handler ran the scoreboard check with its (source, endpoint, channel, payload)
  const Plan plan = make_plan(o.work);
  for (std::uint32_t n = 0; n < 3; ++n)
    for (std::uint32_t e = 0; e <= 1; ++e) {
      const NodeScore& s = e == 0 ? r.nodes[n].score : r.nodes[n].devices[0];
      INFO("n" << n << ".e" << e);
      CHECK(s.am_handlers == 2);           // the master's table: grim.check, grim.incr
      CHECK(s.am_handled == s.received);   // every message ran its handler
      CHECK(s.am_unknown == 0);
      std::uint64_t odd = 0;               // grim.incr: the messages of odd stream index
      for (const auto& [key, sizes] : plan.streams[ep_slot(n, e)]) odd += sizes.size() / 2;
      CHECK(s.am_incr == odd);
    }
  CHECK(r.am_unknown == 0);
}

TEST_CASE("Active messages naming a handler id nobody registered are counted errors, not crashes", "[grim][am]") {
  ParamValues pv;
  GrimRunOptions o = options(2, 1, 40, 2000);
  o.work.am = true;
  o.work.am_bogus = 3;
  const fw::Image im = fw::Image::load(GRIM_FW);
  const GrimRunResult r = run_grim(pv, im, o);
  INFO(r.table);
  REQUIRE(r.error.empty());   // the run finished
  CHECK(r.exit_code == 3);    // with counted errors
  CHECK(r.bogus_planned == 2 * 2 * 3);
  CHECK(r.am_unknown == r.bogus_planned);
  CHECK(r.delivered == r.planned);
  for (const auto& n : r.nodes) {
    CHECK(n.score.done);
    CHECK(n.score.out_of_order == 0);
    CHECK(n.score.corrupt == 0);
    CHECK(n.score.errors.empty());
    for (const auto& d : n.devices) CHECK(d.errors.empty());
    CHECK_FALSE(n.leaked);
  }
}

TEST_CASE("sanvp grim with device endpoints and active messages: the same seed gives identical results", "[grim][endpoints][cli]") {
  const std::string bin = SANVP_BIN;
  const std::string args = " grim --nodes 3 --device-endpoints 2 --am --messages 40 --sizes 1:3000 --mtu 2048 --rto 150"
                           " --set fault.drop=5e-5 --set fault.corrupt=5e-5";
  std::string reports[3];
  const char* seeds[3] = {"5", "5", "6"};
  for (int i = 0; i < 3; ++i) {
    const std::string rep = "/tmp/sanvp_grim_ep_det_" + std::to_string(i) + ".json";
    std::remove(rep.c_str());
    const auto p = sanvp::test::run(bin + args + " --seed " + seeds[i] + " --report " + rep);
    INFO(p.out << p.err);
    REQUIRE(p.rc == 0);
    reports[i] = sanvp::test::slurp(rep);
    REQUIRE(!reports[i].empty());
  }
  CHECK(reports[0] == reports[1]);
  CHECK(reports[0] != reports[2]);
  CHECK(reports[0].find("\"device_endpoints\"") != std::string::npos);
  for (const char* bad : {" grim --device-endpoints 4", " grim --idle-hosts 1", " grim --am --idle-hosts 1 --device-endpoints 1",
                          " grim --am-unknown 2", " grim --device-endpoints 1 --host-credits 8 --sizes 1:100", " grim --idle-hosts 4 --device-endpoints 1"}) {
    const std::string rep = "/tmp/sanvp_grim_ep_bad.json";
    std::remove(rep.c_str());
    const auto p = sanvp::test::run(bin + bad + " --report " + rep);
    INFO(bad << ": " << p.out << p.err);
    CHECK(p.rc == 2);
  }
}

namespace {
// A 4-byte ping-pong between endpoint `ep` of n0 and n1 (channel `ch`): one-way latencies of
// `rounds` round trips after one warm-up, checking each echo.
struct PingPong {
  std::vector<Time> one_way;
  bool ok = true, done = false;
};

void ping_pong(GrimEndpoint& me, std::uint32_t peer, std::uint32_t ch, bool starts, int rounds, PingPong& out) {
  const std::uint64_t tx = me.alloc(64), rx = me.alloc(64);
  const auto take = [&me](std::uint32_t kind) {
    GrimCompletion c;
    do c = me.wait_completion();
    while (c.kind != kind && !(kind == grim::kCqRecv && c.kind == grim::kCqRecvTruncated));
    return c;
  };
  for (int i = 0; i <= rounds; ++i) {
    me.post_recv(rx, 64);
    const Time t0 = now_ps();
    if (starts) {
      me.send_to(peer, me.endpoint(), ch, tx, 4, static_cast<std::uint32_t>(i), 0);
      const GrimCompletion c = take(grim::kCqRecv);
      out.ok = out.ok && c.tag == static_cast<std::uint32_t>(i) && c.peer == peer && c.peer_endpoint == me.endpoint() && c.length == 4;
      if (i > 0) out.one_way.push_back((now_ps() - t0) / 2);
    } else {
      const GrimCompletion c = take(grim::kCqRecv);
      me.send_to(peer, me.endpoint(), ch, tx, 4, c.tag, 0);
    }
  }
  out.done = true;
}
}  // namespace

TEST_CASE("Device-endpoint and host latency: a 4-byte ping-pong each, the device's at least its own PCI writes", "[grim][endpoints][latency]") {
  ParamValues pv;
  const fw::Image im = fw::Image::load(GRIM_FW);
  host::NicNetworkSpec spec;
  spec.hosts = 2;
  apply_grim_defaults(pv);  // CRC-32, as every GRIM run
  auto* net = new host::NicNetwork(pv, 1, im, spec);
  auto* host_pp = new PingPong;
  auto* dev_pp = new PingPong;
  const int rounds = 8;
  // Both NICs' instructions at the device phase's start, at its end, at the host phase's end.
  auto* instr = new std::vector<std::uint64_t>;
  auto total_instr = [net] { return net->nic(0).core().state().instret + net->nic(1).core().state().instret; };
  for (std::uint32_t n = 0; n < 2; ++n) {
    host::Host& h = net->host(static_cast<int>(n));
    GrimConfig g;
    g.channels = 0x7;
    g.endpoints = 2;
    auto* drv = new GrimDriver(h, g);
    PciDevice& d = h.add_device("dev1", PciDeviceConfig{});
    auto* ep = new GrimDeviceEndpoint(d, h.pci(), GrimDeviceConfig{1, 0x8, 128});
    // The devices first; the hosts once the devices are done (nothing else on the wire or the bus).
    d.run([ep, n, dev_pp, instr, total_instr](PciDevice&) {
      PingPong mine;
      ep->open();
      if (n == 0) instr->push_back(total_instr());
      ping_pong(*ep, 1 - n, 3, n == 0, rounds, n == 0 ? *dev_pp : mine);
    });
    h.spawn("pp", [drv, n, host_pp, dev_pp, instr, total_instr] {
      drv->open();  // the host starts the NIC (go); its ping-pong waits for the devices'
      while (!dev_pp->done) sc_core::wait(sc_core::sc_time::from_value(10 * kUs));
      if (n == 0) instr->push_back(total_instr());
      PingPong mine;
      ping_pong(*drv, 1 - n, 0, n == 0, rounds, n == 0 ? *host_pp : mine);
      if (n == 0) instr->push_back(total_instr());
    });
  }
  sc_core::sc_start(sc_core::sc_time::from_value(20 * kMs));
  REQUIRE(dev_pp->done);
  REQUIRE(host_pp->done);
  CHECK(dev_pp->ok);
  CHECK(host_pp->ok);
  REQUIRE(dev_pp->one_way.size() == static_cast<std::size_t>(rounds));
  Time dev = 0, host = 0;
  for (int i = 0; i < rounds; ++i) {
    dev += dev_pp->one_way[static_cast<std::size_t>(i)];
    host += host_pp->one_way[static_cast<std::size_t>(i)];
  }
  dev /= rounds;
  host /= rounds;
  // One way, the device itself writes a send-queue entry (16 bytes), the producer index and the
  // NIC's doorbell, and the receiving NIC writes its completion entry (32 bytes) and doorbell.
  const PciConfig& p = net->host(0).pci().config();
  CHECK(dev > p.transaction(16) + 2 * p.transaction(4) + p.transaction(32) + p.transaction(4));
  // NIC firmware per one-way message (both NICs, warm-up included): the device's completions
  // each take a doorbell write the host's do not.
  REQUIRE(instr->size() == 3);
  const double per_dev = static_cast<double>((*instr)[1] - (*instr)[0]) / (2.0 * (rounds + 1));
  const double per_host = static_cast<double>((*instr)[2] - (*instr)[1]) / (2.0 * (rounds + 1));
  CHECK(per_dev > per_host);
  WARN("4-byte one-way latency: device endpoints " << format_time(dev) << ", host endpoints " << format_time(host)
       << "; NIC instructions per one-way message: device " << per_dev << ", host " << per_host);
}
