// The crashtest section: power cuts on the crash device, per journal_mode x synchronous, and
// the commits a cut at each flush of the run keeps.
#pragma once

#include <string>
#include <vector>

#include "sqlite_bench/crashtest_result.h"

namespace durprobe::render::html {

// The table of states, corrupt ones and lost commits, with the example states to rebuild, and
// a plot per configuration of the commits acknowledged and kept at each flush; "" when
// crashtest did not run. id_prefix makes the plots' ids unique in the page.
std::string CrashtestSection(const std::vector<sqlite_bench::CrashtestResult>& results,
                             const std::string& id_prefix);

}  // namespace durprobe::render::html
