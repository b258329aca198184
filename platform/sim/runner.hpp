// The SystemC run step every simulation command shares. A model error during a run — a
// SimError, or any error thrown inside a SystemC process (which the kernel wraps in an
// sc_report) — must not escape the run loop: the command stops and still writes its report with
// status "error" and exit code 3 (sim/report.hpp). `advance` turns it into the returned text.
#pragma once
#include <functional>
#include <string>

#include "hw/base/time.hpp"

namespace sanvp {

enum class Catch {
  ModelErrors,  // SimError and sc_report; anything else escapes (a bug, an IoError)
  AnyError,     // every std::exception too (host applications, NIC models report that way)
};

// Runs the kernel for `step` ps, then `check` (end-of-step checks, under the same guard). Returns
// the error's message, empty when the step ran cleanly.
std::string advance(Time step, Catch what = Catch::ModelErrors, const std::function<void()>& check = nullptr);

// Elaborates the kernel (what the first sc_start does before time moves), under the same guard;
// a no-op once done. Lets a caller act between elaboration and the first step.
std::string elaborate(Catch what = Catch::ModelErrors);

}  // namespace sanvp
