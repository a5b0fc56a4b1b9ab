// The CPU bandwidth limit (CFS quota) a process runs under and the cgroup's throttling counters,
// read from cgroup v2 (cpu.max, cpu.stat) or v1 (cpu.cfs_quota_us, cpu.cfs_period_us, cpu.stat).
// A quota that a probe's spinning spends gets the process throttled, and a sync's completion is
// then seen late: that is the CPU's account, never the disk's (docs/accuracy.md, "CPU limits").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "platform/mount_info.h"
#include "platform/status.h"

namespace durprobe::platform {

class Platform;

// The tightest CPU limit among this process's cgroup and its ancestors.
struct CpuQuota {
  std::string version;          // "v2" or "v1"; empty when no CPU controller was found
  std::string cgroup;           // the directory whose limit applies (or the process's own)
  std::uint64_t quota_us = 0;   // CPU time allowed per period; 0: no limit
  std::uint64_t period_us = 0;  // the period the quota is given in
  // The directories (the limited ones, innermost first) whose cpu.stat counts this process's
  // throttling; empty without a limit.
  std::vector<std::string> stat_files;
  std::string note;  // why nothing is known, when version is empty
  bool limited() const { return quota_us > 0 && period_us > 0; }
  double cpus() const { return limited() ? double(quota_us) / double(period_us) : 0.0; }
  bool operator==(const CpuQuota&) const = default;
};

// cpu.stat's counters since the cgroup was made; a probe reads the difference over its run.
struct CpuThrottleCount {
  std::uint64_t periods = 0;       // nr_periods: enforcement periods with the cgroup runnable
  std::uint64_t throttled = 0;     // nr_throttled: periods that ran out of quota
  std::uint64_t throttled_ns = 0;  // v2 throttled_usec x 1000, v1 throttled_time
  bool operator==(const CpuThrottleCount&) const = default;
};

// after - before, counter by counter (0 where a counter went back, as after a cgroup move).
CpuThrottleCount Difference(const CpuThrottleCount& before, const CpuThrottleCount& after);

// cpu.max ("max 100000" or "50000 100000"): false when the text is neither.
bool ParseCpuMax(std::string_view text, std::uint64_t& quota_us, std::uint64_t& period_us);
// cpu.stat of either version; an error naming what is missing when it lacks nr_throttled.
Result<CpuThrottleCount> ParseCpuStat(std::string_view text);

// The directory of the process's cgroup holding the CPU controller, and its version, from
// /proc/self/cgroup and the mount table: v2's "0::PATH" under a cgroup2 mount, or v1's line
// whose controllers include "cpu" under a cgroup mount with the cpu option. A cgroup namespace
// shows PATH relative to the mount's root; a PATH outside the mount's root (another namespace's
// view) falls back to the mount point. Empty when neither is there.
// The same for any controller, by its v1 name ("cpu", "blkio"); a v1 hierarchy with it wins on a
// hybrid host, whose v2 tree then lacks that controller.
struct ControllerCgroup {
  std::string version;
  std::string dir;          // as the mount table names it (prefix it with a test root)
  std::string mount_point;  // where the walk to the ancestors stops
};
ControllerCgroup FindControllerCgroup(std::string_view self_cgroup,
                                      const std::vector<MountEntry>& mounts,
                                      std::string_view v1_controller);
// The cgroup directory above dir ("/" at the top), for the walk up to the mount point.
std::string CgroupParent(const std::string& dir);
using CpuCgroup = ControllerCgroup;
CpuCgroup FindCpuCgroup(std::string_view self_cgroup, const std::vector<MountEntry>& mounts);

// Reads the limit with p's ReadTextFile: proc holds self/cgroup and self/mountinfo, and root
// prefixes every cgroup path (tests point both at fixture trees). Never fails: what is missing
// is said in note.
CpuQuota ReadCpuQuotaAt(Platform& p, const std::string& proc, const std::string& root);
// The counters of quota's stat_files, summed; Unsupported when quota has none, the error with
// the file when one cannot be read.
Result<CpuThrottleCount> ReadCpuThrottlingAt(Platform& p, const CpuQuota& quota);

}  // namespace durprobe::platform
