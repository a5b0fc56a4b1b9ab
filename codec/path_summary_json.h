// JSON for targets[].summary and targets[].advice[] (docs/json.md), both directions: the
// writer and, beside it, the reader.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "codec/json_fields.h"
#include "model/path_summary_model.h"

namespace durprobe::codec {

nlohmann::json ToJson(const model::PathSummary& summary);
nlohmann::json ToJson(const std::vector<model::PathAdvice>& advice);

// target's "summary" (unset when absent or null) and "advice" (empty when absent).
std::optional<model::PathSummary> ReadPathSummary(const JsonFields& target);
std::vector<model::PathAdvice> ReadAdvice(const JsonFields& target);

}  // namespace durprobe::codec
