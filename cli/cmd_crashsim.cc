#include "cli/cmd_crashsim.h"

#include <fmt/format.h>

#include <memory>

#include "cli/execute_plan.h"
#include "cli/exit_status.h"
#include "cli/target_paths.h"
#include "cli/validators.h"

namespace durprobe::cli {
namespace {

const std::vector<std::string>& DeviceNames() {
  static const auto* names = new std::vector<std::string>{"atomic_sectors", "ordered_metadata",
                                                          "safe_append", "sequential"};
  return *names;
}

}  // namespace

void AddCrashsimOptions(CLI::App& app, CrashsimCliOptions& o) {
  app.add_option("--trials", o.trials, "Crash images per configuration (default 100)")
      ->check(InRange(1, 1000000));
  app.add_option("--seed", o.seed, "Seed of the crash points and images (default 1)");
  app.add_option("--commits", o.commits, "Commits the workload attempts per trial (default 12)")
      ->check(InRange(1, 10000));
  AddListOption(app, "--device", o.device,
                "Simulated device guarantees (default none): atomic_sectors, ordered_metadata, "
                "safe_append, sequential")
      ->transform(OneOf(DeviceNames(), "device property"));
  app.add_flag("--no-psow", o.no_psow,
               "Tell SQLite the storage lacks powersafe overwrite (as the psow=0 URI parameter)");
}

std::vector<sqlite_bench::CrashsimConfig> CrashsimConfigsFor(
    const std::vector<sqlite_bench::CommitConfig>& matrix) {
  std::vector<sqlite_bench::CrashsimConfig> configs;
  for (const sqlite_bench::CommitConfig& c : matrix) {
    sqlite_bench::CrashsimConfig crash{c.journal, c.sync, c.rows_per_commit};
    bool seen = false;
    for (const sqlite_bench::CrashsimConfig& k : configs) {
      seen = seen || (k.journal == crash.journal && k.sync == crash.sync &&
                      k.rows_per_commit == crash.rows_per_commit);
    }
    if (!seen) configs.push_back(crash);
  }
  return configs;
}

sqlite_bench::CrashsimPlan MakeCrashsimPlan(const CrashsimCliOptions& o,
                                            std::vector<sqlite_bench::CrashsimConfig> configs) {
  sqlite_bench::CrashsimPlan plan;
  plan.configs = std::move(configs);
  plan.options.trials = o.trials;
  plan.options.seed = o.seed;
  plan.options.workload.commits = o.commits;
  plan.options.powersafe_overwrite = !o.no_psow;
  for (const std::string& d : o.device) {
    if (d == "atomic_sectors") plan.options.device.atomic_sectors = true;
    if (d == "ordered_metadata") plan.options.device.ordered_metadata = true;
    if (d == "safe_append") plan.options.device.safe_append = true;
    if (d == "sequential") plan.options.device.sequential = true;
  }
  return plan;
}

int FailedCrashsim(const report::Report& report) {
  int failed = 0;
  for (const report::Target& t : report.targets) {
    for (const sqlite_bench::CrashsimResult& r : t.crashsim) {
      if (r.outcome != probes::Outcome::kError) continue;
      PrintError(fmt::format("{}: crashsim {}/{}: {}", t.path,
                             sqlite_bench::NameOf(r.config.journal),
                             sqlite_bench::NameOf(r.config.sync), r.reason));
      ++failed;
    }
  }
  return failed;
}

Subcommand SetupCrashsim(CLI::App& app) {
  auto options = std::make_shared<CrashsimCliOptions>();
  CLI::App* sub = app.add_subcommand(
      "crashsim", "What a power cut loses, per journal_mode x synchronous (simulated)");
  sub->add_option("PATH", options->paths,
                  "Directories whose scratch holds the recovered images (default: .)");
  AddListOption(*sub, "--journal-modes", options->journal_modes,
                "Journal modes (comma-separated; default delete,truncate,persist,wal)")
      ->transform(OneOf(KeysOf(sqlite_bench::JournalModeNames()), "journal mode"));
  AddListOption(*sub, "--synchronous", options->synchronous,
                "Synchronous levels (comma-separated; default off,normal,full,extra)")
      ->transform(OneOf(KeysOf(sqlite_bench::SynchronousNames()), "synchronous level"));
  AddListOption(*sub, "--batch", options->batches, "Rows per commit, comma-separated, e.g. 1,100")
      ->capture_default_str()
      ->check(InRange(1, 100000));
  AddCrashsimOptions(*sub, *options);
  AddDryRun(*sub, options->common.out);
  AddOutputOptions(*sub, options->common.out, report::Document::kReport);
  AddStandardFlags(*sub, options->common.out);
  return {sub, [options] { return RunCrashsim(*options); }};
}

int RunCrashsim(const CrashsimCliOptions& o) {
  platform::Platform& platform = platform::Default();
  Result<std::vector<std::string>> paths = ResolveTargets(platform, o.paths);
  if (!paths.ok()) return UsageError(paths.status().message());
  std::vector<sqlite_bench::JournalMode> journals;
  for (const std::string& j : o.journal_modes)
    journals.push_back(sqlite_bench::JournalModeNames().at(j));
  std::vector<sqlite_bench::Synchronous> syncs;
  for (const std::string& s : o.synchronous)
    syncs.push_back(sqlite_bench::SynchronousNames().at(s));
  std::vector<std::uint32_t> batches;
  for (const std::string& b : o.batches)
    batches.push_back(static_cast<std::uint32_t>(std::stoul(b)));
  run::Plan plan;
  plan.command = "crashsim";
  plan.paths = *paths;
  plan.run_crashsim = true;
  // Cheap, and the summary's durability verdict needs the mount (else "not identified").
  plan.run_inspect = true;
  plan.crashsim = MakeCrashsimPlan(o, sqlite_bench::CrashsimConfigs(journals, syncs, batches));
  return ExecutePlan(platform, plan, o.common.out, [](const report::Report& r) {
    return FailedCrashsim(r) > 0 ? kExitFail : kExitOk;
  });
}

}  // namespace durprobe::cli
