#include "render/flush_text.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/device_flushes.h"

namespace durprobe::report {

bool AnyFlushesCounted(const std::vector<probes::ProbeResult>& results) {
  return std::any_of(results.begin(), results.end(),
                     [](const probes::ProbeResult& r) { return r.device_flushes.counted; });
}

std::string FlushPerOpCell(const probes::FlushTally& tally) {
  if (!tally.ok()) return "-";
  if (!FlushCountInNoise(tally)) return fmt::format("{:.2f}", tally.PerOp());
  return fmt::format("{:.2f} (bg {:.2f})", tally.PerOp(), tally.MostWithoutSyncPerOp());
}

bool AnyFlushCountInNoise(const std::vector<probes::ProbeResult>& results) {
  return std::any_of(results.begin(), results.end(), [](const probes::ProbeResult& r) {
    return FlushCountInNoise(r.device_flushes);
  });
}

}  // namespace durprobe::report
