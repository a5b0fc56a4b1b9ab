// JSON for targets[].summary and targets[].advice[] (docs/json.md), both directions: the
// writer and, beside it, the reader.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "codec/json_fields.h"
#include "model/path_summary_model.h"

namespace durprobe::report {

nlohmann::json ToJson(const PathSummary& summary);
nlohmann::json ToJson(const std::vector<PathAdvice>& advice);

// target's "summary" (unset when absent or null) and "advice" (empty when absent).
std::optional<PathSummary> ReadPathSummary(const JsonFields& target);
std::vector<PathAdvice> ReadAdvice(const JsonFields& target);

}  // namespace durprobe::report
