// LcfArbiterSc: the LCF arbiter as a clocked SystemC module with the pin interface of
// hw/rtl/lcf_arbiter.sv (flattened req/gnt: bit i*N + t = pair initiator i, target t). It is the
// golden model the Verilated RTL runs against in lockstep (tb/clint/test_lockstep.cpp).
#pragma once
#include <systemc>

#include "hw/clint/arbiter.hpp"

namespace sanvp::clint {

template <int N>
class LcfArbiterSc : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk{"clk"};
  sc_core::sc_in<bool> rst_n{"rst_n"};
  sc_core::sc_in<bool> arb{"arb"};
  sc_core::sc_in<sc_dt::sc_bv<N * N>> req{"req"};
  sc_core::sc_out<sc_dt::sc_bv<N * N>> gnt{"gnt"};

  SC_HAS_PROCESS(LcfArbiterSc);
  explicit LcfArbiterSc(sc_core::sc_module_name nm) : sc_core::sc_module(nm), core_(N) {
    SC_METHOD(step);
    sensitive << clk.pos() << rst_n.neg();
    dont_initialize();
  }

  static RequestMatrix unpack(const sc_dt::sc_bv<N * N>& v) {
    RequestMatrix m(N);
    for (int i = 0; i < N; ++i)
      for (int t = 0; t < N; ++t) m.set(i, t, v[i * N + t] == sc_dt::SC_LOGIC_1);
    return m;
  }
  static Grants unpack_grants(const sc_dt::sc_bv<N * N>& v) {
    Grants g(N, -1);
    for (int i = 0; i < N; ++i)
      for (int t = 0; t < N; ++t)
        if (v[i * N + t] == sc_dt::SC_LOGIC_1) g[static_cast<std::size_t>(i)] = t;  // last wins; lockstep compares raw bits
    return g;
  }
  static sc_dt::sc_bv<N * N> pack(const Grants& g) {
    sc_dt::sc_bv<N * N> v;
    for (int i = 0; i < N; ++i)
      if (g[static_cast<std::size_t>(i)] >= 0) v[i * N + g[static_cast<std::size_t>(i)]] = sc_dt::SC_LOGIC_1;
    return v;
  }

 private:
  void step() {
    if (!rst_n.read()) {
      core_ = LcfArbiter(N);
      gnt.write(sc_dt::sc_bv<N * N>());
      return;
    }
    if (!arb.read()) return;
    gnt.write(pack(core_.arbitrate(unpack(req.read()))));
  }
  LcfArbiter core_;
};

}  // namespace sanvp::clint
