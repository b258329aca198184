// The clocked BarrierUnit's cycle contract (barrier_unit.hpp): registered outputs, one cycle from
// the completing arrival to the message at the output, held until out_ready, config response one
// cycle after the write. The RTL is held to the same contract by the lockstep test.
#include <catch2/catch.hpp>
#include <functional>
#include <systemc>
#include <vector>

#include "hw/barrier/barrier_unit.hpp"

using namespace sanvp::barrier;

namespace {

using Unit = BarrierUnit<8>;

struct Bench : sc_core::sc_module {
  sc_core::sc_clock clk{"clk", 10, sc_core::SC_NS, 0.5, 5, sc_core::SC_NS, true};
  sc_core::sc_signal<bool> rst_n{"rst_n"}, cfg_valid{"cfg_valid"}, resp_valid{"resp_valid"};
  sc_core::sc_signal<std::uint32_t> in_valid{"in_valid"}, out_valid{"out_valid"}, out_ready{"out_ready"};
  sc_core::sc_signal<Unit::Data> in_data{"in_data"}, out_data{"out_data"};
  sc_core::sc_signal<std::uint32_t> cfg_op{"cfg_op"}, cfg_gid{"cfg_gid"}, cfg_parent{"cfg_parent"}, cfg_cmask{"cfg_cmask"};
  sc_core::sc_signal<std::uint32_t> resp_code{"resp_code"}, resp_reg{"resp_reg"}, busy{"busy"}, drops{"drops"};
  Unit unit{"unit", 2};
  std::function<void(Bench&)> body;

  SC_HAS_PROCESS(Bench);
  explicit Bench(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    unit.clk(clk); unit.rst_n(rst_n); unit.in_valid(in_valid); unit.in_data(in_data);
    unit.out_valid(out_valid); unit.out_data(out_data); unit.out_ready(out_ready);
    unit.cfg_valid(cfg_valid); unit.cfg_op(cfg_op); unit.cfg_gid(cfg_gid); unit.cfg_parent(cfg_parent);
    unit.cfg_cmask(cfg_cmask); unit.cfg_resp_valid(resp_valid); unit.cfg_resp_code(resp_code);
    unit.cfg_resp_reg(resp_reg); unit.st_busy(busy); unit.st_drops(drops);
    SC_THREAD(run);
  }
  // Drives inputs between edges; `edge()` waits for the next rising edge plus a delta.
  void edge() {
    wait(clk.negedge_event());
  }
  // Shadows: a signal read right after a write in the same delta returns the old value.
  std::uint32_t valid_ = 0;
  Unit::Data data_;
  void send(int port, std::uint16_t raw) {
    data_.range(16 * port + 15, 16 * port) = raw;
    valid_ |= 1u << port;
    in_data.write(data_);
    in_valid.write(valid_);
  }
  void idle() { valid_ = 0; in_valid.write(0); cfg_valid.write(false); }
  std::uint16_t out(int port) const { return static_cast<std::uint16_t>(out_data.read().range(16 * port + 15, 16 * port).to_uint()); }
  void run() {
    wait(clk.negedge_event());
    rst_n.write(false);
    edge();
    rst_n.write(true);
    body(*this);
    sc_core::sc_stop();
  }
};

}  // namespace

TEST_CASE("clocked barrier unit: config response, merge and replicate with one-cycle latency") {
  Bench b("bench");
  std::vector<std::string> log;
  b.body = [&](Bench& t) {
    // ALLOC gid 9, P = 0, C = {0, 2, 5}
    t.cfg_valid.write(true); t.cfg_op.write(1); t.cfg_gid.write(9); t.cfg_parent.write(0); t.cfg_cmask.write(0b100101);
    t.out_ready.write(0xff);
    t.edge();
    CHECK(t.resp_valid.read());
    CHECK(t.resp_code.read() == 0);
    CHECK(t.resp_reg.read() == 0);
    CHECK(t.busy.read() == 1);
    t.idle();
    t.send(5, BarrierMessage{MsgType::Reduce, 9, 3}.encode());
    t.edge();
    CHECK_FALSE(t.resp_valid.read());
    CHECK(t.out_valid.read() == 0);
    t.idle();
    t.send(2, BarrierMessage{MsgType::Reduce, 9, 4}.encode());
    t.out_ready.write(0);  // the parent port is busy for two cycles
    t.edge();
    CHECK(t.out_valid.read() == 1u);  // one cycle after the completing arrival
    CHECK(t.out(0) == BarrierMessage{MsgType::Reduce, 9, 4}.encode());
    t.idle();
    t.edge();
    CHECK(t.out_valid.read() == 1u);  // held while not accepted
    t.out_ready.write(0xff);
    t.edge();
    CHECK(t.out_valid.read() == 0u);  // taken at this edge
    CHECK(t.out(0) == 0);
    t.send(0, BarrierMessage{MsgType::Distribute, 9, 7}.encode());
    t.edge();
    CHECK(t.out_valid.read() == 0b100100u);
    CHECK(t.out(2) == BarrierMessage{MsgType::Distribute, 9, 7}.encode());
    CHECK(t.out(5) == BarrierMessage{MsgType::Distribute, 9, 7}.encode());
    t.idle();
    t.out_ready.write(0b000100);  // port 5 blocked
    t.edge();
    CHECK(t.out_valid.read() == 0b100000u);
    t.send(1, BarrierMessage{MsgType::Reduce, 9, 0}.encode());  // not a child: dropped
    t.edge();
    CHECK(t.drops.read() == 1);
    CHECK(t.unit.core().drops(DropReason::NotChild) == 1);
    t.idle();
    // Exhaustion: two registers.
    t.cfg_valid.write(true); t.cfg_op.write(1); t.cfg_gid.write(10); t.cfg_parent.write(1); t.cfg_cmask.write(0b11);
    t.edge();
    CHECK(t.resp_reg.read() == 1);
    t.cfg_gid.write(11);
    t.edge();
    CHECK(t.resp_valid.read());
    CHECK(t.resp_code.read() == static_cast<std::uint32_t>(ConfigStatus::Full));
    t.cfg_op.write(2); t.cfg_gid.write(9);  // release with an output still pending on port 5
    t.edge();
    CHECK(t.resp_code.read() == 0);
    CHECK(t.out_valid.read() == 0u);
    CHECK(t.busy.read() == 0b10);
    t.idle();
    log.push_back("done");
  };
  sc_core::sc_start(10, sc_core::SC_US);
  CHECK(log.size() == 1);
}
