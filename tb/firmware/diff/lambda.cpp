#include "diff.h"
template <typename F> static int apply_n(F f, int n, int x) { for (int i = 0; i < n; ++i) x = f(x); return x; }
template <typename T, typename Pred> static int count_if(const T* b, const T* e, Pred p) { int n = 0; for (; b != e; ++b) n += p(*b) ? 1 : 0; return n; }
struct Counter { int calls = 0; int operator()(int x) { ++calls; return x * 2 - 1; } };
int main() {
  int k = opaque(3);
  auto addk = [k](int x) { return x + k; };
  int total = 0;
  auto acc = [&total](int x) { total += x; return total; };
  printf("apply=%d\n", apply_n(addk, 10, 1));
  for (int i = 0; i < 5; ++i) acc(i * i);
  printf("total=%d\n", total);
  const int data[] = {5, -3, 8, 0, -1, 12, 7};
  printf("pos=%d even=%d\n", count_if(data, data + 7, [](int v) { return v > 0; }), count_if(data, data + 7, [](int v) { return v % 2 == 0; }));
  Counter c;
  int v = apply_n([&c](int x) { return c(x); }, 6, opaque(2));
  printf("counter=%d calls=%d\n", v, c.calls);
  auto fact = [](auto self, int n) -> int { return n <= 1 ? 1 : n * self(self, n - 1); };
  printf("fact10=%d\n", fact(fact, opaque(10)));
  return 0;
}
