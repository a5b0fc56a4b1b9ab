#include "render/flush_text.h"

#include <fmt/format.h>

#include <algorithm>

namespace durprobe::report {

bool AnyFlushesCounted(const std::vector<probes::ProbeResult>& results) {
  return std::any_of(results.begin(), results.end(),
                     [](const probes::ProbeResult& r) { return r.device_flushes.counted; });
}

std::string FlushPerOpCell(const probes::FlushTally& tally) {
  return tally.ok() ? fmt::format("{:.2f}", tally.PerOp()) : std::string("-");
}

}  // namespace durprobe::report
