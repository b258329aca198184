// AddressSanitizer and SystemC's coroutines (see hw/base/asan_main_stack.cpp for the switches
// libsystemc announces to ASan). A thread that ends switches away without telling ASan, so
// when the kernel returns to sc_main, ASan may still take the main stack for that thread's. An
// exception thrown in sc_main then (a report that cannot be written, a failing vcd2fst) trips
// over stale redzones: a false stack-buffer-overflow (google/sanitizers#189). Every return from
// the kernel to sc_main calls back_on_main_stack(), which hands ASan the main stack's bounds.
// Nothing in builds without ASan.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>

#include <cstddef>
#endif

namespace sanvp {

#if defined(__SANITIZE_ADDRESS__)
struct MainStack {
  const void* bottom = nullptr;  // lowest address
  std::size_t size = 0;          // 0: unknown
};

// The main thread's stack, read once (glibc describes the main thread's stack from the process
// maps, whichever coroutine stack the caller runs on).
inline const MainStack& main_stack() {
  static const MainStack s = [] {
    MainStack m;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return m;
    void* addr = nullptr;
    std::size_t size = 0;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0) m = MainStack{addr, size};
    pthread_attr_destroy(&attr);
    return m;
  }();
  return s;
}

inline void back_on_main_stack() {
  const MainStack& m = main_stack();
  if (m.size == 0) return;
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(&fake_stack, m.bottom, m.size);  // a "switch" to the stack we are on
  __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
}
#else
inline void back_on_main_stack() {}
#endif

}  // namespace sanvp
