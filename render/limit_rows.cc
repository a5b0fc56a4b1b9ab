#include "render/limit_rows.h"

#include <fmt/format.h>

#include "platform/cgroup_io.h"

namespace durprobe::render {

std::vector<MountRow> LimitRows(const model::Context& c, const platform::MountInfo* m) {
  std::vector<MountRow> rows;
  const platform::CpuQuota& q = c.cpu_quota;
  if (!q.version.empty()) {
    rows.push_back({"cpu quota", q.limited() ? fmt::format("{:.2f} CPUs ({} us per {} us, cgroup "
                                                           "{} {})",
                                                           q.cpus(), q.quota_us, q.period_us,
                                                           q.version, q.cgroup)
                                             : fmt::format("none (cgroup {})", q.version)});
  }
  const platform::IoLimits& io = c.io_limits;
  if (io.version.empty()) return rows;
  const platform::DeviceInfo* device = m != nullptr && m->device ? &*m->device : nullptr;
  if (device != nullptr) {
    const platform::IoLimit* l = platform::LimitFor(io, *device);
    rows.push_back({"I/O limit", l != nullptr
                                     ? fmt::format("{} on {} (cgroup {} {})", DescribeLimit(*l),
                                                   l->name, io.version, l->cgroup)
                                     : fmt::format("none on {} (cgroup {} {})", device->disk,
                                                   io.version, io.cgroup)});
    return rows;
  }
  // No block device under the path (a FUSE or network mount): the limits there are, by device.
  if (io.devices.empty()) {
    rows.push_back({"I/O limit", fmt::format("none (cgroup {} {})", io.version, io.cgroup)});
  }
  for (const platform::IoLimit& l : io.devices) {
    rows.push_back(
        {"I/O limit", fmt::format("{} on {} (cgroup {} {})", DescribeLimit(l),
                                  l.name.empty() ? l.device : l.name, io.version, l.cgroup)});
  }
  return rows;
}

}  // namespace durprobe::render
