#include "cli/cmd_clean.h"

#include <fmt/ostream.h>

#include <iostream>
#include <memory>

#include "cli/exit_status.h"
#include "cli/target_paths.h"
#include "platform/scratch.h"

namespace durprobe::cli {

Subcommand SetupClean(CLI::App& app) {
  auto options = std::make_shared<CleanOptions>();
  CLI::App* sub = app.add_subcommand(
      "clean", "Remove scratch directories a killed durprobe left in each PATH (only its own)");
  sub->add_option("PATH", options->paths, "Directories durprobe measured")->required();
  AddStandardFlags(*sub, options->out);
  return {sub, [options] { return RunClean(*options); }};
}

int RunClean(const CleanOptions& o) {
  platform::Platform& platform = platform::Default();
  Result<std::vector<std::string>> paths = ResolveTargets(platform, o.paths);
  if (!paths.ok()) return UsageError(paths.status().message());
  int code = kExitOk;
  for (const std::string& path : *paths) {
    Result<platform::CleanOutcome> outcome = platform::CleanScratch(platform, path);
    if (!outcome.ok()) return UsageError(outcome.status().message());
    // A mount inside is never entered: the scratch stays whole and clean says it did not finish.
    if (!outcome->mounted.empty()) code = kExitFail;
    for (const platform::CleanOutcome::Mounted& m : outcome->mounted) {
      fmt::print(std::cerr,
                 "durprobe: kept {}: a filesystem is mounted inside it at {}; nothing of it was "
                 "removed (unmount it, then run durprobe clean again)\n",
                 m.dir, m.mount_inside);
    }
    if (o.out.quiet) continue;
    for (const std::string& dir : outcome->removed) fmt::print(std::cout, "removed {}\n", dir);
    for (const platform::ReusedPid& r : outcome->reused_pid) {
      fmt::print(std::cout,
                 "  ({}: its pid {} now belongs to '{}', not durprobe, so its run is gone)\n",
                 r.dir, r.pid, r.process);
    }
    for (const std::string& dir : outcome->skipped_live) {
      fmt::print(std::cout, "kept {} (its durprobe process is still running)\n", dir);
    }
    for (const std::string& dir : outcome->refused) {
      fmt::print(std::cout,
                 "kept {} (named like durprobe scratch but has no valid marker, or is a symlink; "
                 "not durprobe's to remove)\n",
                 dir);
    }
    if (outcome->removed.empty() && outcome->skipped_live.empty() && outcome->refused.empty() &&
        outcome->mounted.empty()) {
      fmt::print(std::cout, "{}: no durprobe scratch found\n", path);
    }
  }
  return code;
}

}  // namespace durprobe::cli
