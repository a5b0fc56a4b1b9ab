#include "cli/version.h"

#include <fmt/format.h>

#include "platform/link_kind.h"
#include "platform/platform.h"
#include "run/context.h"

namespace durprobe::cli {

std::string VersionText() {
  model::Context c = run::MakeContext(platform::Default(), "version");
  std::string text =
      fmt::format("durprobe {} (SQLite {}, {} build{}{})", c.durprobe_version, c.sqlite_version,
                  c.build_type, c.optimized ? "" : ", UNOPTIMISED: not for benchmarking",
                  platform::StaticBinary() ? ", static: numeric addresses only" : "");
  return text;
}

std::string VersionNumberText() {
  return "durprobe " + run::MakeContext(platform::Default(), "version").durprobe_version;
}

}  // namespace durprobe::cli
