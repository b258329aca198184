// `sanvp fw run|debug|disasm IMAGE`; `fw build` (fw_build.cpp) and `fw symbolize` (symbolize.cpp).
#include <CLI/CLI.hpp>
#include <chrono>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <memory>

#include "hw/nic/iss/disasm.hpp"
#include "hw/base/asan_stack.hpp"
#include "platform/cli/commands.hpp"
#include "hw/base/error.hpp"
#include "hw/base/io.hpp"
#include "hw/base/lookahead.hpp"
#include "hw/base/sim_time.hpp"
#include "platform/fw/dap_command.hpp"
#include "platform/fw/debugger.hpp"
#include "platform/fw/fw_build.hpp"
#include "platform/fw/fw_platform.hpp"
#include "platform/fw/symbolize.hpp"
#include "platform/sim/probe_timeline.hpp"
#include "platform/sim/report.hpp"

namespace sanvp::fw {
namespace {

struct FwOptions {
  std::string image;
  std::vector<std::string> sets;
  bool trace = false;
  std::string trace_file, trace_filter;
  bool profile = false;
  std::string profile_file;
  std::string probes;
  std::string timeout = "10s";
  bool stats = false;
  std::string disasm_image;
  bool debug = false;
  std::string commands;  // debugger script (empty: stdin)
};

FwOptions& opts() {
  static FwOptions o;
  return o;
}

// Trace and profile files are written while the core runs (stderr when no file is given); the
// Report checked their paths before the run.
std::ostream* open_out(const Report::Output& out, std::unique_ptr<std::ofstream>& holder) {
  if (!out.wanted()) return &std::cerr;
  holder = std::make_unique<std::ofstream>(out.path);
  if (!*holder) throw UserError(fmt::format("{}: cannot open '{}' for writing", out.option, out.path));
  return holder.get();
}

// A trace or profile file that could not be written completely is a failed run, not a success.
void close_out(std::unique_ptr<std::ofstream>& holder, const Report::Output& out) {
  if (!holder) return;
  holder->flush();
  holder->close();
  if (!*holder) throw IoError(fmt::format("{}: writing '{}' failed", out.option, out.path));
}

// The firmware's exit code is the process's; one that does not fit 0..255 would wrap (256 would
// read as success), so it is reported in full and the run fails.
int firmware_exit_status(std::uint32_t code, Time when) {
  if (code <= 255) return static_cast<int>(code);
  fmt::print(stderr, "error: firmware exited with code {} (0x{:x}) at {}, which does not fit a process exit status (0..255)\n", code,
             code, format_time(when));
  return kExitSimError;
}

// `fw debug`: the debugger reads the --commands script (echoing it) or stdin.
std::unique_ptr<Debugger> attach_debugger(FwPlatform& plat, const Image& im, const std::string& commands,
                                          std::unique_ptr<std::ifstream>& script) {
  if (!commands.empty()) {
    read_file_limited(commands, "--commands");  // a clear error for a missing file or a directory
    script = std::make_unique<std::ifstream>(commands);
  }
  auto dbg = std::make_unique<Debugger>(script ? *script : std::cin, std::cout, script != nullptr);
  dbg->attach(*plat.core, im, 0);
  return dbg;
}

int run_fw() {
  auto& o = opts();
  Report rep;
  const auto trace_out = rep.output(o.trace_file, "--fw-trace-file");
  const auto prof_out = rep.output(o.profile_file, "--fw-profile-file");
  const auto probes_out = rep.output(o.probes, "--probes");
  ParamValues pv;
  apply_sets(pv, o.sets);
  const Time timeout = parse_time(o.timeout, "--timeout");
  const Image im = Image::load(o.image);
  FwPlatform plat("nic", pv, im, &std::cout);
  pv.check_all_used();
  ProbeTimeline probes;  // a bare core: node 0, no RTC
  plat.sys->on_probe = [sink = probes.sink()](std::uint32_t tag, std::uint32_t value, Time when) {
    sink(nic::ProbeRecord{when, 0, 0, tag, value});
  };
  std::unique_ptr<std::ifstream> script;
  std::unique_ptr<Debugger> dbg;
  if (o.debug) dbg = attach_debugger(plat, im, o.commands, script);
  std::unique_ptr<std::ofstream> trace_holder, prof_holder;
  if (o.trace || !o.trace_file.empty() || !o.trace_filter.empty())
    plat.core->enable_trace(open_out(trace_out, trace_holder), parse_pc_filter(o.trace_filter, im));
  std::ostream* prof = nullptr;
  if (o.profile || !o.profile_file.empty()) {
    prof = open_out(prof_out, prof_holder);
    plat.core->enable_profile();
  }
  const auto wall0 = std::chrono::steady_clock::now();
  // Nothing reads the model before the timeout but the debugger, which reads the kernel's time
  // at every stop: the core may skip hand-overs that change nothing (LanaiCore::may_run_on).
  Lookahead::set_limit(dbg ? 0 : timeout);
  sc_core::sc_start(sc_core::sc_time(static_cast<double>(timeout), sc_core::SC_PS));
  back_on_main_stack();
  Lookahead::set_limit(0);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  std::cout.flush();
  const auto& r = plat.core->result();
  if (prof) *prof << plat.core->profile_report();
  close_out(trace_holder, trace_out);
  close_out(prof_holder, prof_out);
  rep.write(probes_out, probes.text_for(o.probes));
  if (o.stats) {
    // A core still running at the timeout has no result yet: its counters are current.
    const bool running = r.outcome == nic::LanaiCore::Outcome::kRunning;
    const std::uint64_t insns = running ? plat.core->state().instret : r.instructions;
    const std::uint64_t cycles = running ? plat.core->state().cycles : r.cycles;
    const Time end = running ? now_ps() : r.end_time;
    const auto& sl = plat.core->slice_stats();
    fmt::print(stderr, "firmware: {} instructions, {} cycles, {} simulated, {:.1f} MIPS host\n", insns, cycles, format_time(end),
               wall > 0 ? static_cast<double>(insns) / wall / 1e6 : 0.0);
    fmt::print(stderr, "firmware: {} quantum slices, {} handed over to the kernel\n", sl.slices, sl.handovers);
  }
  switch (r.outcome) {
    case nic::LanaiCore::Outcome::kExited:
      if (o.stats) fmt::print(stderr, "firmware exited with code {} at {}\n", r.exit_code, format_time(r.end_time));
      return firmware_exit_status(r.exit_code, r.end_time);
    case nic::LanaiCore::Outcome::kFault:
      fmt::print(stderr, "{}", r.fault_report);
      return kExitSimError;
    default:
      throw SimError(fmt::format("firmware did not exit within {} of simulated time (--timeout)", format_time(timeout)));
  }
}

int disasm_fw() {
  const Image im = Image::load(opts().disasm_image);
  lanai::SymbolTable syms(im.symbols);
  for (const auto& seg : im.segments) {
    if (seg.zero) continue;
    // 64-bit bounds: a segment may end at 2^32, where 32-bit pc + 4 would wrap to 0.
    const std::uint64_t end = std::min<std::uint64_t>(std::uint64_t{seg.addr} + seg.size, im.code_hi);
    for (std::uint64_t pc64 = std::max(seg.addr, im.code_lo); pc64 + 4 <= end; pc64 += 4) {
      const auto pc = static_cast<std::uint32_t>(pc64);
      for (const auto& s : syms.all())
        if (s.addr == pc && s.is_function) fmt::print("\n{:08x} <{}>:\n", pc, s.name);
      const std::uint8_t* p = seg.data.data() + (pc - seg.addr);
      const std::uint32_t w = (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
      std::string text = lanai::disassemble(w, pc);
      if (!text.empty() && text[0] == '\t') text.erase(0, 1);  // llvm-objdump prints `sel` without the extra tab
      const unsigned top = w >> 28;
      if (top == 14 && (w & 2) == 0) text += " <" + syms.describe(w & 0x01FFFFFC) + ">";
      fmt::print("{:8x}: {:02x} {:02x} {:02x} {:02x}  \t{}\n", pc, p[0], p[1], p[2], p[3], text);
    }
  }
  return 0;
}

const CommandRegistrar reg{"fw", [](CLI::App& app) -> CommandRun {
  auto& o = opts();
  auto* fw = app.add_subcommand("fw", "LANai firmware: run an image on a bare core + SRAM + console, build, disassemble or symbolize it");
  fw->require_subcommand(1);
  auto* run = fw->add_subcommand("run", "run a firmware image; the exit code is the firmware's exit(code)");
  run->add_option("image", o.image, "firmware image (from add_lanai_firmware / sanvp-fwld)")->required();
  run->add_option("--set", o.sets, "override a parameter: key=value (e.g. nic.core.clock=100)");
  run->add_flag("--fw-trace", o.trace, "trace every instruction (time, pc, symbol, disassembly, register writes) to stderr");
  run->add_option("--fw-trace-file", o.trace_file, "write the trace to this file (implies --fw-trace)");
  run->add_option("--fw-trace-filter", o.trace_filter, "trace only these functions or pc ranges: 'main,0x100-0x200' (implies --fw-trace)");
  run->add_flag("--fw-profile", o.profile, "print a flat per-function profile at exit to stderr");
  run->add_option("--fw-profile-file", o.profile_file, "write the profile to this file (implies --fw-profile)");
  run->add_option("--probes", o.probes, "write the firmware's probes (time, node, RTC, tag, value) to this file: CSV if it ends in .csv, else JSON");
  run->add_option("--timeout", o.timeout, "stop with an error after this much simulated time")->capture_default_str();
  run->add_flag("--stats", o.stats, "print instructions, cycles, simulated time and host MIPS to stderr");
  auto* dbg = fw->add_subcommand("debug", "run a firmware image under the debugger (GDB-like commands from --commands FILE or stdin)");
  dbg->add_option("image", o.image, "firmware image (build it with -g for file:line breakpoints and stepping)")->required();
  dbg->add_option("--commands", o.commands, "read the debugger commands from this file (a scripted session)");
  dbg->add_option("--set", o.sets, "override a parameter: key=value (e.g. nic.core.clock=100)");
  dbg->add_option("--timeout", o.timeout, "stop with an error after this much simulated time")->capture_default_str();
  dbg->add_flag("--stats", o.stats, "print instructions, cycles, simulated time and host MIPS to stderr");
  add_dap_options(dbg);
  auto* dis = fw->add_subcommand("disasm", "disassemble the code of a firmware image");
  dis->add_option("image", o.disasm_image, "firmware image")->required();
  auto* sym = add_symbolize_command(fw);
  auto* build = add_fw_build_command(fw);
  return [run, dbg, dis, sym, build]() -> int {
    if (build->parsed()) return run_fw_build();
    if (run->parsed()) return run_fw();
    if (dbg->parsed()) {
      if (dap_wanted()) return run_fw_dap(opts().image, opts().sets, opts().timeout);
      opts().debug = true;
      return run_fw();
    }
    if (dis->parsed()) return disasm_fw();
    if (sym->parsed()) return run_symbolize();
    return 0;
  };
}};

}  // namespace
}  // namespace sanvp::fw
