#include "render/flush_text.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/device_flushes.h"

namespace durprobe::render {

bool AnyFlushesCounted(const std::vector<probes::ProbeResult>& results) {
  return std::any_of(results.begin(), results.end(),
                     [](const probes::ProbeResult& r) { return r.device_flushes.counted; });
}

std::string FlushPerOpCell(const probes::FlushTally& tally) {
  if (!tally.ok()) return "-";
  if (!analysis::FlushCountInNoise(tally)) return fmt::format("{:.2f}", tally.PerOp());
  return fmt::format("{:.2f} (bg {:.2f})", tally.PerOp(), tally.MostWithoutSyncPerOp());
}

bool AnyFlushCountInNoise(const std::vector<probes::ProbeResult>& results) {
  return std::any_of(results.begin(), results.end(), [](const probes::ProbeResult& r) {
    return analysis::FlushCountInNoise(r.device_flushes);
  });
}

}  // namespace durprobe::render
