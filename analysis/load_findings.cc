#include "analysis/load_findings.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>
#include <vector>

#include "model/finding_codes.h"
#include "text/units.h"

namespace durprobe::analysis {

model::Finding LoadFinding(const probes::LoadOutcome& o) {
  bool short_of = o.achieved.reads_per_sec < 0.9 * o.asked.reads_per_sec ||
                  o.achieved.writes_per_sec < 0.9 * o.asked.writes_per_sec ||
                  o.achieved.syncs_per_sec < 0.9 * o.asked.syncs_per_sec || !o.status.ok();
  std::vector<std::string> parts;
  if (o.asked.reads_per_sec > 0 || o.asked.writes_per_sec > 0) {
    parts.push_back(fmt::format(
        "{:.0f} reads/s and {:.0f} writes/s of 4 KiB{} (asked {:.0f} and "
        "{:.0f})",
        o.achieved.reads_per_sec, o.achieved.writes_per_sec, o.direct ? " with O_DIRECT" : "",
        o.asked.reads_per_sec, o.asked.writes_per_sec));
  }
  if (o.asked.syncs_per_sec > 0) {
    parts.push_back(fmt::format(
        "{:.1f} synced writes/s of {} (each written, then fdatasync; asked {:.1f})",
        o.achieved.syncs_per_sec, text::FormatBytes(o.asked.sync_bytes), o.asked.syncs_per_sec));
  }
  std::string what =
      fmt::format("the background load ran {} for {:.1f} s", fmt::join(parts, ", and "), o.seconds);
  if (!o.status.ok()) what += "; it stopped on an error: " + o.status.message();
  if (short_of) {
    return {model::Severity::kWarn, model::codes::kBackgroundLoadShort,
            what +
                "; the device could not sustain it, so the rules were measured under less load "
                "than asked"};
  }
  return {model::Severity::kInfo, model::codes::kBackgroundLoad, what + "."};
}

}  // namespace durprobe::analysis
