#include "cli/cmd_clean.h"

#include <fmt/ostream.h>

#include <iostream>
#include <memory>

#include "cli/exit_status.h"
#include "run/target_paths.h"
#include "platform/scratch.h"

namespace durprobe::cli {

Subcommand SetupClean(CLI::App& app) {
  auto options = std::make_shared<CleanOptions>();
  CLI::App* sub = app.add_subcommand(
      "clean",
      "Remove scratch directories a killed durprobe left in each PATH (only its own), with "
      "its crash device's mounts and loop devices");
  sub->add_option("PATH", options->paths, "Directories durprobe measured")->required();
  AddStandardFlags(*sub, options->out);
  return {sub, [options] { return RunClean(*options); }};
}

int RunClean(const CleanOptions& o) {
  platform::Platform& platform = platform::Default();
  Result<std::vector<std::string>> paths = run::ResolveTargets(platform, o.paths);
  if (!paths.ok()) return UsageError(paths.status().message());
  int code = kExitOk;
  for (const std::string& path : *paths) {
    Result<platform::CleanOutcome> outcome = platform::CleanScratch(platform, path);
    if (!outcome.ok()) {  // this PATH cannot be read: say so, and clean the others
      PrintError(outcome.status().message());
      code = kExitUsage;
      continue;
    }
    // A mount inside is never entered: the scratch stays whole and clean says it did not finish;
    // so does a scratch it could not remove. Another user's is theirs to clean: not a failure.
    if (code == kExitOk && (!outcome->mounted.empty() || !outcome->failed.empty())) {
      code = kExitFail;
    }
    for (const platform::CleanOutcome::Kept& f : outcome->failed) {
      PrintLine(std::cerr, fmt::format("durprobe: could not remove {}: {}", f.dir, f.why));
    }
    for (const platform::CleanOutcome::Mounted& m : outcome->mounted) {
      PrintLine(std::cerr,
                fmt::format("durprobe: kept {}: a filesystem is mounted inside it at {}; nothing "
                            "of it was removed (unmount it, then run durprobe clean again)",
                            m.dir, m.mount_inside));
    }
    if (o.out.quiet) continue;
    for (const std::string& line : outcome->crash_devices) PrintLine(std::cout, line);
    for (const std::string& dir : outcome->removed) PrintLine(std::cout, "removed " + dir);
    for (const platform::ReusedPid& r : outcome->reused_pid) {
      PrintLine(
          std::cout,
          fmt::format("  ({}: its pid {} now belongs to '{}', not durprobe, so its run is gone)",
                      r.dir, r.pid, r.process));
    }
    for (const std::string& dir : outcome->skipped_live) {
      PrintLine(std::cout, "kept " + dir + " (its durprobe process is still running)");
    }
    for (const std::string& dir : outcome->refused) {
      PrintLine(std::cout, "kept " + dir +
                               " (named like durprobe scratch but has no valid marker, or is a "
                               "symlink; not durprobe's to remove)");
    }
    for (const platform::CleanOutcome::Kept& k : outcome->not_owned) {
      PrintLine(std::cout, fmt::format("kept {} ({}; not entered)", k.dir, k.why));
    }
    if (outcome->removed.empty() && outcome->skipped_live.empty() && outcome->refused.empty() &&
        outcome->mounted.empty() && outcome->not_owned.empty() && outcome->failed.empty()) {
      PrintLine(std::cout, path + ": no durprobe scratch found");
    }
  }
  return code;
}

}  // namespace durprobe::cli
