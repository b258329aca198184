// Per-instruction-form tests: each snippet is assembled by llvm-mc, executed by the ISS and
// checked for registers, flags and memory, including the edge cases of every form.
#include <catch2/catch.hpp>

#include "tb/iss/iss_harness.hpp"

using sanvp::test::Machine;
using namespace sanvp::lanai;

namespace {
std::string flags(const Machine& m) {
  std::string f;
  f += m.s.f.n ? 'N' : 'n';
  f += m.s.f.z ? 'Z' : 'z';
  f += m.s.f.v ? 'V' : 'v';
  f += m.s.f.c ? 'C' : 'c';
  return f;
}
}  // namespace

TEST_CASE("RI add/sub immediates: zero-extended low and high halves, flags only with .f", "[iss][ri]") {
  Machine m("add %r3, 0x1234, %r6\n add %r3, 0x12340000, %r7\n sub %r3, 5, %r12\n add.f %r13, 1, %r14\n"
            "sub.f %r0, 1, %r16\n");
  m.set(3, 0x10).set(13, 0x7FFFFFFF).run();
  CHECK(m.r(6) == 0x1244);
  CHECK(m.r(7) == 0x12340010);
  CHECK(m.r(12) == 0x0B);
  CHECK(m.r(14) == 0x80000000);
  CHECK(m.r(16) == 0xFFFFFFFF);
  CHECK(flags(m) == "Nzvc");  // 0 - 1: negative, borrow (C clear), no overflow
}

TEST_CASE("RI flags: signed overflow, carry out, zero, and no flag change without .f", "[iss][ri][flags]") {
  SECTION("add overflow") {
    Machine m("add.f %r3, 1, %r6");
    m.set(3, 0x7FFFFFFF).run();
    CHECK(flags(m) == "NzVc");
  }
  SECTION("add carry and zero") {
    Machine m("add.f %r3, 1, %r6");
    m.set(3, 0xFFFFFFFF).run();
    CHECK(m.r(6) == 0);
    CHECK(flags(m) == "nZvC");
  }
  SECTION("sub: C means no borrow") {
    Machine m("sub.f %r3, 5, %r0");
    m.set(3, 5).run();
    CHECK(flags(m) == "nZvC");
  }
  SECTION("sub: INT_MIN - 1 overflows") {
    Machine m("sub.f %r3, 1, %r6");
    m.set(3, 0x80000000).run();
    CHECK(m.r(6) == 0x7FFFFFFF);
    CHECK(flags(m) == "nzVC");
  }
  SECTION("plain add keeps flags") {
    Machine m("sub.f %r0, 1, %r0\n add %r3, 1, %r6");
    m.set(3, 0xFFFFFFFF).run();
    CHECK(m.r(6) == 0);
    CHECK(flags(m) == "Nzvc");
  }
}

TEST_CASE("RI addc/subb carry chains build 64-bit add and subtract", "[iss][ri][flags]") {
  // (r3:r6) + 0x00000001_00000001 with carry out of the low word.
  Machine m("add.f %r6, 1, %r7\n addc %r3, 1, %r12\n sub.f %r16, 1, %r17\n subb %r18, 0, %r19");
  m.set(3, 0x00000005).set(6, 0xFFFFFFFF).set(16, 0).set(18, 10).run();
  CHECK(m.r(7) == 0);
  CHECK(m.r(12) == 7);      // 5 + 1 + carry
  CHECK(m.r(17) == 0xFFFFFFFF);
  CHECK(m.r(19) == 9);      // 10 - 0 - borrow
}

TEST_CASE("addc.f/subb.f: carry in, carry out, zero and overflow along a 64-bit chain", "[iss][ri][rr][flags]") {
  SECTION("RI: 0xFFFFFFFF_FFFFFFFF + 1 carries through both words") {
    Machine m("add.f %r6, 1, %r7\n addc.f %r3, 0, %r12");
    m.set(3, 0xFFFFFFFF).set(6, 0xFFFFFFFF).run();
    CHECK(m.r(7) == 0);
    CHECK(m.r(12) == 0);
    CHECK(flags(m) == "nZvC");
  }
  SECTION("RR: carry in turns 0x7FFFFFFF + 0 into a signed overflow") {
    Machine m("add.f %r6, %r6, %r7\n addc.f %r3, %r0, %r12");
    m.set(3, 0x7FFFFFFF).set(6, 0x80000000).run();
    CHECK(m.r(7) == 0);
    CHECK(m.r(12) == 0x80000000);
    CHECK(flags(m) == "NzVc");
  }
  SECTION("RR: 0x1_00000000 - 1: the borrow of the low word is consumed by the high word") {
    Machine m("sub.f %r6, %r16, %r7\n subb.f %r3, %r0, %r12");
    m.set(3, 1).set(6, 0).set(16, 1).run();
    CHECK(m.r(7) == 0xFFFFFFFF);
    CHECK(m.r(12) == 0);
    CHECK(flags(m) == "nZvC");  // C set: no borrow out of the high word
  }
  SECTION("RI: 0 - 0 - borrow borrows again") {
    Machine m("sub.f %r0, 1, %r7\n subb.f %r3, 0, %r12");
    m.set(3, 0).run();
    CHECK(m.r(12) == 0xFFFFFFFF);
    CHECK(flags(m) == "Nzvc");
  }
  SECTION("RI: subb without borrow from INT_MIN overflows") {
    Machine m("sub.f %r3, 0, %r0\n subb.f %r3, 1, %r12");
    m.set(3, 0x80000000).run();
    CHECK(m.r(12) == 0x7FFFFFFF);
    CHECK(flags(m) == "nzVC");
  }
}

TEST_CASE("right shifts with .f clear C and V, sha by -31 spreads the sign", "[iss][shift][flags]") {
  Machine m("add.f %r1, 1, %r0\n sh.f %r3, -1, %r6\n add.f %r1, 1, %r0\n sha.f %r16, %r17, %r7");
  m.set(3, 1).set(16, 0x80000000).set(17, 0xFFFFFFE1 /* -31 */).run();
  CHECK(m.r(6) == 0);
  CHECK(m.r(7) == 0xFFFFFFFF);
  CHECK(flags(m) == "Nzvc");
}

TEST_CASE("RI logic: and fills the other half with ones, or/xor zero-extend", "[iss][ri]") {
  Machine m("and %r3, 0xffff1234, %r6\n and %r3, 0x1234ffff, %r7\n or %r3, 0xf0f0, %r12\n xor %r3, 0xffff0000, %r13\n"
            "and.f %r3, 0xffff0000, %r14\n or.f %r0, 0x8000000, %r15\n xor %r3, %r1, %r16");
  m.set(3, 0xDEADBEEF).run();
  CHECK(m.r(6) == (0xDEADBEEFu & 0xFFFF1234u));
  CHECK(m.r(7) == (0xDEADBEEFu & 0x1234FFFFu));
  CHECK(m.r(12) == (0xDEADBEEFu | 0xF0F0u));
  CHECK(m.r(13) == (0xDEADBEEFu ^ 0xFFFF0000u));
  CHECK(m.r(14) == (0xDEADBEEFu & 0xFFFF0000u));
  CHECK(m.r(15) == 0x08000000);
  CHECK(m.r(16) == ~0xDEADBEEFu);
  CHECK(flags(m) == "nzvc");
}

TEST_CASE("RI shifts: left, logical and arithmetic right, by 0 and 31", "[iss][ri][shift]") {
  Machine m("sh %r3, 0, %r6\n sh %r3, 31, %r7\n sh %r3, -31, %r12\n sha %r3, -31, %r13\n sha %r3, -1, %r14\n"
            "sh %r3, -1, %r15\n sh %r3, 4, %r16");
  m.set(3, 0x80000001).run();
  CHECK(m.r(6) == 0x80000001);
  CHECK(m.r(7) == 0x80000000);
  CHECK(m.r(12) == 1);
  CHECK(m.r(13) == 0xFFFFFFFF);
  CHECK(m.r(14) == 0xC0000000);
  CHECK(m.r(15) == 0x40000000);
  CHECK(m.r(16) == 0x00000010);
}

TEST_CASE("shift flags: C is the last bit shifted out to the left, V clear", "[iss][shift][flags]") {
  Machine m("sh.f %r3, 1, %r6");
  m.set(3, 0x80000000).run();
  CHECK(m.r(6) == 0);
  CHECK(flags(m) == "nZvC");
}

TEST_CASE("RR ALU ops, predicated forms and register shifts", "[iss][rr]") {
  Machine m("add %r3, %r6, %r7\n sub %r3, %r6, %r12\n and %r3, %r6, %r13\n or %r3, %r6, %r14\n xor %r3, %r6, %r15\n"
            "sh %r3, %r16, %r17\n sha %r18, %r19, %r20\n sh %r18, %r19, %r21\n sh %r3, %r0, %r22");
  m.set(3, 0x0000F00F).set(6, 0x000FF0F0).set(16, 31).set(18, 0x80000000).set(19, 0xFFFFFFE1 /* -31 */).run();
  CHECK(m.r(7) == 0x0000F00Fu + 0x000FF0F0u);
  CHECK(m.r(12) == 0x0000F00Fu - 0x000FF0F0u);
  CHECK(m.r(13) == (0x0000F00Fu & 0x000FF0F0u));
  CHECK(m.r(14) == (0x0000F00Fu | 0x000FF0F0u));
  CHECK(m.r(15) == (0x0000F00Fu ^ 0x000FF0F0u));
  CHECK(m.r(17) == 0x80000000);
  CHECK(m.r(20) == 0xFFFFFFFF);
  CHECK(m.r(21) == 1);
  CHECK(m.r(22) == 0x0000F00F);
}

TEST_CASE("RR predication: the op runs only when its condition holds", "[iss][rr][cc]") {
  Machine m("sub.f %r3, %r6, %r0\n add.eq %r3, %r6, %r7\n add.ne %r3, %r6, %r12\n sh.pl %r3, %r6, %r13\n"
            "sh.mi %r3, %r6, %r14\n or.ult %r0, %r6, %r15\n or.uge %r0, %r6, %r16");
  m.set(3, 2).set(6, 2).set(7, 111).set(12, 222).set(13, 333).set(14, 444).set(15, 555).set(16, 666).run();
  CHECK(m.r(7) == 4);     // eq holds
  CHECK(m.r(12) == 222);  // ne false: unchanged
  CHECK(m.r(13) == 8);    // pl holds (result 0)
  CHECK(m.r(14) == 444);  // mi false
  CHECK(m.r(15) == 555);  // ult false (no borrow)
  CHECK(m.r(16) == 2);    // uge holds
}

TEST_CASE("every condition code after a compare", "[iss][cc]") {
  struct Case { std::uint32_t a, b; };
  const Case cases[] = {{1, 2}, {2, 1}, {5, 5}, {0x80000000, 1}, {1, 0x80000000}, {0x7FFFFFFF, 0xFFFFFFFF}, {0, 0}};
  const char* names[] = {"t", "f", "ugt", "ule", "ult", "uge", "ne", "eq", "vc", "vs", "pl", "mi", "ge", "lt", "gt", "le"};
  for (const auto& c : cases) {
    std::string prog = "sub.f %r3, %r6, %r0\n";
    // s<cc> %rd as raw words (the mnemonic "st" would parse as a store): t->r7, others r13..r27.
    for (unsigned cc = 0; cc < 16; ++cc) {
      const unsigned rd = cc == 0 ? 7 : 12 + cc;
      prog += ".long " + std::to_string(0xE0000002u | ((cc >> 1) << 25) | (rd << 18) | (cc & 1u)) + "\n";
    }
    Machine m(prog);
    m.set(3, c.a).set(6, c.b).run();
    const std::int32_t sa = static_cast<std::int32_t>(c.a), sb = static_cast<std::int32_t>(c.b);
    const std::uint32_t d = c.a - c.b;
    const bool v = ((c.a ^ c.b) & (c.a ^ d)) >> 31;
    const bool expect[16] = {true, false, c.a > c.b, c.a <= c.b, c.a < c.b, c.a >= c.b, c.a != c.b, c.a == c.b,
                             !v, v, (d >> 31) == 0, (d >> 31) == 1, sa >= sb, sa < sb, sa > sb, sa <= sb};
    for (int cc = 0; cc < 16; ++cc) {
      INFO("a=" << c.a << " b=" << c.b << " cc=" << names[cc]);
      CHECK(m.r(cc == 0 ? 7 : 12 + cc) == (expect[cc] ? 1u : 0u));
    }
  }
}

TEST_CASE("SELECT picks rs1 when the condition holds, rs2 otherwise", "[iss][rr][sel]") {
  Machine m("sub.f %r3, %r6, %r0\n sel.lt %r16, %r17, %r7\n sel.gt %r16, %r17, %r12");
  m.set(3, 0xFFFFFFFF).set(6, 1).set(16, 100).set(17, 200).run();
  CHECK(m.r(7) == 100);
  CHECK(m.r(12) == 200);
}

TEST_CASE("popc, leadz, trailz including the zero input (= 32)", "[iss][special]") {
  Machine m("popc %r3, %r6\n leadz %r3, %r7\n trailz %r3, %r12\n popc %r0, %r13\n leadz %r0, %r14\n trailz %r0, %r15\n"
            "leadz %r1, %r16\n trailz %r16, %r17");
  m.set(3, 0x00F0F000).run();
  CHECK(m.r(6) == 8);
  CHECK(m.r(7) == 8);
  CHECK(m.r(12) == 12);
  CHECK(m.r(13) == 0);
  CHECK(m.r(14) == 32);
  CHECK(m.r(15) == 32);
  CHECK(m.r(16) == 0);
  CHECK(m.r(17) == 32);
}

TEST_CASE("r0 reads 0 and r1 reads all ones, writes to them are discarded", "[iss][regs]") {
  Machine m("add %r3, 5, %r0\n add %r3, 5, %r1\n add %r0, %r1, %r6\n or %r1, 0, %r7\n mov 0x12345, %r0");
  m.set(3, 1).run();
  CHECK(m.r(0) == 0);
  CHECK(m.r(1) == 0xFFFFFFFF);
  CHECK(m.r(6) == 0xFFFFFFFF);
  CHECK(m.r(7) == 0xFFFFFFFF);
}

TEST_CASE("reading pc gives the executing instruction's address", "[iss][pc]") {
  Machine m("nop\n add %pc, 0x10, %rca\n mov %pc, %r6");
  m.run();
  CHECK(m.r(15) == 0x1004 + 0x10);
  CHECK(m.r(6) == 0x1008);
}

TEST_CASE("SLI and SLS: 21-bit zero-extended constant and absolute addresses", "[iss][sls]") {
  Machine m("mov 0x12345, %r6\n mov 0x1fffff, %r7\n st %r6, [0x2000]\n ld [0x2000], %r12");
  m.run();
  CHECK(m.r(6) == 0x12345);
  CHECK(m.r(7) == 0x1FFFFF);
  CHECK(m.env.ld32(0x2000) == 0x12345);
  CHECK(m.r(12) == 0x12345);
}

TEST_CASE("RM word loads/stores: offset, pre/post modify, base-only, big-endian", "[iss][rm]") {
  Machine m("st %r6, 4[%r3]\n ld 4[%r3], %r7\n st %r6, [--%r16]\n ld [%r17++], %r12\n ld 8[*%r18], %r13\n"
            "ld -8[%r19*], %r14\n ld 0[%r3], %r15\n st %r6, -4[%r3]");
  m.env.st32(0x3000, 0xAABBCCDD);
  m.env.st32(0x3108, 0x11111111);
  m.env.st32(0x3200, 0x22222222);
  m.set(3, 0x3000).set(6, 0x01020304).set(16, 0x3404).set(17, 0x3000).set(18, 0x3100).set(19, 0x3200).run();
  CHECK(m.env.ld32(0x3004) == 0x01020304);
  CHECK(m.env.mem[0x3004] == 0x01);  // big-endian: most significant byte first
  CHECK(m.r(7) == 0x01020304);
  CHECK(m.r(16) == 0x3400);
  CHECK(m.env.ld32(0x3400) == 0x01020304);
  CHECK(m.r(12) == 0xAABBCCDD);
  CHECK(m.r(17) == 0x3004);
  CHECK(m.r(13) == 0x11111111);
  CHECK(m.r(18) == 0x3108);
  CHECK(m.r(14) == 0x22222222);
  CHECK(m.r(19) == 0x31F8);
  CHECK(m.r(15) == 0xAABBCCDD);
  CHECK(m.env.ld32(0x2FFC) == 0x01020304);
}

TEST_CASE("RRM: register+register addressing, sign/zero-extended part words", "[iss][rrm]") {
  Machine m("ld [%r3 add %r6], %r7\n ld.h [%r3 add %r6], %r12\n uld.h [%r3 add %r6], %r13\n ld.b [%r3 add %r6], %r14\n"
            "uld.b [%r3 add %r6], %r15\n ld.h [%r3 add %r16], %r17\n st.b %r18, [%r3 add %r19]\n st.h %r18, [%r3 add %r20]\n"
            "st %r18, [%r3 add %r21]\n ld [%r22 sub %r6], %r23");
  m.env.st32(0x3010, 0xFEDC7654);
  m.set(3, 0x3000).set(6, 0x10).set(16, 0x12).set(18, 0xA1B2C3D4).set(19, 0x21).set(20, 0x32).set(21, 0x40).set(22, 0x3020).run();
  CHECK(m.r(7) == 0xFEDC7654);
  CHECK(m.r(12) == 0xFFFFFEDC);
  CHECK(m.r(13) == 0x0000FEDC);
  CHECK(m.r(14) == 0xFFFFFFFE);
  CHECK(m.r(15) == 0x000000FE);
  CHECK(m.r(17) == 0x00007654);
  CHECK(m.env.mem[0x3021] == 0xD4);
  CHECK(m.env.mem[0x3020] == 0x00);
  CHECK(m.env.mem[0x3032] == 0xC3);
  CHECK(m.env.mem[0x3033] == 0xD4);
  CHECK(m.env.ld32(0x3040) == 0xA1B2C3D4);
  CHECK(m.r(23) == 0xFEDC7654);
}

TEST_CASE("SPLS: 10-bit offsets, part-word extension, post-increment by the access size", "[iss][spls]") {
  Machine m("ld.h 4[%r3], %r6\n uld.h 4[%r3], %r7\n ld.b 511[%r3], %r12\n uld.b 511[%r3], %r13\n st.b %r16, -512[%r3]\n"
            "ld.b [%r17++], %r14\n st.h %r16, 6[%r3]\n uld.b [%r17++], %r15");
  m.env.st32(0x3004, 0x8001FFFF);
  m.env.mem[0x3000 + 511] = 0x85;
  m.env.mem[0x3400] = 0x7F;
  m.env.mem[0x3401] = 0x80;
  m.set(3, 0x3000).set(16, 0x12345678).set(17, 0x3400).run();
  CHECK(m.r(6) == 0xFFFF8001);
  CHECK(m.r(7) == 0x00008001);
  CHECK(m.r(12) == 0xFFFFFF85);
  CHECK(m.r(13) == 0x00000085);
  CHECK(m.env.mem[0x3000 - 512] == 0x78);
  CHECK(m.r(14) == 0x7F);
  CHECK(m.r(15) == 0x80);
  CHECK(m.r(17) == 0x3402);
  CHECK(m.env.mem[0x3006] == 0x56);
  CHECK(m.env.mem[0x3007] == 0x78);
}

TEST_CASE("branches have one delay slot that always runs, taken or not", "[iss][br]") {
  const std::string prog =
      // Branch targets are absolute: the code starts at 0x1000.
      "sub.f %r3, 0, %r0\n"
      "beq 0x1010\n"
      "add %r6, 1, %r6\n"      // delay slot: always
      "add %r7, 1, %r7\n"      // skipped when taken
      "bt 0x101c\n"            // 0x1010
      "add %r12, 1, %r12\n"    // delay slot
      "add %r13, 1, %r13\n"    // never
      "nop";                    // 0x101c
  SECTION("taken") {
    Machine m(prog);
    m.set(3, 0).run();
    CHECK(m.r(6) == 1);
    CHECK(m.r(7) == 0);
    CHECK(m.r(12) == 1);
    CHECK(m.r(13) == 0);
  }
  SECTION("not taken") {
    Machine m(prog);
    m.set(3, 5).run();
    CHECK(m.r(6) == 1);
    CHECK(m.r(7) == 1);
  }
}

TEST_CASE("call and return: ALU write to pc has one delay slot, load into pc has two", "[iss][call]") {
  // Direct-call sequence and the standard prologue/epilogue, as clang emits them.
  Machine m(
      "add %pc, 0x10, %rca\n st %rca, [--%sp]\n bt 0x101c\n add %r0, 7, %r6\n"   // call, delay slot sets the argument
      "add %rv, 100, %r20\n bt 0x103c\n nop\n"
      "st %fp, [--%sp]\n add %sp, 0x8, %fp\n sub %sp, 0x8, %sp\n"  // 0x101c: callee
      "add %r6, %r6, %rv\n"
      "ld -4[%fp], %pc\n add %fp, 0x0, %sp\n ld -8[%fp], %fp\n"
      "add %r21, 1, %r21\n"   // never executed
      "nop");                  // 0x103c
  m.run();
  CHECK(m.r(8) == 14);
  CHECK(m.r(20) == 114);
  CHECK(m.r(21) == 0);
  CHECK(m.r(kSp) == 0x8000);
  CHECK(m.r(kFp) == 0x8000);
}

TEST_CASE("jumps through registers: bt %rX and mov %rX, %pc", "[iss][jump]") {
  Machine m("mov 0x1010, %r3\n bt %r3\n add %r6, 1, %r6\n add %r7, 1, %r7\n"
            "mov 0x1020, %r12\n mov %r12, %pc\n add %r13, 1, %r13\n add %r14, 1, %r14\n nop");
  m.run();
  CHECK(m.r(6) == 1);
  CHECK(m.r(7) == 0);
  CHECK(m.r(13) == 1);
  CHECK(m.r(14) == 0);
}

TEST_CASE("illegal and unsupported words fault with the faulting pc", "[iss][fault]") {
  Machine m("nop\n .long 0xd0000000\n nop");
  try {
    m.run();
    FAIL("no fault");
  } catch (const Fault& f) {
    CHECK(f.kind == FaultKind::kIllegalInstruction);
    CHECK(f.pc == 0x1004);
  }
}

TEST_CASE("misaligned word and half accesses fault", "[iss][fault]") {
  Machine m("ld 2[%r3], %r6");
  m.set(3, 0x3000);
  try {
    m.run();
    FAIL("no fault");
  } catch (const Fault& f) {
    CHECK(f.kind == FaultKind::kMisalignedAccess);
    CHECK(f.addr == 0x3002);
  }
  Machine h("ld.h 1[%r3], %r6");
  h.set(3, 0x3000);
  CHECK_THROWS_AS(h.run(), Fault);
}

TEST_CASE("stack pointer below the limit is a stack overflow", "[iss][fault]") {
  Machine m("sub %sp, 0x100, %sp");
  m.s.stack_limit = 0x7F80;
  try {
    m.run();
    FAIL("no fault");
  } catch (const Fault& f) {
    CHECK(f.kind == FaultKind::kStackOverflow);
    CHECK(f.addr == 0x7F00);
  }
}
