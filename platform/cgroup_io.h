// The block I/O limits a process runs under, per device: cgroup v1's blkio.throttle files
// ({read,write}_{bps,iops}_device) and blkio.weight_device, or cgroup v2's io.max, io.latency and
// io.weight, the tightest of the process's cgroup and its ancestors. A write-IOPS limit caps the
// syncs a second however fast the disk is: that is the cgroup's account, not the device's
// (docs/inspect.md, "I/O limits").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "platform/cgroup_cpu.h"
#include "platform/mount_info.h"

namespace durprobe::platform {

class Platform;

// One device's limits; each 0 where none is set.
struct IoLimit {
  std::string device;  // "254:0", as the cgroup files name it
  std::string name;    // "vda", from /sys/dev/block; empty where sysfs does not say
  std::uint64_t read_bps = 0, write_bps = 0, read_iops = 0, write_iops = 0;
  std::uint64_t latency_target_us = 0;  // v2 io.latency's target
  std::uint64_t weight = 0;             // a weight set for the device (v2 io.weight, v1 blkio)
  std::string cgroup;                   // the directory that sets the tightest of them
  bool limits() const { return read_bps || write_bps || read_iops || write_iops; }
  bool operator==(const IoLimit&) const = default;
};

struct IoLimits {
  std::string version;           // "v2" or "v1"; empty when no I/O controller was found
  std::string cgroup;            // the process's own directory in that hierarchy
  std::vector<IoLimit> devices;  // sorted by device; empty: nothing limited
  std::string note;              // why nothing is known, when version is empty
  bool operator==(const IoLimits&) const = default;
};

// Merges one limits file's text into limits: v1's "MAJ:MIN VALUE" lines into field (one of
// IoLimit's counters), v2's io.max ("MAJ:MIN rbps=max wbps=... riops=... wiops=..."), io.latency
// ("MAJ:MIN target=USEC") and io.weight ("default 100" then "MAJ:MIN WEIGHT"). A value already
// there is kept when it is tighter (a lower nonzero limit). Lines it cannot read are skipped.
void MergeV1Throttle(std::string_view text, std::uint64_t IoLimit::*field, const std::string& dir,
                     std::vector<IoLimit>& limits);
void MergeV2IoMax(std::string_view text, const std::string& dir, std::vector<IoLimit>& limits);
void MergeV2IoLatency(std::string_view text, const std::string& dir, std::vector<IoLimit>& limits);
void MergeWeight(std::string_view text, const std::string& dir, std::vector<IoLimit>& limits);

// The directory of the process's I/O cgroup: v1's line whose controllers include "blkio" under
// a cgroup mount with the blkio option (it wins on a hybrid host), else v2's "0::PATH" under a
// cgroup2 mount. version empty when neither is there.
using IoCgroup = ControllerCgroup;  // platform/cgroup_cpu.h
IoCgroup FindIoCgroup(std::string_view self_cgroup, const std::vector<MountEntry>& mounts);

// Reads the limits with p's ReadTextFile: proc holds self/cgroup and self/mountinfo, and root
// prefixes every cgroup and sysfs path (tests point both at fixture trees). Never fails: what is
// missing is said in note.
IoLimits ReadIoLimitsAt(Platform& p, const std::string& proc, const std::string& root);

// The limit that applies to a path's device (its disk, or one of a dm or md device's members'
// disks), or nullptr.
const IoLimit* LimitFor(const IoLimits& limits, const DeviceInfo& device);

// "write 100 IOPS, read 10 MB/s" (the set ones, in that order; latency target and weight after).
std::string DescribeLimit(const IoLimit& limit);

}  // namespace durprobe::platform
