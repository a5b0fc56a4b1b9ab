// The interleaved schedule (compare): probe rounds over every path in turn, merged per path,
// then each SQLite configuration on every path in turn, so drift and noise fall on all paths
// alike instead of on whichever ran first.
#include "run/interleaved.h"

#include <fmt/format.h>

#include "model/labels.h"
#include "run/analyze_target.h"
#include "run/concurrency_phase.h"
#include "run/flush_counting.h"
#include "run/planned_time.h"
#include "run/reference.h"
#include "run/repeated_samples.h"
#include "run/wal_preflight.h"

namespace durprobe::run {
namespace {

// Each SQLite configuration on every path in turn, the paths in an order that rotates with the
// configuration, after one untimed warm-up configuration on every path: no path is always the
// first to run (and to pay for warming up SQLite, the page cache and the device). The reference
// probe is sampled on a path before each of its configurations and at the end.
// wal holds each path's pre-flight; what it refused is said by the analysis (run/analyze_target.h).
// counting holds where each path's flushes are counted (CountingFor), found once by the caller.
void RunSqliteInterleaved(
    RunState& s, std::vector<model::Target>& targets,
    std::vector<std::vector<sqlite_bench::CommitResult>>& commits,
    std::vector<std::vector<std::optional<model::SqliteRepeats>>>& spread_rows,
    std::vector<WalGate>& wal, const std::vector<probes::FlushCounting>& counting) {
  const Plan& plan = s.plan;
  const std::size_t n = plan.paths.size();
  std::vector<Result<std::unique_ptr<sqlite_bench::CommitSession>>> sessions;
  for (std::size_t p = 0; p < n; ++p) {
    sessions.push_back(sqlite_bench::CommitSession::Open(s.platform, s.scratch[p]->work_path()));
    wal.emplace_back(s.platform, s.scratch[p]->work_path(), NeedsWal(plan));
  }
  if (!plan.sqlite.configs.empty()) {
    const sqlite_bench::CommitConfig& first = plan.sqlite.configs.front();
    // A tenth of the phase at most, shared by the paths: on slow syncs the warm-up's commits
    // would otherwise take the time the configurations were given.
    const std::uint64_t left = s.timeline.Left();
    const std::uint64_t share = left == kNoDeadline ? 0 : left / 10 / n;
    for (std::size_t p = 0; p < n && MayStart(s); ++p) {
      std::uint64_t until = left == kNoDeadline ? 0 : s.platform.NowNanos() + share;
      if (sessions[p].ok() && (!UsesWal(first) || wal[p].usable())) {
        (*sessions[p])->WarmUp(first, until);
      }
    }
  }
  sqlite_bench::CommitOptions options = plan.sqlite.options;
  options.deadline_ns = s.timeline.DeadlineNs();
  const std::uint32_t reps = options.TimedRepetitions();
  const std::size_t configs = plan.sqlite.configs.size();
  const int repeats = plan.Repeats();
  // Each repeat's run of each configuration on each path; a run that did not end ok (refused,
  // failed, interrupted) is not run again.
  std::vector<std::vector<std::vector<sqlite_bench::CommitResult>>> runs(
      n, std::vector<std::vector<sqlite_bench::CommitResult>>(configs));
  // Each configuration on each path gets at most its share of the phase's time left
  // (run/deadline.h StepShares); its budget holds its setup and read-back, so what it is given
  // counts as timed, and the reference samples between are the fixed cost.
  StepShares shares(s.platform, s.timeline, configs * n * static_cast<std::uint64_t>(repeats));
  for (int repeat = 0; repeat < repeats; ++repeat) {
    for (std::size_t c = 0; c < configs; ++c) {
      const sqlite_bench::CommitConfig& config = plan.sqlite.configs[c];
      std::string label = sqlite_bench::Label(config);
      for (std::size_t k = 0; k < n; ++k) {
        std::size_t p = (c + k) % n;
        std::vector<sqlite_bench::CommitResult>& got = runs[p][c];
        if ((!got.empty() && got.back().outcome != probes::Outcome::kOk) || !MayStart(s)) {
          continue;
        }
        if (UsesWal(config) && !wal[p].usable()) {
          got.push_back(wal[p].Refuse(config));
          continue;
        }
        SampleReference(s.platform, s.scratch[p]->work_path(),
                        repeat == 0 ? label : RepeatPhase(label, repeat, repeats), s.origin_ns,
                        targets[p], s.plan.probes.op_options.file_size);
        s.progress.Start(RepeatPhase("sqlite", repeat, repeats), plan.paths[p] + ": " + label,
                         plan.sqlite.options.budget_ns);
        sqlite_bench::CommitOptions cut = options;
        cut.budget_ns = std::min(options.budget_ns, shares.Share());
        cut.flush_counting = counting[p];
        const std::uint64_t began = s.platform.NowNanos();
        got.push_back(sessions[p].ok() ? (*sessions[p])->Run(config, cut)
                                       : sqlite_bench::NotRun(config, probes::Outcome::kError,
                                                              sessions[p].status().message()));
        Rebase(got.back(), s.origin_ns);
        shares.Done(s.platform.NowNanos() - began);
        const sqlite_bench::CommitResult& r = got.back();
        if (r.outcome == probes::Outcome::kOk && r.repetitions < reps) {
          targets[p].unfinished.push_back({model::UnfinishedKind::kSqlite,
                                           RepetitionsLabel(label, r.repetitions, reps),
                                           StopReason()});
        }
      }
    }
  }
  for (std::size_t p = 0; p < n; ++p) {
    for (std::size_t c = 0; c < configs; ++c) {
      std::vector<sqlite_bench::CommitResult>& got = runs[p][c];
      std::string label = sqlite_bench::Label(plan.sqlite.configs[c]);
      const int ran = static_cast<int>(got.size());
      if (ran == 0 || (ran < repeats && got.back().outcome == probes::Outcome::kOk)) {
        targets[p].unfinished.push_back({model::UnfinishedKind::kSqlite,
                                         ran == 0 ? label : RepeatsLabel(label, ran, repeats),
                                         StopReason()});
        if (ran == 0) continue;
      }
      std::optional<model::SqliteRepeats> spreads;
      commits[p].push_back(CombineRuns(std::move(got), spreads));
      spread_rows[p].push_back(repeats > 1 ? spreads : std::nullopt);
    }
  }
  for (std::size_t p = 0; p < n && MayStart(s); ++p) {
    SampleReference(s.platform, s.scratch[p]->work_path(), "end", s.origin_ns, targets[p],
                    s.plan.probes.op_options.file_size);
  }
}

}  // namespace

void RunInterleaved(RunState& s) {
  const Plan& plan = s.plan;
  const std::size_t n = plan.paths.size();
  const std::vector<probes::ProbeSpec>& specs = plan.probes.specs;
  // Each probe's (and op's) samples on each path, merged over each repeat's rounds: with
  // --repeat N the rounds run N times over, and a repeat is its rounds.
  std::vector<std::vector<RepeatedSamples>> probe_samples(
      n, std::vector<RepeatedSamples>(specs.size()));
  std::vector<std::vector<RepeatedSamples>> op_samples(
      n, std::vector<RepeatedSamples>(plan.ops.size()));
  const int per_repeat = std::max(plan.rounds, 1);
  const int repeats = plan.Repeats();
  const int rounds = per_repeat * repeats;

  std::vector<model::Target> targets(n);
  for (std::size_t p = 0; p < n; ++p) {
    targets[p].path = plan.paths[p];
    s.listener.TargetStarted(targets[p]);
    if (plan.run_inspect) {
      InspectTarget(s.platform, s.report.context, targets[p],
                    s.plan.powercut_evidence ? &*s.plan.powercut_evidence : nullptr);
      s.listener.MountKnown(targets[p]);
    }
  }
  std::vector<probes::FlushCounting> counting;
  for (const model::Target& t : targets)
    counting.push_back(CountingFor(s.platform, t, s.plan.count_flushes));

  // The reference probe on every path before each round and after the last (the SQLite
  // configurations' first samples serve when they follow), so a probe measured while the device
  // moved is told by the samples around it (analysis/probe_drift.h).
  const bool sampled = plan.run_probes && !specs.empty();
  const PhasePlan phases = PlannedPhases(plan);
  s.timeline.StartPhase(n * phases.probes,
                        n * (phases.concurrency + PhasePlan::Counted(phases.sqlite)));
  // Each slice gets at most its share of the time left (run/deadline.h StepShares), so setup,
  // warm-up and the reference samples, which the split does not count, shorten the later slices
  // a little instead of leaving the last round out. A round cut short by slow syncs is listed.
  StepShares shares(s.platform, s.timeline,
                    static_cast<std::uint64_t>(rounds) * n *
                        ((plan.run_probes ? specs.size() : 0) + plan.ops.size()));
  auto slice = [&](probes::LoopOutcome got) {
    shares.Done(got.wall_ns);
    return got;
  };
  int round = 0;
  for (; round < rounds && MayStart(s); ++round) {
    bool cut = false;  // a slice of this round was left out
    auto next = [&] { return MayStart(s) || (cut = true, false); };
    const int repeat = round / per_repeat;
    std::string phase = RepeatPhase(
        fmt::format("round {}/{} probe", round % per_repeat + 1, per_repeat), repeat, repeats);
    for (std::size_t p = 0; sampled && p < n && MayStart(s); ++p) {
      SampleReference(s.platform, s.scratch[p]->work_path(),
                      fmt::format("round {} probes", round + 1), s.origin_ns, targets[p],
                      s.plan.probes.op_options.file_size);
    }
    for (std::size_t i = 0; plan.run_probes && i < specs.size(); ++i) {
      for (std::size_t p = 0; p < n && next(); ++p) {
        RepeatedSamples& smp = probe_samples[p][i];
        if (!smp.Usable()) continue;
        s.progress.Start(phase, plan.paths[p] + ": " + model::ProbeLabel(specs[i]),
                         PlannedProbeNs(plan.probes.rule));
        probes::StopRule rule = CutTo(plan.probes.rule, shares.Share());
        rule.flush_counting = counting[p];
        rule = ReserveFlushEvidence(rule, specs[i], ReserveDeadlineNs(s), smp.Merged().ops);
        smp.Add(repeat, slice(probes::SampleProbe(s.platform, s.scratch[p]->work_path(), specs[i],
                                                  rule, plan.probes.op_options)));
      }
    }
    for (std::size_t o = 0; o < plan.ops.size(); ++o) {
      for (std::size_t p = 0; p < n && next(); ++p) {
        RepeatedSamples& smp = op_samples[p][o];
        if (!smp.Usable()) continue;
        s.progress.Start(phase, fmt::format("{}: {}", plan.paths[p], probes::NameOf(plan.ops[o])),
                         PlannedProbeNs(plan.probes.rule));
        smp.Add(repeat,
                slice(probes::SampleOpCost(s.platform, s.scratch[p]->work_path(), plan.ops[o],
                                           CutTo(plan.probes.rule, shares.Share()))));
      }
    }
    if (cut) {  // the paths or items after the cut missed this round
      for (model::Target& t : targets) {
        t.unfinished.push_back({model::UnfinishedKind::kRound,
                                fmt::format("{} of {}: cut short", round + 1, rounds),
                                StopReason()});
      }
      ++round;
      break;
    }
  }
  for (int missed = round; missed < rounds && (plan.run_probes || !plan.ops.empty()); ++missed) {
    for (model::Target& t : targets) {
      t.unfinished.push_back({model::UnfinishedKind::kRound,
                              fmt::format("{} of {}", missed + 1, rounds), StopReason()});
    }
  }

  if (plan.run_concurrency) {
    s.timeline.StartPhase(n * phases.concurrency, n * PhasePlan::Counted(phases.sqlite));
    std::vector<model::Target*> all;
    std::vector<std::size_t> index;
    for (std::size_t p = 0; p < n; ++p) {
      all.push_back(&targets[p]);
      index.push_back(p);
    }
    RunConcurrencyPhase(s, all, index);
  }

  bool sqlite_next = plan.run_sqlite && !plan.sqlite.configs.empty();
  for (std::size_t p = 0; sampled && !sqlite_next && p < n && MayStart(s); ++p) {
    SampleReference(s.platform, s.scratch[p]->work_path(), "end", s.origin_ns, targets[p],
                    s.plan.probes.op_options.file_size);
  }
  std::vector<std::vector<sqlite_bench::CommitResult>> commits(n);
  std::vector<std::vector<std::optional<model::SqliteRepeats>>> spread_rows(n);
  std::vector<WalGate> wal;  // one per path when the matrix ran
  if (plan.run_sqlite) {
    s.timeline.StartPhase(phases.sqlite == kNoDeadline ? kNoDeadline : n * phases.sqlite, 0);
    RunSqliteInterleaved(s, targets, commits, spread_rows, wal, counting);
  }

  for (std::size_t p = 0; p < n; ++p) {
    model::Target& t = targets[p];
    for (std::size_t i = 0; plan.run_probes && i < specs.size(); ++i) {
      if (probe_samples[p][i].repeats() == 0) {
        t.unfinished.push_back(
            {model::UnfinishedKind::kProbe, model::ProbeLabel(specs[i]), StopReason()});
        continue;
      }
      std::optional<model::ProbeRepeats> spreads;
      t.probes.push_back(probe_samples[p][i].Result(specs[i], plan.probes.rule.target_ci, repeats,
                                                    t.probes.size(), spreads));
      if (spreads) t.probe_repeats.push_back(*spreads);
      Rebase(t.probes.back(), s.origin_ns);
      s.listener.ProbeDone(t, t.probes.back());
    }
    for (std::size_t o = 0; o < plan.ops.size(); ++o) {
      if (op_samples[p][o].repeats() == 0) {
        t.unfinished.push_back({model::UnfinishedKind::kOpCost,
                                std::string(probes::NameOf(plan.ops[o])), StopReason()});
        continue;
      }
      t.op_costs.push_back(probes::ToOpCostResult(plan.ops[o], op_samples[p][o].Merged()));
    }
    Measured m{.measured = plan.Measures(), .wal = p < wal.size() ? &wal[p] : nullptr};
    if (plan.run_sqlite) m.sqlite = std::move(commits[p]);
    m.sqlite_repeats = std::move(spread_rows[p]);
    AnalyzeTarget(t, s.report.context, std::move(m));
    s.listener.TargetDone(t);
    s.report.targets.push_back(std::move(t));
  }
}

}  // namespace durprobe::run
