// Benchmark firmware for the integer helpers (firmware/runtime/arith.cpp). Built once per case
// (BENCH_CASE, see kCases in bench_arith.cpp): fills operand arrays from a xorshift generator
// (shifts and xors only, so the setup calls no helper), then runs kN operations of the case
// through the helper the compiler calls. bench_arith reads the flat profile: the instructions
// retired inside the helpers, minus those of case 0 (same setup, no operations), over kN.
#include "fw/fw.h"

#ifndef BENCH_CASE
#error "BENCH_CASE not defined"
#endif

namespace bench {

constexpr int kN = 2000;  // bench_arith.cpp divides by the same number
uint32_t a[kN], b[kN];
uint64_t A[kN], B[kN];
uint32_t state = 0x2545F491u;

uint32_t next() {
  state ^= state << 13;
  state ^= state >> 17;
  state ^= state << 5;
  return state;
}
uint64_t next64() {
  const uint64_t hi = next();
  return (hi << 32) | next();
}

void fill() {
  for (int i = 0; i < kN; ++i) {
    a[i] = next();
    b[i] = next();
    A[i] = next64();
    B[i] = next64();
    switch (BENCH_CASE) {
      case 2:  // one operand below 256, on either side
        if (i & 1) a[i] &= 0xFFu; else b[i] &= 0xFFu;
        break;
      case 7:
      case 8:  // divisor 1..255
        b[i] = (b[i] & 0xFFu) | 1u;
        break;
      case 10:  // (u64)u32 * u32
      case 13:  // both operands fit 32 bits
        A[i] &= 0xFFFFFFFFu;
        B[i] &= 0xFFFFFFFFu;
        break;
      case 11:  // 64-bit dividend, 32-bit divisor
        B[i] &= 0xFFFFFFFFu;
        break;
      default:
        break;
    }
    if (b[i] == 0) b[i] = 1;  // no division by zero (probability 2^-32, but be exact)
    if (B[i] == 0) B[i] = 1;
  }
}

}  // namespace bench

int main() {
  using namespace bench;
  fill();
  uint32_t acc = 0;
  uint64_t acc64 = 0;
  for (int i = 0; i < kN; ++i) {
    switch (BENCH_CASE) {
      case 0: acc += a[i] ^ b[i]; break;
      case 1:
      case 2: acc += a[i] * b[i]; break;
      case 3: acc += a[i] / b[i]; break;
      case 4: acc += static_cast<uint32_t>(static_cast<int32_t>(a[i]) / static_cast<int32_t>(b[i])); break;
      case 5: acc += a[i] % b[i]; break;
      case 6: acc += static_cast<uint32_t>(static_cast<int32_t>(a[i]) % static_cast<int32_t>(b[i])); break;
      case 7: acc += a[i] / b[i]; break;
      case 8: acc += a[i] % b[i]; break;
      case 9: acc64 += A[i] * B[i]; break;
      case 10: acc64 += static_cast<uint64_t>(static_cast<uint32_t>(A[i])) * static_cast<uint32_t>(B[i]); break;
      case 11:
      case 13: acc64 += A[i] / B[i]; break;
      case 12: acc64 += static_cast<uint64_t>(static_cast<int64_t>(A[i]) / static_cast<int64_t>(B[i])); break;
      default: break;
    }
  }
  // Keep the results alive without printing (printf would divide).
  fw::sys_reg(sanvp::nic::map::kScratch) = acc ^ static_cast<uint32_t>(acc64) ^ static_cast<uint32_t>(acc64 >> 32);
  return 0;
}
