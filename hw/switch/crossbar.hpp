// Crossbar: connects each granted input to its output; a flit crosses in `sd` (switching
// delay, switch.sd), pipelined, so flits follow each other at the link's character period.
#pragma once
#include <vector>

#include "hw/base/time.hpp"

namespace sanvp {

class Crossbar {
 public:

  Crossbar(int ports, Time sd) : sd_(sd), input_of_(ports, -1) {}
  void connect(int in, int out) { input_of_[out] = in; }
  void disconnect(int out) { input_of_[out] = -1; }
  int input_of(int out) const { return input_of_[out]; }
  Time sd() const { return sd_; }
  // A flit at the head of its input buffer since `ready` (and the path set up) reaches the
  // output at ready + sd.
  Time at_output(Time ready) const { return ready + sd_; }

 private:
  Time sd_;
  std::vector<int> input_of_;  // output -> connected input, -1 if none
};

}  // namespace sanvp
