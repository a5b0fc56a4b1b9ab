#include "explain/compare_loss.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/device_flushes.h"

namespace durprobe::report {

bool LosesOnlyDirectorySyncs(const Target& t) {
  using probes::Primitive;
  const std::vector<SyncFlushes> flushes = SyncFlushEvidence(t);
  return ReachedNoDevice(flushes, Primitive::kDirFsync) &&
         (ReachedADevice(flushes, Primitive::kFdatasync) ||
          ReachedADevice(flushes, Primitive::kFsync));
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

}  // namespace durprobe::report
