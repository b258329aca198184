// One way for every command (run, msg, clint, btin, sweep, fw, topo, and the protocol commands
// to come) to declare its output files, write them and end with an exit code:
//
//   Report rep;
//   const auto json = rep.output(o.json, "--json");   // path checked now: a bad one fails
//   ...build, run (sim/runner.hpp), check...           // before the simulation (exit 2)
//   rep.write_json(json, results, 1);                  // whole or not at all (core/io.hpp)
//   if (bad) rep.error("scoreboard: ...");             // "error: ..." on stderr, exit 3
//   return rep.exit_code();
//
// A report document (`doc()`) holds what every simulation report shares (sanvp version, seed,
// scenario, status, results); commands whose file has another shape write their own JSON.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hw/base/error.hpp"
#include "hw/base/time.hpp"

namespace sanvp {

class Report {
 public:
  // A file the command writes, named in messages by the option that asked for it. An empty path
  // means it was not asked for: writing it does nothing.
  struct Output {
    std::string path, option;
    bool wanted() const { return !path.empty(); }
  };

  // Declares an output and checks now that it can be created (UserError otherwise). With
  // make_folder the missing folders of the path are created first.
  Output output(const std::string& path, const std::string& option, bool make_folder = false) const;
  // Writes an output whole or not at all (a failed write is an IoError: exit 3).
  void write(const Output& out, const std::string& text) const;
  void write_json(const Output& out, const nlohmann::json& j, int indent) const;

  // The simulation report document: sanvp version, seed, scenario (with its name), status and
  // results, as `sanvp run` and `sanvp msg` write them.
  void begin(std::uint64_t seed, nlohmann::json scenario, const std::string& name);
  void set_status(const std::string& status) { doc_["status"] = status; }
  nlohmann::json& doc() { return doc_; }
  nlohmann::json& results() { return doc_["results"]; }

  // An error of the run: "error: MESSAGE" on stderr (MESSAGE may span lines) and the exit code
  // becomes `code` unless a worse one (bad input) was set.
  void error(const std::string& message, int code = kExitSimError);
  void warning(const std::string& message) const;
  void fail(int code);  // the exit code without a message (already printed)
  int exit_code() const { return exit_code_; }

 private:
  nlohmann::json doc_ = nlohmann::json::object();
  int exit_code_ = 0;
};

// A latency summary for reports: count, mean, min, p50, p99 (nearest rank) and max, in ps, of
// `sorted` (ascending); just the count when it is empty.
nlohmann::json latency_summary(const std::vector<Time>& sorted);

}  // namespace sanvp
