#include "diff.h"
struct S20 { int a, b, c, d, e; };
struct S8 { int x, y; };
struct S4 { short p, q; };
struct C3 { char a, b, c; };
static S20 mk20(int v) { return S20{v, v * 2, v * 3, v * 4, v * 5}; }
static int byval(S20 b) { return b.a * 3 + b.e; }
static S8 swap8(S8 s) { return S8{s.y, s.x}; }
static S4 mk4(int v) { return S4{static_cast<short>(v), static_cast<short>(-v)}; }
static int c3(C3 c) { return c.a * 10000 + c.b * 100 + c.c; }
static S20 chain(S20 a, S8 b, int k) { a.c += b.x * k; a.d -= b.y; return a; }
int main() {
  S20 s = mk20(opaque(10));
  printf("sret=%d %d %d %d %d\n", s.a, s.b, s.c, s.d, s.e);
  S20 b{10, 11, 12, 13, 14};
  printf("byval=%d\n", byval(b));
  S8 t = swap8(S8{opaque(1), 2});
  printf("s8=%d %d\n", t.x, t.y);
  S4 f = mk4(opaque(300));
  printf("s4=%d %d\n", f.p, f.q);
  printf("c3=%d\n", c3(C3{1, 2, 3}));
  S20 r = chain(s, t, opaque(3));
  printf("chain=%d %d %d %d %d\n", r.a, r.b, r.c, r.d, r.e);
  return 0;
}
