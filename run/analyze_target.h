// The analysis of one measured target: the one sequence both schedules (run/path_by_path.h,
// run/interleaved.h) call, so a path's findings come in the same order whichever measured it,
// each step reading what the steps before it decided.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "model/report.h"
#include "run/wal_preflight.h"
#include "sqlite_bench/commit_result.h"

namespace durprobe::run {

// What a schedule measured on the target beyond what the target holds already.
struct Measured {
  bool measured = false;  // the plan measured anything (inspect alone does not)
  // The SQLite matrix's results, to be analysed; nullopt when the plan ran no matrix.
  std::optional<std::vector<sqlite_bench::CommitResult>> sqlite;
  // With --repeat N >= 2: each of sqlite's rows' figures over the repeats, in its order.
  std::vector<std::optional<model::SqliteRepeats>> sqlite_repeats;
  const WalGate* wal = nullptr;  // the path's WAL pre-flight, when one ran
};

// Called once the SQLite rows are analysed (step 3), before the closing steps, with the index in
// target.sqlite of the first row this analysis added: the path-by-path schedule announces the
// rows there and measures the path's workloads and crashsim, which raise no finding of their
// own but are read by the closing steps (what the budget left out, the summary).
using AfterSqliteRows = std::function<void(std::size_t first_row)>;

// The steps, in order; 1 to 4 only when m.measured:
//   1. the concurrency cells: their scaling and findings (FinishConcurrency);
//   2. the probes' evidence: probe errors, CPU throttling, plausibility against the device's
//      facts and drift, then the durability verdict again with that evidence in;
//   3. the SQLite rows (when m.sqlite): correlation, speedups, their findings and each row's
//      risk (analysis::AddSqliteResults); then after_rows, when given;
//   4. what WAL's pre-flight refused (WalGate::AddFinding);
//   5. what the budget left out (analysis::AddBudgetFindings), then the path's summary and advice.
// Findings the measurement raised itself (inspect's, the reference probe's) come before all.
void AnalyzeTarget(model::Target& target, const model::Context& context, Measured m,
                   const AfterSqliteRows& after_rows = {});

}  // namespace durprobe::run
