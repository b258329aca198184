#include "platform/tdma/stream.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>

#include "hw/base/error.hpp"
#include "platform/topo/yaml_util.hpp"

namespace sanvp::tdma {
namespace {

// Largest values a file may give; the cycle limit (tdma.max_cycle) is checked later, by the
// scheduler, against the lcm of the periods.
constexpr std::int64_t kMaxId = 2147483647;
constexpr std::int64_t kMaxNode = 1 << 20;
constexpr std::int64_t kMaxSlots = 1000000;  // the largest tdma.max_cycle

std::int64_t ranged(const YamlDoc& doc, const YAML::Node& map, const char* key, const std::string& path, std::int64_t lo,
                    std::int64_t hi, const std::string& why = {}) {
  const YAML::Node n = map[key];
  const std::string p = path + "." + key;
  if (!n) doc.fail(map, p, "missing (a stream needs id, src, dst, period, deadline, slots)");
  const std::int64_t v = doc.integer(n, p);
  if (v < lo || v > hi) doc.fail(n, p, fmt::format("{} is outside {}..{}{}", v, lo, hi, why));
  return v;
}

Stream parse_stream(const YamlDoc& doc, const YAML::Node& s, const std::string& path) {
  doc.check_keys(s, path, {"id", "src", "dst", "period", "deadline", "slots"});
  Stream x;
  x.where = doc.where(s);
  x.id = ranged(doc, s, "id", path, 0, kMaxId);
  x.src = static_cast<int>(ranged(doc, s, "src", path, 0, kMaxNode));
  x.dst = static_cast<int>(ranged(doc, s, "dst", path, 0, kMaxNode));
  x.period = ranged(doc, s, "period", path, 1, kMaxSlots);
  x.deadline = ranged(doc, s, "deadline", path, 1, x.period, " (a deadline is at most the period)");
  x.slots = ranged(doc, s, "slots", path, 1, x.deadline, " (a message must fit in its deadline)");
  return x;
}

SyncSpec parse_sync(const YamlDoc& doc, const YAML::Node& s) {
  doc.check_keys(s, "sync", {"master", "first_id"});
  SyncSpec y;
  y.where = doc.where(s);
  y.master = static_cast<int>(ranged(doc, s, "master", "sync", 0, kMaxNode));
  if (s["first_id"]) y.first_id = ranged(doc, s, "first_id", "sync", 0, kMaxId);
  return y;
}

StreamChange parse_change(const YamlDoc& doc, const YAML::Node& c, const std::string& path, Time prev) {
  doc.require_map(c, path);
  doc.check_keys(c, path, {"at", "add", "remove"});
  StreamChange x;
  x.where = doc.where(c);
  if (!c["at"]) doc.fail(c, path + ".at", "missing (when the demand is made, on the requesting host's clock, e.g. 3ms)");
  x.at = doc.time(c["at"], path + ".at");
  if (x.at < prev) doc.fail(c["at"], path + ".at", fmt::format("{} is before the previous change's {} (list the changes in time order)",
                                                               format_time(x.at), format_time(prev)));
  if (static_cast<bool>(c["add"]) == static_cast<bool>(c["remove"])) doc.fail(c, path, "give one of add: {stream} or remove: id");
  if (c["add"]) {
    doc.require_map(c["add"], path + ".add");
    x.add = parse_stream(doc, c["add"], path + ".add");
  } else {
    x.remove = ranged(doc, c, "remove", path, 0, kMaxId);
  }
  return x;
}

StreamFile parse(const YAML::Node& root, const std::string& name) {
  const YamlDoc doc(name);
  doc.check_keys(root, "", {"name", "description", "sync", "streams", "changes"});
  StreamFile f;
  f.file = name;
  if (root["name"]) f.name = doc.string(root["name"], "name");
  if (root["sync"]) f.sync = parse_sync(doc, root["sync"]);
  const YAML::Node list = root["streams"];
  if (!list) doc.fail(root, "streams", "missing (the list of streams, possibly empty: streams: [])");
  doc.require_seq(list, "streams");
  for (std::size_t i = 0; i < list.size(); ++i) f.streams.push_back(parse_stream(doc, list[i], fmt::format("streams[{}]", i)));
  if (const YAML::Node ch = root["changes"]) {
    doc.require_seq(ch, "changes");
    for (std::size_t i = 0; i < ch.size(); ++i)
      f.changes.push_back(parse_change(doc, ch[i], fmt::format("changes[{}]", i), f.changes.empty() ? 0 : f.changes.back().at));
  }
  return f;
}

}  // namespace

StreamFile load_stream_file(const std::string& file) { return parse(YamlDoc::load_file(file), file); }

StreamFile parse_stream_text(const std::string& text, const std::string& name) { return parse(YamlDoc::load_string(text, name), name); }

std::vector<Stream> sync_streams(const SyncSpec& spec, const std::vector<int>& nodes, std::int64_t period, std::int64_t deadline,
                                 std::int64_t slots) {
  if (deadline > period) throw UserError(fmt::format("tdma.sync_deadline = {} is above tdma.sync_period = {}", deadline, period));
  if (slots > deadline) throw UserError(fmt::format("tdma.sync_slots = {} is above tdma.sync_deadline = {}", slots, deadline));
  std::vector<int> slaves = nodes;
  std::sort(slaves.begin(), slaves.end());
  if (!std::binary_search(slaves.begin(), slaves.end(), spec.master))
    throw UserError(fmt::format("{}: sync.master: node {} is not in the network", spec.where, spec.master));
  std::vector<Stream> out;
  for (int n : slaves) {
    if (n == spec.master) continue;
    const std::int64_t id = spec.first_id + static_cast<std::int64_t>(out.size());
    if (id > kMaxId) throw UserError(fmt::format("{}: sync.first_id: stream id {} would exceed {}", spec.where, id, kMaxId));
    out.push_back(Stream{id, spec.master, n, period, deadline, slots, true, "sync"});
  }
  return out;
}

std::vector<Stream> streams_for(const StreamFile& f, const std::vector<int>& nodes, std::int64_t sync_period,
                                std::int64_t sync_deadline, std::int64_t sync_slots) {
  std::vector<Stream> all;
  if (f.sync) all = sync_streams(*f.sync, nodes, sync_period, sync_deadline, sync_slots);
  all.insert(all.end(), f.streams.begin(), f.streams.end());
  std::vector<int> known = nodes;
  std::sort(known.begin(), known.end());
  std::map<std::int64_t, const Stream*> seen;
  for (const Stream& s : all) {
    for (int n : {s.src, s.dst})
      if (!std::binary_search(known.begin(), known.end(), n))
        throw UserError(fmt::format("{}: stream {}: node {} is not in the network ({} nodes)", s.where, s.id, n, nodes.size()));
    if (s.src == s.dst) throw UserError(fmt::format("{}: stream {}: src and dst are both node {}", s.where, s.id, s.src));
    const auto [it, fresh] = seen.emplace(s.id, &s);
    if (!fresh) {
      const Stream& o = *it->second;
      throw UserError(fmt::format("{}: stream id {} is already used by {}", s.where, s.id,
                                  o.sync ? fmt::format("the clock-sync stream n{}->n{} (see sync.first_id)", o.src, o.dst)
                                         : "the stream at " + o.where));
    }
  }
  return all;
}

}  // namespace sanvp::tdma
