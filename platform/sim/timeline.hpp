// Timeline: the activity of a run in the Chrome/Perfetto trace-event format (docs/timeline.md),
// written by `--timeline FILE`. One process per node and per switch, one track (thread) per
// switch port direction and per NIC engine; complete events ("X") for what occupies one track
// (a worm on a link direction, a DMA transfer, a firmware function), async events ("b"/"e")
// for spans that overlap on one process (a packet hop through a switch, a packet or message
// from injection to delivery), instant events for STOP/GO. Recording is by observers
// (hw/link/link.hpp, hw/nic/*_dma.hpp): a run without --timeline pays nothing.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "hw/base/time.hpp"

namespace sanvp {

class Network;
class LinkChannel;
struct Flit;

// What --timeline asks for (every command that runs a network).
struct TimelineOptions {
  std::string file;     // empty: no timeline
  std::string window;   // "FROM:TO" (--timeline-window); empty: the --trace-window, else the run
  bool firmware = false;  // --timeline-fw: a span per firmware function run (costs a hook per instruction)
  std::string command;  // for otherData, e.g. "run", "fbs run"
};

// Tracks of a node process (tid); a switch port k has tracks 2k+1 (in) and 2k+2 (out).
enum class NodeTrack : int { LinkOut = 1, LinkIn, SendDma, RecvDma, HostDma, Firmware, Host, Messages };

class Timeline {
 public:
  // Records events that start in [from, to) (a span is written whole, with its end).
  Timeline(Time from, Time to) : from_(from), to_(to) {}
  Time from() const { return from_; }
  Time to() const { return to_; }
  bool in_window(Time t) const { return t >= from_ && t < to_; }

  // Names every node and switch process and watches every link direction of `net` (built).
  void observe_network(Network& net);

  // Track ids: processes are nodes (pid j+1) and switches (after the nodes).
  int node_pid(int node) const { return node + 1; }
  int switch_pid(int sw) const { return nodes_ + 1 + sw; }
  static int port_tid(int port, bool out) { return 2 * port + (out ? 2 : 1); }
  static int node_tid(NodeTrack t) { return static_cast<int>(t); }

  // A span on one track: spans of one track must not overlap (they nest or follow).
  void complete(int pid, int tid, Time start, Time end, std::string name, std::string cat, nlohmann::json args = {});
  // A span that may overlap others of its process: a nestable async pair with a fresh id.
  void async(int pid, int tid, Time start, Time end, std::string name, std::string cat, nlohmann::json args = {});
  void instant(int pid, int tid, Time t, std::string name, std::string cat, nlohmann::json args = {});
  // Names a process or a thread (metadata, written only for tracks that got events).
  void name_process(int pid, std::string name, int sort);
  void name_thread(int pid, int tid, std::string name);

  // "otherData" of a run: sanvp version, command, scenario (omitted when empty), seed, window.
  nlohmann::json other_data(const std::string& command, const std::string& scenario, std::uint64_t seed) const;
  // The trace-event JSON document; `other` goes to "otherData". Byte-identical for the same run.
  std::string text(const nlohmann::json& other) const;
  std::size_t events() const { return ev_.size(); }
  // Keeps an observer's state alive as long as the timeline (firmware hooks).
  void keep(std::shared_ptr<void> p) { kept_.push_back(std::move(p)); }

 private:
  struct Ev {
    Time ts = 0, dur = 0;
    char ph = 'X';
    int pid = 0, tid = 0;
    std::uint64_t id = 0, seq = 0;
    std::string name, cat;
    nlohmann::json args;
  };
  // A worm being sent or received on one link direction.
  struct Open { bool open = false; std::uint32_t packet = 0; Time start = 0, last = 0; std::uint32_t flits = 0; };
  struct End { int pid = 0, tid = 0, sw = -1, node = -1; };  // one end of a link direction
  struct Wire { End tx, rx; Time ld = 0; Open sent, got; };

  void push(Ev e);
  void watch(LinkChannel& ch, Wire& w);
  void on_sent(Wire& w, const Flit& f, Time t);
  void on_received(Wire& w, const Flit& f, Time t);
  void close_received(Wire& w, bool truncated);
  End end_of(Network& net, const std::string& path, bool tx) const;

  Time from_, to_;
  int nodes_ = 0;
  std::vector<Ev> ev_;
  std::uint64_t seq_ = 0, next_id_ = 1;
  std::map<std::pair<int, int>, std::string> thread_names_;
  std::map<int, std::pair<std::string, int>> process_names_;
  std::vector<std::unique_ptr<Wire>> wires_;
  std::vector<std::shared_ptr<void>> kept_;
  // Worms whose header reached a switch (switch, packet) -> arrival times, for hop spans; and
  // packets whose header left their source (packet -> node, time), for packet spans.
  std::map<std::pair<int, std::uint32_t>, std::vector<Time>> hop_open_;
  std::map<std::uint32_t, std::vector<std::pair<int, Time>>> packet_open_;
};

// "12.345678": picoseconds as microseconds with six exact decimals (the format's "ts" unit).
std::string timeline_us(Time ps);

}  // namespace sanvp
