#include "run/check_plan.h"

#include <utility>

#include "analysis/load_findings.h"
#include "probes/runner.h"
#include "run/scratch_need.h"

namespace durprobe::run {

CheckShares SplitCheckBudget(std::uint64_t per_path_ns, bool probes, bool concurrency,
                             bool sqlite) {
  CheckShares s;
  std::uint64_t probe_part = sqlite ? per_path_ns / 2 : per_path_ns;
  if (concurrency) {  // the concurrency cells share the probes' part
    s.concurrency_ns = probes ? probe_part / 2 : probe_part;
    probe_part -= s.concurrency_ns;
  }
  if (sqlite) s.sqlite_ns = probes ? per_path_ns - probe_part : per_path_ns;
  if (probes) {
    s.remeasure_ns = probe_part / kRemeasureReserve;
    s.probes_ns = probe_part - s.remeasure_ns;
  }
  return s;
}

probes::StopRule CheckProbeRule(std::uint64_t probes_ns, std::size_t n) {
  probes::StopRule rule = probes::RuleForBudget(probes_ns, n, 0.02);
  rule.min_ops = kCheckMinOps;
  rule.warmup_ops = 50;
  rule.warmup_ns = rule.max_ns / 5;
  rule.tail_target_ci = kCheckTailCi;
  rule.tail_every_probe = true;  // a rule may read any preset probe's p99
  // A p99 from fewer is "cannot tell" (gate/latency_decision.h): each probe keeps that many
  // operations past its share, up to the run's deadline (run/flush_counting.h).
  rule.reserved_ops = probes::kTailMinOps;
  return rule;
}

std::vector<std::uint64_t> CheckReserves(const gate::Policy& policy,
                                         const std::vector<probes::ProbeSpec>& specs) {
  std::vector<std::uint64_t> reserves(specs.size(), probes::kTailMinOps);
  for (std::size_t i = 0; i < specs.size(); ++i) {
    for (const gate::LatencyRule& rule : policy.latency) {
      if (rule.spec == specs[i] && rule.stat == gate::LatencyStat::kP99) {
        reserves[i] = probes::kTailBoundOps;
      }
    }
  }
  return reserves;
}

std::optional<probes::LoadRates> CheckLoad(const std::optional<probes::LoadRates>& asked,
                                           const gate::Policy& policy) {
  std::optional<probes::LoadRates> load = asked;
  if (policy.companion_syncs_per_sec > 0 && policy.companion_sync_bytes > 0) {
    if (!load) load = probes::LoadRates{};
    load->syncs_per_sec = policy.companion_syncs_per_sec;
    load->sync_bytes = policy.companion_sync_bytes;
  }
  return load;
}

BackgroundLoads::~BackgroundLoads() { StopAll(); }

Result<BackgroundLoads> BackgroundLoads::Start(platform::Platform& platform,
                                               const std::vector<std::string>& paths,
                                               const probes::LoadRates& rates) {
  BackgroundLoads loads;
  for (const std::string& path : paths) {
    // /proc, /sys: named as no place to measure, and a path without room for the load's files
    // refused with what it needs, before the load writes anything.
    if (Status where = CheckFreeSpace(platform, path, probes::BackgroundLoad::FileBytes(rates));
        !where.ok()) {
      return Status::InvalidArgument(where.message());
    }
    Result<std::unique_ptr<platform::ScratchDir>> scratch =
        platform::ScratchDir::Create(platform, path);
    if (!scratch.ok()) {
      return Status::InvalidArgument("cannot start the background load: " +
                                     scratch.status().message());
    }
    Result<std::unique_ptr<probes::BackgroundLoad>> started =
        probes::BackgroundLoad::Start(platform, (*scratch)->work_path(), rates);
    if (!started.ok()) {
      return Status::InvalidArgument("cannot start the background load: " +
                                     started.status().message());
    }
    loads.loads_.push_back({std::move(*scratch), std::move(*started)});
  }
  return loads;
}

void BackgroundLoads::StopInto(model::Report& report) {
  for (std::size_t i = 0; i < loads_.size(); ++i) {
    probes::LoadOutcome outcome = loads_[i].load->Stop();
    (void)loads_[i].scratch->Remove();
    if (i < report.targets.size()) {
      report.targets[i].findings.push_back(analysis::LoadFinding(outcome));
    }
  }
  loads_.clear();
}

void BackgroundLoads::StopAll() {
  for (Running& l : loads_) {
    l.load->Stop();
    (void)l.scratch->Remove();
  }
  loads_.clear();
}

}  // namespace durprobe::run
