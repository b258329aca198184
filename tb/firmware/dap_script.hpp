// Scripts for tb/firmware/dap_client.py (a DAP conversation checked message by message): the
// lines of a script, and a run of the client against `sanvp ARGS` (the adapter).
#pragma once
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>
#include <vector>

#include "tb/firmware/run_util.hpp"

namespace sanvp::test::dap {

using nlohmann::json;

inline std::string hex(std::uint32_t v) { return fmt::format("0x{:08x}", v); }

inline json send(const std::string& cmd, json args = json::object()) { return {{"send", {{"command", cmd}, {"arguments", std::move(args)}}}}; }
inline json expect_response(const std::string& cmd, json body = json::object(), bool ok = true) {
  json r{{"type", "response"}, {"command", cmd}, {"success", ok}};
  if (!body.empty()) r[ok ? "body" : "message"] = std::move(body);
  return {{"expect", std::move(r)}};
}
inline json expect_event(const std::string& ev, json body = json::object()) {
  json e{{"type", "event"}, {"event", ev}};
  if (!body.empty()) e["body"] = std::move(body);
  return {{"expect", std::move(e)}};
}
inline json re(const std::string& r) { return {{"$re", r}}; }

inline json initialize() {
  return send("initialize", {{"clientID", "test"}, {"adapterID", "sanvp"}, {"linesStartAt1", true}, {"columnsStartAt1", true}, {"pathFormat", "path"}});
}

// Writes the script, runs the client against `sanvp ARGS` and returns its transcript (the
// adapter's stderr lines appear in it as "stderr: ..."). `tcp`: ARGS hold --dap-port 0.
inline Proc converse_with(const std::vector<json>& script, const std::string& args, bool tcp) {
  const std::string f = fmt::format("/tmp/sanvp_dap_{}.jsonl", getpid());
  {
    std::ofstream o(f);
    for (const auto& l : script) o << l.dump() << "\n";
    REQUIRE(o.good());
  }
  auto p = run(fmt::format("{} {} {} {} -- {} {}", PYTHON3, std::string(FW_SOURCE_DIR) + "/dap_client.py", tcp ? "--tcp" : "", f,
                           sanvp_bin(), args));
  std::remove(f.c_str());
  return p;
}

}  // namespace sanvp::test::dap
