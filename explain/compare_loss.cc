#include "explain/compare_loss.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/device_flushes.h"

namespace durprobe::explain {

bool LosesOnlyDirectorySyncs(const model::Target& t) {
  using probes::Primitive;
  const std::vector<analysis::SyncFlushes> flushes = analysis::SyncFlushEvidence(t);
  return analysis::ReachedNoDevice(flushes, Primitive::kDirFsync) &&
         (analysis::ReachedADevice(flushes, Primitive::kFdatasync) ||
          analysis::ReachedADevice(flushes, Primitive::kFsync));
}

std::string LossMessage(bool dirs_only, const std::vector<std::string>& codes,
                        const std::string& cost) {
  return fmt::format(
      "{} ({}){}",
      dirs_only ? "directory syncs do not reach the device: a new file or a rename may vanish on "
                  "power loss; file data is synced"
                : "syncs here do not reach stable storage: nothing is kept across a power loss",
      fmt::join(codes, ", "), cost.empty() ? std::string() : "; and it is not faster: " + cost);
}

}  // namespace durprobe::explain
