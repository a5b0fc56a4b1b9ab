#include "run/context.h"

#include "durprobe_config.h"

namespace durprobe::run {

model::Context MakeContext(platform::Platform& platform, const std::string& command) {
  model::Context c;
  c.durprobe_version = DURPROBE_VERSION;
  platform::SystemInfo sys = platform.System();
  c.host = sys.host;
  c.os = sys.os;
  c.kernel = sys.kernel;
  c.machine = sys.machine;
  c.sqlite_build = sqlite_bench::QueryBuildInfo();
  c.sqlite_version = c.sqlite_build.version;
  c.build_type = DURPROBE_BUILD_TYPE;
#if defined(__OPTIMIZE__)
  c.optimized = true;
#else
  c.optimized = false;
#endif
#if defined(NDEBUG)
  c.assertions = false;
#else
  c.assertions = true;
#endif
  c.started_at = platform.WallClockIso8601();
  c.command = command;
  c.ld_preload = platform.GetEnv("LD_PRELOAD");
  c.cpu_quota = platform.ReadCpuQuota();
  c.cpu_quota.stat_files.clear();
  return c;
}

}  // namespace durprobe::run
