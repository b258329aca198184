#include "diff.h"
// Volatile MMIO polling: on Lanai the console status, scratch and time system registers; natively
// volatile variables stand in for the devices. The loop structure (volatile loads in a loop,
// read-modify-write of a register) is what matters.
#if defined(__lanai__)
static volatile uint32_t& status() { return fw::sys_reg(sanvp::nic::map::kConsoleStatus); }
static volatile uint32_t& scratch() { return fw::sys_reg(sanvp::nic::map::kScratch); }
static uint32_t time_lo() { return fw::sys_reg(sanvp::nic::map::kTimeLo); }
#else
static volatile uint32_t g_status = 1, g_scratch = 0;
static volatile uint32_t& status() { return g_status; }
static volatile uint32_t& scratch() { return g_scratch; }
static volatile uint32_t g_time = 0;
static uint32_t time_lo() { return g_time = g_time + 25; }  // a clock that advances per read
#endif
int main() {
  int polls = 0;
  for (int i = 0; i < 5; ++i) {
    while ((status() & 1u) == 0) ++polls;
    ++polls;
  }
  scratch() = 0x1234u;
  for (int i = 0; i < 10; ++i) scratch() = scratch() * 3u + static_cast<uint32_t>(i);
  const uint32_t v = scratch();
  scratch() = 0;
  // Wait on a register that changes under the loop: only a load per iteration ends it.
  const uint32_t t0 = time_lo();
  int waits = 0;
  while (time_lo() - t0 < 2000u) ++waits;
  printf("deadline reached, waited=%d\n", waits > 0 ? 1 : 0);
  printf("polls=%d scratch=%08x cleared=%u\n", polls, v, static_cast<unsigned>(scratch()));
  return 0;
}
