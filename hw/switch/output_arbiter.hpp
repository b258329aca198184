// OutputArbiter: the policy that picks, among the inputs waiting for a free output, the one that
// gets it. RouterArbiter keeps the requests and the owners; the policy only chooses, so trying
// another policy is a new class here and a line in the table, not an edit of the switch.
// Chosen per switch by name: switch.arbiter (see output_arbiters() and `sanvp params`).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hw/base/time.hpp"

namespace sanvp {

class OutputArbiter {
 public:
  struct Waiting { int input; Time since; };  // an input waiting for the output, and since when
  virtual ~OutputArbiter() = default;
  // `waiting` is non-empty, in ascending input order; returns the index of the winner in it.
  virtual std::size_t choose(int out, const std::vector<Waiting>& waiting) = 0;
};

struct OutputArbiterInfo { const char* name; const char* meaning; };
// Every policy, the default (round-robin, as in Myrinet switches) first.
const std::vector<OutputArbiterInfo>& output_arbiters();
// "round-robin, oldest-first, random": for messages and the parameter's documentation.
std::string output_arbiter_names();
// The policy called `name` for a switch with `inputs` x `outputs`, or nullptr for an unknown
// name. `seed` and `path` give the random policy its own stream.
std::unique_ptr<OutputArbiter> make_output_arbiter(const std::string& name, int inputs, int outputs, std::uint64_t seed,
                                                   const std::string& path);

}  // namespace sanvp
