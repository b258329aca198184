// C++ half of crt0: zero .bss, run static constructors in .init_array order (the linker sorts
// .init_array.<priority> ascending, plain .init_array last), call main, exit with its result.
#include "fw/fw.h"

extern "C" {
extern char __bss_start[], __bss_end[];
typedef void (*InitFn)();
extern InitFn __init_array_start[], __init_array_end[];
[[noreturn]] void __fw_start();
}

// clang++ in freestanding mode mangles `int main()` as _Z4mainv; `extern "C" int main()` is
// plain `main`. Accept either (weak references resolve to 0 when absent).
int fw_cxx_main() __asm__("_Z4mainv") __attribute__((weak));
int fw_c_main() __asm__("main") __attribute__((weak));

void __fw_start() {
  // Word-at-a-time (memset): boot time matters on a NIC, where .bss holds rings and tables.
  memset(__bss_start, 0, static_cast<size_t>(__bss_end - __bss_start));
  for (InitFn* f = __init_array_start; f != __init_array_end; ++f) (*f)();
  int rc;
  if (&fw_cxx_main) rc = fw_cxx_main();
  else if (&fw_c_main) rc = fw_c_main();
  else {
    puts("firmware has no main()");
    rc = 127;
  }
  exit(rc);
}

void exit(int code) {
  fw::sys_reg(sanvp::nic::map::kExit) = static_cast<uint32_t>(code);
  for (;;) {
  }
}

void abort() {
  puts("abort()");
  exit(134);
}

extern "C" void __cxa_pure_virtual() {
  puts("pure virtual function called");
  exit(134);
}
