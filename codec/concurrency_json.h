// JSON for targets[].concurrency[] and targets[].serial_vs_concurrent (docs/json.md); the reader
// is codec/concurrency_json_reader.h.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "model/concurrency_model.h"

namespace durprobe::codec {

nlohmann::json ToJson(const probes::ConcurrencyResult& result);
nlohmann::json ToJson(const std::vector<probes::ConcurrencyResult>& results);
nlohmann::json ToJson(const model::SerialVsConcurrent& s);

}  // namespace durprobe::codec
