// End-to-end messaging between two hosts through the messaging firmware: every byte of every
// message checked, sizes 1 B .. 1 MiB, through 1 and 3 switches; the latency breakdown adds up
// and its switch part is the closed form; the CLI writes its report and rejects bad input.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>

#include "platform/host/msg_bench.hpp"
#include "tb/firmware/run_util.hpp"

using namespace sanvp;

static void scoreboard_case(int p) {
  ParamValues pv;
  host::MsgBenchOptions o;
  o.switches = p;
  o.sizes = {1, 2, 3, 7, 100, 4095, 4096, 4097, 65541, 1048576};
  o.iterations = 1;
  const fw::Image im = fw::Image::load(MSG_FW);
  const auto r = host::run_msg_bench(pv, im, o);
  INFO(r.table << r.errors);
  REQUIRE(r.exit_code == 0);
  const auto& sb = r.report["scoreboard"];
  CHECK(sb["corrupt"] == 0);
  // Ping-pong: (1 + iterations) round trips per size; bandwidth: max(4, min(32, 4 MiB / size)) each.
  std::uint64_t expect = 0, bytes = 0;
  for (auto s : o.sizes) {
    const std::uint64_t k = std::max<std::uint64_t>(4, std::min<std::uint64_t>(32, (4u << 20) / s));
    expect += 2 * 2 + k;
    bytes += 4ull * s + k * s;
  }
  CHECK(sb["messages"] == expect);
  CHECK(sb["bytes"] == bytes);
  // Breakdown of the smallest message: the parts add up; the switch part is p (rd + sd).
  const auto& b = r.report["latency_breakdown"];
  const double sum = b["host_pio_us"].get<double>() + b["firmware_send_us"].get<double>() + b["host_dma_us"].get<double>() +
                     b["switches_us"].get<double>() + b["wire_us"].get<double>() + b["firmware_recv_us"].get<double>() +
                     b["host_notice_us"].get<double>();
  CHECK(sum == Approx(b["total_us"].get<double>()).epsilon(1e-9));
  CHECK(b["switches_us"].get<double>() == Approx(p * 0.102).epsilon(1e-12));
  // Wire: at least the link delays (p + 1) ld and serialization of the 1-byte message's packet.
  CHECK(b["wire_us"].get<double>() >= ((p + 1) * 17.0 + (2 + 22 + 1 + 1 - 1) * 6.25) / 1000.0 - 1e-9);
}
TEST_CASE("Messages of 1 B to 1 MiB arrive intact and in order through 1 switch", "[nic][msg]") { scoreboard_case(1); }
TEST_CASE("Messages of 1 B to 1 MiB arrive intact and in order through 3 switches", "[nic][msg]") { scoreboard_case(3); }

TEST_CASE("Bandwidth is bounded by the PCI bus the parameters describe", "[nic][msg]") {
  ParamValues pv;
  host::MsgBenchOptions o;
  o.sizes = {262144};
  o.pingpong = false;
  const fw::Image im = fw::Image::load(MSG_FW);
  const auto r = host::run_msg_bench(pv, im, o);
  REQUIRE(r.exit_code == 0);
  // 256-byte bursts of 8 + 64 cycles at 33 MHz: 256 B / (72 x 30.303 ns) = 117.3 MB/s.
  const double pci = 256.0 / (72 * 30303e-12) / 1e6;
  const double bw = r.report["peak_bandwidth_MBps"].get<double>();
  CHECK(bw <= pci);
  CHECK(bw >= 0.97 * pci);
}

TEST_CASE("sanvp msg writes its report and rejects bad input with exit code 2", "[nic][cli]") {
  const std::string bin = SANVP_BIN;
  const std::string rep = "/tmp/sanvp_msg_test_report.json";
  std::remove(rep.c_str());
  auto ok = sanvp::test::run(bin + " msg --sizes 4,4K --iterations 1 --report " + rep);
  INFO(ok.out << ok.err);
  CHECK(ok.rc == 0);
  CHECK(ok.out.find("latency (us)") != std::string::npos);
  CHECK(ok.out.find("half-power") != std::string::npos);
  std::ifstream f(rep);
  CHECK(f.good());
  for (const char* bad : {" msg --sizes 0", " msg --switches 0", " msg --mtu 100000", " msg --set nic.osc.freq=-1", " msg --image /nonexistent.img"}) {
    const std::string rep2 = "/tmp/sanvp_msg_test_bad.json";
    std::remove(rep2.c_str());
    auto p = sanvp::test::run(bin + bad + " --report " + rep2);
    INFO(bad << ": " << p.err);
    CHECK(p.rc == 2);
    CHECK(p.err.find("error") != std::string::npos);
    CHECK(!std::ifstream(rep2).good());
  }
}

TEST_CASE("Host interrupts instead of polling: the host notices a completion one interrupt latency after the NIC raises it", "[nic][msg]") {
  ParamValues pv;
  pv.set("host.notify", "irq", "test");
  pv.set("host.irq", "7us", "test");
  host::MsgBenchOptions o;
  o.sizes = {4, 5000};
  o.iterations = 2;
  const fw::Image im = fw::Image::load(MSG_FW);
  const auto r = host::run_msg_bench(pv, im, o);
  INFO(r.table << r.errors);
  REQUIRE(r.exit_code == 0);
  CHECK(r.report["scoreboard"]["corrupt"] == 0);
  // From the completion entry landing in host memory: the firmware sees its DMA complete and
  // writes HOST_IRQ (a few dozen instructions), then host.irq.
  const double notice = r.report["latency_breakdown"]["host_notice_us"].get<double>();
  CHECK(notice >= 7.0);
  CHECK(notice <= 7.0 + 3.0);
}

TEST_CASE("sanvp msg is deterministic: same inputs give byte-identical report - VCD and timeline", "[nic][cli]") {
  const std::string bin = SANVP_BIN;
  std::string files[2][3];
  for (int i = 0; i < 2; ++i) {
    const std::string base = "/tmp/sanvp_msg_det_" + std::to_string(i);
    auto p = sanvp::test::run(bin + " msg --sizes 4,1K --iterations 1 --set n1.osc.ppm=150 --report " + base + ".json --vcd " + base +
                              ".vcd --trace-window 0:1ms --timeline " + base + "_tl.json");
    REQUIRE(p.rc == 0);
    files[i][0] = sanvp::test::slurp(base + ".json");
    files[i][1] = sanvp::test::slurp(base + ".vcd");
    files[i][2] = sanvp::test::slurp(base + "_tl.json");
    for (const char* ext : {".json", ".vcd", "_tl.json"}) std::remove((base + ext).c_str());
  }
  CHECK(!files[0][1].empty());
  CHECK(files[0][0] == files[1][0]);
  CHECK(files[0][1] == files[1][1]);
  CHECK(files[0][2] == files[1][2]);
  CHECK(files[0][1].find("regs") != std::string::npos);  // NIC signals are in the waves
}
