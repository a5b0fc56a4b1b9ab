// device_flushes both ways (probes[], sqlite[], concurrency[]): the flush and write requests the
// devices under a path completed during a measurement and its control (probes/flush_tally.h).
// Key names are a contract (docs/json.md).
#pragma once

#include <nlohmann/json.hpp>

#include "codec/json_fields.h"
#include "probes/flush_tally.h"

namespace durprobe::codec {

nlohmann::json ToJson(const probes::FlushTally& t);
// Absent (a report from before flushes were counted) reads as not counted.
probes::FlushTally ReadFlushTally(const JsonFields& f);

}  // namespace durprobe::codec
