// The flat view of a report that CSV and Markdown print: one row per probe and per SQLite
// configuration, every path in one table, the same columns for both kinds. Formats only.
#pragma once

#include <string>
#include <vector>

#include "model/report.h"

namespace durprobe::render {

// A number in a flat cell: six significant digits, no thousands separators.
std::string FlatNumber(double v);

// Column names, in order.
const std::vector<std::string>& FlatColumns();

// One row per probe and per SQLite configuration of every target, cells as text ("" for a
// value that does not apply or was not measured; a percentile too few operations support is
// "" too).
std::vector<std::vector<std::string>> FlatRows(const std::vector<model::Target>& targets);

}  // namespace durprobe::render
