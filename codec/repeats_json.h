// probes[].repeats and sqlite[].repeats both ways: each figure's median, min, max and n over the
// repeats of a run with --repeat (model/repeats.h). Written only where the run repeated, so a
// report without repeats reads and writes as before. Key names are a contract (docs/json.md).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>

#include "codec/json_fields.h"
#include "model/repeats.h"

namespace durprobe::report {

// One figure's {median, min, max, n}; null where no repeat measured it.
nlohmann::json ToJson(const RepeatSpread& spread);
RepeatSpread ReadRepeatSpread(const JsonFields& f);
nlohmann::json ToJson(const ProbeRepeats& repeats);
nlohmann::json ToJson(const SqliteRepeats& repeats);
// The repeats of the probe at index probe in Target::probes.
ProbeRepeats ReadProbeRepeats(const JsonFields& f, std::size_t probe);
SqliteRepeats ReadSqliteRepeats(const JsonFields& f);

}  // namespace durprobe::report
