// BarrierUnit: the clocked (cycle-level) wrapper of BarrierCore, with exactly the ports of
// hw/rtl/barrier_unit.sv as Verilator --sc exposes them (1 bit: bool, 2..32 bits: uint32_t,
// > 64 bits: sc_bv), so one stimulus drives both and their outputs compare every cycle.
//
// Cycle contract (all inputs sampled at the rising clock edge, all outputs are functions of the
// state after that edge, i.e. registered):
//   rst_n = 0           synchronous reset: every register free, counters 0.
//   out_valid[p], out_data[p*16+:16]
//                       the message port p offers (round-robin over registers with a pending
//                       message for p); out_data is 0 while out_valid[p] is 0.
//   out_ready[p]        the port takes the offered message at this edge (when out_valid[p]).
//   cfg_valid, cfg_op, cfg_gid, cfg_parent (6 bits), cfg_cmask (Ports bits)
//                       one register write (ALLOC/RELEASE, config.hpp) at this edge.
//   cfg_resp_valid, cfg_resp_code (3 bits), cfg_resp_reg (8 bits)
//                       its answer, valid for the one cycle after the write; 0 otherwise.
//   in_valid[p], in_data[p*16+:16]
//                       a complete barrier message arrived on port p; always accepted (a barrier
//                       message never waits in the input buffer).
//   st_busy[r]          register r is allocated;  st_drops: dropped messages, 16-bit wrapping.
// Order of the work within one edge: output transfers, configuration write, input messages in
// ascending port order, then every complete register fires. A message therefore leaves one cycle
// after the arrival that completed it.
#pragma once
#include <cstdint>
#include <systemc>

#include "hw/barrier/barrier_core.hpp"
#include "hw/base/error.hpp"

namespace sanvp::barrier {

template <int Ports>
class BarrierUnit : public sc_core::sc_module {
  static_assert(Ports >= 5 && Ports <= 32, "16*Ports must exceed 64 bits (sc_bv ports) and C fits 32 bits");

 public:
  static constexpr int kDataBits = 16 * Ports;
  using Data = sc_dt::sc_bv<kDataBits>;

  sc_core::sc_in<bool> clk{"clk"};
  sc_core::sc_in<bool> rst_n{"rst_n"};
  sc_core::sc_in<std::uint32_t> in_valid{"in_valid"};
  sc_core::sc_in<Data> in_data{"in_data"};
  sc_core::sc_out<std::uint32_t> out_valid{"out_valid"};
  sc_core::sc_out<Data> out_data{"out_data"};
  sc_core::sc_in<std::uint32_t> out_ready{"out_ready"};
  sc_core::sc_in<bool> cfg_valid{"cfg_valid"};
  sc_core::sc_in<std::uint32_t> cfg_op{"cfg_op"};
  sc_core::sc_in<std::uint32_t> cfg_gid{"cfg_gid"};
  sc_core::sc_in<std::uint32_t> cfg_parent{"cfg_parent"};
  sc_core::sc_in<std::uint32_t> cfg_cmask{"cfg_cmask"};
  sc_core::sc_out<bool> cfg_resp_valid{"cfg_resp_valid"};
  sc_core::sc_out<std::uint32_t> cfg_resp_code{"cfg_resp_code"};
  sc_core::sc_out<std::uint32_t> cfg_resp_reg{"cfg_resp_reg"};
  sc_core::sc_out<std::uint32_t> st_busy{"st_busy"};
  sc_core::sc_out<std::uint32_t> st_drops{"st_drops"};

  SC_HAS_PROCESS(BarrierUnit);
  BarrierUnit(sc_core::sc_module_name name, int registers)
      : sc_core::sc_module(name), core_(Ports, check_registers(registers)) {
    SC_METHOD(on_clock);
    sensitive << clk.pos();
    dont_initialize();
  }

  const BarrierCore& core() const { return core_; }
  // Test hook for proving the lockstep checker can fail: from cycle `at_cycle` on, the unit
  // reports one drop too many.
  void inject_fault_at(std::uint64_t at_cycle) { fault_at_ = at_cycle; }

 private:
  static int check_registers(int r) {
    if (r < 2 || r > 32) throw UserError("barrier unit: the cycle-level unit has 2..32 registers");
    return r;
  }

  void on_clock() {
    ++cycle_;
    bool resp_valid = false;
    ConfigResponse resp{};
    if (!rst_n.read()) {
      core_.reset();
    } else {
      const std::uint32_t ready = out_ready.read();
      for (int p = 0; p < Ports; ++p)
        if ((ready >> p & 1u) != 0 && core_.selected(p) >= 0) core_.take(p);
      if (cfg_valid.read()) {
        ConfigCommand cmd;
        cmd.op = static_cast<ConfigOp>(cfg_op.read() & 3u);
        cmd.gid = static_cast<std::uint8_t>(cfg_gid.read() & 0xffu);
        cmd.parent = static_cast<std::uint8_t>(cfg_parent.read() & 0x3fu);
        cmd.cmask = cfg_cmask.read() & port_mask();
        resp = core_.configure(cmd);
        resp_valid = true;
      }
      const std::uint32_t valid = in_valid.read();
      const Data data = in_data.read();
      for (int p = 0; p < Ports; ++p)
        if ((valid >> p & 1u) != 0)
          core_.arrive(p, static_cast<std::uint16_t>(data.range(16 * p + 15, 16 * p).to_uint()));
      core_.fire();
    }
    std::uint32_t ov = 0;
    Data od;  // zero-initialized
    for (int p = 0; p < Ports; ++p) {
      if (auto m = core_.offer(p)) {
        ov |= 1u << p;
        od.range(16 * p + 15, 16 * p) = m->encode();
      }
    }
    out_valid.write(ov);
    out_data.write(od);
    cfg_resp_valid.write(resp_valid);
    cfg_resp_code.write(resp_valid ? static_cast<std::uint32_t>(resp.status) : 0u);
    cfg_resp_reg.write(resp_valid ? resp.reg : 0u);
    st_busy.write(static_cast<std::uint32_t>(core_.busy_mask()));
    const std::uint64_t drops = core_.drops() + (cycle_ >= fault_at_ ? 1 : 0);
    st_drops.write(static_cast<std::uint32_t>(drops & 0xffffu));
  }

  static constexpr std::uint32_t port_mask() { return Ports == 32 ? ~0u : (1u << Ports) - 1u; }

  BarrierCore core_;
  std::uint64_t cycle_ = 0;
  std::uint64_t fault_at_ = ~std::uint64_t{0};
};

}  // namespace sanvp::barrier
