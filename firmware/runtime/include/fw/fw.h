// sanvp firmware runtime: what a firmware source includes. Freestanding C++17 for
// clang++ --target=lanai; see docs/firmware.md.
#pragma once
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/nic/memory_map.hpp"

extern "C" {
// Console (system register kConsoleTx). printf supports %d %i %u %x %X %o %c %s %p %%, flags
// "-0+ #", width, precision and the h/hh/l/z length modifiers (all 32-bit: there is no
// 64-bit varargs support in clang 14's Lanai ABI, print 64-bit values as two halves).
int printf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char* fmt, va_list ap);
int snprintf(char* buf, size_t n, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
int vsnprintf(char* buf, size_t n, const char* fmt, va_list ap);
int putchar(int c);
int puts(const char* s);

// Ends the simulation; `sanvp fw run` exits with `code`.
[[noreturn]] void exit(int code);
// Prints "abort()" and exits with code 134.
[[noreturn]] void abort(void);

void* memcpy(void* dst, const void* src, size_t n);
void* memmove(void* dst, const void* src, size_t n);
void* memset(void* dst, int c, size_t n);
int memcmp(const void* a, const void* b, size_t n);
size_t strlen(const char* s);
int strcmp(const char* a, const char* b);

void* malloc(size_t n);  // the same heap as operator new: all SRAM between .bss and the stack
void free(void* p);
}

#if defined(__lanai__)
inline void* operator new(size_t, void* p) noexcept { return p; }
inline void* operator new[](size_t, void* p) noexcept { return p; }
#endif

namespace fw {

// A 32-bit memory-mapped register.
inline volatile uint32_t& reg(uint32_t addr) { return *reinterpret_cast<volatile uint32_t*>(static_cast<uintptr_t>(addr)); }
inline volatile uint32_t& sys_reg(uint32_t offset) { return reg(sanvp::nic::map::kSysBase + offset); }

#if defined(SANVP_PROTOCOL_FIRMWARE)
// Protocol firmware (add_lanai_firmware(... PROTOCOL)) reads only its NIC's own clock (the RTC
// and timers, fw/nic.h): global simulated time is for measurement, through probes. The NIC
// refuses the TIME registers too when nic.sys.time_access is false.
uint64_t time_ns() = delete;
#else
// Global simulated time in nanoseconds (system register kTimeLo/kTimeHi): for tests and tools,
// not for protocol logic.
inline uint64_t time_ns() {
  const uint32_t lo = sys_reg(sanvp::nic::map::kTimeLo);
  const uint32_t hi = sys_reg(sanvp::nic::map::kTimeHi);
  return (static_cast<uint64_t>(hi) << 32) | lo;
}
#endif

// A probe (hw/nic/probe.hpp): the platform records global time, node, RTC, `tag` and `value` at
// the instant of the second store; costs two stores and nothing else.
inline void probe(uint32_t tag, uint32_t value) {
  sys_reg(sanvp::nic::map::kProbeTag) = tag;
  sys_reg(sanvp::nic::map::kProbeValue) = value;
}

// Bytes still free on the heap (for tests and diagnostics).
size_t heap_free();

}  // namespace fw
