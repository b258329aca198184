// The points of `sanvp grim experiment` (docs/grim.md, "Experiments").
#include <fmt/format.h>

#include "firmware/grim/grim_proto.h"
#include "hw/base/error.hpp"
#include "platform/grim/grim_experiment.hpp"

namespace sanvp::grim_host {

std::uint32_t burst_pool() { return grim::kMaxPool; }

std::vector<std::string> bench_config_args(const std::string& config) {
  // 48 KiB fragments need 48 KiB pool and send buffers: 4 of each fit the NIC's SRAM.
  if (config == "paper") return {"--mtu", "49152", "--pool", "4", "--send-buffers", "4"};
  if (config == "frag2k") return {"--mtu", "2048"};
  if (config == "default") return {};
  if (config == "fast-core") return {"--set", "nic.core.clock=1000"};
  throw UserError(fmt::format("grim experiment: unknown configuration '{}'", config));
}

std::string bench_config_text(const std::string& config) {
  if (config == "paper") return "48 KiB fragments (--mtu 49152 --pool 4 --send-buffers 4), as the paper";
  if (config == "frag2k") return "2 KiB fragments (--mtu 2048; pool 16, 16 send buffers)";
  if (config == "default") return "4 KiB fragments (the firmware's default: pool 16, 16 send buffers)";
  return "4 KiB fragments, NIC core at 1 GHz instead of 66 MHz (firmware time nearly nil)";
}

namespace {

std::string size_text(std::uint32_t s) {
  if (s % (1u << 20) == 0) return fmt::format("{}M", s >> 20);
  if (s % 1024 == 0) return fmt::format("{}K", s >> 10);
  return std::to_string(s);
}

void add_bench(ExperimentPlan& p, const std::string& config, const std::vector<std::uint32_t>& sizes) {
  for (auto s : sizes) p.bench.push_back({fmt::format("bench_{}_{}", config, size_text(s)), config, s});
}

}  // namespace

ExperimentPlan experiment_plan(const ExperimentOptions& o) {
  ExperimentPlan p;
  const std::uint32_t K = 1024;
  // The bandwidth curve: dense where the half-power sizes lie (4 KiB fragments: ~10 KB; 48 KiB
  // fragments without pipelining: ~75 KB), up to the paper's 1 MB messages.
  const std::vector<std::uint32_t> curve =
      o.quick ? std::vector<std::uint32_t>{4, 16 * K, 64 * K, 128 * K, 1024 * K}
              : std::vector<std::uint32_t>{4, 256, 1 * K, 2 * K, 4 * K, 6 * K, 8 * K, 12 * K, 16 * K, 24 * K, 32 * K, 48 * K, 64 * K,
                                           96 * K, 128 * K, 192 * K, 256 * K, 512 * K, 1024 * K};
  add_bench(p, "paper", curve);
  if (!o.quick) add_bench(p, "frag2k", curve), add_bench(p, "default", curve);
  else add_bench(p, "default", {4});
  add_bench(p, "fast-core", {4});
  p.bisection_steps = o.quick ? 0 : 6;
  const std::vector<std::uint32_t> bursts =
      o.quick ? std::vector<std::uint32_t>{1, 8, 32, 256} : std::vector<std::uint32_t>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
  // The paper's 1e-4 and 1e-3, and 1e-2, where a 1024-message burst loses enough packets to move the gap.
  const std::vector<double> losses = o.quick ? std::vector<double>{0, 1e-3} : std::vector<double>{0, 1e-4, 1e-3, 1e-2};
  for (double loss : losses)
    for (std::uint32_t credits : {0u, PaperValues::kCredits})
      for (std::uint32_t n : bursts) {
        if (o.quick && loss > 0 && n != bursts.back()) continue;  // quick: one long burst per scheme under loss
        p.bursts.push_back({fmt::format("burst_{}_{}_loss{:g}", credits ? "credit" : "optimistic", n, loss), n, credits, loss, 1});
      }
  // Loss counts that scale with the rate: one burst long enough that 1e-3 loses tens of data
  // packets (kLossBurst x p expected), per scheme and rate. Not at 1e-2: such a burst stalls
  // the firmware (docs/grim.md, "Left out, and known limits").
  if (!o.quick)
    for (double loss : {1e-4, 1e-3})
      for (std::uint32_t credits : {0u, PaperValues::kCredits})
        p.bursts.push_back({fmt::format("burst_{}_{}_loss{:g}", credits ? "credit" : "optimistic", kLossBurst, loss), kLossBurst, credits, loss, 1});
  // Many to one: every other node bursts into n0 at once; credits = pool / nodes, so that the
  // credit scheme never overruns n0's pool (the paper's 128 / 16 with its 128 buffers).
  const std::uint32_t many_credits = burst_pool() / kBurstNodes;
  if (!o.quick)
    for (std::uint32_t credits : {0u, many_credits})
      for (std::uint32_t n : {1u, 4u, 16u, 64u, 256u})
        p.bursts.push_back({fmt::format("many_{}_{}", credits ? "credit" : "optimistic", n), n, credits, 0, kBurstNodes - 1});
  return p;
}

}  // namespace sanvp::grim_host
