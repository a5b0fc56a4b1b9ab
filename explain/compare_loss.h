// What a path that loses syncs loses, in compare's words (issue 54): a partial loss named for
// what it loses (bindfs passes file syncs on to the disk, not directory syncs), and "not
// faster" where a penalty or its commits say so, never "keeps nothing" or "faster" against the
// numbers.
#pragma once

#include <string>
#include <vector>

#include "model/report.h"

namespace durprobe::explain {

// Whether the flush counters show the directory syncs reaching no device while fdatasync or
// fsync reached one (analysis/device_flushes.h).
bool LosesOnlyDirectorySyncs(const model::Target& t);

// The not_durable verdict's message: what is lost (directory syncs only, or every sync), the
// codes that void durability, and cost ("" when there is none to name) as what makes the path
// not faster.
std::string LossMessage(bool dirs_only, const std::vector<std::string>& codes,
                        const std::string& cost);

}  // namespace durprobe::explain
