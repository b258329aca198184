// `sanvp grim experiment` (issue 17 part 5): the burst runner behind Figure 3 under receiver
// overload and packet loss (in this process), and the quick experiment end to end (the binary):
// every file with its structure, the relations between the schemes that follow from the
// mechanisms, and Table 1's latency against `sanvp grim --bench` in the same configuration.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include "firmware/grim/grim_proto.h"
#include "platform/grim/grim_experiment.hpp"
#include "platform/grim/grim_experiment_burst.hpp"

using namespace sanvp;
using namespace sanvp::grim_host;

namespace {

struct Ran { int code; std::string out; };

Ran run_sanvp(const std::string& args, const std::string& log_name) {
  const std::string log = std::string(SANVP_BINARY_DIR) + "/tb/grim/" + log_name + ".log";
  const int st = std::system((std::string(SANVP_BIN) + " " + args + " > " + log + " 2>&1").c_str());
  std::ifstream in(log);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>())};
}

nlohmann::json load(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  return nlohmann::json::parse(in);
}

const fw::Image& image() {
  static const fw::Image im = fw::Image::load(GRIM_FW);
  return im;
}

const nlohmann::json& burst(const nlohmann::json& res, std::uint32_t n, std::uint32_t credits, double loss) {
  for (const auto& b : res["bursts"])
    if (b["burst"] == n && b["host_credits"] == credits && b["packet_loss"].get<double>() == loss && b["senders"] == 1) return b["run"];
  FAIL("no burst point " << n << " credits " << credits << " loss " << loss);
  throw;
}

bool is_png(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char sig[8] = {};
  in.read(sig, 8);
  return in.good() && std::string(sig + 1, 3) == "PNG" && std::filesystem::file_size(path) > 1000;
}

}  // namespace

TEST_CASE("flit drop rate: a data packet is lost with the requested probability", "[grim][experiment]") {
  // One switch: the route byte, 32 header and 4 payload bytes on the first link, 36 on the second.
  CHECK(droppable_flits(4, 1) == 73);
  const double f = flit_drop_rate(1e-3, 4, 1);
  CHECK(1 - std::pow(1 - f, 73) == Approx(1e-3).epsilon(1e-9));
  CHECK(flit_drop_rate(0, 4, 1) == 0);
}

TEST_CASE("receiver overload: NACKs and go-back-N deliver every message once and in order", "[grim][experiment]") {
  // Fifteen senders burst into n0, whose NIC holds 2 pool buffers: its pool runs dry, packets are
  // dropped and NACKed, and the senders go back. The runner checks every message in order.
  GrimBurstOptions o;
  o.senders = 15;
  o.burst = 40;
  o.grim.pool = 2;
  ParamValues pv;
  const GrimBurstResult r = run_grim_burst(pv, image(), o);
  INFO(r.table << r.report.dump(1));
  REQUIRE(r.exit_code == 0);
  const auto& rx = r.report["receiver"]["firmware"];
  CHECK(rx["nobuf_dropped"].get<int>() > 0);
  CHECK(rx["nacks_sent"].get<int>() > 0);
  CHECK(rx["pool_min_free"].get<int>() == 0);
  CHECK(r.report["sender"]["firmware"]["retransmits"].get<int>() > 0);
  CHECK(rx["delivered"].get<int>() == 15 * (40 + 1));
}

// One run per process (a SystemC kernel runs once): one test case per scheme.
void lossy_burst(std::uint32_t credits) {
  GrimBurstOptions o;
  o.burst = 300;
  o.credits = credits;
  o.packet_loss = 0.02;  // about 6 of 300 data packets
  o.grim.pool = burst_pool();
  ParamValues pv;
  const GrimBurstResult r = run_grim_burst(pv, image(), o);
  INFO(r.table);
  REQUIRE(r.exit_code == 0);
  CHECK(r.report["sender"]["firmware"]["retransmits"].get<int>() > 0);
  CHECK(r.report["receiver"]["firmware"]["delivered"].get<int>() == 301);
}

TEST_CASE("packet loss: go-back-N recovers every lost packet under optimistic flow control", "[grim][experiment]") { lossy_burst(0); }
TEST_CASE("packet loss: go-back-N recovers every lost packet under host credits", "[grim][experiment]") { lossy_burst(8); }

TEST_CASE("a worm misrouted by a lost route byte to a node outside the burst does not wedge the sender", "[grim][experiment]") {
  // At seed 5 a lost route byte makes the type byte (6) the route: the worm goes to n6, which
  // takes no part in the burst. Its NIC runs GRIM as every NIC of a cluster does and drops the
  // worm; before every node opened its driver, n6's disabled receiver held the path and the
  // burst stalled after 216 deliveries.
  GrimBurstOptions o;
  o.burst = 256;
  o.packet_loss = 0.05;
  o.seed = 5;
  o.grim.pool = burst_pool();
  ParamValues pv;
  const GrimBurstResult r = run_grim_burst(pv, image(), o);
  INFO(r.table);
  REQUIRE(r.exit_code == 0);
  CHECK(r.report["receiver"]["firmware"]["delivered"].get<int>() == 257);
}

TEST_CASE("a quick grim experiment writes every table and plot and the schemes relate as their mechanisms say", "[grim][experiment][cli]") {
  const std::string out = std::string(SANVP_BINARY_DIR) + "/tb/grim/experiment-quick";
  std::filesystem::remove_all(out);
  const Ran r = run_sanvp("grim experiment --quick --jobs 2 --out " + out, "experiment-quick");
  INFO(r.out);
  REQUIRE(r.code == 0);
  for (const char* f : {"table1.md", "fig3.md", "breakdown.md"}) {
    std::ifstream in(out + "/" + f);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(text.find("| ") != std::string::npos);
  }
  for (const char* f : {"latency.png", "bandwidth.png", "fig3.png", "fig3_loss.png"}) CHECK(is_png(out + "/" + f));
  const nlohmann::json res = load(out + "/results.json");
  CHECK(res["seed"] == 1);
  CHECK(res["failures"] == 0);
  const ExperimentPlan plan = experiment_plan(ExperimentOptions{out, true});
  CHECK(res["bursts"].size() == plan.bursts.size());
  REQUIRE(res["table1"].size() == 3);
  const auto& t = res["table1"][0];
  CHECK(t["config"] == "paper");
  CHECK(t["latency_us"].get<double>() > 0);
  // The half-power point lies inside its bracket, where the curve crosses half the 1 MiB value.
  CHECK(t["half_power_bytes"].get<double>() >= t["bracket"][0].get<double>());
  CHECK(t["half_power_bytes"].get<double>() <= t["bracket"][1].get<double>());

  const double o_opt = burst(res, 1, 0, 0)["overhead_us"], o_cr = burst(res, 1, 8, 0)["overhead_us"];
  // A burst of one is one send call: gap = o_s; up to 8 messages never wait under either scheme.
  CHECK(burst(res, 1, 0, 0)["gap_us"].get<double>() == Approx(o_opt));
  CHECK(burst(res, 8, 8, 0)["credit_waits"] == 0);
  // 32 messages fit the send queue: the optimistic host never waits, so its gap stays o_s; the
  // credit host runs out after 8 whenever 8 sends take less than the one-way latency (a credit
  // cannot come back sooner), so it waits and its gap is larger.
  const double lat = res["table1"][2]["latency_us"];
  CHECK(burst(res, 32, 0, 0)["gap_us"].get<double>() == Approx(burst(res, 32, 0, 0)["overhead_us"].get<double>()).epsilon(0.05));
  if (8 * o_cr < lat) {
    CHECK(burst(res, 32, 8, 0)["credit_waits"].get<int>() > 0);
    CHECK(burst(res, 32, 8, 0)["gap_us"].get<double>() > 1.5 * burst(res, 32, 0, 0)["gap_us"].get<double>());
  }
  // Long bursts: both schemes are limited by the same NIC firmware per message, so their steady
  // gaps converge (within 10 %) and neither is faster than the sending NIC's core is busy.
  const auto &lo = burst(res, 256, 0, 0), &lc = burst(res, 256, 8, 0);
  CHECK(lc["gap_steady_us"].get<double>() == Approx(lo["gap_steady_us"].get<double>()).epsilon(0.10));
  CHECK(lo["gap_steady_us"].get<double>() >= lo["sender"]["busy_us_per_message"].get<double>() * 0.98);
  // Under loss every message still arrives (the child's scoreboard) for both schemes.
  CHECK(burst(res, 256, 0, 1e-3)["receiver"]["firmware"]["delivered"] == 257);
  CHECK(burst(res, 256, 8, 1e-3)["receiver"]["firmware"]["delivered"] == 257);

  // Table 1's latency is what `sanvp grim --bench` measures in the same configuration.
  const std::string rep = out + "/bench4.json";
  const Ran b = run_sanvp("grim --bench --bench-sizes 4 --mtu 49152 --pool 4 --send-buffers 4 --report " + rep, "experiment-bench4");
  INFO(b.out);
  REQUIRE(b.code == 0);
  CHECK(t["latency_us"].get<double>() == load(rep)["table"][0]["latency_us"].get<double>());
}

TEST_CASE("grim bench sizes are range-checked before they are multiplied", "[grim][experiment][cli]") {
  // 4097M would wrap a 32-bit multiply to 1 MiB; it is refused, as is 0.
  for (const char* bad : {"4097M", "17M", "0", "-4K"}) {
    const Ran r = run_sanvp(std::string("grim --bench --bench-sizes ") + bad + " --report /tmp/sanvp_grim_badsizes.json", "experiment-badsizes");
    INFO(bad << ": " << r.out);
    CHECK(r.code == 2);
  }
}
