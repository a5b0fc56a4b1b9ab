#include "run/ebs_counters.h"

#include "analysis/ebs_findings.h"
#include "platform/inspect.h"

namespace durprobe::run {
namespace {

// The namespace behind a path: the whole disk of its device, when that is an NVMe namespace.
std::string NvmeDiskOf(platform::Platform& platform, const std::string& path) {
  Result<platform::MountInfo> mount = platform::InspectPath(platform, path);
  if (!mount.ok() || !mount->device) return "";
  const std::string& disk = mount->device->disk;
  return disk.rfind("nvme", 0) == 0 ? disk : "";
}

}  // namespace

std::optional<platform::EbsStats> ReadEbsStats(platform::Platform& platform,
                                               const std::string& disk) {
  // nvme-cli's `nvme amzn stats` asks for namespace 1; EBS exposes one namespace per volume.
  Result<std::vector<std::uint8_t>> page =
      platform.ReadNvmeLogPage(disk, platform::kEbsStatsLogId, 1, platform::kEbsStatsPageBytes);
  if (!page.ok()) return std::nullopt;
  std::optional<platform::EbsStats> stats = platform::ParseEbsStatsPage(*page);
  if (stats) stats->device = disk;
  return stats;
}

std::vector<std::optional<platform::EbsStats>> ReadEbsBefore(
    platform::Platform& platform, const std::vector<std::string>& paths) {
  std::vector<std::optional<platform::EbsStats>> before;
  for (const std::string& path : paths) {
    std::string disk = NvmeDiskOf(platform, path);
    before.push_back(disk.empty() ? std::nullopt : ReadEbsStats(platform, disk));
  }
  return before;
}

void AddEbsDeltas(platform::Platform& platform, const std::vector<std::string>& paths,
                  const std::vector<std::optional<platform::EbsStats>>& before,
                  std::vector<model::Target>& targets) {
  for (std::size_t i = 0; i < paths.size() && i < before.size(); ++i) {
    if (!before[i]) continue;
    for (model::Target& t : targets) {
      if (t.path != paths[i]) continue;
      std::optional<platform::EbsStats> after = ReadEbsStats(platform, before[i]->device);
      if (!after) break;
      t.ebs = platform::EbsDelta(*before[i], *after);
      for (model::Finding& f : analysis::EbsFindings(*t.ebs)) t.findings.push_back(std::move(f));
      break;
    }
  }
}

}  // namespace durprobe::run
