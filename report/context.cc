#include "report/context.h"

#include "durprobe_config.h"

namespace durprobe::report {

std::string_view NameOf(Severity s) {
  switch (s) {
    case Severity::kInfo:
      return "info";
    case Severity::kWarn:
      return "warn";
    case Severity::kFail:
      return "fail";
  }
  return "info";
}

Context MakeContext(platform::Platform& platform, const std::string& command) {
  Context c;
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
  return c;
}

std::vector<std::string> BuildWarnings(const Context& context) {
  std::vector<std::string> w;
  if (!context.optimized) {
    w.push_back(
        "this durprobe build is unoptimised (" + context.build_type +
        "): harness overhead may show in fast paths; build with -DCMAKE_BUILD_TYPE=Release");
  }
  if (context.assertions) w.push_back("this durprobe build has assertions enabled");
  return w;
}

}  // namespace durprobe::report
