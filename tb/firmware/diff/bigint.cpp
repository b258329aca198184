#include "diff.h"
// Multi-precision arithmetic: carry chains in 32-bit limbs (64-bit intermediates).
#define L 8
static void add(uint32_t* r, const uint32_t* a, const uint32_t* b) {
  uint64_t c = 0;
  for (int i = 0; i < L; ++i) { c += static_cast<uint64_t>(a[i]) + b[i]; r[i] = static_cast<uint32_t>(c); c >>= 32; }
}
static void sub(uint32_t* r, const uint32_t* a, const uint32_t* b) {
  uint32_t borrow = 0;
  for (int i = 0; i < L; ++i) { uint32_t t = a[i] - b[i] - borrow; borrow = (a[i] < b[i]) || (a[i] == b[i] && borrow); r[i] = t; }
}
static void mul(uint32_t* r, const uint32_t* a, const uint32_t* b) {
  uint32_t t[2 * L] = {};
  for (int i = 0; i < L; ++i) {
    uint64_t c = 0;
    for (int j = 0; j < L; ++j) { c += static_cast<uint64_t>(a[i]) * b[j] + t[i + j]; t[i + j] = static_cast<uint32_t>(c); c >>= 32; }
    t[i + L] = static_cast<uint32_t>(c);
  }
  for (int i = 0; i < L; ++i) r[i] = t[i];
}
static void show(const char* n, const uint32_t* a) { printf("%s=", n); for (int i = L - 1; i >= 0; --i) printf("%08x", a[i]); printf("\n"); }
int main() {
  uint32_t a[L], b[L], r[L];
  for (int i = 0; i < L; ++i) { a[i] = opaque(0xFFFFFFFFu - static_cast<uint32_t>(i)); b[i] = 0x9E3779B9u * static_cast<uint32_t>(i + 1); }
  add(r, a, b); show("add", r);
  sub(r, b, a); show("sub", r);
  mul(r, a, b); show("mul", r);
  uint32_t f[L] = {1};
  for (uint32_t k = 2; k <= 30; ++k) { uint32_t m[L] = {k}; mul(f, f, m); }
  show("30!", f);
  return 0;
}
