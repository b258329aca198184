// Built-in host applications that scenario files name per node (`host: {app: NAME, args: [...]}`).
// They run as host threads on the messaging driver (firmware/msg) and check every byte they
// receive against the sender's pattern, so a scenario's report says whether messages arrived
// intact, not only when.
//
//   pingpong PEER SIZE ITERATIONS   both nodes name each other with the same SIZE and ITERATIONS;
//                                   the lower node id sends first. Latency = round trip / 2.
//   stream PEER SIZE COUNT          sends COUNT messages of SIZE bytes to PEER (which runs sink).
//   sink                            receives and checks every message the streams send to it.
//   idle                            does nothing (the NIC's firmware still runs).
//
// SIZE takes an optional K or M suffix (KiB, MiB).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hw/base/sim_time.hpp"
#include "platform/host/msg_driver.hpp"

namespace sanvp::host {

struct AppSpec {
  int node = -1;
  std::string app;                  // registered name
  std::vector<std::string> args;
};

struct AppInfo {
  const char* name;
  const char* usage;
  const char* meaning;
};
const std::vector<AppInfo>& host_app_registry();
bool is_host_app(const std::string& name);
std::string host_app_names();       // "idle, pingpong, sink, stream"

// What is wrong with which application: index into the list given to check_apps, and the
// argument (-1: the application as a whole).
struct AppError {
  std::size_t index = 0;
  int arg = -1;
  std::string message;
};
// Checks every application's arguments and that they fit together: peers are other NIC nodes
// (nic_node[id]), pingpong peers name each other with the same size and iterations, a stream's
// peer runs sink, a sink has at least one stream.
std::optional<AppError> check_apps(const std::vector<AppSpec>& apps, const std::vector<bool>& nic_node);

// Results of one application, filled while it runs.
struct AppResult {
  int node = -1;
  std::string app;
  std::vector<std::string> args;
  std::string phase = "not started";    // what it is doing (for hang reports)
  bool done = false;
  Time started = 0, finished = 0;
  std::uint64_t sent = 0, received = 0, bytes_sent = 0, bytes_received = 0, bad = 0;
  // False for a protocol's loader (FBS, TDMA): its counts are its firmware's packets, no bytes.
  bool bytes_counted = true;
  std::vector<Time> latency;            // one-way latency samples (ps)
  std::vector<std::string> errors;      // first few bad messages
};

// Runs a host program's `body` (returning an outcome with `sent` and `received` counts) as the
// node's application: its start and finish times, counts and done phase go into `res`.
template <class Body>
auto run_as_app(AppResult& res, Body body) {
  res.started = now_ps();
  auto out = body();
  res.finished = now_ps();
  res.sent = out.sent;
  res.received = out.received;
  res.done = true;
  res.phase = "done";
  return out;
}

// Shared by the applications of one run: when each stream message was posted, so that a sink
// can measure one-way latency (send post -> completion noticed) across hosts.
struct AppBoard {
  std::vector<std::vector<Time>> posted;  // [node][tag]
};

// Runs `spec` on `drv` (call from a host thread); fills `res`. `apps` is the whole checked list
// (a sink learns from it what the streams send it).
void run_host_app(const AppSpec& spec, const std::vector<AppSpec>& apps, MsgDriver& drv, AppBoard& board, AppResult& res);

}  // namespace sanvp::host
