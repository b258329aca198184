// Writes into code by other initiators (DMA engines, PCI) reach the block engine through the
// SRAM's write notifications: the next fetch after the write sees the new instruction, with the
// same result and time as the one-instruction loop (which reads memory on every fetch); and
// with nobody writing code, blocks are built once, not again after every slice.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <sstream>
#include <string>
#include <vector>

#include "hw/nic/sram_pci.hpp"
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

constexpr std::uint32_t kPatched = 0x210;  // the instruction another initiator overwrites
constexpr Time kWriteAt = 50 * kUs;

// Loops through code in the second 256-byte page until that code sets r7 = 42, then exits(r7).
std::vector<std::uint32_t> spin_until_patched() {
  std::string t =
      "add %r0, 0x1000000, %r3\n"  // 0x100
      "bt 0x210\n"                 // 0x104 loop
      "nop\n"                      // 0x108
      "sub.f %r7, 42, %r0\n"       // 0x10c back
      "bne 0x104\n"                // 0x110
      "nop\n"                      // 0x114
      "st %r7, 8[%r3]\n";          // 0x118 exit(r7)
  for (std::uint32_t a = 0x11c; a < kPatched; a += 4) t += "nop\n";
  t += "add %r0, 1, %r7\n bt 0x10c\n nop\n";  // 0x210
  return test::assemble(t);
}

// Another initiator: writes `text` (one instruction, by default `add %r0, 42, %r7`) over `at`
// (kPatched) at kWriteAt, through DMA or PCI.
struct Patcher : sc_core::sc_module {
  SC_HAS_PROCESS(Patcher);
  Patcher(sc_core::sc_module_name n, nic::Sram& s, bool pci, std::uint32_t a, std::string t)
      : sc_module(n), sram(s), via_pci(pci), at(a), text(std::move(t)) {
    SC_THREAD(go);
  }
  void go() {
    wait(sc_core::sc_time::from_value(kWriteAt));
    const std::uint32_t w = test::assemble(text).at(0);
    const std::uint8_t b[4] = {std::uint8_t(w >> 24), std::uint8_t(w >> 16), std::uint8_t(w >> 8), std::uint8_t(w)};
    if (via_pci) nic::SramPciTarget(sram).write(at, b, 4);
    else sram.write(at, b, 4, nic::SramWriter::kRecvDma);
  }
  nic::Sram& sram;
  bool via_pci;
  std::uint32_t at;
  std::string text;
};

Outcome run(ParamValues& pv, const std::vector<std::uint32_t>& words, int patch /* -1 none, 0 DMA, 1 PCI */,
            std::uint32_t at = kPatched, const std::string& text = "add %r0, 42, %r7") {
  pv.set("nic.sram.size", "65536", "test");
  std::ostringstream out;
  fw::FwPlatform plat("nic", pv, test::image_of(words), &out);
  std::unique_ptr<Patcher> p;
  if (patch >= 0) p = std::make_unique<Patcher>("patcher", *plat.sram, patch == 1, at, text);
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  return {plat.core->result(), plat.core->block_stats()};
}

// The core runs at most one quantum ahead of the write, and one loop pass (9 cycles) after
// the slice that follows it reaches the patched word.
void check_patched(const Outcome& r, Time quantum) {
  REQUIRE(r.result.outcome == nic::LanaiCore::Outcome::kExited);
  CHECK(r.result.exit_code == 42);
  CHECK(r.result.end_time >= kWriteAt);
  CHECK(r.result.end_time <= kWriteAt + quantum + 2 * kUs);
}

}  // namespace

TEST_CASE("a DMA write into code is seen by the next fetch", "[core][block][sram]") {
  ParamValues pv;
  const auto r = run(pv, spin_until_patched(), 0);
  check_patched(r, 10 * kUs);
  CHECK(r.stats.pages_dropped == 1);  // the patched page, once
}

TEST_CASE("a PCI (host) write into code is seen by the next fetch", "[core][block][sram]") {
  ParamValues pv;
  const auto r = run(pv, spin_until_patched(), 1);
  check_patched(r, 10 * kUs);
  CHECK(r.stats.pages_dropped == 1);
}

// The same with a 100 ns quantum, and through the one-instruction loop (DMI off), which reads
// memory on every fetch: the same bounds hold.
TEST_CASE("a DMA write into code is seen with a 100 ns quantum too", "[core][block][sram][quantum]") {
  ParamValues pv = test::test_params({"sim.quantum=100ns"});
  check_patched(run(pv, spin_until_patched(), 0), 100 * kNs);
}

TEST_CASE("a DMA write into code is seen without DMI", "[core][block][sram][dmi]") {
  ParamValues pv = test::test_params({"nic.core.dmi=false", "sim.quantum=100ns"});
  const auto r = run(pv, spin_until_patched(), 0);
  check_patched(r, 100 * kNs);
  CHECK(r.stats.built == 0);
}

TEST_CASE("without writes into code blocks are not built again after slices", "[core][block][sram][quantum]") {
  // 10000 loop passes (about 600 us) in 100 ns slices: thousands of slices. A block starts at
  // each of the six words at most once (a slice ending inside a block resumes mid-block).
  const auto words = test::assemble(
      "add %r0, 0x1000000, %r3\n mov 10000, %r9\n sub.f %r9, 1, %r9\n bne 0x108\n nop\n st %r9, 8[%r3]\n");
  ParamValues pv = test::test_params({"sim.quantum=100ns"});
  const auto r = run(pv, words, -1);
  REQUIRE(r.result.outcome == nic::LanaiCore::Outcome::kExited);
  CHECK(r.result.exit_code == 0);
  CHECK(r.result.end_time > 5000 * 100 * kNs);  // many slices
  CHECK(r.stats.built <= 6);
  CHECK(r.stats.pages_dropped == 0);
}

TEST_CASE("the SRAM tells a listener of writes in its range with writer and range only", "[sram]") {
  nic::Sram sram("sram", 4096);
  std::vector<nic::SramWrite> heard;
  const int h = sram.listen(0x100, 0x200, [&](const nic::SramWrite& w) { heard.push_back(w); });
  const std::uint8_t b[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  sram.write(0x0f8, b, 8, nic::SramWriter::kHostDma);  // ends just before the range: not heard
  sram.put8(0x200, 9, nic::SramWriter::kRecvDma);      // just after it: not heard
  sram.write(0x0fc, b, 8, nic::SramWriter::kHostDma);  // overlaps its start
  sram.put32(0x1fc, 0xa5a5a5a5u, nic::SramWriter::kSendDma);
  nic::SramPciTarget(sram).write(0x180, b, 2);
  REQUIRE(heard.size() == 3);
  CHECK((heard[0].who == nic::SramWriter::kHostDma && heard[0].addr == 0x0fc && heard[0].len == 8));
  CHECK((heard[1].who == nic::SramWriter::kSendDma && heard[1].addr == 0x1fc && heard[1].len == 4));
  CHECK((heard[2].who == nic::SramWriter::kPci && heard[2].addr == 0x180 && heard[2].len == 2));
  CHECK(std::string(nic::sram_writer_name(heard[1].who)) == "SEND_DMA");
  CHECK(sram.data()[0x1fc] == 0xa5);
  sram.set_listen_range(h, 0, 0);  // no longer listening
  sram.put8(0x150, 1, nic::SramWriter::kRecvDma);
  CHECK(heard.size() == 3);
}

// Block chaining: in spin_until_patched the blocks go into one another through chains (no
// block accesses memory), so after the write the patched block is reached through a chain
// from a block built before it. The write drops it; with a 1 us quantum the core sees the new
// instruction within one slice, as the one-instruction loop does (which reads every fetch).
TEST_CASE("a chain never enters a block dropped by a DMA write", "[core][block][sram][chain]") {
  ParamValues pv = test::test_params({"sim.quantum=1us"});
  const auto r = run(pv, spin_until_patched(), 0);
  check_patched(r, 1 * kUs);
  CHECK(r.stats.pages_dropped == 1);
  // At most one block per word of the ten that run (a slice may end inside a block), plus the
  // three of the dropped page again: blocks are not rebuilt between slices.
  CHECK(r.stats.built <= 13);
}

TEST_CASE("the same DMA write through the one-instruction loop, 1 us quantum", "[core][block][sram][chain][dmi]") {
  ParamValues pv = test::test_params({"nic.core.dmi=false", "sim.quantum=1us"});
  check_patched(run(pv, spin_until_patched(), 0), 1 * kUs);
}

// A compare and the branch after it run as one handler (lanai::pair_op). A write over the branch
// alone must reach that pair too: `bne` loops while r7 != 42; turned into `beq` it falls through
// and the firmware exits with r7 = 5 within a slice of the write. The core resumes after the
// write where its slice ended: four quanta one core cycle (15.15 ns) apart end it on each cycle
// of the four-cycle loop, so one of them resumes at the compare and runs the pair anew.
void check_pair_patched(const char* quantum) {
  const auto words = test::assemble(
      "add %r0, 0x1000000, %r3\n"  // 0x100
      "add %r0, 5, %r7\n"          // 0x104
      "sub.f %r7, 42, %r0\n"       // 0x108 loop
      "bne 0x108\n"                // 0x10c: patched
      "nop\n"                      // 0x110
      "st %r7, 8[%r3]\n");         // 0x114 exit(r7)
  const std::string q = std::string("sim.quantum=") + quantum;
  ParamValues pv = test::test_params({q.c_str()});
  const auto r = run(pv, words, 0, 0x10c, "beq 0x108");
  REQUIRE(r.result.outcome == nic::LanaiCore::Outcome::kExited);
  CHECK(r.result.exit_code == 5);
  CHECK(r.result.end_time >= kWriteAt);
  CHECK(r.result.end_time <= kWriteAt + 2 * kUs);
  CHECK(r.stats.pages_dropped == 1);
}

TEST_CASE("a DMA write over the branch of a compare-and-branch pair with a 1000 ns quantum", "[core][block][sram][pair]") {
  check_pair_patched("1000ns");
}
TEST_CASE("a DMA write over the branch of a compare-and-branch pair with a 1015 ns quantum", "[core][block][sram][pair]") {
  check_pair_patched("1015ns");
}
TEST_CASE("a DMA write over the branch of a compare-and-branch pair with a 1030 ns quantum", "[core][block][sram][pair]") {
  check_pair_patched("1030ns");
}
TEST_CASE("a DMA write over the branch of a compare-and-branch pair with a 1045 ns quantum", "[core][block][sram][pair]") {
  check_pair_patched("1045ns");
}
