#include "run/concurrency_phase.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/concurrency_findings.h"
#include "model/labels.h"
#include "run/flush_counting.h"
#include "run/planned_time.h"
#include "text/units.h"

namespace durprobe::run {
namespace {

std::string QueueDepthLabel(const ConcurrencyPlan& plan) {
  return fmt::format("random {} O_DIRECT at queue depth {}, no sync",
                     text::FormatBytes(plan.write_size), probes::kSpecSheetQueueDepth);
}

}  // namespace

std::uint64_t ConcurrencyScratchBytes(const ConcurrencyPlan& plan) {
  std::uint32_t most = 0;
  for (std::uint32_t n : plan.writers) most = std::max(most, n);
  std::uint64_t qd = plan.queue_depth_ns > 0 ? plan.queue_depth_file_size : 0;
  return std::max<std::uint64_t>(most * plan.file_size, qd);
}

void RunConcurrencyPhase(RunState& s, const std::vector<model::Target*>& targets,
                         const std::vector<std::size_t>& scratch_index) {
  const ConcurrencyPlan& plan = s.plan.concurrency;
  std::vector<probes::FlushCounting> counting;
  for (const model::Target* t : targets)
    counting.push_back(CountingFor(s.platform, *t, s.plan.count_flushes));
  for (const probes::ConcurrencySpec& cell : ConcurrencyCells(plan)) {
    for (std::size_t k = 0; k < targets.size(); ++k) {
      model::Target& t = *targets[k];
      if (!MayStart(s)) {
        t.unfinished.push_back(
            {model::UnfinishedKind::kConcurrency, model::ConcurrencyLabel(cell), StopReason()});
        continue;
      }
      s.progress.Start("concurrency", t.path + ": " + model::ConcurrencyLabel(cell),
                       PlannedProbeNs(plan.rule));
      probes::StopRule rule = CutTo(plan.rule, s.timeline.Left());
      rule.flush_counting = counting[k];
      t.concurrency.push_back(probes::RunConcurrency(
          s.platform, s.scratch[scratch_index[k]]->work_path(), cell, rule, plan.file_size));
    }
  }
  // The counts the budget cut before the run began are not run as much as those it cuts now.
  for (probes::WriterMode mode : plan.modes) {
    for (std::uint32_t n : plan.dropped_writers) {
      for (model::Target* t : targets) {
        t->unfinished.push_back(
            {model::UnfinishedKind::kConcurrency,
             model::ConcurrencyLabel({n, mode, plan.primitive, plan.write_size}),
             model::Unfinished::kBudget});
      }
    }
  }
  for (std::size_t k = 0; plan.queue_depth_ns > 0 && k < targets.size(); ++k) {
    model::Target& t = *targets[k];
    if (!MayStart(s)) {
      t.unfinished.push_back(
          {model::UnfinishedKind::kConcurrency, QueueDepthLabel(plan), StopReason()});
      continue;
    }
    s.progress.Start("concurrency", t.path + ": " + QueueDepthLabel(plan), plan.queue_depth_ns);
    t.serial_vs_concurrent = model::SerialVsConcurrent{probes::RunQueueDepth(
        s.platform, s.scratch[scratch_index[k]]->work_path(), probes::kSpecSheetQueueDepth,
        plan.write_size, plan.queue_depth_file_size,
        std::min(plan.queue_depth_ns, s.timeline.Left()))};
  }
}

void FinishConcurrency(model::Target& t) {
  if (t.concurrency.empty() && !t.serial_vs_concurrent) return;
  probes::SetScaling(t.concurrency);
  analysis::AddConcurrencyFindings(t);
}

}  // namespace durprobe::run
