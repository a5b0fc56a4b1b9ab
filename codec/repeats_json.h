// probes[].repeats and sqlite[].repeats both ways: each figure's median, min, max, n and next
// run's interval over the repeats of a run with --repeat (model/repeats.h). Written only where
// the run repeated, so a report without repeats reads and writes as before. Key names are a
// contract (docs/json.md).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>

#include "codec/json_fields.h"
#include "model/repeats.h"

namespace durprobe::codec {

// One figure's {median, min, max, n, next_run}; null where no repeat measured it. A report saved
// before next_run existed gets it from its values where min, median and max are all of them
// (n 3); relative_resolution as SpreadOf's.
nlohmann::json ToJson(const model::RepeatSpread& spread);
model::RepeatSpread ReadRepeatSpread(const JsonFields& f, double relative_resolution);
nlohmann::json ToJson(const model::ProbeRepeats& repeats);
nlohmann::json ToJson(const model::SqliteRepeats& repeats);
// The repeats of the probe at index probe in Target::probes.
model::ProbeRepeats ReadProbeRepeats(const JsonFields& f, std::size_t probe);
model::SqliteRepeats ReadSqliteRepeats(const JsonFields& f);

}  // namespace durprobe::codec
