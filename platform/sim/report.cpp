#include "platform/sim/report.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <system_error>

#include "hw/base/io.hpp"

namespace sanvp {

Report::Output Report::output(const std::string& path, const std::string& option, bool make_folder) const {
  Output out{path, option};
  if (!out.wanted()) return out;
  if (make_folder) {
    // A folder that cannot be made is reported by the path check just below.
    const std::filesystem::path dir = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  }
  check_output_path(path, option);
  return out;
}

void Report::write(const Output& out, const std::string& text) const {
  if (out.wanted()) write_file_checked(out.path, text, out.option);
}

void Report::write_json(const Output& out, const nlohmann::json& j, int indent) const {
  if (out.wanted()) write(out, j.dump(indent) + "\n");
}

void Report::begin(std::uint64_t seed, nlohmann::json scenario, const std::string& name) {
  doc_["sanvp"] = SANVP_VERSION;
  doc_["seed"] = seed;
  doc_["scenario"] = std::move(scenario);
  doc_["scenario"]["name"] = name;
}

void Report::error(const std::string& message, int code) {
  fmt::print(stderr, "error: {}\n", message);
  fail(code);
}

void Report::warning(const std::string& message) const { fmt::print(stderr, "warning: {}\n", message); }

void Report::fail(int code) {
  // Bad input (2) is the more useful verdict for a script than a failed simulation (3).
  if (exit_code_ == kExitUserError) return;
  exit_code_ = code;
}

nlohmann::json latency_summary(const std::vector<Time>& v) {
  nlohmann::json j;
  j["count"] = v.size();
  if (v.empty()) return j;
  long double sum = 0;
  for (Time t : v) sum += static_cast<long double>(t);
  auto pct = [&](double p) {  // nearest-rank percentile
    const std::size_t rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size())));
    return v[std::min(v.size() - 1, rank == 0 ? 0 : rank - 1)];
  };
  j["mean_ps"] = static_cast<double>(sum / v.size());
  j["min_ps"] = v.front();
  j["p50_ps"] = pct(50);
  j["p99_ps"] = pct(99);
  j["max_ps"] = v.back();
  return j;
}

}  // namespace sanvp
