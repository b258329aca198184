// LinkFaults: fault injection on one link direction (a LinkChannel), for reliability studies
// (GRIM). Applied where a flit is put on the wire: LinkChannel::send hands each flit to
// `apply`, which says whether the receiver gets it and in what form. Every decision draws from
// the channel's own random stream (run seed + "<channel path>.faults"), so a run is
// reproducible and a fault on one link never perturbs another's.
//
// The faults (parameters in link_faults.params.yaml, global as fault.* or per channel path):
//  - drop: a flit is lost. The end-of-packet mark is Myrinet's GAP, a symbol outside the data
//    bytes; the model never loses it (a lost GAP would merge two worms and hold their path
//    until a link reset), so a worm's last flit is never dropped: the loss of a worm's end is
//    what `truncate` models. When a worm's first flit is lost, the next one heads the worm
//    (its byte becomes the route byte the next switch reads).
//  - corrupt: one random bit of the flit's byte is flipped (a route byte, type, payload or CRC).
//  - truncate: per worm, the link ends it early: its first k flits arrive, k uniform in 1..64
//    (kMaxTruncatePrefix), the k-th marked as the end; the rest are lost. A worm of k flits or
//    fewer arrives whole (not counted). The receiver sees a short packet whose CRC (and length)
//    fail; k = 1 leaves a runt the next switch consumes.
//  - cuts: during [T1, T2) every flit sent on the direction is lost. A worm whose head already
//    crossed when the cut begins is ended by the link (its flit at the cut is delivered as its
//    end, as a truncation: no path is held open); a worm whose head was lost to a cut loses all
//    its flits, even those sent after T2. STOP/GO symbols are not affected by faults: they
//    travel on the other direction, and a cut receiver drains and sends GO as usual, so a cut
//    never leaves a sender stopped.
// Packets touched by a fault are reported to `on_fault` (so the scoreboard counts them as
// faulted, not as model errors) and packets whose tail was lost here (a cut) to `on_lost`;
// `lost_ends()` keeps the latter for the end-of-run accounting.
// Every delivered flit carries what was done to its worm (Flit::fault, hw/link/flit.hpp): its
// own bit flips, and whether a flit before it was lost, so a receiver's probe knows which
// packets were damaged without a table that packet ids (which wrap) could confuse.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "hw/base/params.hpp"
#include "hw/base/rng.hpp"
#include "hw/link/flit.hpp"
#include "hw/link/link_faults_params.hpp"
#include "hw/link/packet_ends.hpp"

namespace sanvp {

inline constexpr int kMaxTruncatePrefix = 64;

struct LinkFaultConfig : LinkFaultParams {
  struct Cut { Time from, to; };
  std::vector<Cut> cut_list;  // this direction's cuts, parsed from `cuts`, sorted
  // Reads fault.* for channel `path`; cuts naming another link are skipped, and the link names
  // found (other than `path`) are returned in `named` for the caller to check they exist.
  static LinkFaultConfig from_params(ParamValues& pv, const std::string& path, std::vector<std::string>* named = nullptr);
  bool any() const { return drop > 0 || corrupt > 0 || truncate > 0 || !cut_list.empty(); }
};

class LinkFaults {
 public:
  struct Stats {
    std::uint64_t flits = 0;           // flits offered to the wire
    std::uint64_t worms = 0;           // worms whose head was offered
    std::uint64_t drop_eligible = 0;   // flits that drop could hit (not a worm's last, not already lost)
    std::uint64_t dropped = 0;         // flits lost by `drop`
    std::uint64_t corrupt_eligible = 0;// flits that reached the corrupt decision
    std::uint64_t corrupted = 0;       // flits with a bit flipped
    std::uint64_t truncated = 0;       // worms ended early by `truncate`
    std::uint64_t truncated_flits = 0; // flits lost behind a truncation
    std::uint64_t cut_flits = 0;       // flits lost to a cut (during it, or behind a head it took)
    std::uint64_t cut_worms = 0;       // worms ended by the link when a cut began mid-worm
    std::uint64_t lost_packets = 0;    // worms whose end was lost here (cut before their head crossed)
  };

  LinkFaults(const LinkFaultConfig& cfg, std::uint64_t seed, const std::string& path)
      : cfg_(cfg), rng_(seed, path + ".faults") {}

  // The flit sent at `t`: false if it is lost; otherwise `f` is what the receiver gets.
  bool apply(Flit& f, Time t);
  bool cut_at(Time t) const;
  // Test hook: the next worm whose head is offered gets `mask` XORed into its flit `index`
  // (0 = its first flit on this link), for each pair, on top of the random faults.
  void flip_next(std::vector<std::pair<int, std::uint8_t>> flips) { flip_next_ = std::move(flips); }

  void set_on_fault(std::function<void(std::uint32_t)> fn) { on_fault_ = std::move(fn); }
  void set_on_lost(std::function<void(std::uint32_t, Time)> fn) { on_lost_ = std::move(fn); }
  const LinkFaultConfig& config() const { return cfg_; }
  const Stats& stats() const { return st_; }
  const PacketEnds& lost_ends() const { return lost_; }

 private:
  void faulted(std::uint32_t p) { if (p != kNoPacket && p != last_faulted_) { last_faulted_ = p; if (on_fault_) on_fault_(p); } }
  bool lose(const Flit& f, Time t);  // the rest of a discarded worm

  LinkFaultConfig cfg_;
  Rng rng_;
  Stats st_;
  PacketEnds lost_;
  std::function<void(std::uint32_t)> on_fault_;
  std::function<void(std::uint32_t, Time)> on_lost_;
  std::uint32_t last_faulted_ = kNoPacket;
  // The current worm as the sender offers it.
  int pos_ = 0;             // its flits offered so far
  int trunc_at_ = 0;        // truncate: the flit (1-based) that becomes its end; 0: none
  bool open_ = false;       // the receiver has its head and not its end
  bool need_head_ = false;  // its head was dropped: the next delivered flit heads it
  bool discard_ = false;    // the rest of it is lost
  bool lose_end_ = false;   // discarding, and the receiver never got any of it: its end is lost here
  bool by_cut_ = false;     // discarding because of a cut (else a truncation)
  bool lost_flit_ = false;  // a flit of it was lost: every later one is marked kFlitLost
  std::vector<std::pair<int, std::uint8_t>> flip_next_, flips_;  // flip_next(): armed, and for the current worm
  void flip(Flit& f, std::uint8_t mask);
};

}  // namespace sanvp
