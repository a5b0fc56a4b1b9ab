#include "run/analyze_target.h"

#include <utility>

#include "analysis/budget_findings.h"
#include "analysis/device_flushes.h"
#include "analysis/device_states.h"
#include "analysis/drift.h"
#include "analysis/durability_model.h"
#include "analysis/mount_findings.h"
#include "analysis/plausibility.h"
#include "analysis/probe_findings.h"
#include "analysis/sqlite_correlation.h"
#include "explain/path_summary.h"
#include "run/concurrency_phase.h"

namespace durprobe::run {
namespace {

void AddProbeEvidence(report::Target& target, const report::Context& context) {
  for (report::Finding& f : report::ProbeErrorFindings(target)) target.findings.push_back(f);
  for (report::Finding& f : report::CpuThrottledFindings(target)) target.findings.push_back(f);
  report::StorageFacts facts =
      target.mount ? report::StorageFactsOf(*target.mount) : report::StorageFacts{};
  for (report::Finding& f : report::PlausibilityFindings(target, facts)) {
    target.findings.push_back(std::move(f));
  }
  for (report::Finding& f : report::DeviceFlushFindings(target)) {
    target.findings.push_back(std::move(f));
  }
  report::AddDeviceStates(target);
  report::AddDriftFindings(target);
  report::AssessDurability(target, context);  // the measured evidence is in
}

}  // namespace

void AnalyzeTarget(report::Target& target, const report::Context& context, Measured m,
                   const AfterSqliteRows& after_rows) {
  if (m.measured) {
    FinishConcurrency(target);
    AddProbeEvidence(target, context);
    const std::size_t first_row = target.sqlite.size();
    if (m.sqlite) report::AddSqliteResults(target, std::move(*m.sqlite));
    for (std::size_t i = 0; i < m.sqlite_repeats.size(); ++i) {
      if (first_row + i < target.sqlite.size()) {
        target.sqlite[first_row + i].repeats = m.sqlite_repeats[i];
      }
    }
    if (after_rows) after_rows(first_row);
    if (m.wal != nullptr) m.wal->AddFinding(target);
  }
  report::AddBudgetFindings(target);
  report::AddTooFewOperationsFindings(target);
  report::AddPathSummary(target);  // the path's analysis is complete
}

}  // namespace durprobe::run
