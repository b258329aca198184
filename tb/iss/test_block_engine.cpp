// The core's block engine (hw/nic/iss/threaded.hpp): self-modifying code is seen at once, in
// the running block and in another page; stores to data drop no code; the block engine gives
// the same result, cycles and time as the one-instruction loop (DMI off) at any quantum.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <sstream>
#include <string>
#include <vector>

#include "platform/fw/fw_platform.hpp"
#include "tb/common/test_params.hpp"
#include "tb/iss/iss_harness.hpp"
#include "tb/iss/test_image.hpp"

using namespace sanvp;

namespace {

struct Outcome {
  nic::LanaiCore::Result result;
  nic::LanaiCore::BlockStats stats;
};

Outcome run(ParamValues& pv, const std::vector<std::uint32_t>& words) {
  pv.set("nic.sram.size", "65536", "test");
  std::ostringstream out;
  fw::FwPlatform plat("nic", pv, test::image_of(words), &out);
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  return {plat.core->result(), plat.core->block_stats()};
}

// Assembles `lines`, line i at 0x100 + 4 i; `fill` pads with nops up to an address.
struct Listing {
  std::vector<std::string> lines;
  std::uint32_t here() const { return 0x100 + 4 * static_cast<std::uint32_t>(lines.size()); }
  Listing& add(const std::string& l) {
    lines.push_back(l);
    return *this;
  }
  Listing& fill(std::uint32_t addr) {
    while (here() < addr) lines.push_back("nop");
    return *this;
  }
  std::vector<std::uint32_t> words() const {
    std::string t;
    for (const auto& l : lines) t += l + "\n";
    return test::assemble(t);
  }
};

std::uint32_t word_of(const std::string& insn) { return test::assemble(insn).at(0); }

// Replaces the instruction at 0x110, two words after the store, in the block that is running.
std::vector<std::uint32_t> patch_in_block() {
  Listing l;
  l.add("add %r0, 0x1000000, %r3");  // 0x100 system registers
  l.add("ld 0x120[%r0], %r5");       // 0x104 the new instruction word
  l.add("st %r5, 0x110[%r0]");       // 0x108 write it over 0x110
  l.add("nop");                      // 0x10c
  l.add("add %r0, 1, %r7");          // 0x110 becomes add %r0, 42, %r7
  l.add("st %r7, 8[%r3]");           // 0x114 exit(r7)
  l.fill(0x120).add(fmt::format(".long 0x{:08x}", word_of("add %r0, 42, %r7")));
  return l.words();
}

// Runs an instruction in the second 256-byte page, then overwrites it from the first page and
// runs it again: exit(1 + 42).
std::vector<std::uint32_t> patch_other_page() {
  Listing l;
  l.add("add %r0, 0x1000000, %r3");  // 0x100
  l.add("mov 0, %r8");               // 0x104 sum
  l.add("mov 0, %r9");               // 0x108 passes
  l.add("bt 0x210");                 // 0x10c loop: run the target
  l.add("nop");                      // 0x110
  l.add("add %r9, 1, %r9");          // 0x114 back:
  l.add("sub.f %r9, 2, %r0");        // 0x118
  l.add("beq 0x134");                // 0x11c
  l.add("nop");                      // 0x120
  l.add("ld 0x140[%r0], %r5");       // 0x124
  l.add("bt 0x10c");                 // 0x128
  l.add("st %r5, 0x210[%r0]");       // 0x12c delay slot: patch the target
  l.add("nop");                      // 0x130
  l.add("st %r8, 8[%r3]");           // 0x134 exit(r8)
  l.fill(0x140).add(fmt::format(".long 0x{:08x}", word_of("add %r0, 42, %r7")));
  l.fill(0x210);
  l.add("add %r0, 1, %r7");  // 0x210 target, in the next page
  l.add("bt 0x114");         // 0x214
  l.add("add %r8, %r7, %r8");  // 0x218 delay slot
  return l.words();
}

// A loop whose blocks go into one another through block chaining (none of them accesses
// memory): 100 passes through a target in the next page, which adds r7 to a sum. On pass 50 a
// store replaces the target's first instruction; the next pass reaches the target through a
// chain from a block built before the store. exit(50 x 1 + 50 x 42).
std::vector<std::uint32_t> patch_chained_target() {
  Listing l;
  l.add("add %r0, 0x1000000, %r3");  // 0x100
  l.add("mov 0, %r8");               // 0x104 sum
  l.add("mov 100, %r9");             // 0x108 passes left
  l.add("bt 0x210");                 // 0x10c loop: run the target
  l.add("nop");                      // 0x110
  l.add("sub.f %r9, 1, %r9");        // 0x114 back:
  l.add("beq 0x138");                // 0x118 done
  l.add("nop");                      // 0x11c
  l.add("sub.f %r9, 50, %r0");       // 0x120
  l.add("bne 0x10c");                // 0x124 not pass 50: loop
  l.add("nop");                      // 0x128
  l.add("ld 0x140[%r0], %r5");       // 0x12c pass 50:
  l.add("bt 0x10c");                 // 0x130
  l.add("st %r5, 0x210[%r0]");       // 0x134 delay slot: patch the target
  l.add("st %r8, 8[%r3]");           // 0x138 exit(r8)
  l.fill(0x140).add(fmt::format(".long 0x{:08x}", word_of("add %r0, 42, %r7")));
  l.fill(0x210);
  l.add("add %r0, 1, %r7");    // 0x210 target, in the next page
  l.add("bt 0x114");           // 0x214
  l.add("add %r8, %r7, %r8");  // 0x218 delay slot
  return l.words();
}

// 200 stores to a data word right after the code, then exit(the last value stored).
std::vector<std::uint32_t> data_stores() {
  Listing l;
  l.add("add %r0, 0x1000000, %r3");  // 0x100
  l.add("mov 200, %r9");             // 0x104
  l.add("st %r9, 0x120[%r0]");       // 0x108 loop: data word at 0x120 (after the code)
  l.add("sub.f %r9, 1, %r9");        // 0x10c
  l.add("bne 0x108");                // 0x110
  l.add("nop");                      // 0x114
  l.add("ld 0x120[%r0], %r7");       // 0x118
  l.add("st %r7, 8[%r3]");           // 0x11c exit(r7)
  return l.words();
}

Time period_time(std::uint64_t cycles) {  // default clock, 66 MHz
  return static_cast<Time>(static_cast<unsigned __int128>(cycles) * 1000000000000ull / 66000000ull);
}

// Default cycle model: ALU 1, load 2, store 1, branch 1 (+1 taken).
// patch_in_block: add, ld, st, nop, add, then the exit store.
constexpr std::uint64_t kPatchInBlockCycles = 1 + 2 + 1 + 1 + 1;
// patch_other_page, in execution order up to the exit store.
constexpr std::uint64_t kOtherPageCycles = (1 + 1 + 1 + 2 + 1) + (1 + 2 + 1) + (1 + 1 + 1 + 1 + 2 + 2 + 1) + (2 + 1) +
                                           (1 + 2 + 1) + (1 + 1 + 2 + 1);
constexpr std::uint64_t kOtherPageInsns = 5 + 3 + 7 + 2 + 3 + 4 + 1;
// data_stores: add, mov, 200 x (st, sub.f, bne, nop) with 199 taken, ld. More than one 10 us
// quantum (660 cycles), so the slice ends inside the loop.
constexpr std::uint64_t kDataCycles = 2 + 200 * 4 + 199 + 2;

void check_patch_in_block(const Outcome& r) {
  REQUIRE(r.result.outcome == nic::LanaiCore::Outcome::kExited);
  CHECK(r.result.exit_code == 42);
  CHECK(r.result.instructions == 6);
  CHECK(r.result.end_time == period_time(kPatchInBlockCycles));
  CHECK(r.result.cycles == kPatchInBlockCycles + 1);
}

void check_other_page(const Outcome& r) {
  REQUIRE(r.result.outcome == nic::LanaiCore::Outcome::kExited);
  CHECK(r.result.exit_code == 43);
  CHECK(r.result.instructions == kOtherPageInsns);
  CHECK(r.result.end_time == period_time(kOtherPageCycles));
}

void check_data_stores(const Outcome& r) {
  REQUIRE(r.result.outcome == nic::LanaiCore::Outcome::kExited);
  CHECK(r.result.exit_code == 1);
  CHECK(r.result.instructions == 2 + 800 + 2);
  CHECK(r.result.end_time == period_time(kDataCycles));
}

}  // namespace

TEST_CASE("a store into the running block changes an instruction later in it", "[core][block]") {
  ParamValues pv;
  const auto r = run(pv, patch_in_block());
  check_patch_in_block(r);
  CHECK(r.stats.built >= 1);          // the block engine ran it
  CHECK(r.stats.pages_dropped == 1);  // the running block's page
}

TEST_CASE("a store into code in another page is seen when that code runs again", "[core][block]") {
  ParamValues pv;
  const auto r = run(pv, patch_other_page());
  check_other_page(r);
  CHECK(r.stats.pages_dropped == 1);  // the target's page, once
}

TEST_CASE("stores to data drop no predecoded code", "[core][block]") {
  ParamValues pv;
  const auto r = run(pv, data_stores());
  check_data_stores(r);
  CHECK(r.stats.pages_dropped == 0);
  // Blocks are built once per slice at most (two slices here), not once per store.
  CHECK(r.stats.built < 20);
}

// The same programs through the one-instruction loop (no DMI: no block engine) and with a
// 1 ns quantum (every slice ends inside a block): same results, cycles and times.
TEST_CASE("self-modifying code without DMI (one-instruction loop)", "[core][block][dmi]") {
  ParamValues pv = test::test_params({"nic.core.dmi=false"});
  const auto r = run(pv, patch_in_block());
  check_patch_in_block(r);
  CHECK(r.stats.built == 0);
}

TEST_CASE("self-modifying code in another page without DMI", "[core][block][dmi]") {
  ParamValues pv = test::test_params({"nic.core.dmi=false"});
  check_other_page(run(pv, patch_other_page()));
}

TEST_CASE("self-modifying code with a 1 ns quantum", "[core][block][quantum]") {
  ParamValues pv = test::test_params({"sim.quantum=1ns"});
  check_patch_in_block(run(pv, patch_in_block()));
}

TEST_CASE("code patched in another page with a 1 ns quantum", "[core][block][quantum]") {
  ParamValues pv = test::test_params({"sim.quantum=1ns"});
  check_other_page(run(pv, patch_other_page()));
}

TEST_CASE("data-store loop without DMI and with a 1 ns quantum", "[core][block][quantum]") {
  ParamValues pv = test::test_params({"nic.core.dmi=false", "sim.quantum=1ns"});
  check_data_stores(run(pv, data_stores()));
}

// Block chaining: the target's block, entered through chains before, is dropped by the store
// into its page; the chain that leads to it next must not run the old decode. The same counts
// and time through the one-instruction loop (DMI off), which reads memory on every fetch.
// 3 setup, 98 passes of 11 instructions (14 cycles), the patching pass 14 (18), the last 8 (11).
constexpr std::uint64_t kChainedInsns = 3 + 98 * 11 + 14 + 8 + 1;
constexpr std::uint64_t kChainedCycles = 3 + 98 * 14 + 18 + 11;

void check_chained(const Outcome& r) {
  REQUIRE(r.result.outcome == nic::LanaiCore::Outcome::kExited);
  CHECK(r.result.exit_code == 50 + 50 * 42);
  CHECK(r.result.instructions == kChainedInsns);
  CHECK(r.result.cycles == kChainedCycles + 1);
  CHECK(r.result.end_time == period_time(kChainedCycles));
}

TEST_CASE("a chain never enters a block dropped by a store into its page", "[core][block][chain]") {
  ParamValues pv;
  const auto r = run(pv, patch_chained_target());
  check_chained(r);
  CHECK(r.stats.pages_dropped == 1);  // the target's page, once
}

TEST_CASE("the chained-target program through the one-instruction loop", "[core][block][chain][dmi]") {
  ParamValues pv = test::test_params({"nic.core.dmi=false"});
  check_chained(run(pv, patch_chained_target()));
}

TEST_CASE("the chained-target program with a 1 ns quantum (no chains: every slice ends in a block)",
          "[core][block][chain][quantum]") {
  ParamValues pv = test::test_params({"sim.quantum=1ns"});
  check_chained(run(pv, patch_chained_target()));
}
