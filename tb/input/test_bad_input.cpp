// Bad input, one case per kind the issue lists: folders, FIFOs, devices and oversized files as
// inputs; integers beyond 32 or 64 bits; nan/inf; tiny clocks and loads; zero counts; duplicate
// YAML keys; corrupt firmware headers; outputs that cannot be written; empty option values.
// Each runs the sanvp binary and checks exit code, the one-line message and that no output
// file was left behind.
#include <catch2/catch.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "hw/base/error.hpp"
#include "hw/base/io.hpp"
#include "hw/base/params.hpp"

namespace fs = std::filesystem;

namespace {

struct Cmd { int rc; std::string out, err; };

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

fs::path scratch() {
  static const fs::path d = [] {
    fs::path p = fs::temp_directory_path() / ("sanvp-bad-input-" + std::to_string(::getpid()));
    fs::remove_all(p);
    fs::create_directories(p);
    return p;
  }();
  return d;
}

void put(const std::string& name, const std::string& text) { std::ofstream(scratch() / name, std::ios::binary) << text; }

// Runs `sanvp ARGS` in the scratch folder; a hang is cut at 60 s (exit 124).
Cmd run_sanvp(const std::string& args) {
  const fs::path d = scratch();
  const std::string cmd = "cd '" + d.string() + "' && timeout 60 '" + std::string(SANVP_BIN) + "' " + args + " > out.txt 2> err.txt";
  const int st = std::system(cmd.c_str());
  return Cmd{WEXITSTATUS(st), slurp(d / "out.txt"), slurp(d / "err.txt")};
}

// Exit 2, exactly one line on stderr starting with "error: " and containing `msg`.
void refused(const std::string& args, const std::string& msg, int rc = 2) {
  const Cmd c = run_sanvp(args);
  INFO("sanvp " << args << "\nstderr: " << c.err);
  CHECK(c.rc == rc);
  CHECK(c.err.rfind("error: ", 0) == 0);
  CHECK(std::count(c.err.begin(), c.err.end(), '\n') == 1);
  CHECK(c.err.find(msg) != std::string::npos);
}

const std::string kScenario = "topology:\n  switches: [{id: 0}]\n  nodes: [\"0:0\", \"0:1\"]\nduration: 2us\n";

}  // namespace

TEST_CASE("folders, FIFOs, devices and unreadable files are refused as scenario, topology and image", "[input][files]") {
  fs::create_directories(scratch() / "dir");
  const std::string fifo = (scratch() / "fifo").string();
  ::unlink(fifo.c_str());
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  refused("run dir", "dir: is a folder, not a file");
  refused("topo check dir", "dir: is a folder, not a file");
  refused("fw run dir", "firmware image 'dir': is a folder, not a file");
  refused("run fifo", "fifo: is not a regular file");  // used to block forever
  refused("run /dev/zero", "/dev/zero: is not a regular file");
  refused("fw run /dev/zero", "'/dev/zero': is not a regular file");  // used to read forever
  refused("fw disasm /dev/zero", "'/dev/zero': is not a regular file");
  // A file whose read fails (EIO) is reported as such, not as an empty file.
  refused("run /proc/self/mem", "/proc/self/mem: read error");
  if (::geteuid() != 0) {  // root reads anything
    put("unreadable.yaml", kScenario);
    ::chmod((scratch() / "unreadable.yaml").c_str(), 0);
    refused("run unreadable.yaml", "unreadable.yaml: cannot open: Permission denied");
  }
}

TEST_CASE("inputs are read with a size limit", "[input][files]") {
  const fs::path big = scratch() / "big.yaml";
  { std::ofstream f(big); }
  fs::resize_file(big, sanvp::kMaxInputBytes + 1);  // sparse
  refused("run big.yaml", "larger than the 67108864-byte limit");
  refused("fw run big.yaml", "larger than the 67108864-byte limit");
  CHECK_THROWS_WITH(sanvp::read_file_limited("/proc/self/status", "x", 16), Catch::Contains("larger than the 16-byte limit"));
}

TEST_CASE("integers are 64-bit and range-checked, never truncated or wrapped", "[input][int]") {
  refused("run --set switch.ports=4294967304", "'switch.ports': 4294967304 is outside 2..64");  // ran an 8-port switch (the declared range)
  refused("run --set switch.ports=-1", "'switch.ports': -1 is outside 2..64");                // crashed
  refused("run --set fc.bl=4294967360", "'fc.bl': 4294967360 is outside");
  refused("run --set traffic.payload=99999999999999999999", "is outside the 64-bit integer range");
  put("ports.yaml", "topology:\n  switches:\n    - {id: 0, ports: 4294967304}\n  nodes: [\"0:0\"]\n");
  refused("run ports.yaml", "ports.yaml:3:22: topology.switches[0].ports: 4294967304 is outside 0..2147483647");
  put("node.yaml", "topology:\n  switches: [{id: 0}]\n  nodes: [\"0:4294967297\"]\n");
  refused("run node.yaml", "node.yaml:3:11: topology.nodes[0]: expected switch:port");
  CHECK(sanvp::parse_int("0x10", "x") == 16);
  CHECK(sanvp::parse_int("-9223372036854775808", "x") == INT64_MIN);
  CHECK_THROWS_WITH(sanvp::parse_int("010x", "x"), "x: '010x' is not an integer");
  CHECK_THROWS_WITH(sanvp::parse_int(" 5", "x"), "x: ' 5' is not an integer");
}

TEST_CASE("integer options of grim, msg and btin are 64-bit and name their range", "[input][int]") {
  // Each used to be "Could not convert" without a range (beyond 32 bits) or wrapped (-1).
  refused("grim --nodes 2147483648", "--nodes: 2147483648 is outside 2..16");
  refused("grim --mtu 4294967296", "--mtu: 4294967296 is outside 1..49152");
  refused("grim --pool 4294967297", "--pool: 4294967297 is outside 1..128");
  refused("grim --rto 4294967296", "--rto: 4294967296 is outside 1..10000000");
  refused("grim --messages 4294967296", "--messages: 4294967296 is outside 1..1000000");
  refused("grim --channels -1", "--channels: -1 is outside 1..4");
  refused("grim --host-credits 4294967296", "--host-credits: 4294967296 is outside 0..128");
  refused("grim --switches 0x100000000", "--switches: 0x100000000 is outside 1..64");
  refused("msg --switches 4294967297", "--switches: 4294967297 is outside 1..64");
  refused("msg --mtu 4294967296", "--mtu: 4294967296 is outside 1..49152");
  refused("btin experiment --nodes 2147483648", "--nodes: 2147483648 is outside 2..1000000");
  refused("btin flit --switches 99999999999999999999", "--switches: '99999999999999999999' is outside the 64-bit integer range");
  refused("grim --nodes 3x", "--nodes: '3x' is not an integer");
}

TEST_CASE("grim: --senders, --channels and --drain outside what the run can do are refused, not cut to fit", "[input][grim]") {
  // Each used to run "all nodes" / the default drain / fewer channels than the header said.
  refused("grim --nodes 2 --senders 3", "--senders: 3 is outside 1..2 (the --nodes)");
  refused("grim --senders -1", "--senders: -1 is outside 1..16");
  refused("grim --senders 2147483647", "--senders: 2147483647 is outside 1..16");
  refused("grim --drain 0", "--drain: '0' must be above 0 (leave the option out for the default, 20 x --rto)");
  refused("grim --drain 0us", "--drain: '0us' must be above 0");
  refused("grim --channels 4 --device-endpoints 1", "--channels: 4 is outside 1..3 (each of the 1 --device-endpoints owns one of the 4 channels)");
  // The default, 2 channels, is what the host keeps beside 3 devices (1), and says so.
  const Cmd c = run_sanvp("grim --device-endpoints 3 --messages 2 --sizes 1:64 --report g.json");
  INFO(c.out << c.err);
  CHECK(c.rc == 0);
  CHECK(c.out.rfind("GRIM: 2 nodes, 1 channels, ", 0) == 0);
  CHECK(slurp(scratch() / "g.json").find("\"channels\": 1,") != std::string::npos);
}

TEST_CASE("every command that traces firmware refuses --fw-trace -1 (one check)", "[input][fw-trace]") {
  // grim and msg took -1 as "no trace" and exited 0; run refused it.
  for (const std::string cmd : {"run", "grim", "msg", "fbs run", "tdma run", "tdma sync"})
    refused(cmd + " --fw-trace -1", "--fw-trace: -1 is outside 0..1048576");
  refused("grim --fw-trace 4294967296", "--fw-trace: 4294967296 is outside 0..1048576");
}

TEST_CASE("an option that does nothing without its parent option is refused", "[input][needs]") {
  // Each used to be accepted and ignored.
  for (const std::string cmd : {"run", "grim", "msg", "fbs run"}) refused(cmd + " --fw-trace-file t.txt", "--fw-trace-file requires --fw-trace");
  refused("run --fw-trace-filter main", "--fw-trace-filter requires --fw-trace");
  for (const std::string cmd : {"run", "grim", "msg"}) {
    refused(cmd + " --timeline-window 1us:2us", "--timeline-window requires --timeline");
    refused(cmd + " --timeline-fw", "--timeline-fw requires --timeline");
  }
  refused("run --trace 'sw0*'", "--trace requires --vcd (or the scenario's tracing.vcd)");
  refused("msg --trace 'n0*'", "--trace requires --vcd");
  refused("fbs run --trace 'n0*'", "--trace requires --vcd");
  refused("run --trace-window 1us:2us", "--trace-window requires --vcd or --timeline");
  refused("msg --trace-window 1us:2us", "--trace-window requires --vcd or --timeline");
  // The scenario's tracing.vcd is waves for --trace to shape.
  put("waves.yaml", kScenario + "tracing: {vcd: w.vcd}\n");
  const Cmd c = run_sanvp("run waves.yaml --trace 'sw0*' --report w.json");
  INFO(c.err);
  CHECK(c.rc == 0);
  CHECK(slurp(scratch() / "w.vcd").find("$enddefinitions") != std::string::npos);
}

TEST_CASE("a seed of -1 is refused by every command (one check)", "[input][seed]") {
  for (const std::string cmd : {"run", "msg", "clint", "sweep s.yaml --vary traffic.load=0.1", "btin experiment", "btin flit"})
    refused(cmd + " --seed -1", "--seed: must be a non-negative integer, got -1");
  refused("clint --seed 99999999999999999999", "above the largest seed");  // was clamped to 2^64-1
}

TEST_CASE("nan and infinity are refused in every real", "[input][real]") {
  put("s.yaml", kScenario);
  refused("sweep s.yaml --vary traffic.load=nan:1:0.1", "'nan' is not a finite number");  // crashed
  refused("sweep s.yaml --vary traffic.load=0.1:inf:0.1", "'inf' is not a finite number");
  refused("sweep s.yaml --vary traffic.load=0:1e308:1e-300", "points is too many");
  refused("run --set traffic.burst=inf --set traffic.process=bursty", "'traffic.burst': 'inf' is not a finite number");  // hung
  refused("run --set traffic.sizes=64:inf", "'inf' is not a finite number");  // an infinite weight
  refused("clint --loads nan", "'nan' is not a finite number");
  CHECK_THROWS_WITH(sanvp::parse_real("1e999", "x"), Catch::Contains("outside the range"));
}

TEST_CASE("sweep: a point refused as bad input keeps its exit code 2, and so does the sweep", "[input][sweep]") {
  // Point 0's run refuses fc.bl=10 and writes no report: it was merged as -1 "no result", exit 3.
  put("s.yaml", kScenario);
  const Cmd c = run_sanvp("sweep s.yaml --vary fc.bl=10,64 -o swbad -j 1");
  INFO(c.out << c.err);
  CHECK(c.rc == 2);
  const std::string csv = slurp(scratch() / "swbad/sweep.csv");
  CHECK(csv.find("\n0,10,2,no-report,") != std::string::npos);
  CHECK(csv.find("\n1,64,0,completed,") != std::string::npos);
  CHECK(c.out.find("sweep: 2 points, 1 ok, 1 failed (") == 0);
  CHECK(slurp(scratch() / "swbad/point-000.log").find("error: sw0.p0.in: ks=53 > bl=10") != std::string::npos);
  // It is done: --resume runs neither point again.
  const Cmd r = run_sanvp("sweep s.yaml --vary fc.bl=10,64 -o swbad -j 1 --resume");
  CHECK(r.rc == 2);
  CHECK(r.err.find("(0 to run)") != std::string::npos);
}

TEST_CASE("tiny clocks and loads are refused with the usable range", "[input][real]") {
  const std::string img = MSG_FW;
  // The declared range of nic.core.clock starts at 1 Hz.
  refused("fw run " + img + " --timeout 1us --set nic.core.clock=1e-9", "'nic.core.clock': 1e-9 is outside 1e-06..100000");  // SIGFPE
  refused("fw run " + img + " --timeout 1us --set nic.core.clock=1e-12", "is outside 1e-06..100000");  // was accepted
  refused("clint --loads 1e-15", "--loads: 1e-15 is outside [1e-06, 1]");                    // wrong answer
  refused("clint --loads 1e-300", "--loads: 1e-300 is outside [1e-06, 1]");                  // ran out of memory
  refused("run --set sim.duration=1e-9ps", "is below 1ps");
}

TEST_CASE("zero counts are refused, not taken as the default", "[input][counts]") {
  refused("clint --cycles 0", "--cycles: '0' is not a whole number of cycles >= 1");
  refused("btin experiment --registers 0", "--registers: 0 is outside 1..256");
  refused("btin flit --groups 0", "--groups: 0 is outside 1..1000000");
  refused("msg --iterations 0", "--iterations: 0 is outside 1..1000000");
}

TEST_CASE("a run that measures no packet shows no latency instead of 0", "[input][clint]") {
  const Cmd c = run_sanvp("clint --cycles 1000");
  CHECK(c.rc == 0);
  CHECK(c.out.find("B4    0.50 smooth             -            -") != std::string::npos);
  CHECK(c.err.find("completed no packet after the warm-up") != std::string::npos);
}

TEST_CASE("clint: --arch, --loads or --bursty given with a preset replace the preset's", "[input][clint]") {
  // --preset fig8 --arch B1 used to run all of B1-B4 without a word.
  const Cmd c = run_sanvp("clint --preset fig8 --arch B1 --loads 0.5 --cycles 1000");
  INFO(c.out << c.err);
  CHECK(c.rc == 0);
  CHECK(c.out.find("\nB1    0.50 smooth ") != std::string::npos);
  CHECK(c.out.find("\nB1    0.50 bursty ") != std::string::npos);  // fig8's --bursty both
  CHECK(c.out.find("\nB2 ") == std::string::npos);
  CHECK(c.out.find("0.10 smooth") == std::string::npos);
  CHECK(c.out.find("1000 cycles x 2 points") != std::string::npos);
}

TEST_CASE("a duplicate YAML key is an error naming both lines", "[input][yaml]") {
  put("dup.yaml", "seed: 1\n" + kScenario + "seed: 2\n");
  refused("run dup.yaml", "dup.yaml:6:1: seed: duplicate key (first given at line 1)");
  put("dup2.yaml", "topology:\n  switches:\n    - {id: 0, ports: 8, ports: 4}\n  nodes: [\"0:0\"]\n");
  refused("topo check dup2.yaml", "dup2.yaml:3:25: ports: duplicate key (first given at line 3)");
}

TEST_CASE("a firmware image with a bad header is exit 2 with the reason and disasm never wraps", "[input][firmware]") {
  // Header: magic, entry, code_lo, code_hi, stack_limit, stack_top, sram_size, nseg, nsym; then
  // segments (addr, size, zero, data).
  auto image = [](std::vector<std::uint32_t> words, std::size_t data_bytes) {
    std::string s = "SANVPFW1";
    for (auto w : words) for (int i = 0; i < 4; ++i) s.push_back(static_cast<char>(w >> (8 * i)));
    return s + std::string(data_bytes, '\0');
  };
  put("codehi.img", image({0x100, 0x100, 0xFFFFFFFC, 0, 0x100000, 0x100000, 1, 0, 0x100, 0x10, 0}, 0x10));
  refused("fw run codehi.img", "codehi.img: corrupt firmware image: code range 0x100..0xfffffffc ends beyond the 0x100000-byte SRAM");
  put("wrap.img", image({0xFFFFFFF0, 0x100, 0x1000, 0, 0x100000, 0x100000, 1, 0, 0xFFFFFFFC, 0, 0}, 0));
  refused("fw disasm wrap.img", "corrupt firmware image: segment 0xfffffffc+0x0 ends beyond the largest SRAM");  // crashed
  put("sram.img", image({0x100, 0x100, 0x110, 0, 0x100000, 0xFFFFFFF8, 1, 0, 0x100, 0x10, 0}, 0x10));
  refused("fw run sram.img", "SRAM size 0xfffffff8 is not a non-zero multiple of 8");
  put("entry.img", image({0x200, 0x100, 0x110, 0, 0x100000, 0x100000, 1, 0, 0x100, 0x10, 0}, 0x10));
  refused("fw disasm entry.img", "entry 0x200 is outside the code range 0x100..0x110");
}

TEST_CASE("outputs that cannot be written: exit 2 before the run for a bad path, exit 3 for a failed write", "[input][output]") {
  refused("run --set sim.duration=2us --report nodir/r.json", "--report: cannot create 'nodir/r.json': no folder 'nodir'");
  refused("run --set sim.duration=2us --report r.json --vcd nodir/w.vcd", "--vcd: cannot create 'nodir/w.vcd': no folder 'nodir'");
  CHECK_FALSE(fs::exists(scratch() / "r.json"));  // checked before the run: no report either
  fs::create_directories(scratch() / "adir");
  refused("run --set sim.duration=2us --report adir", "--report: cannot create 'adir': it is a folder");
  // /dev/full: the write fails; it used to report success.
  const Cmd full = run_sanvp("run --set sim.duration=2us --report /dev/full");
  CHECK(full.rc == 3);
  CHECK(full.err == "error: --report: writing '/dev/full' failed: No space left on device\n");
  CHECK(full.out.empty());
  const Cmd vcd = run_sanvp("run --set sim.duration=2us --report r2.json --vcd /dev/full");
  CHECK(vcd.rc == 3);
  CHECK(vcd.err.find("--vcd: writing '/dev/full' failed: No space left on device") != std::string::npos);
  // Written whole or not at all: no temporary left next to the report.
  REQUIRE(run_sanvp("run --set sim.duration=2us --report ok.json --vcd ok.vcd").rc == 0);
  for (const auto& e : fs::directory_iterator(scratch())) CHECK(e.path().string().find(".tmp-") == std::string::npos);
  CHECK(slurp(scratch() / "ok.vcd").find("$enddefinitions") != std::string::npos);
  refused("topo gen single -o nodir/t.yaml", "--output: cannot create 'nodir/t.yaml': no folder 'nodir'");
}

TEST_CASE("msg --sizes 64M is refused up front with the host memory it needs", "[input][msg]") {
  refused("msg --sizes 64M", "--sizes: these message sizes need 386 MiB of host memory on n0.host");
  refused("msg --sizes 65M", "--sizes: '65M' is outside 1 B..64 MiB");
}

TEST_CASE("scenario values checked against the network or as a window name the file and line", "[input][yaml]") {
  put("hot.yaml", kScenario + "traffic: {pattern: hotspot, hotspot: 99}\n");
  refused("run hot.yaml", "hot.yaml:5:");
  refused("run hot.yaml", "traffic.hotspot: node 99 does not exist (nodes are 0..1)");
  put("win.yaml", kScenario + "tracing:\n  vcd: w.vcd\n  window: 5us\n");
  refused("run win.yaml", "win.yaml:7:");
  refused("run win.yaml", "tracing.window: '5us' is not FROM:TO");
  const Cmd c = run_sanvp("run win.yaml");
  CHECK(c.err.find("--trace-window") == std::string::npos);  // never given
  // One key twice in the file: traffic.load under params and under traffic (0.1 won, silently).
  put("twice.yaml", kScenario + "params: {traffic.load: 0.9}\ntraffic: {load: 0.1}\n");
  refused("run twice.yaml", "twice.yaml:6:");
  refused("run twice.yaml", "traffic.load: traffic.load is already set at twice.yaml:5:");
  put("twice2.yaml", kScenario + "params: {sim.duration: 5us}\n");
  refused("run twice2.yaml", "duration: sim.duration is already set at twice2.yaml:5:");
  // On the command line: a --vary key twice (two CSV columns, one value used), a generator key twice.
  put("s.yaml", kScenario);
  refused("sweep s.yaml --vary traffic.load=0.1 --vary traffic.load=0.2 -o sw", "--vary: traffic.load is varied twice");
  refused("topo gen single ports=8 ports=4", "sanvp topo gen: ports is given twice");
  refused("fbs run single ports=8 ports=4", "TOPO: generator argument ports is given twice");
}

TEST_CASE("btin counts are 64-bit and name their range", "[input][int]") {
  refused("btin experiment --runs 2147483648", "--runs: 2147483648 is outside 1..1000000");  // "Could not convert"
  refused("btin experiment --registers 0", "--registers: 0 is outside 1..256");
  refused("btin flit --groups -1", "--groups: -1 is outside 1..1000000");
}

TEST_CASE("fbs run, tdma run and tdma sync take --trace and --trace-window, which need --vcd", "[input][trace]") {
  refused("fbs run --trace-window 1us:2us", "--trace-window requires --vcd");
  refused("tdma sync --trace 'n0*'", "--trace requires --vcd");
  // The waves hold the window only: every time stamp in [10us, 30us].
  const Cmd c = run_sanvp("fbs run --set fbs.rounds=2 --report f.json --vcd f.vcd --trace-window 10us:30us");
  REQUIRE(c.rc == 0);
  std::istringstream vcd(slurp(scratch() / "f.vcd"));
  std::vector<std::uint64_t> stamps;
  for (std::string line; std::getline(vcd, line);)
    if (line.size() > 1 && line[0] == '#') stamps.push_back(std::stoull(line.substr(1)));
  REQUIRE(stamps.size() >= 2);
  CHECK(stamps.front() == 10000000);  // the values at the window's start
  CHECK(stamps.back() == 30000000);   // its end
  for (const std::uint64_t t : stamps) CHECK((t >= 10000000 && t <= 30000000));
}

TEST_CASE("msg and grim with an image that is not their firmware: the error alone on stderr, exit 3", "[input][firmware]") {
  const std::string fbs = std::string(SANVP_BINARY_DIR) + "/firmware/fbs/fw_fbs.img";
  for (const auto& [args, what] : {std::pair{"msg --sizes 4 --only pingpong --iterations 1 --image '" + fbs + "'", "no messaging firmware"},
                                   std::pair{"grim --messages 2 --image '" + fbs + "'", "no GRIM firmware"}}) {
    const Cmd c = run_sanvp(args);
    INFO("sanvp " << args << "\nstdout: " << c.out << "\nstderr: " << c.err);
    CHECK(c.rc == 3);
    // The host's text on a line of its own, not SystemC's wrapper (an ASan build may print its
    // coroutine-stack warning, google/sanitizers#189, before it: the error is thrown in a thread).
    CHECK(("\n" + c.err).find(std::string("\nerror: n0.host: ") + what + " at 0x") != std::string::npos);
    CHECK(c.err.find("E549") == std::string::npos);
    CHECK(c.out.find("error") == std::string::npos);
  }
}

TEST_CASE("a trace pattern that matches no signal is refused before the run, naming it", "[input][trace]") {
  // Was a warning and exit 0 with a VCD that held nothing (for 'nosuch*' alone: no variables).
  refused("msg --sizes 4 --only pingpong --iterations 1 --report m.json --vcd m.vcd --trace 'n0*,nosuch'",
          "--trace: pattern 'nosuch' matches no traced signal");
  refused("run --report r.json --vcd w.vcd --trace 'nosuch*'", "--trace: pattern 'nosuch*' matches no traced signal");
  const Cmd c = run_sanvp("run --report r2.json --vcd w2.vcd --trace 'sw0.p1*,nosuch*,n1'");
  CHECK(c.rc == 2);
  CHECK(c.err.find("'nosuch*'") != std::string::npos);
  CHECK(c.err.find("'n1'") == std::string::npos);  // only the pattern that matched nothing
  for (const char* f : {"m.json", "m.vcd", "r.json", "w.vcd", "r2.json", "w2.vcd"}) CHECK_FALSE(fs::exists(scratch() / f));
}

TEST_CASE("a trace window after the end of the run warns naming it, and the log level reaches every command", "[input][trace]") {
  // Was exit 0 and no word, for a VCD of a header alone (GTKWave: "VCD times range is equal to zero").
  const Cmd r = run_sanvp("run --set sim.duration=20us --report r.json --vcd w.vcd --trace-window 2ms:3ms");
  CHECK(r.rc == 0);
  CHECK(r.err.find("warning: --trace-window starts at 2ms, at or after the end of the run at") != std::string::npos);
  CHECK(r.err.find("w.vcd holds no values") != std::string::npos);
  const Cmd inside = run_sanvp("run --set sim.duration=20us --report r2.json --vcd w2.vcd --trace-window 10us:3ms");
  CHECK(inside.rc == 0);
  CHECK(inside.err.find("--trace-window") == std::string::npos);
  const std::string msg = "msg --sizes 4 --only pingpong --iterations 1 --report m.json --vcd m.vcd --trace-window 1s:2s";
  const Cmd warned = run_sanvp(msg);
  CHECK(warned.rc == 0);
  CHECK(warned.err.find("--trace-window starts at 1000ms, at or after the end of the run") != std::string::npos);
  CHECK(warned.err.find("m.vcd holds no values") != std::string::npos);
  const Cmd quiet = run_sanvp("--log-level error " + msg);  // was ignored by msg
  CHECK(quiet.rc == 0);
  CHECK(quiet.err.find("--trace-window") == std::string::npos);
  refused("--log-level bogus clint --cycles 1000", "--log-level: unknown level 'bogus'");  // ran with the default
}

TEST_CASE("reversed time windows and empty option values are refused", "[input][misc]") {
  refused("msg --trace-window 50us:10us", "--trace-window: '50us:10us' ends before it starts");  // was accepted by msg
  refused("run --trace-window 50us:10us", "--trace-window: '50us:10us' ends before it starts");
  refused("run --report ''", "--report: empty value (leave the option out for its default)");
  refused("msg --sizes ''", "--sizes: empty value");  // meant the default sizes
  put("empty.yaml", "topology: ''\n");
  refused("run empty.yaml", "is a folder, not a file");  // '' named the scenario's own folder
}

TEST_CASE("topo gen refuses networks above its stated limit at once", "[input][topo]") {
  const auto t0 = std::chrono::steady_clock::now();
  refused("topo gen irregular switches=100000 nodes=1000", "switches: 100000 out of range 1..10000");  // ran 12 minutes
  refused("topo gen mesh rows=1024 cols=1024", "a 1024x1024 mesh has 1048576 switches (limit 65536)");
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10));
}
