#include "platform/sim/runner.hpp"

#include <systemc>

#include "hw/base/asan_stack.hpp"
#include "hw/base/error.hpp"

namespace sanvp {

namespace {

template <typename F>
std::string guarded(Catch what, const F& body) {
  try {
    body();
  } catch (const SimError& e) {  // a model error or a failed check
    return e.what();
  } catch (const sc_core::sc_report& e) {  // the same thrown inside a process (SystemC wraps it)
    return e.get_msg();
  } catch (const std::exception& e) {
    if (what != Catch::AnyError) throw;
    return e.what();
  }
  return {};
}

}  // namespace

std::string advance(Time step, Catch what, const std::function<void()>& check) {
  return guarded(what, [&] {
    sc_core::sc_start(sc_core::sc_time::from_value(step));
    back_on_main_stack();
    if (check) check();
  });
}

std::string elaborate(Catch what) {
  return guarded(what, [] { sc_core::sc_get_curr_simcontext()->initialize(true); });
}

}  // namespace sanvp
