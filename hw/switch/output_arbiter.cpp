#include "hw/switch/output_arbiter.hpp"

#include "hw/base/rng.hpp"

namespace sanvp {

namespace {

// Serves the waiting inputs in circular order, starting after the input granted last.
class RoundRobin : public OutputArbiter {
 public:
  RoundRobin(int inputs, int outputs) : last_(static_cast<std::size_t>(outputs), inputs - 1) {}
  std::size_t choose(int out, const std::vector<Waiting>& w) override {
    std::size_t k = 0;
    while (k < w.size() && w[k].input <= last_[static_cast<std::size_t>(out)]) ++k;
    if (k == w.size()) k = 0;  // wrap around
    last_[static_cast<std::size_t>(out)] = w[k].input;
    return k;
  }

 private:
  std::vector<int> last_;  // output -> input granted last
};

// The input that has waited longest; requests of the same instant are served round-robin.
class OldestFirst : public OutputArbiter {
 public:
  OldestFirst(int inputs, int outputs) : rr_(inputs, outputs) {}
  std::size_t choose(int out, const std::vector<Waiting>& w) override {
    Time oldest = kNever;
    for (const auto& x : w) oldest = std::min(oldest, x.since);
    tied_.clear();
    index_.clear();
    for (std::size_t k = 0; k < w.size(); ++k)
      if (w[k].since == oldest) { tied_.push_back(w[k]); index_.push_back(k); }
    return index_[rr_.choose(out, tied_)];
  }

 private:
  RoundRobin rr_;
  std::vector<Waiting> tied_;
  std::vector<std::size_t> index_;
};

// Uniformly random among the waiting inputs, from the switch's own stream (deterministic per seed).
class RandomChoice : public OutputArbiter {
 public:
  RandomChoice(std::uint64_t seed, const std::string& path) : rng_(seed, path + ".arbiter") {}
  std::size_t choose(int, const std::vector<Waiting>& w) override { return static_cast<std::size_t>(rng_.below(w.size())); }

 private:
  Rng rng_;
};

}  // namespace

const std::vector<OutputArbiterInfo>& output_arbiters() {
  static const std::vector<OutputArbiterInfo> v{
      {"round-robin", "circular order starting after the input granted last (Myrinet)"},
      {"oldest-first", "the input that requested first; same-instant requests round-robin"},
      {"random", "uniformly random among the waiting inputs (seeded per switch)"},
  };
  return v;
}

std::string output_arbiter_names() {
  std::string s;
  for (const auto& a : output_arbiters()) s += (s.empty() ? "" : ", ") + std::string(a.name);
  return s;
}

std::unique_ptr<OutputArbiter> make_output_arbiter(const std::string& name, int inputs, int outputs, std::uint64_t seed,
                                                   const std::string& path) {
  if (name == "round-robin") return std::make_unique<RoundRobin>(inputs, outputs);
  if (name == "oldest-first") return std::make_unique<OldestFirst>(inputs, outputs);
  if (name == "random") return std::make_unique<RandomChoice>(seed, path);
  return nullptr;
}

}  // namespace sanvp
