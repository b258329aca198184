// Packet records shared by the test endpoints: the scoreboard of a run. Payload bytes are not
// stored: they are a pure function of (source, sequence number, index), so a receiver can check
// every byte and a 2 ms saturation run stays small in memory.
#pragma once
#include <cstdint>
#include <cstddef>
#include <functional>
#include <vector>

#include <fmt/format.h>

#include "hw/base/error.hpp"

#include "hw/base/rng.hpp"
#include "hw/base/time.hpp"

namespace sanvp {

inline constexpr std::uint16_t kTestPacketType = 0x0400;  // type field of test-endpoint packets
inline constexpr int kPayloadHeader = 8;                  // src(2) dst(2) seq(4), big-endian

struct PacketRecord {
  std::uint16_t src = 0, dst = 0;
  std::uint32_t seq = 0;          // per-source sequence number
  std::uint32_t payload = 0;      // payload bytes (>= kPayloadHeader)
  std::uint8_t route_len = 0;     // route bytes (= switch hops)
  Time created = kNever;          // entered the source queue
  Time injected = kNever;         // first flit left the source
  Time head_arrival = kNever;     // first flit completely at the destination
  Time tail_arrival = kNever;     // last flit completely at the destination
  std::uint8_t deliveries = 0;    // times delivered intact (must end at exactly 1)
  bool corrupt = false;           // CRC or content mismatch seen
  bool faulted = false;           // a link fault touched it (hw/link/link_faults.hpp): a bad copy is expected
  bool dropped = false;           // ended inside the network: consumed by a switch or lost on a cut link
  bool released = false;          // handed to the run's statistics and freed (PacketTable::release)
  std::uint32_t wire_len() const { return route_len + 2u + payload + 1u; }
  bool ended() const { return tail_arrival != kNever || dropped; }  // delivered or dropped
};

// Bytes 8k .. 8k+7 of the payload (k >= 1; the first 8 are the header below), byte 8k+j in
// bits 8j..8j+7: one hash per 8 bytes, the content still unpredictable per packet and position.
inline std::uint64_t payload_word(const PacketRecord& r, std::uint32_t k) {
  std::uint64_t x = (std::uint64_t{r.src} << 48) ^ (std::uint64_t{r.seq} << 16) ^ k;
  return splitmix64(x);
}

// Byte `i` of the payload of packet (src, seq, dst).
inline std::uint8_t payload_byte(const PacketRecord& r, std::uint32_t i) {
  switch (i) {
    case 0: return static_cast<std::uint8_t>(r.src >> 8);
    case 1: return static_cast<std::uint8_t>(r.src);
    case 2: return static_cast<std::uint8_t>(r.dst >> 8);
    case 3: return static_cast<std::uint8_t>(r.dst);
    case 4: return static_cast<std::uint8_t>(r.seq >> 24);
    case 5: return static_cast<std::uint8_t>(r.seq >> 16);
    case 6: return static_cast<std::uint8_t>(r.seq >> 8);
    case 7: return static_cast<std::uint8_t>(r.seq);
    default: return static_cast<std::uint8_t>(payload_word(r, i >> 3) >> (8 * (i & 7)));
  }
}

// Payload bytes read in order (the source as it sends, the sink as it checks): the word of the
// last 8 bytes is kept, so a hash is computed once per 8 bytes, not per byte.
class PayloadReader {
 public:
  // The next bytes read are of packet `r`'s payload (only src, dst and seq are used).
  void start(const PacketRecord& r) {
    r_.src = r.src;
    r_.dst = r.dst;
    r_.seq = r.seq;
    k_ = 0;
  }
  std::uint8_t at(std::uint32_t i) {
    if (i < static_cast<std::uint32_t>(kPayloadHeader)) return payload_byte(r_, i);
    const std::uint32_t k = i >> 3;
    if (k != k_) { word_ = payload_word(r_, k); k_ = k; }
    return static_cast<std::uint8_t>(word_ >> (8 * (i & 7)));
  }

 private:
  PacketRecord r_;
  std::uint64_t word_ = 0;
  std::uint32_t k_ = 0;  // word_ holds bytes 8k_ .. 8k_+7 (0: none; the header's word is not hashed)
};

// The run's packets by id (ids count up from 0 in creation order). Normally every record is kept
// for the whole run. A run that releases (set_release) hands each packet that is final to a
// statistics sink and frees its record, so memory stays proportional to the packets in flight:
// final means delivered intact exactly once, untouched by a link fault, its tail arrived before
// the release instant (nothing can change such a record any more: only faults duplicate or
// corrupt packets). Everything else stays until the end of the run.
class PacketTable {
 public:
  using Sink = std::function<void(const PacketRecord&, Time now)>;

  std::uint32_t add(const PacketRecord& r) {
    records_.push_back(r);
    return static_cast<std::uint32_t>(base_ + records_.size() - 1);
  }
  PacketRecord& operator[](std::uint32_t id) { return slot(id); }
  const PacketRecord& operator[](std::uint32_t id) const { return const_cast<PacketTable*>(this)->slot(id); }
  // Packets created (released ones included): ids are 0 .. size()-1.
  std::size_t size() const { return base_ + records_.size(); }
  bool released(std::uint32_t id) const { return id < base_ || records_[id - base_].released; }
  // The last flit of `id` reached its destination at `at` (again, for a duplicate).
  void set_tail_arrival(std::uint32_t id, Time at) {
    if (!slot(id).ended()) ++ended_;
    slot(id).tail_arrival = at;
    if (sink_) candidates_.push_back(id);
  }
  // `id` ended inside the network (consumed by a switch, lost on a cut link).
  void set_dropped(std::uint32_t id) {
    if (!slot(id).ended()) ++ended_;
    slot(id).dropped = true;
  }
  // Packets neither delivered nor dropped. A counter, not a scan: the run loop asks every step,
  // and a scan of the whole run's table made a run's cost grow with the square of its length.
  std::uint64_t open() const { return size() - ended_; }
  // Every record, in id order; only while nothing was released (tests, small tools).
  const std::vector<PacketRecord>& all() const {
    if (base_ != 0 || released_ != 0) throw SimError("PacketTable::all(): records were released; use for_each_kept");
    return records_;
  }
  // Every record still kept (not released), with its id, in id order.
  template <typename Fn> void for_each_kept(Fn fn) const {
    for (std::size_t i = 0; i < records_.size(); ++i)
      if (!records_[i].released) fn(static_cast<std::uint32_t>(base_ + i), records_[i]);
  }
  std::size_t kept() const { return records_.size() - released_; }

  // From now on, `release(now)` hands final packets to `sink` and frees them.
  void set_release(Sink sink) { sink_ = std::move(sink); }
  void release(Time now);

 private:
  PacketRecord& slot(std::uint32_t id) {
    if (id < base_ || id - base_ >= records_.size() || records_[id - base_].released)
      throw SimError(fmt::format("packet {} is not in the run's table ({})", id,
                                 id < size() ? "its record was released after delivery" : "no such packet"));
    return records_[id - base_];
  }

  // ids base_ .. base_ + size - 1. A vector, not a deque: the sources and sinks index it for every
  // flit. Released records at its front are erased in one go once they are half of it.
  std::vector<PacketRecord> records_;
  std::uint64_t base_ = 0;  // id of records_.front(); lower ids are all released
  std::uint64_t ended_ = 0, released_ = 0;  // released_: released records still in records_
  Sink sink_;
  std::vector<std::uint32_t> candidates_;  // delivered since the last release (may not be final)
};

inline void PacketTable::release(Time now) {
  std::size_t keep = 0;
  for (const std::uint32_t id : candidates_) {
    if (released(id)) continue;  // a second tail of a duplicated packet: not final anyway
    PacketRecord& r = records_[id - base_];
    const bool final_ = r.deliveries == 1 && !r.corrupt && !r.faulted && !r.dropped;
    if (!final_) continue;  // stays for the end of the run
    if (r.tail_arrival >= now) { candidates_[keep++] = id; continue; }  // not arrived yet: next time
    sink_(r, now);
    r.released = true;
    ++released_;
  }
  candidates_.resize(keep);
  std::size_t lead = 0;
  while (lead < records_.size() && records_[lead].released) ++lead;
  if (lead > 0 && lead >= records_.size() / 2) {
    records_.erase(records_.begin(), records_.begin() + static_cast<std::ptrdiff_t>(lead));
    base_ += lead;
    released_ -= lead;
  }
}
}  // namespace sanvp
