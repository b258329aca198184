// One lockstep harness for Verilated SystemVerilog blocks (verilated with --sc) and their SystemC
// golden models. The bench owns the RTL, the model and their pin signals; the harness owns the
// clock and reset, records the named inputs of every cycle, compares the named outputs of RTL and
// model after every rising edge and, at the first difference or failed bench check, stops and
// reports: the cycle, each differing output with its RTL and model value, and the stimulus of the
// last `history` cycles. RTL waves (VCD) of a window of cycles are optional.
//
//   struct Bench {
//     tb::Lockstep ls;                 // first: it turns Verilator tracing on before the RTL exists
//     sc_signal<...> in, out_rtl, out_model;  Vfoo rtl{"rtl"}; FooModel model{"model"};
//     Bench(const LockstepOptions& o) : ls("ls", o) { /* bind ls.clk, ls.rst_n, in, outs */
//       ls.attach_rtl(rtl); ls.input("in", in); ls.output("out", out_rtl, out_model);
//       ls.on_edge([&] { /* checks, coverage (ls.fail(...) on error) */ });
//       ls.drive([&] { /* write the inputs of the next rising edge */ }); } };
//   Bench b(opt); const LockstepResult r = b.ls.run();   // r.ok(), r.cycles, r.report
//
// Timing: clock period 10 ns, rising edges at 5 ns + k*10 ns; cycle c is the c-th rising edge
// (from 1). At the falling edge after edge c the harness compares the outputs, calls on_edge, and
// unless the run is over calls drive for edge c+1. rst_n is low for the first `reset_cycles`
// edges (drive is not called for them); a bench may write rst_n itself later (mid-run resets).
//
// Environment overrides (for reproducing a failure): SANVP_SEED, SANVP_LOCKSTEP_CYCLES,
// SANVP_LOCKSTEP_VCD (file), SANVP_LOCKSTEP_VCD_FROM and SANVP_LOCKSTEP_VCD_CYCLES (window).
#pragma once
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <type_traits>
#include <utility>
#include <vector>
#include <verilated.h>
#include <verilated_vcd_sc.h>

namespace sanvp::tb {

struct LockstepOptions {
  std::uint64_t cycles = 100000;      // rising edges compared, the reset ones included
  std::uint64_t seed = 1;             // for the bench's stimulus; printed in reports
  std::uint64_t reset_cycles = 1;     // first edges with rst_n low (no stimulus driven)
  std::size_t history = 8;            // cycles of stimulus in a failure report
  std::string vcd;                    // RTL waves (Verilator VCD); empty: none
  std::uint64_t vcd_from = 0;         // the waves start at this cycle...
  std::uint64_t vcd_cycles = 20000;   // ...and cover this many cycles

  // These options with the SANVP_* environment overrides applied.
  LockstepOptions with_env() const {
    LockstepOptions o = *this;
    auto num = [](const char* name, std::uint64_t& v) {
      if (const char* s = std::getenv(name)) v = std::strtoull(s, nullptr, 10);
    };
    num("SANVP_SEED", o.seed);
    num("SANVP_LOCKSTEP_CYCLES", o.cycles);
    num("SANVP_LOCKSTEP_VCD_FROM", o.vcd_from);
    num("SANVP_LOCKSTEP_VCD_CYCLES", o.vcd_cycles);
    if (const char* s = std::getenv("SANVP_LOCKSTEP_VCD")) o.vcd = s;
    return o;
  }
};

struct LockstepResult {
  std::uint64_t cycles = 0;           // edges whose outputs were identical
  bool mismatch = false;              // an output differed (report says which)
  std::uint64_t mismatch_cycle = 0;   // the edge it differed at
  std::string error;                  // a bench check failed (Lockstep::fail), one line
  std::string report;                 // the full failure message, multi-line; empty when ok
  bool ok() const { return !mismatch && error.empty(); }
};

// Value formatting for reports: bool 0/1, integers hex, bit vectors hex in 16-bit groups.
template <class T>
std::string lockstep_format(const T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v ? "1" : "0";
  } else if constexpr (std::is_integral_v<T>) {
    return fmt::format("{:#x}", v);
  } else {  // sc_dt::sc_bv<W> / sc_lv<W>
    const int w = v.length();
    std::string s = "0x";
    for (int hi = w - 1; hi >= 0; hi -= 16) {
      const int lo = std::max(0, hi - 15);
      s += fmt::format("{:0{}x}{}", v.range(hi, lo).to_uint(), (hi - lo + 4) / 4, lo ? "_" : "");
    }
    return s;
  }
}

class Lockstep : public sc_core::sc_module {
 public:
  template <class T>
  using Format = std::function<std::string(const T&)>;

  sc_core::sc_clock clk{"clk", 10, sc_core::SC_NS, 0.5, 5, sc_core::SC_NS, true};
  sc_core::sc_signal<bool> rst_n{"rst_n"};

  SC_HAS_PROCESS(Lockstep);
  Lockstep(sc_core::sc_module_name name, const LockstepOptions& opt)
      : sc_core::sc_module(name), opt_(opt.with_env()) {
    Verilated::traceEverOn(!opt_.vcd.empty());  // before the Verilated model is built
    input("rst_n", rst_n);
    SC_METHOD(on_negedge);
    sensitive << clk.negedge_event();
    dont_initialize();
  }

  const LockstepOptions& options() const { return opt_; }
  std::uint64_t cycle() const { return cycle_; }  // rising edges so far

  // The Verilated model: traced into the VCD, final() called at the end of the run.
  template <class Rtl>
  void attach_rtl(Rtl& rtl) {
    trace_ = [&rtl](VerilatedVcdSc* vcd) { rtl.trace(vcd, 99); };
    final_ = [&rtl] { rtl.final(); };
  }
  // An input of both models, recorded every cycle for the failure report.
  template <class T>
  void input(std::string name, const sc_core::sc_signal<T>& s, Format<T> f = lockstep_format<T>) {
    inputs_.push_back(std::make_unique<InputProbe<T>>(std::move(name), s, std::move(f), opt_.history));
  }
  // An output of both: RTL and model must agree after every rising edge.
  template <class T>
  void output(std::string name, const sc_core::sc_signal<T>& rtl, const sc_core::sc_signal<T>& model,
              Format<T> f = lockstep_format<T>) {
    outputs_.push_back(std::make_unique<OutputProbe<T>>(std::move(name), rtl, model, std::move(f)));
  }
  void on_edge(std::function<void()> f) { on_edge_ = std::move(f); }
  void drive(std::function<void()> f) { drive_ = std::move(f); }

  // A bench check failed at this cycle: stop the run and report it with the stimulus history.
  void fail(const std::string& what) {
    if (!res_.error.empty() || res_.mismatch) return;
    res_.error = fmt::format("cycle {}: {}", cycle_, what);
    res_.report = fmt::format("lockstep check failed at cycle {} (seed {}): {}\n", cycle_, opt_.seed, what) +
                  history_report();
    stopped_ = true;
    sc_core::sc_stop();
  }

  // Runs the whole lockstep simulation (one per process: the SystemC kernel cannot restart).
  LockstepResult run() {
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaborate before attaching the trace
    if (!opt_.vcd.empty() && trace_) {
      const std::uint64_t from = std::min(opt_.vcd_from, opt_.cycles);
      const std::uint64_t to = std::min(from + opt_.vcd_cycles, opt_.cycles + 1);
      if (from > 0) sc_core::sc_start(ns(10 * from));
      if (!stopped_) {
        // The kernel keeps a pointer to a trace file until the process ends: never delete it.
        auto* vcd = new VerilatedVcdSc();
        trace_(vcd);
        vcd->open(opt_.vcd.c_str());
        sc_core::sc_start(ns(10 * (to - from)));
        vcd->close();
      }
    }
    if (!stopped_) sc_core::sc_start();
    if (final_) final_();
    return res_;
  }

 private:
  struct InputBase {
    virtual ~InputBase() = default;
    virtual void record(std::size_t slot) = 0;
    virtual std::string show(std::size_t slot) const = 0;
    std::string name;
  };
  template <class T>
  struct InputProbe : InputBase {
    InputProbe(std::string n, const sc_core::sc_signal<T>& s, Format<T> f, std::size_t depth)
        : sig(s), fmt(std::move(f)), ring(std::max<std::size_t>(depth, 1)) { name = std::move(n); }
    void record(std::size_t slot) override { ring[slot % ring.size()] = sig.read(); }
    std::string show(std::size_t slot) const override { return fmt(ring[slot % ring.size()]); }
    const sc_core::sc_signal<T>& sig;
    Format<T> fmt;
    std::vector<T> ring;
  };
  struct OutputBase {
    virtual ~OutputBase() = default;
    virtual bool same() const = 0;
    virtual std::string rtl_value() const = 0;
    virtual std::string model_value() const = 0;
    std::string name;
  };
  template <class T>
  struct OutputProbe : OutputBase {
    OutputProbe(std::string n, const sc_core::sc_signal<T>& r, const sc_core::sc_signal<T>& m, Format<T> f)
        : rtl(r), model(m), fmt(std::move(f)) { name = std::move(n); }
    bool same() const override { return rtl.read() == model.read(); }
    std::string rtl_value() const override { return fmt(rtl.read()); }
    std::string model_value() const override { return fmt(model.read()); }
    const sc_core::sc_signal<T>& rtl;
    const sc_core::sc_signal<T>& model;
    Format<T> fmt;
  };

  static sc_core::sc_time ns(std::uint64_t n) { return sc_core::sc_time(static_cast<double>(n), sc_core::SC_NS); }

  void on_negedge() {
    ++cycle_;
    for (auto& in : inputs_) in->record(cycle_);  // what was applied at edge cycle_
    bool differ = false;
    for (const auto& out : outputs_) differ = differ || !out->same();
    if (differ) return report_mismatch();
    res_.cycles = cycle_;
    if (on_edge_) on_edge_();
    if (stopped_) return;
    if (cycle_ >= opt_.cycles) {
      stopped_ = true;
      sc_core::sc_stop();
      return;
    }
    rst_n.write(cycle_ >= opt_.reset_cycles);
    if (cycle_ >= opt_.reset_cycles && drive_) drive_();
  }

  void report_mismatch() {
    res_.mismatch = true;
    res_.mismatch_cycle = cycle_;
    std::string s = fmt::format("lockstep mismatch at cycle {} (seed {}), outputs after that rising edge:\n",
                                cycle_, opt_.seed);
    std::size_t w = 0;
    for (const auto& out : outputs_) w = std::max(w, out->name.size());
    for (const auto& out : outputs_) {
      if (out->same())
        s += fmt::format("    {:<{}}  both  {}\n", out->name, w, out->rtl_value());
      else
        s += fmt::format("  X {:<{}}  rtl   {}\n    {:<{}}  model {}\n", out->name, w, out->rtl_value(), "", w,
                         out->model_value());
    }
    res_.report = s + history_report();
    stopped_ = true;
    sc_core::sc_stop();
  }

  std::string history_report() const {
    const std::uint64_t n = std::min<std::uint64_t>(cycle_, std::max<std::size_t>(opt_.history, 1));
    std::string s = fmt::format("stimulus of the last {} cycles (inputs at each rising edge):\n", n);
    for (std::uint64_t c = cycle_ + 1 - n; c <= cycle_; ++c) {
      s += fmt::format("  cycle {:>8}:", c);
      for (const auto& in : inputs_) s += fmt::format(" {}={}", in->name, in->show(c));
      s += "\n";
    }
    const std::uint64_t from = cycle_ > 2 * n ? cycle_ - 2 * n : 0;
    s += fmt::format("RTL waves up to it: rerun the test with\n  SANVP_SEED={} SANVP_LOCKSTEP_VCD=lockstep_fail.vcd\n"
                     "  SANVP_LOCKSTEP_VCD_FROM={} SANVP_LOCKSTEP_VCD_CYCLES={}\n",
                     opt_.seed, from, cycle_ - from + 1);
    return s;
  }

  LockstepOptions opt_;
  LockstepResult res_;
  std::vector<std::unique_ptr<InputBase>> inputs_;
  std::vector<std::unique_ptr<OutputBase>> outputs_;
  std::function<void()> on_edge_, drive_, final_;
  std::function<void(VerilatedVcdSc*)> trace_;
  std::uint64_t cycle_ = 0;
  bool stopped_ = false;
};

}  // namespace sanvp::tb
