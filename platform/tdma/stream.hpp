// Real-time streams of the TDMA scheduler (thesis 5.4 and Appendix A): stream i is the tuple
// {S_i, D_i, p_i, d_i, s_i}: every p_i slots a message from node S_i to node D_i is released and
// needs s_i contiguous slots on every link of its route within d_i slots of its release.
//
// Stream file (YAML; every integer read as 64 bits and range-checked, errors name
// file:line:column and the key):
//   name: appendix-a                     # optional
//   sync: {master: 0, first_id: 1}       # optional: clock-sync streams master -> every other node
//   streams:
//     - {id: 31, src: 1, dst: 2, period: 10, deadline: 8, slots: 1}
//   changes:                             # optional: demands over time (the dynamic part)
//     - {at: 3ms, add: {id: 40, src: 1, dst: 3, period: 20, deadline: 20, slots: 1}}
//     - {at: 6ms, remove: 31}
// `at` is the requesting host's clock (the source host of the stream added or removed); changes
// are listed in time order; an added stream's id is new, a removed one was declared before.
// Sync streams take their period, deadline and length from tdma.sync_* and ids first_id,
// first_id+1, ... in ascending order of the slave node; they come before the listed streams.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hw/base/time.hpp"

namespace sanvp::tdma {

struct Stream {
  std::int64_t id = 0;
  int src = -1, dst = -1;            // node ids (S_i, D_i)
  std::int64_t period = 1;           // p_i, slots
  std::int64_t deadline = 1;         // d_i, slots after each release, 1 <= d_i <= p_i
  std::int64_t slots = 1;            // s_i, contiguous slots per message, 1 <= s_i <= d_i
  bool sync = false;                 // a clock-synchronization stream
  std::string where;                 // "file:line:col" of its declaration, or "sync" for generated ones
};

struct SyncSpec {
  int master = 0;
  std::int64_t first_id = 1;
  std::string where;                 // of the `sync` key
};

// A demand over time: add a stream or remove one (by id).
struct StreamChange {
  Time at = 0;                       // on the requesting host's clock
  std::optional<Stream> add;
  std::int64_t remove = -1;          // the id, when not an add
  std::string where;                 // "file:line:col" of the entry
};

struct StreamFile {
  std::string file, name;
  std::optional<SyncSpec> sync;
  std::vector<Stream> streams;       // as listed
  std::vector<StreamChange> changes; // in time order
};

// Throws UserError "file:line:col: key: what is wrong" for any bad value or unknown key.
StreamFile load_stream_file(const std::string& file);
StreamFile parse_stream_text(const std::string& text, const std::string& name);

// The sync streams of `spec` to every node of `nodes` but the master, with the given period,
// deadline and length (from TdmaParams).
std::vector<Stream> sync_streams(const SyncSpec& spec, const std::vector<int>& nodes, std::int64_t period, std::int64_t deadline,
                                 std::int64_t slots);

// The streams to schedule: the sync streams (when the file asks for them), then the listed ones.
// Throws UserError naming both declarations when two streams share an id, or a stream that names
// a node outside `nodes` or sends to itself.
std::vector<Stream> streams_for(const StreamFile& f, const std::vector<int>& nodes, std::int64_t sync_period,
                                std::int64_t sync_deadline, std::int64_t sync_slots);

}  // namespace sanvp::tdma
