// The flushes per operation (probes/flush_tally.h) as the probe tables of the console, HTML and
// Markdown print them: a column shown only when a probe's flushes were counted, and its cell.
#pragma once

#include <string>
#include <vector>

#include "probes/probe_result.h"

namespace durprobe::render {

// The column's header in every probe table that shows it.
inline constexpr const char* kFlushPerOpHeader = "flush/op";

// At least one of results had its device flushes counted (counting was asked for, whether or
// not it was available): the probe table shows the flush/op column.
bool AnyFlushesCounted(const std::vector<probes::ProbeResult>& results);

// The leading device's flushes per operation, two decimals ("1.00"); "-" when not counted or
// unavailable; beside a busy background (FlushCountInNoise) with it: "0.21 (bg 0.40)".
std::string FlushPerOpCell(const probes::FlushTally& tally);

// The line under a table with a cell beside a busy background (FlushCountInNoise), saying what
// `bg` is.
inline constexpr const char* kFlushNoiseNote =
    "bg: the flushes per operation the same writes made without the sync meanwhile (another "
    "process on the device); a flush/op beside it is good to about that much";

// At least one of results was counted beside a busy background: the table gets kFlushNoiseNote.
bool AnyFlushCountInNoise(const std::vector<probes::ProbeResult>& results);

}  // namespace durprobe::render
