// The TLM core's timing: firmware time = sum of per-class cycles x clock period (+ target
// latency for MMIO), independent of DMI and of the quantum. Expected values are derived from
// the parameters here, never from a previous run.
#include <catch2/catch.hpp>
#include <sstream>

#include "hw/nic/memory_map.hpp"
#include "platform/fw/fw_platform.hpp"
#include "tb/iss/iss_harness.hpp"
#include "tb/iss/test_image.hpp"
#include "tb/common/test_params.hpp"

using namespace sanvp;

namespace {

// Code at 0x100: 6 ALU, 1 store, 1 load, 1 untaken and 1 taken branch, then the exit store.
const char* kProgram =
    "add %r0, 0x1000000, %r3\n"  // 0x100 ALU: system registers
    "mov 0x1000, %r12\n"         // 0x104 ALU
    "add %r0, 3, %r6\n"          // 0x108 ALU
    "st %r6, 0[%r12]\n"          // 0x10c STORE
    "ld 0[%r12], %r7\n"          // 0x110 LOAD
    "sub.f %r7, 3, %r0\n"        // 0x114 ALU
    "bne 0x130\n"                // 0x118 BRANCH, not taken
    "nop\n"                      // 0x11c ALU
    "beq 0x12c\n"                // 0x120 BRANCH, taken
    "nop\n"                      // 0x124 ALU (delay slot)
    "add %r0, 99, %r7\n"         // 0x128 skipped
    "st %r7, 8[%r3]\n";          // 0x12c exit(r7)

nic::LanaiCore::Result run(ParamValues& pv, const fw::Image& im, std::string* console = nullptr) {
  pv.set("nic.sram.size", "65536", "test");
  std::ostringstream out;
  fw::FwPlatform plat("nic", pv, im, &out);
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  if (console) *console = out.str();
  return plat.core->result();
}

Time period_time(std::uint64_t cycles, double mhz) {
  return static_cast<Time>(static_cast<unsigned __int128>(cycles) * 1000000000000ull / static_cast<std::uint64_t>(mhz * 1e6));
}

}  // namespace

TEST_CASE("firmware time = class cycles x clock period (custom cycle model)", "[core][timing]") {
  ParamValues pv = test::test_params(
      {"nic.core.clock=50", "nic.core.cycles_alu=2", "nic.core.cycles_load=7", "nic.core.cycles_store=3", "nic.core.cycles_branch=4", "nic.core.cycles_taken=5"});
  const auto r = run(pv, test::image_of(sanvp::test::assemble(kProgram)));
  REQUIRE(r.outcome == nic::LanaiCore::Outcome::kExited);
  CHECK(r.exit_code == 3);
  const std::uint64_t cycles = 6 * 2 + 1 * 3 + 1 * 7 + 2 * 4 + 1 * 5;
  CHECK(r.end_time == period_time(cycles, 50.0));  // the exit store starts after these cycles
  CHECK(r.cycles == cycles + 3);                   // plus the exit store itself
  CHECK(r.instructions == 11);
}

TEST_CASE("default clock 66 MHz and default cycle model", "[core][timing]") {
  ParamValues pv;
  const auto r = run(pv, test::image_of(sanvp::test::assemble(kProgram)));
  REQUIRE(r.outcome == nic::LanaiCore::Outcome::kExited);
  const std::uint64_t cycles = 6 * 1 + 1 * 1 + 1 * 2 + 2 * 1 + 1 * 1;
  CHECK(r.end_time == period_time(cycles, 66.0));
  CHECK(r.end_time == 12ull * 1000000000000ull / 66000000ull);  // 181818 ps
}

TEST_CASE("DMI off (all b_transport) gives the same time and result", "[core][timing][dmi]") {
  ParamValues pv = test::test_params({"nic.core.dmi=false", "nic.core.clock=50"});
  const auto r = run(pv, test::image_of(sanvp::test::assemble(kProgram)));
  REQUIRE(r.outcome == nic::LanaiCore::Outcome::kExited);
  CHECK(r.exit_code == 3);
  CHECK(r.end_time == period_time(12, 50.0));
}

TEST_CASE("a 1 ns quantum (sync every instruction) gives the same time", "[core][timing][quantum]") {
  ParamValues pv = test::test_params({"sim.quantum=1ns", "nic.core.clock=50"});
  const auto r = run(pv, test::image_of(sanvp::test::assemble(kProgram)));
  REQUIRE(r.outcome == nic::LanaiCore::Outcome::kExited);
  CHECK(r.end_time == period_time(12, 50.0));
}

TEST_CASE("MMIO latency annotated by a target adds to firmware time", "[core][timing][mmio]") {
  // Same program with an extra MMIO read of the scratch register before the exit.
  std::string prog = kProgram;
  prog.insert(prog.find("st %r7, 8[%r3]"), "ld 0x20[%r3], %r13\n");
  ParamValues pv = test::test_params({"nic.core.clock=50", "nic.sys.latency=100ns"});
  auto words = sanvp::test::assemble(prog);
  // beq 0x12c now lands on the inserted load (the skipped add stays skipped).
  const auto r = run(pv, test::image_of(words));
  REQUIRE(r.outcome == nic::LanaiCore::Outcome::kExited);
  // 12 cycles + the MMIO load (2 cycles) at 20 ns, plus 100 ns for the load and 100 ns for the exit write.
  CHECK(r.end_time == period_time(14, 50.0) + 200 * kNs);
}

TEST_CASE("the time register reads simulated time in ns", "[core][timing][mmio]") {
  // r6 = time_lo at an instruction boundary; exit code = r6.
  const auto words = sanvp::test::assemble("add %r0, 0x1000000, %r3\n nop\n nop\n ld 0x10[%r3], %r6\n st %r6, 8[%r3]\n");
  ParamValues pv = test::test_params({"nic.core.clock=10"});
  const auto r = run(pv, test::image_of(words));
  REQUIRE(r.outcome == nic::LanaiCore::Outcome::kExited);
  CHECK(r.exit_code == 300);  // 3 ALU cycles before the load
}

TEST_CASE("console bytes reach the console sink", "[core][console]") {
  const auto words = sanvp::test::assemble(
      "add %r0, 0x1000000, %r3\n add %r0, 0x4f, %r6\n st %r6, 0[%r3]\n add %r0, 0x4b, %r6\n st %r6, 0[%r3]\n st %r0, 8[%r3]\n");
  ParamValues pv;
  std::string console;
  const auto r = run(pv, test::image_of(words), &console);
  CHECK(r.outcome == nic::LanaiCore::Outcome::kExited);
  CHECK(console == "OK");
}

TEST_CASE("code written at run time is re-decoded before it executes", "[core][smc]") {
  const std::uint32_t patch = sanvp::test::assemble("add %r0, 42, %r7")[0];
  const std::string prog = "add %r0, 0x1000000, %r3\n"                                            // 0x100
                           "add %r0, " + std::to_string(patch & 0xFFFF0000u) + ", %r6\n"          // 0x104
                           "or %r6, " + std::to_string(patch & 0xFFFFu) + ", %r6\n"               // 0x108
                           "mov 0x118, %r12\n"                                                    // 0x10c
                           "st %r6, 0[%r12]\n"                                                    // 0x110
                           "nop\n"                                                                // 0x114
                           "add %r0, 1, %r7\n"                                                    // 0x118: patched
                           "st %r7, 8[%r3]\n";
  ParamValues pv;
  const auto r = run(pv, test::image_of(sanvp::test::assemble(prog)));
  REQUIRE(r.outcome == nic::LanaiCore::Outcome::kExited);
  CHECK(r.exit_code == 42);
}

namespace {
// A register that blocks the reading initiator for 500 ns (like a wait-for-event register).
struct BlockingReg : sc_core::sc_module {
  tlm_utils::simple_target_socket<BlockingReg> socket{"socket"};
  explicit BlockingReg(sc_core::sc_module_name n) : sc_module(n) { socket.register_b_transport(this, &BlockingReg::bt); }
  void bt(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    wait(delay);
    delay = sc_core::SC_ZERO_TIME;
    wait(sc_core::sc_time(500, sc_core::SC_NS));
    unsigned char* d = p.get_data_ptr();
    d[0] = d[1] = d[2] = 0;
    d[3] = 5;
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};
}  // namespace

TEST_CASE("a target that blocks in b_transport adds the blocked time to firmware time", "[core][timing][mmio]") {
  const auto words = sanvp::test::assemble("add %r0, 0x1000000, %r3\n add %r0, 0x2000000, %r6\n ld 0[%r6], %r7\n st %r7, 8[%r3]\n");
  const fw::Image im = test::image_of(words);
  ParamValues pv;
  nic::Bus bus("bus");
  nic::Sram sram("sram", 0x10000);
  nic::SysRegs sys("sys", nic::SysRegsParams{});
  BlockingReg wfe("wfe");
  nic::LanaiCore core("core", nic::LanaiCore::Config::from_params(pv, "core"), fw::program_of(im));
  for (const auto& s : im.segments) sram.write(s.addr, s.data.data(), s.size);
  sys.on_exit = [&core](std::uint32_t code, Time when) { core.request_exit(code, when); };
  core.socket.bind(bus.from_initiators);
  bus.map(sram.socket, 0, 0x10000, "sram");
  bus.map(sys.socket, nic::map::kSysBase, nic::map::kSysSize, "sys");
  bus.map(wfe.socket, nic::map::kNicRegBase, 4, "wfe");
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  const auto& r = core.result();
  REQUIRE(r.outcome == nic::LanaiCore::Outcome::kExited);
  CHECK(r.exit_code == 5);
  CHECK(r.end_time == period_time(1 + 1 + 2, 66.0) + 500 * kNs);
}

TEST_CASE("a device refusing an access is a bus error with the TLM response in the report", "[core][fault]") {
  // The system registers accept only 32-bit accesses: a byte store is refused.
  const auto words = sanvp::test::assemble("add %r0, 0x1000000, %r3\n add %r0, 0x41, %r6\n st.b %r6, 0[%r3]\n st %r0, 8[%r3]\n");
  ParamValues pv;
  const auto r = run(pv, test::image_of(words));
  REQUIRE(r.outcome == nic::LanaiCore::Outcome::kFault);
  INFO(r.fault_report);
  CHECK(r.fault_report.find("firmware fault: bus error\n") != std::string::npos);
  CHECK(r.fault_report.find("store of 1 bytes at 0x01000000: TLM_BURST_ERROR_RESPONSE") != std::string::npos);
  CHECK(r.fault_report.find("pc    : 0x00000108 <prog+0x8>") != std::string::npos);
  CHECK(r.end_time == period_time(2, 66.0));
}
