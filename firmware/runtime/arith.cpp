// Integer support routines the Lanai backend calls (ISA notes section 8): the core has no
// multiplier or divider. Written with shifts, adds and leadz only, so they never call
// themselves; compiled with -fno-builtin. Arguments follow the libcall ABI (6.4), which is
// the ordinary C ABI for these signatures.
#include "fw/fw.h"

namespace {

using u32 = uint32_t;
using u64 = uint64_t;
using i32 = int32_t;
using i64 = int64_t;

u64 mul32x32(u32 a, u32 b) {
  u64 r = 0, x = a;
  while (b) {
    if (b & 1u) r += x;
    x <<= 1;
    b >>= 1;
  }
  return r;
}

u32 udivmod32(u32 n, u32 d, u32* rem) {
  if (d == 0) {  // undefined in C; make it deterministic
    if (rem) *rem = n;
    return 0xFFFFFFFFu;
  }
  u32 q = 0;
  if (n >= d) {
    int s = __builtin_clz(d) - __builtin_clz(n);
    d <<= s;
    for (; s >= 0; --s) {
      q <<= 1;
      if (n >= d) {
        n -= d;
        q |= 1u;
      }
      d >>= 1;
    }
  }
  if (rem) *rem = n;
  return q;
}

u64 udivmod64(u64 n, u64 d, u64* rem) {
  if (d == 0) {
    if (rem) *rem = n;
    return ~u64{0};
  }
  u64 q = 0;
  if (n >= d) {
    int s = __builtin_clzll(d) - __builtin_clzll(n);
    d <<= s;
    for (; s >= 0; --s) {
      q <<= 1;
      if (n >= d) {
        n -= d;
        q |= 1u;
      }
      d >>= 1;
    }
  }
  if (rem) *rem = n;
  return q;
}

u32 uabs32(i32 v) { return v < 0 ? 0u - static_cast<u32>(v) : static_cast<u32>(v); }
u64 uabs64(i64 v) { return v < 0 ? 0u - static_cast<u64>(v) : static_cast<u64>(v); }

u64 mul64(u64 a, u64 b) {
  const u32 al = static_cast<u32>(a), ah = static_cast<u32>(a >> 32);
  const u32 bl = static_cast<u32>(b), bh = static_cast<u32>(b >> 32);
  const u32 cross = static_cast<u32>(mul32x32(ah, bl)) + static_cast<u32>(mul32x32(al, bh));
  return mul32x32(al, bl) + (static_cast<u64>(cross) << 32);
}

}  // namespace

extern "C" {

u32 __mulsi3(u32 a, u32 b) { return static_cast<u32>(mul32x32(a, b)); }
u32 __udivsi3(u32 a, u32 b) { return udivmod32(a, b, nullptr); }
u32 __umodsi3(u32 a, u32 b) {
  u32 r;
  udivmod32(a, b, &r);
  return r;
}
i32 __divsi3(i32 a, i32 b) {
  const u32 q = udivmod32(uabs32(a), uabs32(b), nullptr);
  return static_cast<i32>((a < 0) != (b < 0) ? 0u - q : q);
}
i32 __modsi3(i32 a, i32 b) {
  u32 r;
  udivmod32(uabs32(a), uabs32(b), &r);
  return static_cast<i32>(a < 0 ? 0u - r : r);
}

u64 __muldi3(u64 a, u64 b) { return mul64(a, b); }
u64 __udivdi3(u64 a, u64 b) { return udivmod64(a, b, nullptr); }
u64 __umoddi3(u64 a, u64 b) {
  u64 r;
  udivmod64(a, b, &r);
  return r;
}
i64 __divdi3(i64 a, i64 b) {
  const u64 q = udivmod64(uabs64(a), uabs64(b), nullptr);
  return static_cast<i64>((a < 0) != (b < 0) ? 0u - q : q);
}
i64 __moddi3(i64 a, i64 b) {
  u64 r;
  udivmod64(uabs64(a), uabs64(b), &r);
  return static_cast<i64>(a < 0 ? 0u - r : r);
}

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
  const u64 ua = uabs64(a), ub = uabs64(b);
  const u64 p = mul64(ua, ub);
  bool ovf = (ua >> 32) != 0 && (ub >> 32) != 0;
  if (!ovf && udivmod64(p, ub, nullptr) != ua) ovf = true;
  const u64 limit = neg ? (u64{1} << 63) : (u64{1} << 63) - 1;
  if (p > limit) ovf = true;
  *overflow = ovf ? 1 : 0;
  return static_cast<i64>(neg ? 0u - p : p);
}

}  // extern "C"
