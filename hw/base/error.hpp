// Errors the user caused (bad config, bad key, infeasible parameters): one line, exit code 2.
#pragma once
#include <stdexcept>
#include <string>

namespace sanvp {

class UserError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A simulation that cannot continue (hung network, firmware fault): exit code 3, with a report.
class SimError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An output that could not be written during or after a run (disk full, I/O error): exit code
// 3 like any run that could not complete; a bad output path is a UserError, found before. Not a
// SimError: a run loop that reports model errors with the run's state must not swallow it.
class IoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr int kExitUserError = 2;
inline constexpr int kExitSimError = 3;

}  // namespace sanvp
