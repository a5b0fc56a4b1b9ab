// JSON for targets[].fsync_errors[] (docs/json.md, `durprobe faults`): one object per
// filesystem, its experiments and SQLite's outcomes, written and read back.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "codec/json_fields.h"
#include "probes/fsync_error_result.h"

namespace durprobe::codec {

nlohmann::json ToJson(const std::vector<probes::FsyncErrorsResult>& results);
// The objects under the target's "fsync_errors" key; none when it has none.
std::vector<probes::FsyncErrorsResult> ReadFsyncErrors(const JsonFields& target);

}  // namespace durprobe::codec
