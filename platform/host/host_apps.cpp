#include "hw/base/sim_time.hpp"
#include "platform/host/host_apps.hpp"

#include <algorithm>
#include <deque>
#include <fmt/format.h>
#include <map>

#include "hw/base/rng.hpp"

namespace sanvp::host {

namespace {


constexpr std::uint64_t kMaxSize = 64ull << 20;

// Byte i of message `tag` of `size` bytes sent by node `src` (the msg benchmark's scheme, with
// the tag mixed in): the receiver recomputes it, so every byte is checked without keeping
// copies, and every message of a run has its own content (stale buffer data cannot pass).
inline std::uint64_t message_key(std::uint32_t src, std::uint32_t size, std::uint32_t tag) {
  std::uint64_t x = (std::uint64_t{src} << 40) ^ tag;
  return splitmix64(x) ^ (std::uint64_t{size} << 8);
}
inline std::uint8_t pattern(std::uint64_t key, std::uint64_t i) {
  std::uint64_t x = key ^ (i >> 3);
  return static_cast<std::uint8_t>(splitmix64(x) >> (8 * (i & 7)));
}

void fill(Host& h, std::uint64_t addr, std::uint32_t src, std::uint32_t size, std::uint32_t tag) {
  const std::uint64_t key = message_key(src, size, tag);
  std::vector<std::uint8_t> b(std::min<std::uint32_t>(size, 1u << 16));
  for (std::uint64_t off = 0; off < size; off += b.size()) {
    const std::uint32_t n = static_cast<std::uint32_t>(std::min<std::uint64_t>(b.size(), size - off));
    for (std::uint32_t i = 0; i < n; ++i) b[i] = pattern(key, off + i);
    h.memory().write(addr + off, b.data(), n);
  }
}

// Offset of the first byte of the buffer at `addr` that differs from the message's pattern
// (size if none).
std::uint64_t first_mismatch(Host& h, std::uint64_t addr, std::uint32_t src, std::uint32_t size, std::uint32_t tag, std::uint8_t* got = nullptr) {
  const std::uint64_t key = message_key(src, size, tag);
  std::vector<std::uint8_t> b(std::min<std::uint32_t>(size, 1u << 16));
  for (std::uint64_t off = 0; off < size; off += b.size()) {
    const std::uint32_t n = static_cast<std::uint32_t>(std::min<std::uint64_t>(b.size(), size - off));
    h.memory().read(addr + off, b.data(), n);
    for (std::uint32_t i = 0; i < n; ++i)
      if (b[i] != pattern(key, off + i)) {
        if (got) *got = b[i];
        return off + i;
      }
  }
  return size;
}

void fail(AppResult& r, std::string s) {
  ++r.bad;
  if (r.errors.size() < 10) r.errors.push_back(std::move(s));
}

// Checks a received message: kind, source, length, tag, then every byte. Returns true if intact.
bool check(Host& h, AppResult& r, const MsgDriver::Completion& c, std::uint64_t addr, std::uint32_t size, std::uint32_t src,
           std::uint32_t tag) {
  ++r.received;
  r.bytes_received += c.length;
  if (c.kind != msg::kCqRecv || c.length != size || c.peer != src || c.tag != tag) {
    fail(r, fmt::format("{}: expected message tag {} of {} bytes from n{}, got kind {} tag {} of {} bytes from n{}", h.name(), tag, size, src,
                        c.kind, c.tag, c.length, c.peer));
    return false;
  }
  std::uint8_t got = 0;
  const std::uint64_t bad = first_mismatch(h, addr, src, size, tag, &got);
  if (bad < size) {
    fail(r, fmt::format("{}: message tag {} ({} bytes from n{}) byte {} is {:#x}, expected {:#x}", h.name(), tag, size, src, bad, got,
                        pattern(message_key(src, size, tag), bad)));
    return false;
  }
  return true;
}

// Parses a count or size: digits with an optional K or M suffix (binary). Empty optional if bad.
std::optional<std::uint64_t> parse_count(const std::string& s, bool suffix) {
  if (s.empty() || s.size() > 18) return std::nullopt;
  std::uint64_t mul = 1;
  std::string d = s;
  if (suffix && (d.back() == 'K' || d.back() == 'k')) { mul = 1024; d.pop_back(); }
  else if (suffix && (d.back() == 'M' || d.back() == 'm')) { mul = 1024 * 1024; d.pop_back(); }
  if (d.empty() || !std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
  return std::stoull(d) * mul;
}

struct Parsed {
  int peer = -1;
  std::uint32_t size = 0;
  std::uint64_t n = 0;  // iterations or count
};

Parsed parse(const AppSpec& a) {  // for checked specs
  Parsed p;
  if (a.app == "pingpong" || a.app == "stream") {
    p.peer = std::stoi(a.args[0]);
    p.size = static_cast<std::uint32_t>(*parse_count(a.args[1], true));
    p.n = *parse_count(a.args[2], false);
  }
  return p;
}

}  // namespace

const std::vector<AppInfo>& host_app_registry() {
  static const std::vector<AppInfo> r = {
      {"idle", "idle", "does nothing (the NIC's firmware still runs)"},
      {"pingpong", "pingpong PEER SIZE ITERATIONS", "round trips with PEER (which runs pingpong naming this node); the lower id sends first"},
      {"sink", "sink", "receives and checks every message that stream applications send to this node"},
      {"stream", "stream PEER SIZE COUNT", "sends COUNT messages of SIZE bytes to PEER (which runs sink)"},
  };
  return r;
}

bool is_host_app(const std::string& name) {
  for (const auto& a : host_app_registry())
    if (name == a.name) return true;
  return false;
}

std::string host_app_names() {
  std::string s;
  for (const auto& a : host_app_registry()) s += (s.empty() ? "" : ", ") + std::string(a.name);
  return s;
}

std::optional<AppError> check_apps(const std::vector<AppSpec>& apps, const std::vector<bool>& nic_node) {
  std::map<int, std::size_t> at;  // node -> index
  for (std::size_t i = 0; i < apps.size(); ++i) at[apps[i].node] = i;
  const int nodes = static_cast<int>(nic_node.size());
  // Arguments of each application on its own.
  for (std::size_t i = 0; i < apps.size(); ++i) {
    const AppSpec& a = apps[i];
    auto err = [&](int arg, std::string m) { return AppError{i, arg, std::move(m)}; };
    if (!is_host_app(a.app)) return err(-1, fmt::format("unknown host application '{}' (known: {})", a.app, host_app_names()));
    if (a.app == "idle" || a.app == "sink") {
      if (!a.args.empty()) return err(0, fmt::format("'{}' takes no arguments", a.app));
      continue;
    }
    const char* usage = a.app == "pingpong" ? "pingpong PEER SIZE ITERATIONS" : "stream PEER SIZE COUNT";
    if (a.args.size() != 3) return err(a.args.empty() ? -1 : 0, fmt::format("expected 3 arguments ({}), got {}", usage, a.args.size()));
    const auto peer = parse_count(a.args[0], false);
    if (!peer || static_cast<std::int64_t>(*peer) >= nodes) return err(0, fmt::format("PEER '{}' is not a node id (0..{})", a.args[0], nodes - 1));
    if (static_cast<int>(*peer) == a.node) return err(0, "PEER is this node itself");
    if (!nic_node[*peer]) return err(0, fmt::format("PEER n{} has no NIC (give it a firmware image): messages go between NIC nodes", *peer));
    const auto size = parse_count(a.args[1], true);
    if (!size || *size == 0 || *size > kMaxSize) return err(1, fmt::format("SIZE '{}' is not a message size in 1..64M bytes", a.args[1]));
    const auto n = parse_count(a.args[2], false);
    if (!n || *n == 0 || *n > 1000000)
      return err(2, fmt::format("{} '{}' is not a number in 1..1000000", a.app == "pingpong" ? "ITERATIONS" : "COUNT", a.args[2]));
  }
  // How they fit together.
  std::map<int, int> streams_to;
  for (std::size_t i = 0; i < apps.size(); ++i) {
    const AppSpec& a = apps[i];
    if (a.app != "pingpong" && a.app != "stream") continue;
    const Parsed p = parse(a);
    const auto it = at.find(p.peer);
    const AppSpec* peer = it == at.end() ? nullptr : &apps[it->second];
    if (a.app == "pingpong") {
      if (!peer || peer->app != "pingpong")
        return AppError{i, 0, fmt::format("PEER n{} must run pingpong naming n{} (it runs {})", p.peer, a.node, peer ? peer->app : "no application")};
      const Parsed q = parse(*peer);
      if (q.peer != a.node) return AppError{i, 0, fmt::format("PEER n{} runs pingpong with n{}, not with n{}", p.peer, q.peer, a.node)};
      if (q.size != p.size || q.n != p.n)
        return AppError{i, -1, fmt::format("n{} and its PEER n{} must use the same SIZE and ITERATIONS ({} {} vs {} {})", a.node, p.peer, p.size,
                                           p.n, q.size, q.n)};
    } else {
      if (!peer || peer->app != "sink")
        return AppError{i, 0, fmt::format("PEER n{} must run sink to receive the stream (it runs {})", p.peer, peer ? peer->app : "no application")};
      ++streams_to[p.peer];
    }
  }
  for (std::size_t i = 0; i < apps.size(); ++i)
    if (apps[i].app == "sink" && !streams_to.count(apps[i].node))
      return AppError{i, -1, fmt::format("no stream application sends to n{}: the sink would have nothing to receive", apps[i].node)};
  return std::nullopt;
}

namespace {

// pingpong PEER SIZE ITERATIONS: the lower node id sends first and measures half round trips.
void run_pingpong(const Parsed& p, std::uint32_t me, bool ping, MsgDriver& d, AppResult& r) {
  Host& h = d.host();
  const std::uint64_t sbuf = h.alloc(p.size), rbuf = h.alloc(p.size);
  for (std::uint32_t i = 0; i < p.n; ++i) {
    fill(h, sbuf, me, p.size, i);  // the send buffer is ours again: the previous send completed
    d.post_recv(rbuf, p.size);
    if (ping) {
      r.phase = fmt::format("round trip {} of {}: waiting for the answer from n{}", i + 1, p.n, p.peer);
      const Time t0 = now_ps();
      d.send(static_cast<std::uint32_t>(p.peer), sbuf, p.size, i);
      ++r.sent;
      r.bytes_sent += p.size;
      const auto c = d.wait_for(msg::kCqRecv);
      r.latency.push_back((now_ps() - t0) / 2);
      check(h, r, c, rbuf, p.size, static_cast<std::uint32_t>(p.peer), i);
      d.wait_for(msg::kCqSent);
    } else {
      r.phase = fmt::format("round trip {} of {}: waiting for n{}'s message", i + 1, p.n, p.peer);
      const auto c = d.wait_for(msg::kCqRecv);
      check(h, r, c, rbuf, p.size, static_cast<std::uint32_t>(p.peer), i);
      d.send(static_cast<std::uint32_t>(p.peer), sbuf, p.size, i);
      ++r.sent;
      r.bytes_sent += p.size;
      d.wait_for(msg::kCqSent);
    }
  }
}

// stream PEER SIZE COUNT: a ring of send buffers, one per message the send queue can hold (plus
// one): a buffer is refilled only after its message's sent completion (sent completions come in
// order).
void run_stream(const Parsed& p, std::uint32_t me, MsgDriver& d, AppBoard& board, AppResult& r) {
  Host& h = d.host();
  const std::uint32_t nbuf = static_cast<std::uint32_t>(std::min<std::uint64_t>(p.n, msg::kSqEntries + 1));
  std::vector<std::uint64_t> sbuf;
  for (std::uint32_t k = 0; k < nbuf; ++k) sbuf.push_back(h.alloc(p.size));
  auto& posted = board.posted.at(me);
  std::uint32_t completed = 0;
  for (std::uint32_t i = 0; i < p.n; ++i) {
    if (i >= nbuf) {
      r.phase = fmt::format("waiting for send completion {} of {}", completed + 1, p.n);
      d.wait_for(msg::kCqSent);
      ++completed;
    }
    r.phase = fmt::format("posting message {} of {} to n{}", i + 1, p.n, p.peer);
    fill(h, sbuf[i % nbuf], me, p.size, i);
    posted.push_back(now_ps());
    d.send(static_cast<std::uint32_t>(p.peer), sbuf[i % nbuf], p.size, i);
    ++r.sent;
    r.bytes_sent += p.size;
  }
  for (; completed < p.n; ++completed) {
    r.phase = fmt::format("waiting for send completion {} of {}", completed + 1, p.n);
    d.wait_for(msg::kCqSent);
  }
}

// sink: receives every stream sent to it. Expected: per sender, its size and count; messages of
// one sender arrive in order.
void run_sink(const AppSpec& spec, const std::vector<AppSpec>& apps, MsgDriver& d, AppBoard& board, AppResult& r) {
  Host& h = d.host();
  std::map<std::uint32_t, Parsed> from;
  std::uint64_t total = 0;
  std::uint32_t cap = 0;
  for (const auto& a : apps)
    if (a.app == "stream" && parse(a).peer == spec.node) {
      from[static_cast<std::uint32_t>(a.node)] = parse(a);
      total += parse(a).n;
      cap = std::max(cap, parse(a).size);
    }
  std::map<std::uint32_t, std::uint32_t> next;  // next tag per sender
  const std::uint32_t nbuf = static_cast<std::uint32_t>(std::min<std::uint64_t>(total, msg::kRqEntries));
  // The firmware takes posted buffers in post order when a message's first fragment arrives,
  // but messages from different senders complete in any order and a completion does not name
  // its buffer: the buffer is the outstanding one that holds exactly this message (every
  // message's content is unique). None holding it = a bad message.
  std::deque<std::uint64_t> outstanding;  // in post order
  for (std::uint32_t k = 0; k < nbuf; ++k) { outstanding.push_back(h.alloc(cap)); d.post_recv(outstanding.back(), cap); }
  for (std::uint64_t k = 0; k < total; ++k) {
    r.phase = fmt::format("waiting for message {} of {}", k + 1, total);
    const auto c = d.wait_for(msg::kCqRecv);
    const auto it = from.find(c.peer);
    std::size_t which = 0;  // the oldest, when no buffer matches (its bytes name the damage)
    if (it == from.end()) {
      ++r.received;
      r.bytes_received += c.length;
      fail(r, fmt::format("{}: message tag {} of {} bytes from n{}, which streams nothing here", h.name(), c.tag, c.length, c.peer));
    } else {
      const std::uint32_t tag = next[c.peer]++;
      const std::uint32_t size = it->second.size;
      if (c.length == size && c.tag == tag)
        for (std::size_t j = 0; j < outstanding.size(); ++j)
          if (first_mismatch(h, outstanding[j], c.peer, size, tag) == size) { which = j; break; }
      if (check(h, r, c, outstanding[which], size, c.peer, tag)) {
        const auto& posted = board.posted.at(c.peer);
        if (tag < posted.size()) r.latency.push_back(c.seen - posted[tag]);
      }
    }
    const std::uint64_t b = outstanding[which];
    outstanding.erase(outstanding.begin() + static_cast<std::ptrdiff_t>(which));
    if (k + nbuf < total) { d.post_recv(b, cap); outstanding.push_back(b); }
  }
}

}  // namespace

void run_host_app(const AppSpec& spec, const std::vector<AppSpec>& apps, MsgDriver& d, AppBoard& board, AppResult& r) {
  const std::uint32_t me = static_cast<std::uint32_t>(spec.node);
  r.started = now_ps();
  if (spec.app == "idle") {
    r.phase = "finished";
    r.done = true;
    r.finished = now_ps();
    return;
  }
  r.phase = "opening the driver";
  d.open();
  const Parsed p = parse(spec);
  if (spec.app == "pingpong") run_pingpong(p, me, spec.node < p.peer, d, r);
  else if (spec.app == "stream") run_stream(p, me, d, board, r);
  else if (spec.app == "sink") run_sink(spec, apps, d, board, r);
  r.phase = "finished";
  r.done = true;
  r.finished = now_ps();
}

}  // namespace sanvp::host
