// The firmware debugger's terminal front end (issue 20 part 2): GDB-like commands from a stream
// (`sanvp fw debug IMAGE --commands FILE`, `sanvp run SCENARIO --debug NODES`, or stdin) on the
// engines of a DebugSession (debug_engine.hpp). A stop prints where and why, then reads commands
// until one resumes; `node N` switches the inspected core. An empty line repeats the last
// command; `history` lists the session's commands.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "platform/fw/debug_engine.hpp"

namespace sanvp::fw {

class Debugger : public DebugFrontEnd {
 public:
  // Commands come from `in` (echoed after the prompt when `echo`: a script); everything goes to
  // `out`. `network`: prompts and stops name the node ("n1").
  Debugger(std::istream& in, std::ostream& out, bool echo, bool network = false);

  DebugSession& session() { return session_; }
  DebugEngine& attach(nic::LanaiCore& core, const Image& image, int node) { return session_.attach(core, image, node); }
  void stopped(DebugEngine& engine, const StopEvent& ev) override;

 private:
  bool command(const std::string& line);  // true when the command resumes execution
  bool resume(DebugEngine::Mode m, std::uint32_t target = 0);
  bool resume_steps(DebugEngine::Mode m, const std::string& cmd, const std::string& count);
  bool repeat_step(DebugEngine& engine, const StopEvent& ev, std::string& note);
  bool cmd_run_to(const std::string& cmd, const std::string& arg);
  void cmd_break(const std::string& arg, bool temporary);
  void cmd_watch(const std::string& arg, WatchKind kind);
  void cmd_delete(const std::string& arg);
  void cmd_set(const std::string& arg);
  void cmd_node(const std::string& arg);
  void cmd_x(const std::string& fmt_, const std::string& arg);
  void cmd_print(const std::string& arg);
  void cmd_info(const std::string& arg);
  void info_breakpoints();
  void info_nic();
  void cmd_disassemble();
  void cmd_list();
  void backtrace();
  std::string prompt() const;
  std::string node_tag() const;  // "n1 " in a network, "" on a bare core

  std::istream& in_;
  std::ostream& out_;
  bool echo_, network_;
  DebugSession session_;
  DebugEngine* cur_ = nullptr;  // the inspected engine
  std::vector<std::string> history_;
  std::string last_;  // repeated by an empty line
  std::uint64_t steps_asked_ = 0, steps_done_ = 0;  // of a stepi/step/next N (0: none running)
  DebugEngine::Mode step_mode_ = DebugEngine::Mode::kStepInsn;
  DebugEngine* step_engine_ = nullptr;
};

}  // namespace sanvp::fw
