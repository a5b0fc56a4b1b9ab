#include "codec/check_json.h"

namespace durprobe::codec {

nlohmann::json ToJson(const std::vector<model::CheckResult>& checks) {
  nlohmann::json out = nlohmann::json::array();
  for (const model::CheckResult& c : checks) {
    nlohmann::json j{{"rule", c.rule},
                     {"path", c.path},
                     {"status", NameOf(c.outcome)},
                     {"pass", c.outcome == model::CheckOutcome::kPass},
                     {"measured", c.measured ? nlohmann::json(*c.measured) : nlohmann::json()},
                     {"threshold", c.threshold},
                     {"comparison", model::NameOf(c.comparison)},
                     {"unit", model::NameOf(c.unit)},
                     {"message", c.message}};
    if (c.samples != 0) j["samples"] = c.samples;
    if (c.ci_low) j["ci_low"] = *c.ci_low;
    if (c.ci_high) j["ci_high"] = *c.ci_high;
    if (c.tail_failure) j["tail_failure"] = true;
    if (c.severe) j["severe"] = true;
    if (c.warning) j["warning"] = true;
    if (c.drift_low) j["drift_low"] = *c.drift_low;
    if (c.drift_high) j["drift_high"] = *c.drift_high;
    if (c.remeasured != 0) j["remeasured"] = c.remeasured;
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace durprobe::codec
