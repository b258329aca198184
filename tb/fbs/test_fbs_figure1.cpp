// FBS Figure 1 in the waves (issue 15): the fast NIC n1 (2 us ahead) sends packet B to n0 at its
// slot 1 boundary while the slow NIC n0's packet A of slot 0 (its U-turn) still holds n0's link
// (sw0.p0.out). B piles up in sw0.p1.in, STOP reaches n1, n1 stays stopped until A's tail has
// left sw0.p0.out, GO comes, and n1's next slot boundary moves by exactly the ticks it was held.
// The run writes a VCD (the one waves/fbs-figure1.gtkw shows); the test reads it back and checks
// every edge of that story against times derived from the parameters.
#include <catch2/catch.hpp>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "platform/fbs/fbs_run.hpp"
#include "platform/fbs/skew_model.hpp"
#include "tb/common/test_run.hpp"

using namespace sanvp;
using namespace sanvp::fbs;

namespace {

// A VCD read back: per signal (scope.name, e.g. "n1.out.stop") its value changes in time order.
struct Vcd {
  struct Change { Time t; std::uint64_t v; };
  std::map<std::string, std::vector<Change>> sig;

  const std::vector<Change>& of(const std::string& name) const {
    const auto it = sig.find(name);
    if (it == sig.end()) FAIL("the VCD has no signal " << name);
    return it->second;
  }
  // The first instant at or after `from` at which `name` takes value `v`.
  Time first(const std::string& name, std::uint64_t v, Time from = 0) const {
    for (const Change& c : of(name))
      if (c.t >= from && c.v == v) return c.t;
    FAIL(name << " never takes the value " << v << " after " << from << " ps");
    return 0;
  }
  // The value of `name` at instant t (after the changes at t).
  std::uint64_t at(const std::string& name, Time t) const {
    std::uint64_t v = 0;
    for (const Change& c : of(name)) {
      if (c.t > t) break;
      v = c.v;
    }
    return v;
  }
};

// Reads the subset of VCD that sanvp's tracer writes: scopes, wires, #time, bN id and 0/1id.
Vcd read_vcd(const std::string& path) {
  std::ifstream f(path);
  REQUIRE(f.good());
  Vcd vcd;
  std::vector<std::string> scopes;
  std::map<std::string, std::string> name_of;  // VCD id -> scope.name
  std::string line;
  Time now = 0;
  while (std::getline(f, line)) {
    std::istringstream in(line);
    std::string w;
    in >> w;
    if (w == "$scope") {
      std::string kind, name;
      in >> kind >> name;
      scopes.push_back(name);
    } else if (w == "$upscope") {
      scopes.pop_back();
    } else if (w == "$var") {
      std::string type, width, id, name, full;
      in >> type >> width >> id >> name;
      for (const auto& s : scopes) full += s + ".";
      name_of[id] = full + name;
    } else if (!w.empty() && w[0] == '#') {
      now = std::stoull(w.substr(1));
    } else if (!w.empty() && w[0] == 'b') {
      std::string id;
      in >> id;
      vcd.sig[name_of.at(id)].push_back({now, std::stoull(w.substr(1), nullptr, 2)});
    } else if (!w.empty() && (w[0] == '0' || w[0] == '1')) {
      vcd.sig[name_of.at(w.substr(1))].push_back({now, static_cast<std::uint64_t>(w[0] - '0')});
    }
  }
  return vcd;
}

constexpr std::uint64_t kHead = 1, kTail = 3;  // nN.out.kind / swS.pP.out.kind

}  // namespace

TEST_CASE("Figure 1 in the waves: B blocked while A holds the link, STOP, GO, the slot boundary moved") {
  const std::string vcd_path = std::string(SANVP_BINARY_DIR) + "/tb/fbs/fbs_figure1_test.vcd";
  // The command of waves/fbs-figure1.vcd (docs/fbs.md): n1 starts 2000 ticks (2 us) ahead.
  ParamValues pv = test::test_params({"fbs.drift=0.001", "fbs.initial_skew=0", "fbs.interval=10", "fbs.rounds=1", "n1.fbs.offset_ticks=-2000"});
  const SkewInputs p = SkewInputs::from_params(pv);  // ld, cp, sd, rd, fc, ks, kg of the run
  RunOptions opt = test::checked_run_options();
  opt.vcd = vcd_path;
  const RunResult run = run_fbs(pv, opt, make_run_input(load_network_arg("single", {"ports=2"}), "sss"));
  REQUIRE(run.report["status"] == "completed");
  const auto& nics = run.report["results"]["fbs"]["nics"];
  REQUIRE(nics[0]["pauses"] == 0);
  REQUIRE(nics[1]["pauses"] == 1);
  const std::int64_t paused = nics[1]["paused_ticks"].get<std::int64_t>();
  const Vcd w = read_vcd(vcd_path);

  // Slot boundaries: fbs.start (200 us) + slot on n0; 2 us earlier on n1. The clocks are
  // +-0.0005 ppm off (fbs.drift = 0.001): a tick edge lands on the first whole ps at or after its
  // real instant, so n0's (slow) boundaries fall 1 ps late at 200 us, n1's exactly.
  const Time slot = static_cast<Time>(p.slot()), start = 200 * kUs, lead = 2 * kUs;
  const Time t0_slow = w.first("n0.fbs.slot", 0), t1_fast = w.first("n1.fbs.slot", 1);
  REQUIRE(t0_slow == start + 1);
  REQUIRE(w.first("n1.fbs.slot", 0) == start - lead);
  REQUIRE(t1_fast == start - lead + slot);
  // A: n0's slot-0 packet (its U-turn) leaves at its boundary; B: n1's slot-1 packet to n0 at its.
  REQUIRE(w.first("n0.out.kind", kHead) == t0_slow);
  REQUIRE(w.first("n1.out.kind", kHead, t1_fast) == t1_fast);
  const std::uint64_t pkt_a = w.at("n0.out.packet", t0_slow), pkt_b = w.at("n1.out.packet", t1_fast);

  // A on link L (sw0.p0.out, into n0): its head after ld + rd + sd, its tail (L - 2) cp later
  // (the route byte is consumed; L = slot - guard bytes with the CRC).
  const std::int64_t guard = (p.rd + p.sd + p.cp - 1) / p.cp + 1, wire = p.slot_bytes - guard;
  const Time a_head_out = t0_slow + static_cast<Time>(p.ld + p.rd + p.sd);
  const Time a_tail_out = a_head_out + static_cast<Time>((wire - 2) * p.cp);
  REQUIRE(w.first("sw0.p0.out.kind", kHead) == a_head_out);
  REQUIRE(w.at("sw0.p0.out.packet", a_head_out) == pkt_a);
  REQUIRE(w.first("sw0.p0.out.kind", kTail, a_head_out) == a_tail_out);

  // B piles up in sw0.p1.in: STOP leaves it as the occupancy reaches ks (B's flit ks arrives,
  // the route byte having gone at routing), and holds n1 ld + 2 fc later (n1.send.state 2).
  const Time stop_sent = w.first("sw0.p1.in.stop_sent", 1, t1_fast);
  REQUIRE(stop_sent == t1_fast + static_cast<Time>(p.ld + p.ks * p.cp));
  REQUIRE(w.at("sw0.p1.in.occupancy", stop_sent) == static_cast<std::uint64_t>(p.ks));
  const Time held = w.first("n1.send.state", 2, t1_fast);
  REQUIRE(held == stop_sent + static_cast<Time>(p.ld + 2 * p.fc));
  REQUIRE(w.first("n1.out.stop", 1, t1_fast) == held);  // the row shows STOP when n1 obeys it
  REQUIRE(held < a_tail_out);  // B is stopped while A still holds L

  // n1 stays stopped until A has released L: L goes to B (owner: input p1 + 1) when A's tail has
  // left, and B's head follows one cp after A's tail (the link's spacing).
  REQUIRE(w.first("sw0.p0.out.owner", 2) == a_tail_out);
  const Time b_head_out = w.first("sw0.p0.out.kind", kHead, a_tail_out);
  REQUIRE(b_head_out == a_tail_out + static_cast<Time>(p.cp));
  REQUIRE(w.at("sw0.p0.out.packet", b_head_out) == pkt_b);
  // GO: the buffer held ks + n_rt flits (those in flight when STOP took effect); GO leaves as its
  // occupancy drains to kg, one flit per cp from B's head on, and frees n1 ld + 2 fc later.
  const std::int64_t n_rt = (2 * p.ld + 2 * p.fc + p.cp - 1) / p.cp - 1;
  const Time go_sent = w.first("sw0.p1.in.stop_sent", 0, stop_sent);
  REQUIRE(go_sent == b_head_out + static_cast<Time>((p.ks + n_rt - p.kg - 1) * p.cp));
  REQUIRE(w.at("sw0.p1.in.occupancy", go_sent) == static_cast<std::uint64_t>(p.kg));
  const Time resumed = w.first("n1.send.state", 1, held);
  REQUIRE(resumed == go_sent + static_cast<Time>(p.ld + 2 * p.fc));
  REQUIRE(w.first("n1.out.stop", 0, held) == resumed);
  REQUIRE(w.at("n1.send.state", resumed - 1) == 2);  // held all the way from STOP to GO

  // The pause: SEND_BLOCKED counts from the held flit's due time (n1 sent ks + n_rt + 1 flits
  // before STOP took effect) to its departure at the GO, in whole 1 ns ticks (the resume is 21 ps
  // past a tick edge, far from the +-0.0005 ppm that could move one).
  const Time due = t1_fast + static_cast<Time>((p.ks + n_rt + 1) * p.cp);
  REQUIRE(due >= held);
  REQUIRE(paused == static_cast<std::int64_t>((resumed - due) / kNs));
  REQUIRE(w.first("n1.sys.probe_tag", 0xFB50002u, resumed) > resumed);  // the pause probe after GO
  // n1's next boundary moved by exactly the paused ticks; n0's did not move.
  REQUIRE(w.first("n1.fbs.slot", 2) == t1_fast + slot + static_cast<Time>(paused) * kNs);
  REQUIRE(w.first("n0.fbs.slot", 2) == start + 2 * slot + 1);
  // What stays ahead of n0 after the round: the lead less the pause, inside the dead zone.
  REQUIRE(w.first("n0.fbs.slot", 2) - w.first("n1.fbs.slot", 2) == lead - static_cast<Time>(paused) * kNs + 1);
}
