#include "run/reference.h"

#include <algorithm>

#include "model/finding_codes.h"
#include "model/labels.h"
#include "probes/runner.h"

namespace durprobe::run {
namespace {

constexpr std::uint64_t kReferenceFileSize = 1u << 20;

std::uint64_t Since(std::uint64_t t, std::uint64_t origin) { return t > origin ? t - origin : 0; }

}  // namespace

probes::ProbeSpec ReferenceSpec(platform::Platform& platform) {
  bool fdatasync = platform.SupportsSync(platform::SyncCall::kFdatasync).ok();
  return {fdatasync ? probes::Primitive::kFdatasync : probes::Primitive::kFsync,
          probes::Pattern::kOverwrite, 4096};
}

probes::StopRule ReferenceRule(std::uint64_t share_ns) {
  probes::StopRule rule;
  const std::uint64_t bound = share_ns == kNoDeadline ? kNoDeadline : share_ns / 10;
  rule.warmup_ops = 2;
  rule.warmup_ns = std::min<std::uint64_t>(20'000'000, bound / 4);
  rule.min_ops = 40;
  rule.min_ns = 0;
  rule.max_ns =
      std::max<std::uint64_t>(1, std::min<std::uint64_t>(100'000'000, bound - rule.warmup_ns));
  rule.max_ops = 40;
  rule.ci_shown = false;
  return rule;
}

void SampleReference(platform::Platform& platform, const std::string& dir,
                     const std::string& before, std::uint64_t origin_ns, model::Target& target,
                     std::uint64_t file_size, std::uint64_t share_ns) {
  probes::ProbeSpec spec = ReferenceSpec(platform);
  std::string own = dir + "/" + kReferenceDir;
  if (!platform.MakeDirectory(own).ok()) return;
  std::uint64_t start = platform.NowNanos();
  probes::LoopOutcome loop =
      probes::SampleProbe(platform, own, spec, ReferenceRule(share_ns),
                          probes::OpOptions{.file_size = std::min(kReferenceFileSize, file_size)});
  (void)platform.RemoveDirectory(own);  // what it leaves goes with the scratch directory
  if (!loop.status.ok() && loop.status.kind() != Status::Kind::kInterrupted) {
    // A failed sync is reported, never dropped (the storage may have lost writes); once per path.
    const std::string subject = "reference probe " + model::ProbeLabel(spec);
    bool said = std::any_of(target.findings.begin(), target.findings.end(), [&](const auto& f) {
      return f.code == model::codes::kProbeError && f.subject == subject;
    });
    if (!said) {
      target.findings.push_back(
          {model::Severity::kFail, model::codes::kProbeError,
           "the reference probe (" + model::ProbeLabel(spec) + ") could not be measured before " +
               before + ": " + loop.status.message() +
               ". Its sample is left out; a failed sync means the storage may have lost writes.",
           subject});
    }
  }
  if (!loop.status.ok() || loop.ops == 0) return;
  probes::LatencySummary s = probes::Summarize(loop.total);
  target.reference_probe = model::ProbeLabel(spec);
  target.reference.push_back({Since(start, origin_ns), before, loop.ops, s.p50, s.mean});
}

void Rebase(probes::ProbeResult& r, std::uint64_t origin_ns) {
  for (probes::SeriesPoint& p : r.series) p.start_ns = Since(p.start_ns, origin_ns);
}

void Rebase(sqlite_bench::CommitResult& r, std::uint64_t origin_ns) {
  for (sqlite_bench::Repetition& w : r.repetition_windows) {
    w.start_ns = Since(w.start_ns, origin_ns);
    w.end_ns = Since(w.end_ns, origin_ns);
  }
}

}  // namespace durprobe::run
