// What check decides before it measures, apart from its options: how one path's share of the
// budget is split between the probes the rules read, the concurrency cells and the SQLite
// matrix; the stop rule those probes run under; and the background load that runs beside them
// on each path (its own scratch directory and thread, from before the first probe to the
// analysis), whose outcome becomes a finding (analysis/load_findings.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gate/policy.h"
#include "model/report.h"
#include "platform/platform.h"
#include "platform/scratch.h"
#include "probes/background_load.h"
#include "probes/timed_loop.h"

namespace durprobe::run {

// One path's budget, in ns, for what the policy measures.
struct CheckShares {
  std::uint64_t probes_ns = 0;
  std::uint64_t concurrency_ns = 0;
  std::uint64_t sqlite_ns = 0;  // the whole matrix's, before it is split per configuration
  // Held back from the probes for re-measuring a rule the drift left unstable
  // (run/check_remeasure.h); not spent when every rule is decided.
  std::uint64_t remeasure_ns = 0;
};

// The probes' part kept for re-measures: one part in kRemeasureReserve.
inline constexpr std::uint64_t kRemeasureReserve = 5;

// The probes take half of per_path_ns when the policy has SQLite rules too, else all of it; the
// concurrency cells take half of the probes' part (all of it when no probe rule needs it), and
// the re-measures a fifth of what is left (kRemeasureReserve). The SQLite matrix takes what the
// probes leave: per_path_ns less the probes' part, all of per_path_ns when there are no probes.
// A part nothing needs is 0.
CheckShares SplitCheckBudget(std::uint64_t per_path_ns, bool probes, bool concurrency, bool sqlite);

// Enough syncs for a p99 to rest on ten tail samples before a probe may stop early.
inline constexpr std::uint64_t kCheckMinOps = 1000;
// The p99's CI target of check's probes: every rule of a preset may read a probe's p99, so
// each probe waits for it (StopRule::tail_every_probe) as run waits for its WAL syncs'.
inline constexpr double kCheckTailCi = 0.10;
// The stop rule of check's probes: probes_ns split over n probes (probes::RuleForBudget), at
// least kCheckMinOps each, and a longer warm-up than probe's (50 operations, a fifth of the
// timed phase), waiting for the p99 too (kCheckTailCi), so a first burst (cold cache, a
// thin-provisioned volume's first touch) does not count against a tail rule. Each keeps
// probes::kTailMinOps operations in reserve (StopRule::reserved_ops): what a p99 rule reads.
probes::StopRule CheckProbeRule(std::uint64_t probes_ns, std::size_t n);

// Per spec, the operations it keeps in reserve: kTailBoundOps where a p99 rule reads it (fewer
// can show a p99 over the limit, never under it: gate/latency_decision.h), else the rule's
// kTailMinOps.
std::vector<std::uint64_t> CheckReserves(const gate::Policy& policy,
                                         const std::vector<probes::ProbeSpec>& specs);

// The load to run beside the rules: asked (--background-load) with the policy's companion syncs
// (the etcd preset's bbolt commits) added when the policy has them; nullopt when neither.
std::optional<probes::LoadRates> CheckLoad(const std::optional<probes::LoadRates>& asked,
                                           const gate::Policy& policy);

// The background load on each path, each in a scratch directory of its own, from Start until
// StopInto, or until it is destroyed when the run ended before analysis (bad input, a refused
// scratch).
class BackgroundLoads {
 public:
  BackgroundLoads() = default;
  BackgroundLoads(BackgroundLoads&&) = default;
  BackgroundLoads& operator=(BackgroundLoads&&) = default;
  ~BackgroundLoads();

  // Starts rates on every path in turn. InvalidArgument with a one-line message when a path is
  // no place to measure (run::CheckFreeSpace's) or its scratch or load cannot start ("cannot
  // start the background load: ..."); the loads started before it stop then.
  static Result<BackgroundLoads> Start(platform::Platform& platform,
                                       const std::vector<std::string>& paths,
                                       const probes::LoadRates& rates);

  // Stops every load, removes its scratch directory and adds its LoadFinding to the target of
  // the same index in report (the targets are in the order of the paths). Later calls do
  // nothing.
  void StopInto(model::Report& report);

  std::size_t size() const { return loads_.size(); }

 private:
  struct Running {
    std::unique_ptr<platform::ScratchDir> scratch;
    std::unique_ptr<probes::BackgroundLoad> load;
  };
  void StopAll();

  std::vector<Running> loads_;
};

}  // namespace durprobe::run
