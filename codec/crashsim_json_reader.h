// The reader of a saved report's targets[].crashsim[] (the writer is codec/crashsim_json.h).
#pragma once

#include <vector>

#include "codec/json_fields.h"
#include "sqlite_bench/crashsim_result.h"

namespace durprobe::codec {

// The rows under the target's "crashsim" key; none when it has none.
std::vector<sqlite_bench::CrashsimResult> ReadCrashsim(const JsonFields& target);

}  // namespace durprobe::codec
