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

void AddProbeEvidence(model::Target& target, const model::Context& context) {
  for (model::Finding& f : analysis::ProbeErrorFindings(target)) target.findings.push_back(f);
  for (model::Finding& f : analysis::CpuThrottledFindings(target)) target.findings.push_back(f);
  analysis::StorageFacts facts =
      target.mount ? analysis::StorageFactsOf(*target.mount) : analysis::StorageFacts{};
  for (model::Finding& f : analysis::PlausibilityFindings(target, facts)) {
    target.findings.push_back(std::move(f));
  }
  for (model::Finding& f : analysis::DeviceFlushFindings(target)) {
    target.findings.push_back(std::move(f));
  }
  analysis::AddDeviceStates(target);
  analysis::AddDriftFindings(target);
  analysis::AssessDurability(target, context);  // the measured evidence is in
}

}  // namespace

void AnalyzeTarget(model::Target& target, const model::Context& context, Measured m,
                   const AfterSqliteRows& after_rows) {
  if (m.measured) {
    FinishConcurrency(target);
    AddProbeEvidence(target, context);
    const std::size_t first_row = target.sqlite.size();
    if (m.sqlite) analysis::AddSqliteResults(target, std::move(*m.sqlite));
    for (std::size_t i = 0; i < m.sqlite_repeats.size(); ++i) {
      if (first_row + i < target.sqlite.size()) {
        target.sqlite[first_row + i].repeats = m.sqlite_repeats[i];
      }
    }
    if (after_rows) after_rows(first_row);
    if (m.wal != nullptr) m.wal->AddFinding(target);
  }
  analysis::AddBudgetFindings(target);
  analysis::AddTooFewOperationsFindings(target);
  explain::AddPathSummary(target);  // the path's analysis is complete
}

}  // namespace durprobe::run
