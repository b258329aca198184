// AddressSanitizer builds only (preset asan): tells ASan the main stack's bounds whenever
// SystemC switches back to sc_main.
//
// libsystemc announces each coroutine switch to ASan through weak __sanitizer_*_switch_fiber
// calls, passing the target's stack. For the main context it has none to pass (bottom null,
// size 0), so after a thread ran ASan takes the main stack to be empty. An exception thrown on
// the main stack afterwards (a report or VCD that cannot be written, a failing vcd2fst) is
// then not unpoisoned ("ASan is ignoring requested __asan_handle_no_return",
// google/sanitizers#189) and a later call trips over its frames' stale redzones: a false
// stack-buffer-overflow. This definition, in the executable, comes before ASan's in symbol
// lookup: it puts the main thread's real bounds in for the missing ones and calls ASan's.
// Linked into the sanvp executable and every Catch2 test (platform/CMakeLists.txt,
// tb/CMakeLists.txt) when SANVP_SANITIZE is on.
#if defined(__SANITIZE_ADDRESS__)
#include <dlfcn.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>

#include "hw/base/asan_stack.hpp"

namespace {

using StartSwitch = void (*)(void**, const void*, std::size_t);

StartSwitch asan_start_switch() {
  static const StartSwitch real = reinterpret_cast<StartSwitch>(dlsym(RTLD_NEXT, "__sanitizer_start_switch_fiber"));
  if (!real) {
    std::fprintf(stderr, "asan_main_stack: ASan's __sanitizer_start_switch_fiber not found\n");
    std::abort();
  }
  return real;
}

}  // namespace

extern "C" void __sanitizer_start_switch_fiber(void** fake_stack_save, const void* bottom, std::size_t size) {
  if (bottom == nullptr && size == 0) {
    const sanvp::MainStack& m = sanvp::main_stack();
    bottom = m.bottom;
    size = m.size;
  }
  asan_start_switch()(fake_stack_save, bottom, size);
}
#endif
