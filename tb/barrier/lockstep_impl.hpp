// Lockstep runner, templated on the Verilated RTL class (one instantiation per NREGS variant).
#pragma once
#include <fmt/format.h>

#include <sstream>
#include <systemc>
#include <vector>

#include "hw/barrier/barrier_unit.hpp"
#include "hw/base/rng.hpp"
#include "tb/barrier/lockstep.hpp"
#include "tb/rtl/lockstep.hpp"

namespace sanvp::barrier::tb {

// Everything one model shows at its outputs.
template <int kPorts>
struct OutputsT {
  std::uint32_t out_valid = 0, resp_code = 0, resp_reg = 0, busy = 0, drops = 0;
  sc_dt::sc_bv<16 * kPorts> out_data;
  bool resp_valid = false;
};

template <int kPorts>
struct InputsT {
  using Data = sc_dt::sc_bv<16 * kPorts>;
  bool rst_n = false;
  std::uint32_t in_valid = 0, out_ready = 0;
  Data in_data;
  bool cfg_valid = false;
  std::uint32_t cfg_op = 0, cfg_gid = 0, cfg_parent = 0, cfg_cmask = 0;
};

// The barrier environment of protocol mode: groups of one switch, seen from its ports.
template <int kPorts>
class ProtocolEnv {
  using Data = sc_dt::sc_bv<16 * kPorts>;
  using Outputs = OutputsT<kPorts>;
  using Inputs = InputsT<kPorts>;

 public:
  ProtocolEnv(std::uint64_t seed, int registers, LockstepResult& res)
      : rng_(seed, "tb.barrier.lockstep.protocol"), registers_(registers), res_(res),
        groups_(static_cast<std::size_t>(registers + 2)), reg_owner_(static_cast<std::size_t>(registers), -1) {}

  // Observes what happened at the last edge (transfers and config response), then drives the next.
  void step(std::uint64_t cyc, const Inputs& last_in, const Outputs& last_out, const Outputs& now, Inputs& next) {
    cyc_ = cyc;
    for (int p = 0; p < kPorts; ++p) {
      if ((last_out.out_valid >> p & 1u) && (last_in.out_ready >> p & 1u))
        observe_output(p, BarrierMessage::decode(static_cast<std::uint16_t>(
                              last_out.out_data.range(16 * p + 15, 16 * p).to_uint())));
    }
    if (last_in.cfg_valid) observe_response(now);
    drive(next);
  }
  const std::string& error() const { return error_; }

 private:
  enum class Phase { Free, Allocating, Active, Releasing };
  struct Group {
    Phase phase = Phase::Free;
    std::uint8_t gid = 0;
    int parent = 0, reg = -1;
    std::uint32_t cmask = 0, expect = 0;
    std::uint32_t to_send = 0;            // children whose REDUCE is still to be sent
    std::uint64_t send_at[kPorts] = {};   // when each of them sends it
    std::uint32_t sent = 0;               // children whose REDUCE of this episode was delivered
    bool reduce_seen = false;
    std::uint64_t dist_at = kNever64;
    std::uint32_t dist_outstanding = 0;   // children still to receive this episode's DIST
    std::uint8_t episode_data = 0, last_reduce_data = 0;
    int episodes_left = 0;
    std::uint64_t release_at = kNever64;
  };
  static constexpr std::uint64_t kNever64 = ~std::uint64_t{0};
  struct PendingCfg { int group; ConfigOp op; std::uint8_t gid; int parent; std::uint32_t cmask; ConfigStatus expect; };

  void fail(const std::string& what) {
    if (error_.empty()) error_ = "scoreboard: " + what;
  }
  int find_gid(std::uint8_t gid) const {
    for (std::size_t i = 0; i < groups_.size(); ++i)
      if (groups_[i].phase != Phase::Free && groups_[i].gid == gid) return static_cast<int>(i);
    return -1;
  }

  void observe_output(int port, const BarrierMessage& m) {
    const int gi = find_gid(m.gid);
    if (gi < 0) return fail(fmt::format("output {:04x} on port {} for a GID no group holds", m.encode(), port));
    Group& g = groups_[static_cast<std::size_t>(gi)];
    if (g.phase == Phase::Releasing || g.phase == Phase::Allocating) return;  // left as the release was decided
    if (m.type == MsgType::Reduce) {
      if (port != g.parent) return fail(fmt::format("REDUCE of gid {} on port {}, P is {}", m.gid, port, g.parent));
      if (g.sent != g.expect || g.reduce_seen)
        return fail(fmt::format("REDUCE of gid {} before all children arrived", m.gid));
      g.sent = 0;
      if (m.data != g.last_reduce_data) return fail(fmt::format("REDUCE of gid {} carries data {} not the last arrival's {}", m.gid, m.data, g.last_reduce_data));
      g.reduce_seen = true;
      g.dist_at = cyc_ + 1 + rng_.below(rng_.below(4) == 0 ? 60 : 6);
    } else if (m.type == MsgType::Distribute) {
      const std::uint32_t bit = 1u << port;
      if ((g.dist_outstanding & bit) == 0)
        return fail(fmt::format("DISTRIBUTE of gid {} on port {} which is not an outstanding child", m.gid, port));
      if (m.data != g.episode_data) return fail("DISTRIBUTE carries the wrong data");
      g.dist_outstanding &= ~bit;
      if (g.episodes_left > 1) {  // this child proceeds and arrives at the next barrier
        g.to_send |= bit;
        g.send_at[port] = cyc_ + 1 + rng_.below(rng_.below(3) == 0 ? 80 : 8);
      }
      if (g.dist_outstanding == 0) {
        ++res_.episodes;
        if (--g.episodes_left == 0) {
          g.release_at = cyc_ + rng_.below(20);
        } else {
          g.episode_data = static_cast<std::uint8_t>(rng_.below(64));
        }
      }
    } else {
      fail("output message with a malformed type");
    }
  }

  void observe_response(const Outputs& now) {
    if (!now.resp_valid) return fail("no config response one cycle after a config write");
    const PendingCfg c = cfg_;
    const auto st = static_cast<ConfigStatus>(now.resp_code);
    if (st != c.expect)
      return fail(fmt::format("config op {} gid {}: response {} expected {}", int(c.op), c.gid, to_string(st), to_string(c.expect)));
    if (c.group < 0) { ++res_.config_errors; return; }
    Group& g = groups_[static_cast<std::size_t>(c.group)];
    if (c.op == ConfigOp::Alloc) {
      if (st == ConfigStatus::Full) { ++res_.allocs_full; g.phase = Phase::Free; return; }
      int lowest = -1;
      for (int r = 0; r < registers_; ++r) if (reg_owner_[static_cast<std::size_t>(r)] < 0) { lowest = r; break; }
      if (static_cast<int>(now.resp_reg) != lowest) return fail(fmt::format("ALLOC got register {} not the lowest free {}", now.resp_reg, lowest));
      ++res_.allocs_ok;
      reg_owner_[now.resp_reg] = c.group;
      g.reg = static_cast<int>(now.resp_reg);
      g.phase = Phase::Active;
      g.episodes_left = 1 + static_cast<int>(rng_.below(6));
      g.episode_data = static_cast<std::uint8_t>(rng_.below(64));
      g.to_send = g.expect;
      for (int p = 0; p < kPorts; ++p) g.send_at[p] = cyc_ + rng_.below(rng_.below(2) ? 100 : 10);
    } else {
      if (static_cast<int>(now.resp_reg) != g.reg) return fail("RELEASE answered with another register");
      ++res_.releases;
      reg_owner_[static_cast<std::size_t>(g.reg)] = -1;
      g = Group{};
    }
  }

  std::uint32_t random_cmask(int parent) {
    std::uint32_t m = static_cast<std::uint32_t>(rng_.below(1u << kPorts)) | (1u << parent);
    if ((m & ~(1u << parent)) == 0) m |= 1u << ((parent + 1 + static_cast<int>(rng_.below(kPorts - 1))) % kPorts);
    return m;
  }
  std::uint8_t unused_gid() {
    for (;;) {
      auto gid = static_cast<std::uint8_t>(rng_.below(256));
      if (find_gid(gid) < 0) return gid;
    }
  }
  int busy_registers() const {
    int n = 0;
    for (int o : reg_owner_) n += o >= 0;
    return n;
  }

  void drive_config(Inputs& in) {
    cfg_ = PendingCfg{-1, ConfigOp::Nop, 0, 0, 0, ConfigStatus::Invalid};
    if (rng_.below(4) != 0) return;  // config writes are rare events
    // 1. due releases (teardown), also aborting an active group now and then
    for (std::size_t i = 0; i < groups_.size(); ++i) {
      Group& g = groups_[i];
      const bool abort = g.phase == Phase::Active && rng_.below(4000) == 0;
      if (g.phase == Phase::Active && (abort || (g.episodes_left == 0 && cyc_ >= g.release_at))) {
        g.phase = Phase::Releasing;
        cfg_ = PendingCfg{static_cast<int>(i), ConfigOp::Release, g.gid, 0, 0, ConfigStatus::Ok};
        return put(in);
      }
    }
    // 2. occasionally a bad request: invalid setup, duplicate GID, unknown release, bad op
    if (rng_.below(8) == 0) {
      const int kind = static_cast<int>(rng_.below(5));
      const int parent = static_cast<int>(rng_.below(kPorts));
      switch (kind) {
        case 0: cfg_ = {-1, ConfigOp::Alloc, unused_gid(), parent, random_cmask(parent) & ~(1u << parent), ConfigStatus::Invalid}; break;
        case 1: cfg_ = {-1, ConfigOp::Alloc, unused_gid(), kPorts + static_cast<int>(rng_.below(64 - kPorts)), (1u << kPorts) - 1, ConfigStatus::Invalid}; break;
        case 2: cfg_ = {-1, ConfigOp::Release, unused_gid(), 0, 0, ConfigStatus::NotFound}; break;
        case 3: cfg_ = {-1, rng_.below(2) ? ConfigOp::Nop : ConfigOp::Reserved, unused_gid(), parent, random_cmask(parent), ConfigStatus::Invalid}; break;
        default: {
          for (const auto& g : groups_)
            if (g.phase == Phase::Active) { cfg_ = {-1, ConfigOp::Alloc, g.gid, parent, random_cmask(parent), ConfigStatus::Duplicate}; break; }
        }
      }
      if (cfg_.expect != ConfigStatus::Invalid || cfg_.op != ConfigOp::Nop || kind == 3) return put(in);
    }
    // 3. set up a free group (exhaustion expected when every register is taken)
    if (busy_registers() == registers_ && rng_.below(8) != 0) return;
    for (std::size_t k = 0; k < groups_.size(); ++k) {
      const std::size_t i = (alloc_rr_ + k) % groups_.size();
      Group& g = groups_[i];
      if (g.phase != Phase::Free) continue;
      alloc_rr_ = i + 1;
      g.gid = unused_gid();
      g.parent = static_cast<int>(rng_.below(kPorts));
      g.cmask = random_cmask(g.parent);
      g.expect = g.cmask & ~(1u << g.parent);
      g.phase = Phase::Allocating;
      cfg_ = PendingCfg{static_cast<int>(i), ConfigOp::Alloc, g.gid, g.parent, g.cmask,
                        busy_registers() == registers_ ? ConfigStatus::Full : ConfigStatus::Ok};
      return put(in);
    }
  }
  void put(Inputs& in) {
    in.cfg_valid = true;
    in.cfg_op = static_cast<std::uint32_t>(cfg_.op);
    in.cfg_gid = cfg_.gid;
    in.cfg_parent = static_cast<std::uint32_t>(cfg_.parent);
    in.cfg_cmask = cfg_.cmask;
  }

  void drive(Inputs& in) {
    in.rst_n = true;
    in.cfg_valid = false;
    in.cfg_op = in.cfg_gid = in.cfg_parent = in.cfg_cmask = 0;
    in.in_valid = 0;
    in.in_data = Data();
    drive_config(in);
    // Output ports: random acceptance with bursts of stall (a normal worm holding the link).
    in.out_ready = 0;
    for (int p = 0; p < kPorts; ++p) {
      if (stall_until_[p] > cyc_) { ++res_.stall_cycles; continue; }
      if (rng_.below(200) == 0) { stall_until_[p] = cyc_ + 1 + rng_.below(60); continue; }
      if (rng_.below(4) != 0) in.out_ready |= 1u << p;
    }
    // Inputs: at most one message per port per cycle; groups take turns.
    int senders = 0;
    for (int p = 0; p < kPorts; ++p) {
      const std::size_t n = groups_.size();
      for (std::size_t k = 0; k < n; ++k) {
        Group& g = groups_[(in_rr_[p] + k) % n];
        if (g.phase != Phase::Active) continue;
        const std::uint32_t bit = 1u << p;
        BarrierMessage m;
        if ((g.to_send & bit) && g.send_at[p] <= cyc_) {
          // a child sends its REDUCE
          m = BarrierMessage{MsgType::Reduce, g.gid, static_cast<std::uint8_t>(rng_.below(64))};
          g.to_send &= ~bit;
          g.sent |= bit;
          g.last_reduce_data = m.data;
        } else if (p == g.parent && g.reduce_seen && g.dist_at <= cyc_) {
          m = BarrierMessage{MsgType::Distribute, g.gid, g.episode_data};
          g.reduce_seen = false;
          g.dist_at = kNever64;
          g.dist_outstanding = g.expect;
        } else {
          continue;
        }
        in.in_valid |= bit;
        in.in_data.range(16 * p + 15, 16 * p) = m.encode();
        in_rr_[p] = (in_rr_[p] + k + 1) % n;
        ++res_.messages_in;
        ++senders;
        break;
      }
      // Junk that any switch must drop without effect: malformed types, unknown GIDs, REDUCE
      // from a port outside C, DISTRIBUTE from a port other than P.
      if (!(in.in_valid >> p & 1u) && rng_.below(300) == 0) {
        BarrierMessage junk{MsgType::None, unused_gid(), static_cast<std::uint8_t>(rng_.below(64))};
        const int kind = static_cast<int>(rng_.below(4));
        if (kind == 0) junk.type = rng_.below(2) ? MsgType::None : MsgType::Reserved;
        if (kind == 1) junk.type = MsgType::Reduce;
        if (kind >= 2) {
          for (const auto& g : groups_) {
            if (g.phase != Phase::Active) continue;
            if (kind == 2 && !(g.expect >> p & 1u)) junk = {MsgType::Reduce, g.gid, 0};
            if (kind == 3 && p != g.parent) junk = {MsgType::Distribute, g.gid, 0};
            break;
          }
        }
        if (junk.type == MsgType::None && kind >= 2) continue;
        in.in_valid |= 1u << p;
        in.in_data.range(16 * p + 15, 16 * p) = junk.encode();
        ++res_.messages_in;
        ++senders;
      }
    }
    if (senders > 1) ++res_.same_cycle_multi_arrivals;
  }

  Rng rng_;
  int registers_;
  LockstepResult& res_;
  std::vector<Group> groups_;
  std::vector<int> reg_owner_;
  std::uint64_t cyc_ = 0;
  std::uint64_t stall_until_[kPorts] = {};
  std::size_t in_rr_[kPorts] = {};
  std::size_t alloc_rr_ = 0;
  PendingCfg cfg_{-1, ConfigOp::Nop, 0, 0, 0, ConfigStatus::Invalid};
  std::string error_;
};

// Chaos mode: unconstrained random stimulus over a few GIDs (no scoreboard, lockstep only).
template <int kPorts>
class ChaosEnv {
  using Data = sc_dt::sc_bv<16 * kPorts>;

 public:
  explicit ChaosEnv(std::uint64_t seed) : rng_(seed, "tb.barrier.lockstep.chaos") {}
  void step(std::uint64_t cyc, InputsT<kPorts>& in) {
    in.rst_n = rng_.below(50000) != 0;  // an occasional reset in the middle of traffic
    in.in_valid = 0;
    in.in_data = Data();
    for (int p = 0; p < kPorts; ++p) {
      if (rng_.below(3) != 0) continue;
      const auto type = static_cast<MsgType>(rng_.below(16) == 0 ? rng_.below(4) : 1 + rng_.below(2));
      const BarrierMessage m{type, static_cast<std::uint8_t>(rng_.below(6)), static_cast<std::uint8_t>(rng_.below(64))};
      in.in_valid |= 1u << p;
      in.in_data.range(16 * p + 15, 16 * p) = m.encode();
    }
    in.out_ready = static_cast<std::uint32_t>(rng_.below(1u << kPorts)) | static_cast<std::uint32_t>(rng_.below(1u << kPorts));
    in.cfg_valid = rng_.below(6) == 0;
    in.cfg_op = rng_.below(10) == 0 ? static_cast<std::uint32_t>(rng_.below(4)) : 1 + static_cast<std::uint32_t>(rng_.below(2));
    in.cfg_gid = static_cast<std::uint32_t>(rng_.below(6));
    in.cfg_parent = static_cast<std::uint32_t>(rng_.below(20) == 0 ? rng_.below(64) : rng_.below(kPorts));
    in.cfg_cmask = static_cast<std::uint32_t>(rng_.below(1u << kPorts));
    if (rng_.below(2) && static_cast<int>(in.cfg_parent) < kPorts) in.cfg_cmask |= 1u << in.cfg_parent;
    (void)cyc;
  }

 private:
  Rng rng_;
};

// The bench: golden BarrierUnit and Verilated RTL on the same pins, under the lockstep harness.
template <class Rtl, int kPorts>
class LockstepBench : public sc_core::sc_module {
 public:
  using Golden = BarrierUnit<kPorts>;
  using Data = sc_dt::sc_bv<16 * kPorts>;
  using Outputs = OutputsT<kPorts>;
  using Inputs = InputsT<kPorts>;

  sanvp::tb::Lockstep ls;  // first: it sets up Verilator tracing before the RTL is built
  sc_core::sc_signal<std::uint32_t> in_valid{"in_valid"}, out_ready{"out_ready"};
  sc_core::sc_signal<Data> in_data{"in_data"};
  sc_core::sc_signal<bool> cfg_valid{"cfg_valid"};
  sc_core::sc_signal<std::uint32_t> cfg_op{"cfg_op"}, cfg_gid{"cfg_gid"}, cfg_parent{"cfg_parent"}, cfg_cmask{"cfg_cmask"};
  struct OutSignals {
    sc_core::sc_signal<std::uint32_t> out_valid, resp_code, resp_reg, busy, drops;
    sc_core::sc_signal<Data> out_data;
    sc_core::sc_signal<bool> resp_valid;
    Outputs read() const {
      return Outputs{out_valid.read(), resp_code.read(), resp_reg.read(), busy.read(), drops.read(),
                     out_data.read(), resp_valid.read()};
    }
    template <class M>
    void bind(M& m) {
      m.out_valid(out_valid); m.out_data(out_data); m.cfg_resp_valid(resp_valid); m.cfg_resp_code(resp_code);
      m.cfg_resp_reg(resp_reg); m.st_busy(busy); m.st_drops(drops);
    }
  } gold_out, rtl_out;

  Golden golden;
  Rtl rtl;

  LockstepBench(sc_core::sc_module_name name, const LockstepOptions& opt, LockstepResult& res)
      : sc_core::sc_module(name), ls("ls", harness_options(opt)), golden("golden", opt.registers), rtl("rtl"),
        opt_(opt), res_(res), protocol_(ls.options().seed, opt.registers, res), chaos_(ls.options().seed) {
    bind(golden);
    bind(rtl);
    gold_out.bind(golden);
    rtl_out.bind(rtl);
    golden.inject_fault_at(opt.fault_at);
    ls.attach_rtl(rtl);
    ls.input("in_valid", in_valid);
    ls.input("in_data", in_data);
    ls.input("out_ready", out_ready);
    ls.input("cfg_valid", cfg_valid);
    ls.input("cfg_op", cfg_op);
    ls.input("cfg_gid", cfg_gid);
    ls.input("cfg_parent", cfg_parent);
    ls.input("cfg_cmask", cfg_cmask);
    ls.output("out_valid", rtl_out.out_valid, gold_out.out_valid);
    ls.output("out_data", rtl_out.out_data, gold_out.out_data);
    ls.output("cfg_resp_valid", rtl_out.resp_valid, gold_out.resp_valid);
    ls.output("cfg_resp_code", rtl_out.resp_code, gold_out.resp_code);
    ls.output("cfg_resp_reg", rtl_out.resp_reg, gold_out.resp_reg);
    ls.output("st_busy", rtl_out.busy, gold_out.busy);
    ls.output("st_drops", rtl_out.drops, gold_out.drops);
    ls.on_edge([this] { on_edge(); });
    ls.drive([this] { drive(); });
  }

 private:
  static sanvp::tb::LockstepOptions harness_options(const LockstepOptions& opt) {
    sanvp::tb::LockstepOptions o = opt;
    o.reset_cycles = 3;
    return o;
  }
  template <class M>
  void bind(M& m) {
    m.clk(ls.clk); m.rst_n(ls.rst_n); m.in_valid(in_valid); m.in_data(in_data); m.out_ready(out_ready);
    m.cfg_valid(cfg_valid); m.cfg_op(cfg_op); m.cfg_gid(cfg_gid); m.cfg_parent(cfg_parent); m.cfg_cmask(cfg_cmask);
  }

  // Both models agree after this edge: count what left the unit at it.
  void on_edge() {
    now_ = gold_out.read();
    res_.drops = now_.drops;
    for (int p = 0; p < kPorts; ++p) {
      if (!applied_.rst_n || !(last_out_.out_valid >> p & 1u) || !(applied_.out_ready >> p & 1u)) continue;
      ++res_.messages_out;
      const auto raw = static_cast<std::uint16_t>(last_out_.out_data.range(16 * p + 15, 16 * p).to_uint());
      if (BarrierMessage::decode(raw).type == MsgType::Reduce) ++res_.reduces_out;
    }
  }

  void drive() {
    const std::uint64_t cycle = ls.cycle();
    Inputs next;
    if (opt_.chaos) {
      chaos_.step(cycle, next);
      for (int p = 0; p < kPorts; ++p) res_.messages_in += next.in_valid >> p & 1u;
    } else {
      protocol_.step(cycle, applied_, last_out_, now_, next);
      if (!protocol_.error().empty()) return ls.fail(protocol_.error());
    }
    ls.rst_n.write(next.rst_n);
    in_valid.write(next.in_valid);
    in_data.write(next.in_data);
    out_ready.write(next.out_ready);
    cfg_valid.write(next.cfg_valid);
    cfg_op.write(next.cfg_op);
    cfg_gid.write(next.cfg_gid);
    cfg_parent.write(next.cfg_parent);
    cfg_cmask.write(next.cfg_cmask);
    applied_ = next;
    last_out_ = now_;
  }

  LockstepOptions opt_;
  LockstepResult& res_;
  ProtocolEnv<kPorts> protocol_;
  ChaosEnv<kPorts> chaos_;
  Inputs applied_;
  Outputs last_out_, now_;
};

template <class Rtl, int kPorts>
LockstepResult run_lockstep(const LockstepOptions& opt, int registers) {
  LockstepOptions o = opt;
  o.registers = registers;
  LockstepResult res;
  LockstepBench<Rtl, kPorts> top("lockstep", o, res);
  static_cast<sanvp::tb::LockstepResult&>(res) = top.ls.run();
  if (!res.ok()) res.report = fmt::format("{} mode, NPORTS={} NREGS={}: ", o.chaos ? "chaos" : "protocol", kPorts, registers) + res.report;
  res.reduces_fired = top.golden.core().fired();
  for (int i = 0; i < kDropReasons; ++i) res.drop_reasons[i] = top.golden.core().drops(static_cast<DropReason>(i));
  return res;
}

}  // namespace sanvp::barrier::tb
