// Random programs through both engines: the block engine's specialised handlers and direct
// memory path (threaded.hpp) must end in exactly the state of the one-instruction loop
// (executor.hpp): registers, flags, counters, delay-slot queue, pc history, memory, faults.
// Straight-line and branchy programs; a coverage check asserts every handler ran.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "tb/iss/iss_harness.hpp"

using sanvp::test::Machine;
using namespace sanvp::lanai;

namespace {

// Register roles keep addresses valid: data registers take ALU results; bases, indices, code
// base and stack/frame pointers are only moved by the forms that test them.
constexpr std::array<unsigned, 16> kData = {3, 6, 7, 8, 9, 12, 13, 14, 16, 17, 18, 19, 28, 29, 30, 31};
constexpr std::array<unsigned, 4> kBase = {20, 21, 22, 23};  // data pointers, moved by +-4/8
constexpr unsigned kIdx0 = 24, kIdx1 = 25;                  // small aligned indices (RRM)
constexpr unsigned kCode = 26;                              // code_lo (stores into code)
constexpr unsigned kTarget = 27;                            // jump targets
constexpr unsigned kPatch = 11;                             // instruction words to patch in
constexpr std::uint32_t kCodeLo = 0x1000;

struct Gen {
  std::mt19937 rng;
  std::vector<std::uint32_t> w;
  struct Fixup {
    std::size_t at;
    std::size_t target;  // instruction index, clamped to the end of the program
    bool sli;            // SLI `mov target, %r27`; else a BR
  };
  std::vector<Fixup> fix;

  explicit Gen(std::uint32_t seed) : rng(seed) {}
  unsigned pick(unsigned n) { return static_cast<unsigned>(rng() % n); }
  template <std::size_t N>
  unsigned one(const std::array<unsigned, N>& a) { return a[pick(N)]; }
  unsigned src() { return pick(8) == 0 ? pick(2) : one(kData); }  // r0/r1 now and then
  unsigned dst() { return pick(16) == 0 ? pick(2) : one(kData); }  // writes to r0/r1 dropped
  std::uint32_t f() { return pick(2); }

  void ri(unsigned aaa, unsigned rd, unsigned rs1, std::uint32_t fl, std::uint32_t h, std::uint32_t imm) {
    w.push_back((aaa << 28) | (rd << 23) | (rs1 << 18) | (fl << 17) | (h << 16) | (imm & 0xFFFF));
  }
  void rr(unsigned rd, unsigned rs1, std::uint32_t fl, unsigned cc, unsigned rs2, unsigned bbb, unsigned j) {
    w.push_back((0xCu << 28) | (rd << 23) | (rs1 << 18) | (fl << 17) | ((cc & 1) << 16) | (rs2 << 11) | (bbb << 8) |
                (j << 3) | (cc >> 1));
  }
  void sli(unsigned rd, std::uint32_t v) {
    w.push_back((0xFu << 28) | (rd << 23) | (((v >> 16) & 31) << 18) | (2u << 16) | (v & 0xFFFF));
  }
  std::uint32_t shamt() { return static_cast<std::uint32_t>(static_cast<int>(pick(63)) - 31); }

  void alu() {
    const unsigned aaa = pick(8);
    switch (pick(6)) {
      case 0: case 1:  // RI, any op, flags or not
        ri(aaa, dst(), src(), f(), pick(2), aaa == 7 ? shamt() : rng());
        break;
      case 2: {  // RR unpredicated (or predicated), shifts by a register
        const unsigned bbb = pick(8), cc = pick(4) == 0 ? pick(16) : 0;
        const std::uint32_t fl = cc ? 0 : f();
        if (bbb == 7) rr(dst(), src(), fl, cc, src(), 7, pick(2) ? 0x10 : 0x18);
        else rr(dst(), src(), fl, cc, src(), bbb, 0);
        break;
      }
      case 3:  // sel, scc
        if (pick(2)) rr(dst(), src(), 0, pick(16), src(), 7, 0);
        else w.push_back((0xEu << 28) | (pick(8) << 25) | (dst() << 18) | 2u | pick(2));
        break;
      case 4:  // popc / leadz / trailz, SLI
        if (pick(2)) w.push_back((0xDu << 28) | (dst() << 23) | (src() << 18) | (1 + pick(3)));
        else sli(dst(), rng() & 0x1FFFFF);
        break;
      default:  // a compare to feed the conditions
        rr(0, src(), 1, 0, src(), 2, 0);
        break;
    }
  }

  // The ALU pairs with a handler of their own (pair_op): add RR/RI then a word load at an
  // offset, sh RI then add RR.
  void pair() {
    switch (pick(3)) {
      case 0: rr(dst(), src(), 0, 0, src(), 0, 0); break;     // add RR
      case 1: ri(0, dst(), src(), 0, pick(2), rng()); break;  // add RI
      default:                                                // sh RI; add RR
        ri(7, dst(), src(), 0, 0, shamt());
        rr(dst(), src(), 0, 0, src(), 0, 0);
        return;
    }
    const std::uint32_t k = pick(64) * 4 - 128;  // ld k[base], rd
    w.push_back((0x8u << 28) | (dst() << 23) | (one(kBase) << 18) | (2u << 16) | (k & 0xFFFF));
  }

  // Memory: RM, RRM, SPLS and SLS forms, every width and addressing mode.
  void mem() {
    const bool store = pick(2);
    const unsigned rd = store ? src() : dst(), base = one(kBase);
    const std::uint32_t pq = pick(4), step = (pick(2) ? 4u : 8u) * (pick(2) ? 1u : ~0u);
    switch (pick(4)) {
      case 0: {  // RM word: offset (P=1), or pre/post modify by +-4/8, or base
        const std::uint32_t k = pq == 2 ? (pick(64) * 4 - 128) : (pq == 0 ? 0 : step);
        w.push_back((0x8u << 28) | (store ? 1u << 28 : 0) | (rd << 23) | (base << 18) | (pq << 16) | (k & 0xFFFF));
        break;
      }
      case 1: {  // RRM add, word / half / byte, signed and unsigned
        const unsigned yl = pick(3), e = store ? 0 : pick(2);
        w.push_back((0xAu << 28) | (store ? 1u << 28 : 0) | (rd << 23) | (base << 18) | (2u << 16) |
                    ((pick(2) ? kIdx0 : kIdx1) << 11) | (yl << 1) | e);
        break;
      }
      case 2: {  // SPLS half / byte with a 10-bit offset or pre/post modify
        const std::uint32_t y = pick(2), e = store ? 0 : pick(2);
        const std::uint32_t k = pq == 2 ? (pick(128) * (y ? 1 : 2) - 64) & 0x3FF : (pq == 0 ? 0 : step & 0x3FF);
        w.push_back((0xFu << 28) | (rd << 23) | (base << 18) | (3u << 16) | (y << 14) | ((store ? 1u : 0) << 13) | (e << 12) |
                    (pq << 10) | k);
        break;
      }
      default: {  // SLS absolute word, in the data area
        const std::uint32_t a = 0x5000 + 4 * pick(0x400);
        w.push_back((0xFu << 28) | (rd << 23) | ((a >> 16) << 18) | ((store ? 1u : 0) << 16) | (a & 0xFFFF));
        break;
      }
    }
  }

  // sp add/sub, pushes and pops (stack guard).
  void stack() {
    switch (pick(4)) {
      case 0: ri(2, kSp, kSp, 0, 0, 8); break;                          // sub %sp, 8, %sp
      case 1: ri(0, kSp, kSp, 0, 0, 8); break;                          // add %sp, 8, %sp
      case 2: w.push_back(0x9013FFFCu | (src() << 23)); break;          // st rX, [--%sp]
      default: w.push_back(0x80110004u | (dst() << 23)); break;         // ld [%sp++], rX
    }
  }

  // Overwrites a later instruction with a random ALU word (the store goes into code).
  void patch(std::size_t n) {
    Gen g(static_cast<std::uint32_t>(rng()));
    g.alu();
    const std::uint32_t word = g.w[0];
    ri(0, kPatch, 0, 0, 1, word >> 16);     // add %r0, hi, %r11
    ri(5, kPatch, kPatch, 0, 0, word);      // or %r11, lo, %r11
    const std::uint32_t at = static_cast<std::uint32_t>(std::min(w.size() + 1 + pick(6), n));
    w.push_back(0x90000000u | (kPatch << 23) | (kCode << 18) | (2u << 16) | (4 * at));
  }

  // Half the conditional branches come right after a compare (the pair's own handler).
  void compare_maybe() {
    if (pick(2)) return;
    if (pick(2)) rr(dst(), src(), 1, 0, src(), 2, 0);  // sub.f RR
    else ri(2, dst(), src(), 1, pick(2), rng());       // sub.f RI
  }
  std::size_t fwd(unsigned min) { return w.size() + min + pick(10); }
  void control() {
    switch (pick(5)) {
      case 0: {  // b<cc> forward, delay slot
        compare_maybe();
        fix.push_back({w.size(), fwd(2), false});
        w.push_back((0xEu << 28) | (pick(8) << 25) | pick(2));
        alu();
        break;
      }
      case 1:  // bt %r27 / mov %r27, %pc (1 delay slot)
        fix.push_back({w.size(), fwd(3), true});
        sli(kTarget, 0);
        if (pick(2)) rr(kPc, 0, 0, 0, kTarget, kOr, 0);  // bt %r27
        else rr(kPc, kTarget, 0, 0, 0, kAdd, 0);        // mov %r27, %pc
        alu();
        break;
      case 2:  // return idiom: ld -4[%fp], %pc with 2 delay slots
        fix.push_back({w.size(), fwd(4), true});
        sli(kTarget, 0);
        w.push_back(0x9016FFFCu | (kTarget << 23));  // st %r27, -4[%fp]
        w.push_back(0x8116FFFCu);                     // ld -4[%fp], %pc
        alu();
        alu();
        break;
      case 3:  // call idiom: add %pc, 0x10, %rca; st %rca, [--%sp]; bt next; slot
        w.push_back(0x07880010u);
        w.push_back(0x9793FFFCu);
        fix.push_back({w.size(), w.size() + 2, false});
        w.push_back(0xE0000000u);
        alu();
        break;
      default:  // a backward branch: loops, ended by the budget
        compare_maybe();
        fix.push_back({w.size(), w.size() > 8 ? w.size() - 1 - pick(8) : 0, false});
        w.push_back((0xEu << 28) | (pick(8) << 25) | pick(2));
        alu();
        break;
    }
  }

  std::vector<std::uint32_t> program(std::size_t n, bool branchy) {
    while (w.size() < n) {
      const unsigned k = pick(20);
      if (k < 8) alu();
      else if (k == 8) pair();
      else if (k < 15) mem();
      else if (k < 17) stack();
      else if (k == 17) patch(n);
      else if (branchy) control();
      else alu();
    }
    const std::size_t end = w.size();
    for (const Fixup& x : fix) {
      const std::uint32_t t = kCodeLo + 4 * static_cast<std::uint32_t>(std::min(x.target, end));
      if (x.sli) w[x.at] |= (((t >> 16) & 31) << 18) | (t & 0xFFFF);
      else w[x.at] |= t & 0x01FFFFFCu;
    }
    return w;
  }
};

Machine machine(Gen& g, std::vector<std::uint32_t> code) {
  Machine m(std::move(code));
  for (std::uint32_t a = 0x4000; a < 0x8000; a += 4) m.env.st32(a, static_cast<std::uint32_t>(g.rng()));
  for (unsigned r = 3; r < 32; ++r) m.set(r, static_cast<std::uint32_t>(g.rng()));
  for (unsigned i = 0; i < kBase.size(); ++i) m.set(kBase[i], 0x5000 + 0x800 * i);
  m.set(kIdx0, 4 * g.pick(32)).set(kIdx1, 4 * g.pick(32)).set(kCode, kCodeLo);
  m.set(kTarget, m.env.code_hi).set(kSp, 0x7F00).set(kFp, 0x8000);
  m.env.st32(0x7FFC, m.env.code_hi);
  m.s.f = Flags{g.pick(2) == 1, g.pick(2) == 1, g.pick(2) == 1, g.pick(2) == 1};
  if (g.pick(4) == 0) m.s.stack_limit = 0x7F00 - 8 * g.pick(8);  // some runs hit the stack guard
  return m;
}

// Runs `count` programs; returns how many handlers each Fast kind got; adds the blocks entered
// through block chaining to *chained.
std::array<unsigned, static_cast<unsigned>(Fast::kCount)> run_programs(std::uint32_t seed0, unsigned count, bool branchy,
                                                                      std::uint64_t* chained = nullptr) {
  std::array<unsigned, static_cast<unsigned>(Fast::kCount)> seen{};
  for (unsigned i = 0; i < count; ++i) {
    const std::uint32_t seed = seed0 + i;
    Gen g(seed);
    const std::vector<std::uint32_t> code = g.program(100 + g.pick(200), branchy);
    for (std::size_t k = 0; k < code.size(); ++k)
      ++seen[static_cast<unsigned>(k + 1 < code.size() ? pair_op(decode(code[k]), decode(code[k + 1])) : decode(code[k]).xop)];
    Machine m = machine(g, code);
    m.env.taken_extra = g.pick(3);
    const std::uint64_t budget = g.pick(3) == 0 ? 1 + g.pick(400) : 5000;
    for (auto& c : m.env.cycles_of) c = static_cast<std::uint8_t>(1 + g.pick(4));  // per class
    INFO("seed " << seed << " budget " << budget);
    REQUIRE(m.run_both(budget));
    if (chained) *chained += m.env.chained;
  }
  return seen;
}

}  // namespace

TEST_CASE("random straight-line programs: block engine and one-instruction loop agree", "[iss][random]") {
  run_programs(1000, 300, false);
}

TEST_CASE("random branchy programs: block engine and one-instruction loop agree", "[iss][random]") {
  std::uint64_t chained = 0;
  run_programs(5000, 300, true, &chained);
  CHECK(chained > 0);  // blocks went straight on into blocks built before
}

TEST_CASE("random branchy programs in short slices: the block engine runs on through slice ends as the one-instruction loop runs slice by slice", "[iss][random]") {
  std::uint64_t run_on = 0, chained = 0;
  for (std::uint32_t seed = 7000; seed < 7200; ++seed) {
    Gen g(seed);
    Machine m = machine(g, g.program(100 + g.pick(200), true));
    m.env.taken_extra = g.pick(3);
    for (auto& c : m.env.cycles_of) c = static_cast<std::uint8_t>(1 + g.pick(4));
    const std::uint64_t slice = 1 + g.pick(60), until = 2000 + g.pick(4000);
    INFO("seed " << seed << " slice " << slice << " until " << until);
    REQUIRE(m.run_both_sliced(until, slice));
    run_on += m.env.slices_run_on;
    chained += m.env.chained;
  }
  CHECK(run_on > 1000);  // most slice ends were passed inside the engine
  CHECK(chained > 0);
}

TEST_CASE("random programs without a direct-memory window agree too", "[iss][random]") {
  for (std::uint32_t seed = 9000; seed < 9100; ++seed) {
    Gen g(seed);
    Machine m = machine(g, g.program(150, true));
    m.env.direct = false;
    INFO("seed " << seed);
    REQUIRE(m.run_both(5000));
  }
}

TEST_CASE("random programs reach every specialised handler", "[iss][random]") {
  const auto a = run_programs(20000, 60, false), b = run_programs(30000, 60, true);
  for (unsigned k = 1; k < static_cast<unsigned>(Fast::kCount); ++k) {
    INFO("Fast handler " << k);
    CHECK(a[k] + b[k] > 0);
  }
}

TEST_CASE("misaligned and out-of-window accesses take the checked path with the same fault", "[iss][random]") {
  // ld 2[%r20], %r3 (misaligned word), st.h %r3, 1[%r21] (misaligned half), a word load beyond memory.
  for (const char* text : {"add %r0, 1, %r6\n ld 2[%r20], %r3\n", "st.h %r3, 1[%r21]\n", "ld 0[%r22], %r3\n"}) {
    Machine m(text);
    m.set(20, 0x5000).set(21, 0x5800).set(22, 0x10000);
    Machine::End e;
    CHECK(m.run_both(100, &e));
    CHECK(e.how == 1);  // a fault
  }
}
