// Integer support routines the Lanai backend calls (ISA notes section 8): the core has no
// multiplier or divider. Written with shifts, adds, loads and leadz/trailz only, so they never
// call themselves (compiled with -fno-builtin; nothing here multiplies or divides with `*`,
// `/` or `%`); the one call between them is __muldi3 -> __mulsi3. Arguments follow the libcall
// ABI (6.4), the ordinary C ABI for these signatures; the entry of __mulsi3 is assembly (below).
//
// Firmware speed is simulated time, so these are written for instructions per call (measured by
// bench/arith, figures in docs/firmware.md): 32-bit operations use 32-bit code, multiplies
// work on the smaller operand with an early exit, divisions only iterate over the quotient's
// significant bits. Division by zero is deterministic: n / 0 = all ones, n % 0 = n.
#include "fw/fw.h"

extern "C" uint32_t __mulsi3(uint32_t a, uint32_t b);
extern "C" uint32_t __sanvp_mulsi3_large(uint32_t a, uint32_t b);

namespace {

using u32 = uint32_t;
using u64 = uint64_t;
using i32 = int32_t;
using i64 = int64_t;

// ---- Multiplication --------------------------------------------------------------------------

#define ALWAYS_INLINE inline __attribute__((always_inline))  // also at -O0: no call per helper

// t[d] = x * d (mod 2^32) for every 4-bit digit d: 15 adds and shifts, then one table load
// per digit instead of four conditional adds.
ALWAYS_INLINE void digit_table(u32 x, u32 t[16]) {
  t[0] = 0;
  t[1] = x;
  for (int d = 2; d < 16; d += 2) {
    t[d] = t[d >> 1] << 1;
    t[d + 1] = t[d] + x;
  }
}

// (x * m) mod 2^32 for m < 2^16, from the digit table of x: four loads, shifts and adds.
ALWAYS_INLINE u32 mul_digits16(const u32 t[16], u32 m) {
  return t[m & 15u] + (t[(m >> 4) & 15u] << 4) + (t[(m >> 8) & 15u] << 8) + (t[(m >> 12) & 15u] << 12);
}

// Low 32 bits of x * m for m >= 256 (m the operand with fewer significant bits): one table
// load per 4-bit digit of m, skipping its upper half when that is zero.
ALWAYS_INLINE u32 mul_large(u32 m, u32 x) {
  u32 t[16];
  digit_table(x, t);
  const u32 lo = mul_digits16(t, m & 0xFFFFu);
  return (m >> 16) ? lo + (mul_digits16(t, m >> 16) << 16) : lo;
}

// Full 64-bit product of two 32-bit numbers from four 16 x 16 -> 32-bit products (each exact),
// with digit tables of the 16-bit halves of b (entries < 2^20, so nothing overflows).
u64 mul32x32(u32 a, u32 b) {
  const u32 a0 = a & 0xFFFFu, a1 = a >> 16, b0 = b & 0xFFFFu, b1 = b >> 16;
  u32 t0[16], t1[16];
  digit_table(b0, t0);
  u32 lo = mul_digits16(t0, a0), mid = mul_digits16(t0, a1), hi = 0;
  if (b1) {
    digit_table(b1, t1);
    const u32 m1 = mul_digits16(t1, a0);
    hi = mul_digits16(t1, a1);
    mid += m1;
    if (mid < m1) hi += 0x10000u;  // carry out of the middle sum is worth 2^48
  }
  const u32 l = lo + (mid << 16);
  hi += (mid >> 16) + (l < lo ? 1u : 0u);
  return (static_cast<u64>(hi) << 32) | l;
}

// Low 64 bits of a * b: the full product of the low halves plus the low 32 bits of the two
// cross products (which only reach the high word); those are skipped when a high half is zero.
u64 mul64(u64 a, u64 b) {
  const u32 al = static_cast<u32>(a), ah = static_cast<u32>(a >> 32);
  const u32 bl = static_cast<u32>(b), bh = static_cast<u32>(b >> 32);
  u64 p = mul32x32(al, bl);
  u32 cross = 0;
  if (ah) cross += __mulsi3(ah, bl);
  if (bh) cross += __mulsi3(al, bh);
  return p + (static_cast<u64>(cross) << 32);
}

// ---- Division --------------------------------------------------------------------------------

// One step of restoring division: the next quotient bit is whether the divisor, aligned at the
// current bit, still fits into what is left of the dividend. (No inline asm: clang 14's Lanai
// backend ignores a "cc" clobber and may keep its own flags live across an asm statement.)
template <typename T, typename Q>
ALWAYS_INLINE void udiv_step(T& n, T& d, Q& q) {
  q += q;
  if (n >= d) {
    n -= d;
    q += 1;
  }
  d >>= 1;
}

// n / d and n % d. Divisors above n, powers of two (1 included) and zero are answered without
// a loop; otherwise the divisor is shifted up to the dividend's leading bit (leadz difference)
// and the loop runs once per possible quotient bit, four bits per iteration.
ALWAYS_INLINE u32 udivmod32(u32 n, u32 d, u32* rem) {
  if (d > n) {  // also n == 0
    *rem = n;
    return 0;
  }
  if (d == 0) {  // undefined in C; make it deterministic
    *rem = n;
    return 0xFFFFFFFFu;
  }
  if ((d & (d - 1u)) == 0) {
    *rem = n & (d - 1u);
    return n >> __builtin_ctz(d);
  }
  int s = __builtin_clz(d) - __builtin_clz(n);  // the quotient has at most s + 1 bits
  d <<= s;
  u32 q = 0;
  for (; s >= 3; s -= 4) {
    udiv_step(n, d, q);
    udiv_step(n, d, q);
    udiv_step(n, d, q);
    udiv_step(n, d, q);
  }
  for (; s >= 0; --s) udiv_step(n, d, q);
  *rem = n;
  return q;
}

// (r:nl) / d and its remainder for r < d (so the quotient fits 32 bits): restoring division
// shifting the 64-bit remainder left one bit at a time; `top` is the bit that leaves r, which
// makes the shifted remainder exceed d regardless of the compare.
u32 udiv64by32(u32 r, u32 nl, u32 d, u32* rem) {
  u32 q = 0;
  for (int i = 0; i < 32; ++i) {
    const u32 top = r >> 31;
    r = (r << 1) | (nl >> 31);
    nl <<= 1;
    q += q;
    if (top | (r >= d ? 1u : 0u)) {
      r -= d;
      q += 1;
    }
  }
  *rem = r;
  return q;
}

// 64-bit n / d and n % d. Operands that fit 32 bits go to the 32-bit routine, a 32-bit divisor
// to two 32-bit stages; only a divisor of 33 bits or more needs 64-bit steps, and then the
// quotient has at most 32 bits.
u64 udivmod64(u64 n, u64 d, u64* rem) {
  if (d > n) {
    *rem = n;
    return 0;
  }
  if (d >> 32) {  // 2^32 <= d <= n: at most 32 quotient bits; restoring division on 64-bit values
    int s = __builtin_clz(static_cast<u32>(d >> 32)) - __builtin_clz(static_cast<u32>(n >> 32));
    d <<= s;
    u32 q = 0;
    for (; s >= 0; --s) udiv_step(n, d, q);
    *rem = n;
    return q;
  }
  if (d == 0) {
    *rem = n;
    return ~u64{0};
  }
  const u32 dl = static_cast<u32>(d), nl = static_cast<u32>(n), nh = static_cast<u32>(n >> 32);
  u32 r;
  if (nh == 0) {
    const u32 q = udivmod32(nl, dl, &r);
    *rem = r;
    return q;
  }
  // 64 / 32: the high word first, then the low word below its remainder.
  const u32 qh = udivmod32(nh, dl, &r);
  const u32 ql = udiv64by32(r, nl, dl, &r);
  *rem = r;
  return (static_cast<u64>(qh) << 32) | ql;
}

template <typename U, typename S>
ALWAYS_INLINE U uabs(S v) {
  return v < 0 ? U{0} - static_cast<U>(v) : static_cast<U>(v);
}

// The division libcalls, over udivmod32 or udivmod64. Signed ones divide the magnitudes; the
// quotient is negative when the signs differ and the remainder takes the dividend's sign (C's
// truncating division), so INT_MIN / -1 wraps to INT_MIN with remainder 0.
template <typename U, U (*DivMod)(U, U, U*)>
ALWAYS_INLINE U quot(U a, U b) {
  U r;
  return DivMod(a, b, &r);
}
template <typename U, U (*DivMod)(U, U, U*)>
ALWAYS_INLINE U rem(U a, U b) {
  U r;
  DivMod(a, b, &r);
  return r;
}
template <typename S, typename U, U (*DivMod)(U, U, U*)>
ALWAYS_INLINE S squot(S a, S b) {
  const U q = quot<U, DivMod>(uabs<U>(a), uabs<U>(b));
  return static_cast<S>((a < 0) != (b < 0) ? U{0} - q : q);
}
template <typename S, typename U, U (*DivMod)(U, U, U*)>
ALWAYS_INLINE S srem(S a, S b) {
  const U r = rem<U, DivMod>(uabs<U>(a), uabs<U>(b));
  return static_cast<S>(a < 0 ? U{0} - r : r);
}

}  // namespace

// __mulsi3(a in r6, b in r7) -> rv. Multiplies by an operand below 256 take a Horner loop over its
// 8 bits at three instructions per bit: add.f shifts the next bit into the carry, add.uge adds
// x when it is set, add doubles the sum. C needs five per bit (the and-immediate cannot hold a
// small mask, and clang keeps the masks in registers), and inline asm inside a C function is
// unsafe here because clang 14's Lanai backend ignores a "cc" clobber. So the entry is a leaf
// in assembly without a frame: it returns through the address the caller pushed (ld 0[sp]) and
// pops it, as the C epilogue does. Other operands jump to the C routine, which then returns to
// our caller directly.
__asm__(R"(
        .text
        .globl  __mulsi3
        .type   __mulsi3,@function
        .p2align 2
__mulsi3:
        sub.f   %r7, 0x100, %r0
        or      %r7, 0x0, %r9           ! m = b when b < 256
        bult    .Lmulsi3_small
        or      %r6, 0x0, %r3           ! (delay slot) x = a
        sub.f   %r6, 0x100, %r0
        or      %r6, 0x0, %r9           ! m = a when a < 256
        bult    .Lmulsi3_small
        or      %r7, 0x0, %r3           ! (delay slot) x = b
        bt      __sanvp_mulsi3_large
        nop
.Lmulsi3_small:
        sh      %r9, 24, %r9            ! m's bit 7 at bit 31
        add.f   %r9, %r9, %r9
        sel.uge %r3, %r0, %rv           ! rv = bit 7 ? x : 0
        .rept   6                       ! bits 6 to 1
        add     %rv, %rv, %rv
        add.f   %r9, %r9, %r9
        add.uge %rv, %r3, %rv
        .endr
        add     %rv, %rv, %rv
        add.f   %r9, %r9, %r9
        ld      0[%sp], %pc             ! return (two delay slots)
        add.uge %rv, %r3, %rv           ! bit 0
        add     %sp, 0x4, %sp           ! pop the return address
        .size   __mulsi3, .-__mulsi3
)");

extern "C" {

// __mulsi3 with both operands >= 256 (the entry below jumps here): the smaller operand, the one
// with fewer significant bits, is the multiplier.
u32 __sanvp_mulsi3_large(u32 a, u32 b) { return a < b ? mul_large(a, b) : mul_large(b, a); }
u32 __udivsi3(u32 a, u32 b) { return quot<u32, udivmod32>(a, b); }
u32 __umodsi3(u32 a, u32 b) { return rem<u32, udivmod32>(a, b); }
i32 __divsi3(i32 a, i32 b) { return squot<i32, u32, udivmod32>(a, b); }
i32 __modsi3(i32 a, i32 b) { return srem<i32, u32, udivmod32>(a, b); }

u64 __muldi3(u64 a, u64 b) { return mul64(a, b); }
u64 __udivdi3(u64 a, u64 b) { return quot<u64, udivmod64>(a, b); }
u64 __umoddi3(u64 a, u64 b) { return rem<u64, udivmod64>(a, b); }
i64 __divdi3(i64 a, i64 b) { return squot<i64, u64, udivmod64>(a, b); }
i64 __moddi3(i64 a, i64 b) { return srem<i64, u64, udivmod64>(a, b); }

// Arithmetic right shift of a 64-bit value (the only 64-bit shift not done inline).
i64 __ashrdi3(i64 a, int b) {
  const u32 lo = static_cast<u32>(static_cast<u64>(a)), hi = static_cast<u32>(static_cast<u64>(a) >> 32);
  u32 rlo, rhi;
  b &= 63;
  if (b == 0) return a;
  if (b >= 32) {
    rhi = static_cast<u32>(static_cast<i32>(hi) >> 31);
    rlo = static_cast<u32>(static_cast<i32>(hi) >> (b - 32));
  } else {
    rhi = static_cast<u32>(static_cast<i32>(hi) >> b);
    rlo = (lo >> b) | (hi << (32 - b));
  }
  return static_cast<i64>((static_cast<u64>(rhi) << 32) | rlo);
}

// Logical shifts and left shift, in case a build at -O0 asks for them.
u64 __lshrdi3(u64 a, int b) { return a >> (b & 63); }
u64 __ashldi3(u64 a, int b) { return a << (b & 63); }

// 64-bit multiply with signed overflow flag (used by __builtin_mul_overflow on 64-bit).
i64 __mulodi4(i64 a, i64 b, int* overflow) {
  *overflow = 0;
  if (a == 0 || b == 0) return 0;
  const bool neg = (a < 0) != (b < 0);
  const u64 ua = uabs<u64>(a), ub = uabs<u64>(b);
  const u64 p = mul64(ua, ub);
  bool ovf = (ua >> 32) != 0 && (ub >> 32) != 0;
  u64 r;
  if (!ovf && udivmod64(p, ub, &r) != ua) ovf = true;
  const u64 limit = neg ? (u64{1} << 63) : (u64{1} << 63) - 1;
  if (p > limit) ovf = true;
  *overflow = ovf ? 1 : 0;
  return static_cast<i64>(neg ? 0u - p : p);
}

}  // extern "C"
