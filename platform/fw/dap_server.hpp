// The Debug Adapter Protocol front end of the firmware debugger (issue 20 part 3): a
// DebugFrontEnd on the engine's public API, serving an editor over a DapTransport.
//
// Threads: a reader thread takes every message off the transport. It answers malformed
// messages, `threads` and `pause` itself (they need no simulation state; pause only sets the
// engine's atomic flag) and queues the other requests for the simulation thread, which serves
// them before the run (configure), while a core is stopped (stopped) and after the run (finish).
// While the firmware runs, queued requests wait for the next stop (all-stop: the simulation
// thread is inside sc_start).
#pragma once
#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "hw/base/time.hpp"
#include "hw/nic/core.hpp"
#include "platform/fw/dap_protocol.hpp"
#include "platform/fw/dap_transport.hpp"
#include "platform/fw/debug_engine.hpp"

namespace sanvp::fw {

class DapServer : public DebugFrontEnd {
 public:
  // `image_path`: the image the adapter was started for (a launch's "program" must name it).
  // `network`: the cores of a network run (`sanvp run ... --debug N --dap`): the command line
  // fixes what runs, so launch takes no program and attach is its synonym; a node's firmware
  // exit is an output event, and the run's exit code comes with finish_network. A disconnect
  // detaches and lets the run go on to its end (its report is that of a run without debugger).
  DapServer(DapTransport& transport, std::string image_path, bool network = false);
  ~DapServer() override;
  DapServer(const DapServer&) = delete;
  DapServer& operator=(const DapServer&) = delete;

  // The firmware console: each line becomes an `output` event (category stdout).
  std::ostream& console() { return console_; }
  // Starts the reader and serves initialize .. launch + configurationDone. False when the client
  // disconnected (or closed the stream) before the run: do not run.
  bool configure(DebugSession& session);
  void stopped(DebugEngine& engine, const StopEvent& ev) override;
  // After sc_start returned: `exited` (when not sent at the exit stop), `terminated`, then serves
  // requests until disconnect or the end of the stream. `note`: why the run ended abnormally
  // (fault report, timeout), sent as stderr output. Returns the process's exit status.
  int finish(const nic::LanaiCore::Result& result, const std::string& note);
  // finish() for a network run: `exited` with the run's exit code, `terminated`, then serves
  // until disconnect; returns exit_code.
  int finish_network(int exit_code);
  bool terminated_by_client() const { return terminate_; }

 private:
  using Json = dap::Json;
  class ConsoleBuf : public std::streambuf {
   public:
    explicit ConsoleBuf(DapServer& s) : server_(s) {}
    void flush_line();

   protected:
    int overflow(int c) override;
    int sync() override;

   private:
    DapServer& server_;
    std::string line_;
  };
  struct BpRef { int node, id; };  // an engine's breakpoint behind a DAP breakpoint

  void send(Json msg);
  void reader();
  bool next_request(Json& req);  // false at the end of the stream
  void serve_until(const bool& done);
  void client_gone();
  void dispatch(const Json& req);
  Json handle(const std::string& cmd, const Json& args, std::vector<Json>& after);

  Json on_initialize(const Json& args, std::vector<Json>& after);
  Json on_launch(const Json& args);
  Json on_set_breakpoints(const Json& args);
  Json on_set_function_breakpoints(const Json& args);
  Json on_set_instruction_breakpoints(const Json& args);
  Json on_resume(const std::string& cmd, const Json& args);
  Json on_stack_trace(const Json& args);
  Json on_scopes(const Json& args);
  Json on_variables(const Json& args);
  Json on_set_variable(const Json& args);
  Json on_read_memory(const Json& args);
  Json on_disassemble(const Json& args);
  Json on_evaluate(const Json& args);
  Json on_disconnect(const std::string& cmd, const Json& args, std::vector<Json>& after);
  void end_of_run(const std::string& note, const Json* exited);
  Json threads_body() const;

  DebugEngine& engine_for_thread(const Json& args);
  DebugEngine& engine_for_frame(std::int64_t frame_id, int* index);
  void require_stopped(const std::string& what) const;
  Json breakpoint_json(int dap_id, DebugEngine* e, std::uint32_t addr, const std::string& message);
  Json source_json(const std::string& file) const;
  void clear_breakpoints(std::vector<int>& ids);
  int line_out(std::uint32_t line) const { return static_cast<int>(line) - (lines_from1_ ? 0 : 1); }
  std::uint32_t memory_address(const Json& args, const char* key, std::int64_t extra);
  void stopped_event(DebugEngine& e, const StopEvent& ev);

  DapTransport& t_;
  std::string image_path_;
  bool network_ = false;
  ConsoleBuf console_buf_{*this};
  std::ostream console_{&console_buf_};
  DebugSession* session_ = nullptr;
  Json threads_ = Json::array();  // fixed once the session is attached

  std::mutex send_mu_;
  std::int64_t seq_ = 1;
  std::thread reader_;
  std::mutex q_mu_;
  std::condition_variable q_cv_;
  std::deque<Json> queue_;
  bool eof_ = false;
  std::atomic<bool> in_stop_{false};  // inside stopped(): a pause request is a no-op

  bool initialized_ = false, launched_ = false, configured_ = false, ready_ = false;
  bool lines_from1_ = true, stop_on_entry_ = false;
  bool resumed_ = false, disconnected_ = false, terminate_ = false, gone_ = false, exited_sent_ = false, fault_sent_ = false, finished_ = false;
  DebugEngine* current_ = nullptr;  // the engine inside stopped()
  int next_bp_id_ = 1;
  std::map<int, std::vector<BpRef>> bp_refs_;         // DAP id -> engine breakpoints
  std::map<std::string, std::vector<int>> source_bps_;  // source path -> DAP ids
  std::vector<int> function_bps_, instruction_bps_;
};

}  // namespace sanvp::fw
