#include "hw/clint/arbiter.hpp"

#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp::clint {

namespace {
int popcount(std::uint64_t x) { return __builtin_popcountll(x); }
std::uint64_t bit(int t) { return std::uint64_t{1} << t; }
void check_size(int n) {
  if (n < 1 || n > kMaxPorts)
    throw UserError(fmt::format("clint: arbiter size {} outside 1..{}", n, kMaxPorts));
}
}  // namespace

std::string RequestMatrix::to_string() const {
  std::string s;
  for (int i = 0; i < size(); ++i) {
    for (int t = 0; t < size(); ++t) s += get(i, t) ? '1' : '.';
    s += '\n';
  }
  return s;
}

int matching_size(const Grants& g) {
  int n = 0;
  for (int t : g) n += t >= 0;
  return n;
}

std::string check_matching(const RequestMatrix& r, const Grants& g) {
  if (static_cast<int>(g.size()) != r.size()) return "grant vector has the wrong size";
  std::uint64_t used = 0;
  for (int i = 0; i < r.size(); ++i) {
    int t = g[static_cast<std::size_t>(i)];
    if (t < 0) continue;
    if (t >= r.size()) return fmt::format("initiator {} granted out-of-range target {}", i, t);
    if (!r.get(i, t)) return fmt::format("initiator {} granted unrequested target {}", i, t);
    if (used & bit(t)) return fmt::format("target {} granted twice", t);
    used |= bit(t);
  }
  return {};
}

std::string grants_to_string(const Grants& g) {
  std::string s;
  for (std::size_t i = 0; i < g.size(); ++i) {
    if (g[i] < 0) continue;
    if (!s.empty()) s += ' ';
    s += fmt::format("{}->{}", i, g[i]);
  }
  return s.empty() ? "(none)" : s;
}

// ---------------------------------------------------------------- LCF
LcfArbiter::LcfArbiter(int n, bool round_robin_diagonal) : n_(n), rr_(round_robin_diagonal) { check_size(n); }

Grants LcfArbiter::arbitrate(const RequestMatrix& req) {
  Grants g(static_cast<std::size_t>(n_), -1);
  std::uint64_t ini_used = 0, tgt_used = 0;
  auto grant = [&](int i, int t) {
    g[static_cast<std::size_t>(i)] = t;
    ini_used |= bit(i);
    tgt_used |= bit(t);
  };
  if (rr_) {
    int t = (r_ + d_) % n_;
    if (req.get(r_, t)) grant(r_, t);
  }
  for (;;) {
    // a) the free target with the fewest free requesters
    int best_t = -1, best_tc = kMaxPorts + 1;
    for (int k = 0; k < n_; ++k) {
      int t = (r_ + k) % n_;
      if (tgt_used & bit(t)) continue;
      int c = 0;
      for (int i = 0; i < n_; ++i) c += !(ini_used & bit(i)) && req.get(i, t);
      if (c > 0 && c < best_tc) { best_t = t; best_tc = c; }
    }
    if (best_t < 0) break;
    // b) its free requester with the fewest requests to free targets
    int best_i = -1, best_ic = kMaxPorts + 1;
    for (int j = 0; j < n_; ++j) {
      int i = (r_ + j) % n_;
      if ((ini_used & bit(i)) || !req.get(i, best_t)) continue;
      int c = popcount(req.rows[static_cast<std::size_t>(i)] & ~tgt_used);
      if (c < best_ic) { best_i = i; best_ic = c; }
    }
    grant(best_i, best_t);
  }
  r_ = (r_ + 1) % n_;
  if (r_ == 0) d_ = (d_ + 1) % n_;
  return g;
}

// ---------------------------------------------------------------- iSLIP
IslipArbiter::IslipArbiter(int n, int iterations)
    : n_(n), iterations_(iterations), grant_ptr_(static_cast<std::size_t>(n), 0),
      accept_ptr_(static_cast<std::size_t>(n), 0) {
  check_size(n);
  if (iterations < 1) throw UserError(fmt::format("clint.islip_iterations: {} must be >= 1", iterations));
}

Grants IslipArbiter::arbitrate(const RequestMatrix& req) {
  Grants g(static_cast<std::size_t>(n_), -1);
  std::uint64_t ini_used = 0, tgt_used = 0;
  for (int it = 0; it < iterations_; ++it) {
    // Grant: every free target offers itself to the first requesting free initiator at or
    // after its pointer.
    std::vector<int> offer(static_cast<std::size_t>(n_), -1);  // target -> initiator
    bool any = false;
    for (int t = 0; t < n_; ++t) {
      if (tgt_used & bit(t)) continue;
      for (int j = 0; j < n_; ++j) {
        int i = (grant_ptr_[static_cast<std::size_t>(t)] + j) % n_;
        if (!(ini_used & bit(i)) && req.get(i, t)) { offer[static_cast<std::size_t>(t)] = i; any = true; break; }
      }
    }
    if (!any) break;
    // Accept: every initiator accepts the first offering target at or after its pointer.
    for (int i = 0; i < n_; ++i) {
      if (ini_used & bit(i)) continue;
      for (int j = 0; j < n_; ++j) {
        int t = (accept_ptr_[static_cast<std::size_t>(i)] + j) % n_;
        if (offer[static_cast<std::size_t>(t)] != i) continue;
        g[static_cast<std::size_t>(i)] = t;
        ini_used |= bit(i);
        tgt_used |= bit(t);
        if (it == 0) {
          grant_ptr_[static_cast<std::size_t>(t)] = (i + 1) % n_;
          accept_ptr_[static_cast<std::size_t>(i)] = (t + 1) % n_;
        }
        break;
      }
    }
  }
  return g;
}

// ---------------------------------------------------------------- maximum size
namespace {
bool augment(const RequestMatrix& req, int n, int r, int i, std::vector<int>& owner_of_tgt,
             std::uint64_t& visited) {
  for (int k = 0; k < n; ++k) {
    int t = (r + k) % n;
    if (!req.get(i, t) || (visited & bit(t))) continue;
    visited |= bit(t);
    int o = owner_of_tgt[static_cast<std::size_t>(t)];
    if (o < 0 || augment(req, n, r, o, owner_of_tgt, visited)) {
      owner_of_tgt[static_cast<std::size_t>(t)] = i;
      return true;
    }
  }
  return false;
}
}  // namespace

Grants MaxSizeArbiter::arbitrate(const RequestMatrix& req) {
  std::vector<int> owner(static_cast<std::size_t>(n_), -1);
  for (int j = 0; j < n_; ++j) {
    int i = (r_ + j) % n_;
    std::uint64_t visited = 0;
    augment(req, n_, r_, i, owner, visited);
  }
  Grants g(static_cast<std::size_t>(n_), -1);
  for (int t = 0; t < n_; ++t)
    if (owner[static_cast<std::size_t>(t)] >= 0) g[static_cast<std::size_t>(owner[static_cast<std::size_t>(t)])] = t;
  r_ = (r_ + 1) % n_;
  return g;
}

std::unique_ptr<BulkArbiter> make_arbiter(const std::string& name, int n, int islip_iterations) {
  if (name == "lcf") return std::make_unique<LcfArbiter>(n);
  if (name == "islip" || name == "rr") return std::make_unique<IslipArbiter>(n, islip_iterations);
  if (name == "maxsize") return std::make_unique<MaxSizeArbiter>(n);
  throw UserError(fmt::format("clint.arbiter: unknown arbiter '{}' (lcf, islip, maxsize)", name));
}

}  // namespace sanvp::clint
