// Bulk-channel schedulers: one arbitration per bulk slot turns the request matrix (initiator i
// has a full send buffer for target t) into a conflict-free switch configuration, i.e. a
// matching. The arbiter is chosen by name ("lcf", "islip", "maxsize") so every Clint experiment
// can be repeated with each of them.
//
// Exact LCF algorithm modelled here (the RTL in hw/rtl/lcf_arbiter.sv computes the same function):
//   State: rotation r in [0, N) and diagonal d in [0, N). After every arbitration cycle
//          r <- (r + 1) mod N, and d <- (d + 1) mod N whenever r wraps to 0; (r, d) thus walks
//          through all N^2 values once every N^2 cycles.
//   Step 0 (round-robin priority position): the pair (r, (r + d) mod N) is granted if requested.
//   Step 1 (least choice first, repeated until no free target has a free requester):
//          a) target: the free target with the fewest free requesting initiators; ties go to the
//             first in the rotated order t = (r + k) mod N, k = 0..N-1;
//          b) initiator: among the free initiators requesting that target, the one with the
//             fewest requests to free targets; ties go to the first in the order
//             i = (r + j) mod N, j = 0..N-1.
//          The result is a maximal matching (no requested pair has both ends free).
//   Starvation bound: the priority position visits pair (i, t) in the cycle with r = i and
//          d = (t - i) mod N, so a request held continuously is granted within N^2 arbitration
//          cycles of its first appearance (256 slots for 16 hosts). Without step 0
//          (`LcfArbiter(n, false)`, for tests only) an initiator with many choices can starve.
//   Why one priority pair and not a whole priority diagonal: forcing N diagonal pairs first
//          bounds waiting by N cycles but costs 10-13 % of the matching size on dense 4x4 and
//          8x8 inputs; one pair costs < 3 % (tb/clint/test_arbiters measures both claims).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hw/base/params.hpp"
#include "hw/clint/arbiter_params.hpp"

namespace sanvp::clint {

inline constexpr int kMaxPorts = 64;

// Row i holds initiator i's requests: bit t set = i has a packet for target t.
struct RequestMatrix {
  explicit RequestMatrix(int n = 0) : rows(static_cast<std::size_t>(n), 0) {}
  int size() const { return static_cast<int>(rows.size()); }
  bool get(int i, int t) const { return (rows[static_cast<std::size_t>(i)] >> t) & 1u; }
  void set(int i, int t, bool v = true) {
    auto& r = rows[static_cast<std::size_t>(i)];
    r = v ? (r | (std::uint64_t{1} << t)) : (r & ~(std::uint64_t{1} << t));
  }
  std::string to_string() const;  // one row per line, target 0 leftmost
  std::vector<std::uint64_t> rows;
};

// grant[i] = target granted to initiator i, -1 if none.
using Grants = std::vector<int>;

int matching_size(const Grants& g);
// Empty string when `g` is a matching of requested pairs of `r`, else what is wrong.
std::string check_matching(const RequestMatrix& r, const Grants& g);
std::string grants_to_string(const Grants& g);

class BulkArbiter {
 public:
  virtual ~BulkArbiter() = default;
  virtual const char* name() const = 0;
  virtual int size() const = 0;
  // One arbitration cycle; updates the arbiter's fairness state.
  virtual Grants arbitrate(const RequestMatrix& req) = 0;
};

class LcfArbiter : public BulkArbiter {
 public:
  explicit LcfArbiter(int n, bool round_robin_diagonal = true);
  const char* name() const override { return rr_ ? "lcf" : "lcf-no-rr"; }
  int size() const override { return n_; }
  Grants arbitrate(const RequestMatrix& req) override;
  int rotation() const { return r_; }
  int diagonal() const { return d_; }

 private:
  int n_;
  bool rr_;
  int r_ = 0, d_ = 0;
};

// iSLIP (McKeown): request, grant (per-target pointer), accept (per-initiator pointer); pointers
// move one past the matched partner only for matches made in the first iteration.
class IslipArbiter : public BulkArbiter {
 public:
  IslipArbiter(int n, int iterations);
  const char* name() const override { return "islip"; }
  int size() const override { return n_; }
  Grants arbitrate(const RequestMatrix& req) override;

 private:
  int n_, iterations_;
  std::vector<int> grant_ptr_, accept_ptr_;
};

// Maximum-size matching (augmenting paths, Kuhn). The search order rotates every cycle so that
// among the maximum matchings no pair is systematically preferred; no starvation bound.
class MaxSizeArbiter : public BulkArbiter {
 public:
  explicit MaxSizeArbiter(int n) : n_(n) {}
  const char* name() const override { return "maxsize"; }
  int size() const override { return n_; }
  Grants arbitrate(const RequestMatrix& req) override;

 private:
  int n_;
  int r_ = 0;
};


// Throws UserError for an unknown name.
std::unique_ptr<BulkArbiter> make_arbiter(const std::string& name, int n, int islip_iterations = 4);

}  // namespace sanvp::clint
