#include "diff.h"
template <typename T, int N>
struct Vec {
  T v[N];
  T dot(const Vec& o) const { T s = 0; for (int i = 0; i < N; ++i) s += v[i] * o.v[i]; return s; }
  template <typename F> Vec map(F f) const { Vec r; for (int i = 0; i < N; ++i) r.v[i] = f(v[i]); return r; }
};
template <typename T> constexpr T cube(T x) { return x * x * x; }
template <int N> struct Fact { static constexpr long long value = N * Fact<N - 1>::value; };
template <> struct Fact<0> { static constexpr long long value = 1; };
template <typename T> T maxof(T a) { return a; }
template <typename T, typename... R> T maxof(T a, R... r) { T m = maxof(r...); return a > m ? a : m; }
template <typename T> struct Stack {
  T items[32]; int n = 0;
  void push(T x) { items[n++] = x; }
  T pop() { return items[--n]; }
};
int main() {
  Vec<int, 4> a{{1, opaque(2), 3, 4}}, b{{5, 6, opaque(7), 8}};
  printf("dot=%d\n", a.dot(b));
  auto c = a.map([](int x) { return x * 10 + 1; });
  printf("map=%d %d %d %d\n", c.v[0], c.v[1], c.v[2], c.v[3]);
  Vec<short, 3> s{{static_cast<short>(opaque(-3)), 4, 5}};
  printf("short dot=%d\n", s.dot(s));
  printf("cube=%d\n", cube(opaque(7)));
  put_dec64("fact20", Fact<20>::value);
  printf("maxof=%d\n", maxof(opaque(3), 9, -2, opaque(11), 5));
  Stack<unsigned char> st;
  for (int i = 0; i < 10; ++i) st.push(static_cast<unsigned char>(opaque(i * 30)));
  unsigned sum = 0;
  while (st.n) sum = sum * 3 + st.pop();
  printf("stack=%u\n", sum);
  return 0;
}
