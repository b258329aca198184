#include "diff.h"
// Static constructors with priorities: .init_array.<prio> run in ascending order, then the rest.
static int order[8];
static int n_order = 0;
static void note(int v) { order[n_order++] = v; }
struct A { A(int v) { note(v); } };
__attribute__((constructor(200))) static void c200() { note(200); }
__attribute__((constructor(101))) static void c101() { note(101); }
A a_default(1);
__attribute__((init_priority(150))) A a150(150);
static int dynamic_value = opaque(40) + 2;
A a_second(2);
int main() {
  printf("order:");
  for (int i = 0; i < n_order; ++i) printf(" %d", order[i]);
  printf("\ndynamic=%d\n", dynamic_value);
  return 0;
}
