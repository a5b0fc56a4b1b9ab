// The reader of targets[].concurrency[] and targets[].serial_vs_concurrent (the writer is
// codec/concurrency_json.h).
#pragma once

#include <optional>
#include <vector>

#include "codec/json_fields.h"
#include "model/concurrency_model.h"

namespace durprobe::codec {

// The rows under the target's "concurrency" key; none when it has none.
std::vector<probes::ConcurrencyResult> ReadConcurrency(const JsonFields& target);
// The target's "serial_vs_concurrent" block; unset when it has none.
std::optional<model::SerialVsConcurrent> ReadSerialVsConcurrent(const JsonFields& target);

}  // namespace durprobe::codec
