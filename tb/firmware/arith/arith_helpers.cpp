// Integer helpers (firmware/runtime/arith.cpp) against the host's hardware arithmetic. Built
// natively and for Lanai with the runtime's arith.cpp compiled at -O0, -O1, -O2 and -Os; the
// differential suite compares the output. Every multiply, divide and modulo below is a call to
// the helper on Lanai (operands pass through `opaque`). For each helper and operand group the
// program prints the number of operations and an FNV-1a hash of the results; a mismatch names
// the helper and group, and ARITH_VERBOSE=1 prints every operation for a closer look.
// Results the C language leaves undefined are the runtime's documented ones (docs/firmware.md):
// n / 0 = all ones (signed: -1, or 1 for a negative n), n % 0 = n, INT_MIN / -1 = INT_MIN,
// INT_MIN % -1 = 0; natively the same values are computed without dividing.
#include "tb/firmware/diff/diff.h"

#ifndef ARITH_VERBOSE
#define ARITH_VERBOSE 0
#endif

namespace {

using u32 = uint32_t;
using i32 = int32_t;
using u64 = uint64_t;
using i64 = int64_t;

constexpr int kRandomPairs = 3000;
constexpr i32 kI32Min = -2147483647 - 1;
[[maybe_unused]] constexpr i64 kI64Min = -9223372036854775807LL - 1;

// The operations, with the runtime's answers where C has none.
u32 mul32(u32 a, u32 b) { return opaque(a) * opaque(b); }
u32 udiv32(u32 a, u32 b) {
#if !defined(__lanai__)
  if (b == 0) return 0xFFFFFFFFu;
#endif
  return opaque(a) / opaque(b);
}
u32 umod32(u32 a, u32 b) {
#if !defined(__lanai__)
  if (b == 0) return a;
#endif
  return opaque(a) % opaque(b);
}
i32 div32(i32 a, i32 b) {
#if !defined(__lanai__)
  if (b == 0) return a < 0 ? 1 : -1;
  if (a == kI32Min && b == -1) return kI32Min;
#endif
  return opaque(a) / opaque(b);
}
i32 mod32(i32 a, i32 b) {
#if !defined(__lanai__)
  if (b == 0) return a;
  if (a == kI32Min && b == -1) return 0;
#endif
  return opaque(a) % opaque(b);
}
u64 mul64(u64 a, u64 b) { return opaque(a) * opaque(b); }
u64 mul32x32(u32 a, u32 b) { return static_cast<u64>(opaque(a)) * opaque(b); }
u64 udiv64(u64 a, u64 b) {
#if !defined(__lanai__)
  if (b == 0) return ~u64{0};
#endif
  return opaque(a) / opaque(b);
}
u64 umod64(u64 a, u64 b) {
#if !defined(__lanai__)
  if (b == 0) return a;
#endif
  return opaque(a) % opaque(b);
}
i64 div64(i64 a, i64 b) {
#if !defined(__lanai__)
  if (b == 0) return a < 0 ? 1 : -1;
  if (a == kI64Min && b == -1) return kI64Min;
#endif
  return opaque(a) / opaque(b);
}
i64 mod64(i64 a, i64 b) {
#if !defined(__lanai__)
  if (b == 0) return a;
  if (a == kI64Min && b == -1) return 0;
#endif
  return opaque(a) % opaque(b);
}

// xorshift64: the same sequence on both sides; shifts and xors only (no helper calls).
u64 rng_state = 0x9E3779B97F4A7C15ull;
u64 next64() {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}
// Random operands of random length, so that small operands, small quotients and long
// quotients all occur, besides full-width ones.
u64 operand64() {
  const u64 v = next64(), shape = next64();
  switch (shape & 3u) {
    case 0: return v;
    case 1: return v >> (shape >> 58);                        // 64-bit, random length
    case 2: return static_cast<u32>(v) >> ((shape >> 59) & 31u);  // fits 32 bits
    default: return v >> 32 << 32 | (shape >> 40 & 0xFFu);    // high word, low byte
  }
}
u32 operand32() {
  const u32 v = static_cast<u32>(next64()), shape = static_cast<u32>(next64() >> 32);
  return (shape & 1u) ? v : v >> (shape >> 27);
}

const u32 kEdge32[] = {0u, 1u, 2u, 3u, 7u, 10u, 255u, 256u, 0xFFFFu, 0x10000u, 0x12345678u, 0x7FFFFFFFu,
                       0x80000000u, 0x80000001u, 0xFFFFFFFEu, 0xFFFFFFFFu, 0x40000000u, 0xDEADBEEFu, 100000u, 0xF0F0F0F0u};
const u64 kEdge64[] = {0u, 1u, 2u, 3u, 10u, 255u, 0xFFFFFFFFu, 0x100000000ull, 0x100000001ull, 0x7FFFFFFFFFFFFFFFull,
                       0x8000000000000000ull, 0xFFFFFFFFFFFFFFFFull, 0xFFFFFFFF00000000ull, 0x123456789ABCDEF0ull,
                       0x80000000u, 0xFEDCBA9876543210ull, 0x0000000100000000ull << 16, 12345ull};

struct Hash {
  u64 h = 0xCBF29CE484222325ull;
  int n = 0;
  void add(u64 v) {
    for (int i = 0; i < 8; ++i) {
      h ^= (v >> (8 * i)) & 0xFFu;
      h = (h ^ (h << 5)) + (h >> 2) + 0x9Fu;  // multiply-free mix: the checker must not multiply
    }
    ++n;
  }
  void print(const char* helper, const char* group) const {
    printf("%-10s %-6s n=%d hash=%08x%08x\n", helper, group, n, static_cast<unsigned>(h >> 32), static_cast<unsigned>(h));
  }
};

void trace32(const char* op, u32 a, u32 b, u32 r) {
  if (ARITH_VERBOSE) printf("%s %08x %08x = %08x\n", op, static_cast<unsigned>(a), static_cast<unsigned>(b), static_cast<unsigned>(r));
}
void trace64(const char* op, u64 a, u64 b, u64 r) {
  if (ARITH_VERBOSE)
    printf("%s %08x%08x %08x%08x = %08x%08x\n", op, static_cast<unsigned>(a >> 32), static_cast<unsigned>(a), static_cast<unsigned>(b >> 32),
           static_cast<unsigned>(b), static_cast<unsigned>(r >> 32), static_cast<unsigned>(r));
}

// All 32-bit helpers over one operand pair, into one hash per helper.
void run32(Hash* h, u32 a, u32 b) {
  u32 r;
  h[0].add(r = mul32(a, b)), trace32("mul", a, b, r);
  h[1].add(r = udiv32(a, b)), trace32("udiv", a, b, r);
  h[2].add(r = umod32(a, b)), trace32("umod", a, b, r);
  h[3].add(r = static_cast<u32>(div32(static_cast<i32>(a), static_cast<i32>(b)))), trace32("div", a, b, r);
  h[4].add(r = static_cast<u32>(mod32(static_cast<i32>(a), static_cast<i32>(b)))), trace32("mod", a, b, r);
  u64 w;
  h[5].add(w = mul32x32(a, b)), trace64("mul32x32", a, b, w);
}
void run64(Hash* h, u64 a, u64 b) {
  u64 r;
  h[0].add(r = mul64(a, b)), trace64("mul64", a, b, r);
  h[1].add(r = udiv64(a, b)), trace64("udiv64", a, b, r);
  h[2].add(r = umod64(a, b)), trace64("umod64", a, b, r);
  h[3].add(r = static_cast<u64>(div64(static_cast<i64>(a), static_cast<i64>(b)))), trace64("div64", a, b, r);
  h[4].add(r = static_cast<u64>(mod64(static_cast<i64>(a), static_cast<i64>(b)))), trace64("mod64", a, b, r);
}

const char* const kNames32[] = {"__mulsi3", "__udivsi3", "__umodsi3", "__divsi3", "__modsi3", "__muldi3/32"};
const char* const kNames64[] = {"__muldi3", "__udivdi3", "__umoddi3", "__divdi3", "__moddi3"};

}  // namespace

int main() {
  Hash edge32[6], rand32[6], edge64[5], rand64[5];
  // Edge operands: every pair, plus powers of two and their neighbours against each other.
  for (u32 a : kEdge32)
    for (u32 b : kEdge32) run32(edge32, a, b);
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; j += 3) {
      const u32 p = 1u << i, q = 1u << j;
      run32(edge32, p, q);
      run32(edge32, p - 1u, q);
      run32(edge32, p + 1u, q - 1u);
      run32(edge32, 0u - p, q);
    }
  for (u64 a : kEdge64)
    for (u64 b : kEdge64) run64(edge64, a, b);
  for (int i = 0; i < 64; i += 3)
    for (int j = 0; j < 64; j += 5) {
      const u64 p = u64{1} << i, q = u64{1} << j;
      run64(edge64, p, q);
      run64(edge64, p - 1u, q);
      run64(edge64, p + 1u, q - 1u);
      run64(edge64, 0u - p, q);
    }
  for (int k = 0; k < kRandomPairs; ++k) {
    const u32 a = operand32(), b = operand32();
    run32(rand32, a, b);
    const u64 c = operand64(), d = operand64();
    run64(rand64, c, d);
  }
  for (int i = 0; i < 6; ++i) edge32[i].print(kNames32[i], "edge");
  for (int i = 0; i < 6; ++i) rand32[i].print(kNames32[i], "random");
  for (int i = 0; i < 5; ++i) edge64[i].print(kNames64[i], "edge");
  for (int i = 0; i < 5; ++i) rand64[i].print(kNames64[i], "random");
  // A few values by hand, readable in the output.
  printf("0xFFFFFFFF*0xFFFFFFFF=%08x 100000*100000=%u 7*-3=%d\n", static_cast<unsigned>(mul32(0xFFFFFFFFu, 0xFFFFFFFFu)),
         static_cast<unsigned>(mul32(100000u, 100000u)), static_cast<int>(static_cast<i32>(mul32(7u, static_cast<u32>(-3)))));
  printf("INT_MIN/-1=%d INT_MIN%%-1=%d -7/2=%d -7%%2=%d 5/0=%d -5/0=%d 5%%0=%d\n", static_cast<int>(div32(kI32Min, -1)),
         static_cast<int>(mod32(kI32Min, -1)), static_cast<int>(div32(-7, 2)), static_cast<int>(mod32(-7, 2)),
         static_cast<int>(div32(5, 0)), static_cast<int>(div32(-5, 0)), static_cast<int>(mod32(5, 0)));
  put_hex64("0xFEDCBA9876543210/0x12345", udiv64(0xFEDCBA9876543210ull, 0x12345u));
  put_hex64("(u64)0xFFFFFFFF*0xFFFFFFFF", mul32x32(0xFFFFFFFFu, 0xFFFFFFFFu));
  put_dec64("-123456789012345/98765", div64(-123456789012345LL, 98765));
  put_dec64("-123456789012345%98765", mod64(-123456789012345LL, 98765));
  return 0;
}
