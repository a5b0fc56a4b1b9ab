// Analysis of the commit matrix: explains each configuration's commit time with the raw probe
// latencies measured on the same path, computes speedups, and writes findings. Reads data only.
#pragma once

#include <vector>

#include "model/report.h"
#include "probes/probe_result.h"
#include "sqlite_bench/commit_result.h"

namespace durprobe::analysis {

// A residual past this share of the measured commit time is reported as a finding.
inline constexpr double kResidualFindingShare = 0.25;

// Whether a configuration's flushes per commit differ from those its syncs made in the probes
// enough for the explanation of its commit time to use flushes instead of syncs: apart by half
// a flush or more and by a factor of 1.5 or more (or one of them none).
bool FlushesDiffer(double flushes, double probe_flushes);

// The correlation of one result against probes. Unavailable (with `missing` saying which) when
// the probes SQLite's primitive needs were not measured or failed.
// reference_scale multiplies every probe latency (the basis says so when it is not 1). Where the
// commits' and the probes' flushes were counted and differ, the syncs' time is scaled by the
// flushes (SqliteCorrelation::flush_scale).
model::SqliteCorrelation Correlate(const sqlite_bench::CommitResult& result,
                                   const std::vector<probes::ProbeResult>& probes,
                                   double reference_scale = 1.0);

// How far the device moved between the probes and result's configuration, from the reference
// samples nearest to each (docs/accuracy.md): the ratio of their medians when it passes the
// drift thresholds (analysis/drift.h), else 1.
double ReferenceScale(const sqlite_bench::CommitResult& result, const model::Target& target);

// Entries for results with correlations (against probes) and speedups, no findings: what a live
// console can show as each configuration finishes.
// The probes and reference samples are target's.
std::vector<model::SqliteEntry> SqliteEntries(std::vector<sqlite_bench::CommitResult> results,
                                              const model::Target& target);

// Appends results to target.sqlite with correlations (against target.probes) and speedups, and
// adds findings: failed configurations, latency drift (analysis/drift.h), and large
// residuals of sync-bound configurations, except where the device's drift explains them.
void AddSqliteResults(model::Target& target, std::vector<sqlite_bench::CommitResult> results);

// Sets each entry's speedup: its rows/s (the median repetition's) over the DELETE/FULL x1 row's
// among entries, reused statements when both styles ran; unset without that row. SqliteEntries
// uses it, and the reader re-derives a saved report's speedups with it, as it does the risks.
void AssignSpeedups(std::vector<model::SqliteEntry>& entries);

model::SyncsPerCommit SyncsOf(const sqlite_bench::CommitResult& result);
// The same for a row of the report: from its counts, or the saved figures when it has no counts.
model::SyncsPerCommit SyncsOf(const model::SqliteEntry& entry);
// Share of the commit time spent inside syncs (CommitResult::SyncTimeShare, or the saved one).
double SyncTimeShareOf(const model::SqliteEntry& entry);

}  // namespace durprobe::analysis
