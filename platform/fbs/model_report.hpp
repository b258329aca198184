// `sanvp fbs model`: the skew model's values for the given parameters in both GAP3 readings
// (Eq. 5, 8, 10, 11, 12), the paper's Tables 3 and 4 and the points its text quotes from
// Figures 4-6, each beside the printed value.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "platform/fbs/skew_model.hpp"

namespace sanvp::fbs {

struct ModelRequest {
  SkewInputs in;
  std::vector<int> levels{3, 4};  // HSS tree depths m for Eq. 10
  int ports = 8;                  // switch size for the schedule lengths of Eq. 12
};

// Table 3 / Table 4 as the paper prints them: si and overheads in hundredths of a percent.
struct PaperRow { int drift_ppm; std::int64_t si; std::vector<std::int64_t> overhead; };
const std::vector<PaperRow>& paper_table3();  // overhead for 4-, 8-, 16-port switches (rounded)
const std::vector<PaperRow>& paper_table4();  // overhead for 4-, 8-port switches, 4 levels (truncated)

std::string model_text(const ModelRequest& q);
nlohmann::json model_json(const ModelRequest& q);

}  // namespace sanvp::fbs
