#include "cli/cmd_check.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/evidence_option.h"
#include "cli/execute_plan.h"
#include "cli/exit_status.h"
#include "cli/target_paths.h"
#include "cli/validators.h"
#include "gate/concurrency_rule.h"
#include "gate/policy.h"
#include "gate/presets.h"
#include "platform/crash_device.h"
#include "probes/background_load.h"
#include "render/reporter.h"
#include "run/check_plan.h"
#include "run/check_remeasure.h"
#include "text/units.h"

namespace durprobe::cli {
namespace {

constexpr std::uint64_t kCheckBudgetNs = 30'000'000'000;
constexpr std::uint64_t kCheckQuickBudgetNs = 3'500'000'000;  // + inspect and setup: within 5 s
// A policy is a few rules: a larger file is refused, not read in part.
constexpr std::size_t kMaxPolicyBytes = 1u << 20;

std::string Extension(const std::string& file) {
  std::size_t dot = file.rfind('.');
  return dot == std::string::npos ? "" : file.substr(dot + 1);
}

Result<probes::LoadRates> ParseLoad(const std::string& text) {
  probes::LoadRates rates;
  std::size_t comma = text.find(',');
  auto bad = [&] {
    return Status::InvalidArgument(fmt::format(
        "invalid --background-load '{}': expected READS,WRITES per second, e.g. 200,100", text));
  };
  if (comma == std::string::npos) return bad();
  char* end = nullptr;
  std::string r = text.substr(0, comma), w = text.substr(comma + 1);
  rates.reads_per_sec = std::strtod(r.c_str(), &end);
  if (r.empty() || *end != '\0') return bad();
  rates.writes_per_sec = std::strtod(w.c_str(), &end);
  if (w.empty() || *end != '\0') return bad();
  if (rates.reads_per_sec < 0 || rates.writes_per_sec < 0 ||
      rates.reads_per_sec + rates.writes_per_sec <= 0 ||
      rates.reads_per_sec + rates.writes_per_sec > 1e6) {
    return Status::InvalidArgument(fmt::format(
        "invalid --background-load '{}': rates must be 0 or more, not both 0, at most 1e6", text));
  }
  return rates;
}

}  // namespace

Result<report::Policy> MakePolicy(platform::Platform& platform, const CheckOptions& o) {
  report::Policy policy;
  for (const std::string& name : o.presets) {
    Result<report::Policy> preset = report::Preset(name);
    if (!preset.ok()) return preset.status();
    report::Merge(policy, *preset);
  }
  if (!o.policy_file.empty()) {
    // One byte over the limit is read, so a longer file is refused, never cut (a cut file read
    // as fewer rules, or a `min = 100000` as `min = 1`).
    Result<std::string> text = platform.ReadTextFile(o.policy_file, kMaxPolicyBytes + 1);
    if (!text.ok())
      return Status::InvalidArgument("cannot read the policy: " + text.status().message());
    if (text->size() > kMaxPolicyBytes) {
      return Status::InvalidArgument(fmt::format(
          "{}: the policy is over 1 MiB: a policy is a few rules; refusing it rather than reading "
          "part of it",
          o.policy_file));
    }
    std::string format = Extension(o.policy_file) == "json" ? "json" : "toml";
    Result<report::Policy> file = report::ParsePolicy(*text, format, o.policy_file);
    if (!file.ok()) return file.status();
    report::Merge(policy, *file);
  }
  report::Policy flags;
  flags.source = "command line";
  for (const auto& [items, stat] : {std::pair{&o.max_p99, report::LatencyStat::kP99},
                                    std::pair{&o.max_p50, report::LatencyStat::kP50}}) {
    for (const std::string& item : *items) {
      Result<report::LatencyRule> rule = report::ParseLatencyFlag(item, stat);
      if (!rule.ok()) return rule.status();
      flags.latency.push_back(*rule);
    }
  }
  for (const std::string& item : o.min_commits) {
    Result<report::CommitRule> rule = report::ParseCommitFlag(item);
    if (!rule.ok()) return rule.status();
    flags.commits.push_back(*rule);
  }
  if (Status s = report::ParseFailOn(o.fail_on, flags); !s.ok()) return s;
  if (Status s = report::ParseRequire(o.require, flags); !s.ok()) return s;
  if (!flags.empty()) report::Merge(policy, flags);
  if (policy.empty()) {
    return Status::InvalidArgument(
        "no rules: give --preset, --policy or a rule flag (--max-sync-p99, --min-commits, ...)");
  }
  if (Status s = report::UniqueRuleNames(policy); !s.ok()) return s;
  return policy;
}

Result<WritersOptions> CheckWriters(const CheckOptions& o, const report::Policy& policy) {
  Result<report::ConcurrencyNeeds> needs = report::NeedsOf(policy.concurrency);
  if (!needs.ok()) return needs.status();
  WritersOptions w = o.writers;
  if (needs->writers.empty()) return w;
  for (std::uint32_t n : needs->writers) w.writers.push_back(std::to_string(n));
  if (!o.writers.asked() || !o.writers.modes.empty()) {
    for (probes::WriterMode m : needs->modes) w.modes.push_back(std::string(probes::NameOf(m)));
  }
  w.primitive = std::string(probes::NameOf(needs->primitive));
  w.write_size = needs->write_size;
  return w;
}

int CheckExitCode(const std::vector<report::CheckResult>& checks) {
  bool error = false;
  for (const report::CheckResult& c : checks) {
    if (c.outcome == report::CheckOutcome::kFail) return kExitFail;
    error = error || c.outcome == report::CheckOutcome::kError ||
            c.outcome == report::CheckOutcome::kUnstable;
  }
  if (!error) return kExitOk;
  // Could not measure: said on stderr even with --quiet, as every other exit 2 is.
  for (const report::CheckResult& c : checks) {
    if (c.outcome == report::CheckOutcome::kUnstable) {
      PrintError(fmt::format("{}: {}: {}", c.path, c.rule, c.message));
      continue;
    }
    if (c.outcome != report::CheckOutcome::kError) continue;
    PrintError(fmt::format("{}: {}: not measured: {}", c.path, c.rule,
                           c.message.empty() ? "no value" : c.message));
  }
  return kExitUsage;
}

Subcommand SetupCheck(CLI::App& app) {
  auto o = std::make_shared<CheckOptions>();
  CLI::App* sub = app.add_subcommand(
      "check", "Pass or fail each PATH against rules: exit 0 passed, 1 failed, 2 not measured");
  sub->add_option("PATH", o->paths, "Directories to check")->required();
  AddEvidenceOption(*sub, o->evidence);
  sub->add_option("--policy", o->policy_file, "Rules from a TOML (or .json) policy file")
      ->type_name("FILE");
  AddListOption(*sub, "--preset", o->presets, "Built-in rule sets: etcd, postgres-wal, sqlite-app")
      ->transform(OneOf(report::PresetNames(), "preset"));
  AddListOption(*sub, "--max-sync-p99", o->max_p99,
                "Sync p99 limit: 10ms (fdatasync overwrite 4k) or PRIMITIVE:PATTERN:SIZE=10ms");
  AddListOption(*sub, "--max-sync-p50", o->max_p50, "Sync p50 limit, same forms");
  AddListOption(*sub, "--min-commits", o->min_commits,
                "SQLite single-row commit floor: JOURNAL:SYNC>=RATE, e.g. WAL:FULL>=500");
  AddListOption(*sub, "--fail-on", o->fail_on,
                "Findings that fail the check: codes, or a severity (info, warn, fail)");
  AddListOption(*sub, "--require", o->require,
                "Facts each path must have: write_through_or_fua, not_network_fs, not_overlay, "
                "durable, fsync_error_reported (runs durprobe faults; root)");
  sub->add_option("--background-load", o->background_load,
                  "Keep READS,WRITES 4 KiB IOPS going on the path while measuring")
      ->type_name("R,W");
  AddWritersOptions(*sub, o->writers);
  AddCommonOptions(*sub, o->common,
                   "Short run: what the rules need with a 3.5 s budget instead of 30 s", "30s",
                   report::Document::kReport, /*rules=*/true);
  return {sub, [o] { return RunCheck(*o); }};
}

int RunCheck(const CheckOptions& o) {
  platform::Platform& platform = platform::Default();
  Result<std::vector<std::string>> paths = ResolveTargets(platform, o.paths);
  if (!paths.ok()) return UsageError(paths.status().message());
  Result<report::Policy> policy = MakePolicy(platform, o);
  if (!policy.ok()) return UsageError(policy.status().message());
  Result<std::uint64_t> budget = BudgetNanos(o.common, kCheckBudgetNs, kCheckQuickBudgetNs);
  if (!budget.ok()) return UsageError(budget.status().message());
  std::optional<probes::LoadRates> asked_load;
  if (!o.background_load.empty()) {
    Result<probes::LoadRates> rates = ParseLoad(o.background_load);
    if (!rates.ok()) return UsageError(rates.status().message());
    asked_load = *rates;
  }
  std::optional<probes::LoadRates> load = run::CheckLoad(asked_load, *policy);

  run::Plan plan;
  plan.command = "check";
  plan.options = BudgetOptions(o.common, *budget);
  plan.budget_ns = *budget;
  plan.repeats = o.common.repeat;
  plan.count_flushes = !o.common.no_flush_count;
  plan.paths = *paths;
  if (Status s = LoadEvidence(platform, o.evidence, plan); !s.ok()) return UsageError(s.message());
  plan.run_inspect = true;  // the facts, the findings and the plausibility checks need it
  std::vector<probes::ProbeSpec> specs = policy->ProbeSpecs();
  std::vector<sqlite_bench::CommitConfig> configs = policy->CommitConfigs();
  Result<WritersOptions> writers = CheckWriters(o, *policy);
  if (!writers.ok()) return UsageError(writers.status().message());
  const run::CheckShares shares = run::SplitCheckBudget(*budget / paths->size(), !specs.empty(),
                                                        writers->asked(), !configs.empty());
  if (writers->asked()) {
    Result<run::ConcurrencyPlan> c =
        MakeConcurrencyPlan(*writers, shares.concurrency_ns, plan.probes.op_options.file_size);
    if (!c.ok()) return UsageError(c.status().message());
    plan.run_concurrency = true;
    plan.concurrency = *c;
  }
  if (!specs.empty()) {
    plan.run_probes = true;
    plan.probes.specs = specs;
    plan.probes.rule = run::CheckProbeRule(shares.probes_ns, specs.size());
    if (policy->probe_file_size != 0) plan.probes.op_options.file_size = policy->probe_file_size;
    for (const probes::ProbeSpec& spec : specs) {
      if (probes::BytesPerOp(spec) > plan.probes.op_options.file_size) {
        return UsageError(fmt::format("write size {} is larger than the probe file ({})",
                                      probes::BytesPerOp(spec), plan.probes.op_options.file_size));
      }
    }
  }
  if (!configs.empty()) {
    plan.run_sqlite = true;
    plan.sqlite.configs = configs;
    plan.sqlite.options.budget_ns = sqlite_bench::PerConfigBudget(shares.sqlite_ns, configs.size());
  }

  // fsync_error_reported is measured on the crash device: durprobe faults on each path, its
  // filesystem made afresh per experiment (SQLite's part left out: no rule reads it).
  if (std::find(policy->facts.begin(), policy->facts.end(), report::Fact::kFsyncErrorReported) !=
      policy->facts.end()) {
    if (!o.common.out.dry_run) {
      if (Status s = platform::CrashDeviceMissing(platform); !s.ok()) {
        return UsageError("check: fsync_error_reported runs durprobe faults: " + s.message());
      }
    }
    plan.run_faults = true;
    plan.faults.sqlite = false;
  }
  if (Status ok = report::CheckDestinations(platform, Destinations(o.common.out)); !ok.ok()) {
    return UsageError(ok.message());
  }
  // Stopped when the run is analysed, or when `loads` goes out of scope if the run ended first.
  run::BackgroundLoads loads;
  if (load && !o.common.out.dry_run) {
    Result<run::BackgroundLoads> started = run::BackgroundLoads::Start(platform, *paths, *load);
    if (!started.ok()) return UsageError(started.status().message());
    loads = std::move(*started);
  }
  run::RemeasurePlan remeasure{plan.probes.rule, plan.probes.op_options,
                               platform.NowNanos() + *budget};
  auto analyze = [&](report::Report& r) {
    run::JudgeCheck(platform, *policy, remeasure, loads, r);
    if (r.context.interrupted)
      report::MarkInterrupted(r.checks, *paths, r.context.interrupt_signal);
  };
  // Interrupted, a check did not measure: exit 2 as any check that could not (README,
  // docs/provisioning.md), not 128+signal, which CI may not read as a failed gate.
  return ExecutePlan(
      platform, plan, o.common.out, [](const report::Report& r) { return CheckExitCode(r.checks); },
      analyze, kExitUsage);
}

}  // namespace durprobe::cli
