// The smallest useful firmware: print, compute, exit with a code.
#include "fw/fw.h"

namespace {
struct Greeter {
  const char* who;
  Greeter() : who("LANai") {}  // a static constructor, run by crt0 before main
};
Greeter g;

unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
}  // namespace

int main() {
  printf("hello from %s firmware\n", g.who);
  printf("fib(20) = %u, 1000000/7 = %d, t = %u ns\n", fib(20), 1000000 / 7, static_cast<unsigned>(fw::time_ns()));
  return 7;
}
