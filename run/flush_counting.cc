#include "run/flush_counting.h"

#include "platform/block_counters.h"

namespace durprobe::run {

probes::FlushCounting CountingFor(platform::Platform& platform, const model::Target& target,
                                  bool count_flushes) {
  probes::FlushCounting c;
  if (!count_flushes) return c;
  if (!target.mount) {
    c.unavailable = "the path's mount could not be identified, so no device is known to count";
    return c;
  }
  platform::CountedDevices d = platform::DevicesToCount(platform, c.sys_root, *target.mount);
  c.devices = std::move(d.names);
  c.how = std::move(d.how);
  c.unavailable = std::move(d.unavailable);
  return c;
}

}  // namespace durprobe::run
