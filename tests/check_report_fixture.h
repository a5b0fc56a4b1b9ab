// A check report as two hosts' paths would produce it, for the output tests: a pass, a tail
// failure, an error and a skip, with probe histograms, a SQLite entry and findings.
#pragma once

#include "analysis/durability_risk.h"
#include "model/report.h"

namespace durprobe::testing_support {

inline model::Report CheckReportFixture() {
  model::Report report;
  report.context.durprobe_version = "0.1.0";
  report.context.host = "db-1";
  report.context.started_at = "2026-11-30T16:09:25Z";
  report.context.command = "check";
  model::Target t;
  t.path = "/var/lib/etcd";
  probes::ProbeResult r;
  r.spec = {probes::Primitive::kFdatasync, probes::Pattern::kPreallocated, 2300};
  r.ops = 1000;
  r.ops_per_sec = 400;
  r.seconds = 2.5;
  r.has_sync_part = true;
  r.sync_latency = {.count = 1000,
                    .p50 = 800'000,
                    .p90 = 1'500'000,
                    .p95 = 3'400'000,
                    .p99 = 67'000'000,
                    .p999 = 90'000'000,
                    .max = 95'000'000,
                    .mean = 1'500'000};
  r.sync_histogram = {
      {50'000, 10}, {799'999, 500}, {3'399'999, 450}, {66'999'999, 30}, {94'999'999, 10}};
  r.latency = r.sync_latency;
  r.histogram = r.sync_histogram;
  t.probes.push_back(r);
  model::SqliteEntry e;
  e.result.config.journal = sqlite_bench::JournalMode::kWal;
  e.result.config.sync = sqlite_bench::Synchronous::kFull;
  e.result.commits = 300;
  e.result.commits_per_sec = 512.5;
  t.sqlite.push_back(e);
  t.findings = {{model::Severity::kWarn, "sync_tail_heavy", "p99 is 80x the p50 \"heavy\" <tail>"}};
  analysis::AssessRisks(t);
  report.targets.push_back(t);

  model::CheckResult pass{.rule = "etcd_backend_commit_p99",
                          .path = t.path,
                          .outcome = model::CheckOutcome::kPass,
                          .measured = 0.004,
                          .threshold = 0.025,
                          .comparison = model::CheckComparison::kBelow,
                          .unit = model::CheckUnit::kSeconds,
                          .message = "fine"};
  model::CheckResult fail{.rule = "etcd_wal_fsync_p99",
                          .path = t.path,
                          .outcome = model::CheckOutcome::kFail,
                          .measured = 0.067,
                          .threshold = 0.010,
                          .comparison = model::CheckComparison::kBelow,
                          .unit = model::CheckUnit::kSeconds,
                          .message = "p99 67 ms & p95 3.4 ms: <tail failure>",
                          .samples = 1000,
                          .tail_failure = true};
  model::CheckResult error{.rule = "min_commits_DELETE_FULL",
                           .path = t.path,
                           .outcome = model::CheckOutcome::kError,
                           .threshold = 50,
                           .comparison = model::CheckComparison::kAtLeast,
                           .unit = model::CheckUnit::kCommitsPerSec,
                           .message = "DELETE/FULL was not measured"};
  model::CheckResult skipped{.rule = "max_p99_full_fsync_overwrite_4096",
                             .path = "/srv/other \"dir\"",
                             .outcome = model::CheckOutcome::kSkipped,
                             .threshold = 0.001,
                             .comparison = model::CheckComparison::kBelow,
                             .unit = model::CheckUnit::kSeconds,
                             .message = "full_fsync is unsupported here"};
  report.checks = {pass, fail, error, skipped};
  return report;
}

}  // namespace durprobe::testing_support
