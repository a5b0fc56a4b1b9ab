#include "run/schedule.h"

#include <fmt/format.h>

#include "analysis/durability_model.h"
#include "analysis/mount_findings.h"
#include "analysis/powercut_verdict.h"
#include "model/finding_codes.h"
#include "platform/inspect.h"
#include "platform/interrupt.h"

namespace durprobe::run {

void InspectTarget(platform::Platform& platform, const model::Context& context,
                   model::Target& target, const model::PowercutEvidence* evidence) {
  Result<platform::MountInfo> mount = platform::InspectPath(platform, target.path);
  if (mount.ok()) {
    for (model::Finding& f : analysis::MountFindings(*mount)) target.findings.push_back(f);
    target.mount = std::move(*mount);
  } else {
    target.findings.push_back({model::Severity::kWarn, model::codes::kInspectFailed,
                               "could not identify the mount: " + mount.status().message()});
  }
  for (model::Finding& f : analysis::EnvironmentFindings(context)) target.findings.push_back(f);
  if (evidence != nullptr) analysis::ApplyPowercutEvidence(target, *evidence);
  analysis::AssessDurability(target, context);
}

bool Interrupted() { return platform::InterruptSignal() != 0; }

bool ScratchesInPlace(const RunState& s) {
  if (s.stopped != nullptr && !s.stopped->ok()) return false;
  for (const std::unique_ptr<platform::ScratchDir>& dir : s.scratch) {
    Status here = dir->CheckInPlace();
    if (here.ok()) continue;
    if (s.stopped != nullptr) *s.stopped = std::move(here);
    return false;
  }
  return true;
}

bool MayStart(const RunState& s) {
  return !Interrupted() && !s.timeline.Spent() && ScratchesInPlace(s);
}

bool MayStartReserved(const RunState& s) {
  const bool spent = s.plan.run_sqlite ? s.timeline.Spent() : s.timeline.RunSpent();
  return !Interrupted() && !spent && ScratchesInPlace(s);
}

std::uint64_t ReserveDeadlineNs(const RunState& s) {
  return s.plan.run_sqlite ? s.timeline.DeadlineNs() : s.timeline.RunDeadlineNs();
}

std::string RepetitionsLabel(const std::string& label, std::uint32_t done, std::uint32_t planned) {
  return fmt::format("{}: {} of {} repetitions", label, done, planned);
}

std::string RepeatsLabel(const std::string& label, int done, int planned) {
  return fmt::format("{}: {} of {} repeats", label, done, planned);
}

std::string RepeatPhase(const std::string& phase, int repeat, int repeats) {
  return repeats > 1 ? fmt::format("repeat {}/{} {}", repeat + 1, repeats, phase) : phase;
}

model::UnfinishedReason StopReason() {
  return Interrupted() ? model::Unfinished::kInterrupted : model::Unfinished::kBudget;
}

}  // namespace durprobe::run
