// Analysis of the commit matrix: explains each configuration's commit time with the raw probe
// latencies measured on the same path, computes speedups, and writes findings. Reads data only.
#pragma once

#include <vector>

#include "probes/probe_result.h"
#include "report/report.h"
#include "sqlite_bench/commit_result.h"

namespace durprobe::report {

// A residual past this share of the measured commit time is reported as a finding.
inline constexpr double kResidualFindingShare = 0.25;

// The correlation of one result against probes. Unavailable (with `missing` saying which) when
// the probes SQLite's primitive needs were not measured or failed.
SqliteCorrelation Correlate(const sqlite_bench::CommitResult& result,
                            const std::vector<probes::ProbeResult>& probes);

// Entries for results with correlations (against probes) and speedups, no findings: what a live
// console can show as each configuration finishes.
std::vector<SqliteEntry> SqliteEntries(std::vector<sqlite_bench::CommitResult> results,
                                       const std::vector<probes::ProbeResult>& probes);

// Appends results to target.sqlite with correlations (against target.probes) and speedups, and
// adds findings: failed configurations, and large residuals of sync-bound ones.
void AddSqliteResults(Target& target, std::vector<sqlite_bench::CommitResult> results);

SyncsPerCommit SyncsOf(const sqlite_bench::CommitResult& result);
// The same for a row of the report: from its counts, or the saved figures when it has no counts.
SyncsPerCommit SyncsOf(const SqliteEntry& entry);
// Share of the commit time spent inside syncs (CommitResult::SyncTimeShare, or the saved one).
double SyncTimeShareOf(const SqliteEntry& entry);

}  // namespace durprobe::report
