// causes[] of diff and compare (docs/json.md): key, score, evidence, advice, and where known the
// side that has the cause, the difference in words, the report keys it stands for and the
// command that tests it.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "explain/causes.h"
#include "explain/trial.h"

namespace durprobe::render::json {

nlohmann::json CausesJson(const std::vector<explain::Cause>& causes);
nlohmann::json TriedJson(const explain::TrialResult& tried);

}  // namespace durprobe::render::json
