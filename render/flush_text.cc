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

std::string FlushNoiseNote(const std::vector<const probes::FlushTally*>& tallies) {
  if (std::none_of(tallies.begin(), tallies.end(),
                   [](const probes::FlushTally* t) { return FlushCountInNoise(*t); })) {
    return "";
  }
  return "bg: the flushes per operation the same writes made without the sync meanwhile "
         "(another process on the device); a flush/op beside it is good to about that much";
}

std::string FlushNoiseNote(const std::vector<probes::ProbeResult>& results) {
  std::vector<const probes::FlushTally*> tallies;
  for (const probes::ProbeResult& r : results) tallies.push_back(&r.device_flushes);
  return FlushNoiseNote(tallies);
}

}  // namespace durprobe::report
