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
#include "cli/validators.h"
#include "gate/concurrency_rule.h"
#include "gate/policy.h"
#include "gate/presets.h"
#include "platform/crash_device.h"
#include "probes/background_load.h"
#include "render/reporter.h"
#include "run/check_command_plan.h"
#include "run/check_plan.h"
#include "run/check_remeasure.h"
#include "run/evidence_file.h"
#include "run/target_paths.h"
#include "text/units.h"

namespace durprobe::cli {
namespace {

// A policy is a few rules: a larger file is refused, not read in part.
constexpr std::size_t kMaxPolicyBytes = 1u << 20;

std::string Extension(const std::string& file) {
  std::size_t dot = file.rfind('.');
  return dot == std::string::npos ? "" : file.substr(dot + 1);
}

}  // namespace

Result<gate::Policy> MakePolicy(platform::Platform& platform, const CheckOptions& o) {
  gate::Policy policy;
  for (const std::string& name : o.presets) {
    Result<gate::Policy> preset = gate::Preset(name);
    if (!preset.ok()) return preset.status();
    gate::Merge(policy, *preset);
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
    Result<gate::Policy> file = gate::ParsePolicy(*text, format, o.policy_file);
    if (!file.ok()) return file.status();
    gate::Merge(policy, *file);
  }
  gate::Policy flags;
  flags.source = "command line";
  for (const auto& [items, stat] : {std::pair{&o.max_p99, gate::LatencyStat::kP99},
                                    std::pair{&o.max_p50, gate::LatencyStat::kP50}}) {
    for (const std::string& item : *items) {
      Result<gate::LatencyRule> rule = gate::ParseLatencyFlag(item, stat);
      if (!rule.ok()) return rule.status();
      flags.latency.push_back(*rule);
    }
  }
  for (const std::string& item : o.min_commits) {
    Result<gate::CommitRule> rule = gate::ParseCommitFlag(item);
    if (!rule.ok()) return rule.status();
    flags.commits.push_back(*rule);
  }
  if (Status s = gate::ParseFailOn(o.fail_on, flags); !s.ok()) return s;
  if (Status s = gate::ParseRequire(o.require, flags); !s.ok()) return s;
  if (!flags.empty()) gate::Merge(policy, flags);
  if (policy.empty()) {
    return Status::InvalidArgument(
        "no rules: give --preset, --policy or a rule flag (--max-sync-p99, --min-commits, ...)");
  }
  if (Status s = gate::UniqueRuleNames(policy); !s.ok()) return s;
  return policy;
}

int CheckExitCode(const std::vector<model::CheckResult>& checks) {
  bool error = false;
  for (const model::CheckResult& c : checks) {
    if (c.outcome == model::CheckOutcome::kFail) return kExitFail;
    error = error || c.outcome == model::CheckOutcome::kError ||
            c.outcome == model::CheckOutcome::kUnstable;
  }
  if (!error) return kExitOk;
  // Could not measure: said on stderr even with --quiet, as every other exit 2 is.
  for (const model::CheckResult& c : checks) {
    if (c.outcome == model::CheckOutcome::kUnstable) {
      PrintError(fmt::format("{}: {}: {}", c.path, c.rule, c.message));
      continue;
    }
    if (c.outcome != model::CheckOutcome::kError) continue;
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
      ->transform(OneOf(gate::PresetNames(), "preset"));
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
                   output::Document::kReport, /*rules=*/true);
  return {sub, [o] { return RunCheck(*o); }};
}

int RunCheck(const CheckOptions& o) {
  platform::Platform& platform = platform::Default();
  Result<std::vector<std::string>> paths = run::ResolveTargets(platform, o.paths);
  if (!paths.ok()) return UsageError(paths.status().message());
  Result<gate::Policy> policy = MakePolicy(platform, o);
  if (!policy.ok()) return UsageError(policy.status().message());
  Result<run::CheckCommandPlan> made =
      run::MakeCheckPlan(platform, *paths, *policy, o, o.common, o.common.out.dry_run);
  if (!made.ok()) return UsageError(made.status().message());
  run::Plan& plan = made->plan;
  if (Status s = run::LoadEvidence(platform, o.evidence, plan); !s.ok()) {
    return UsageError(s.message());
  }
  if (Status ok = output::CheckDestinations(platform, Destinations(o.common.out)); !ok.ok()) {
    return UsageError(ok.message());
  }
  // Stopped when the run is analysed, or when `loads` goes out of scope if the run ended first.
  run::BackgroundLoads loads;
  if (made->load && !o.common.out.dry_run) {
    Result<run::BackgroundLoads> started =
        run::BackgroundLoads::Start(platform, *paths, *made->load);
    if (!started.ok()) return UsageError(started.status().message());
    loads = std::move(*started);
  }
  run::RemeasurePlan remeasure{plan.probes.rule, plan.probes.op_options,
                               platform.NowNanos() + plan.budget_ns};
  auto analyze = [&](model::Report& r) {
    run::JudgeCheck(platform, *policy, remeasure, loads, r);
    if (r.context.interrupted) gate::MarkInterrupted(r.checks, *paths, r.context.interrupt_signal);
  };
  // Interrupted, a check did not measure: exit 2 as any check that could not (README,
  // docs/provisioning.md), not 128+signal, which CI may not read as a failed gate.
  return ExecutePlan(
      platform, plan, o.common.out, [](const model::Report& r) { return CheckExitCode(r.checks); },
      analyze, kExitUsage);
}

}  // namespace durprobe::cli
