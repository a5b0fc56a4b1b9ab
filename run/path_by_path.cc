// The path-by-path schedule (run, probe, sqlite, check): each target is inspected, probed, its
// SQLite matrix and workloads run, and its scratch removed, before the next one starts, so a
// console can show each target's sections as they finish.
#include "run/path_by_path.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/labels.h"
#include "run/analyze_target.h"
#include "run/concurrency_phase.h"
#include "run/crashtest_phase.h"
#include "run/faults.h"
#include "run/flush_counting.h"
#include "run/planned_time.h"
#include "run/reference.h"
#include "run/repeated_samples.h"
#include "run/wal_preflight.h"

namespace durprobe::run {
namespace {

// A top-up's warm-up: the file is laid out again, so a few operations, not a probe's share.
constexpr std::uint64_t kTopUpWarmupNs = 50'000'000;

// The probes, each after a sample of the reference probe, and one more sample after the last
// unless the SQLite matrix takes one at once: a probe measured while the device moved is told
// by the samples on either side of it (analysis/probe_drift.h). With --repeat N the set runs N
// times over, and each row is announced once its last repeat is in, in the set's order.
void RunProbesOn(RunState& s, model::Target& t, const std::string& dir) {
  const probes::ProbePlan& pp = s.plan.probes;
  const int repeats = s.plan.Repeats();
  // Each probe gets at most its share of the phase's time left (run/deadline.h StepShares), so
  // setup, warm-up and the reference samples, which the split does not count, shorten the later
  // probes a little instead of leaving them out.
  StepShares shares(s.platform, s.timeline,
                    probes::SharesOf(pp.specs, pp.rule) * static_cast<std::uint64_t>(repeats));
  std::vector<RepeatedSamples> samples(pp.specs.size());
  const probes::FlushCounting counting = CountingFor(s.platform, t, s.plan.count_flushes);
  std::size_t reported = 0;  // the specs before it have their row or are listed as unfinished
  auto report_until = [&](std::size_t end) {
    for (; reported < end; ++reported) {
      const probes::ProbeSpec& spec = pp.specs[reported];
      const RepeatedSamples& got = samples[reported];
      if (got.repeats() == 0) {
        t.unfinished.push_back(
            {model::UnfinishedKind::kProbe, model::ProbeLabel(spec), StopReason()});
        continue;
      }
      if (got.repeats() < repeats && got.Usable()) {
        t.unfinished.push_back({model::UnfinishedKind::kProbe,
                                RepeatsLabel(model::ProbeLabel(spec), got.repeats(), repeats),
                                StopReason()});
      }
      std::optional<model::ProbeRepeats> spreads;
      t.probes.push_back(got.Result(spec, pp.rule.target_ci, repeats, t.probes.size(), spreads));
      if (spreads) t.probe_repeats.push_back(*spreads);
      Rebase(t.probes.back(), s.origin_ns);
      s.listener.ProbeDone(t, t.probes.back());
    }
  };
  // A probe keeps the operations its claims need (its flush count, check's p99) past its share,
  // and starts past its phase's deadline for them, never past the reserve's deadline
  // (ReserveDeadlineNs); reserved_ops 0 once they are in.
  auto reserve_rule = [&](std::size_t i, std::uint64_t until_ns) {
    probes::StopRule rule = probes::RuleFor(pp.specs[i], pp.rule);
    if (i < pp.reserves.size()) rule.reserved_ops = pp.reserves[i];
    rule.flush_counting = counting;
    return ReserveFlushEvidence(rule, pp.specs[i], ReserveDeadlineNs(s), samples[i].Merged().ops,
                                until_ns);
  };
  bool held = false;  // a probe before waits for its top-up: no row is announced past it
  for (int repeat = 0; repeat < repeats; ++repeat) {
    const bool last = repeat + 1 == repeats;
    for (std::size_t i = 0; i < pp.specs.size(); ++i) {
      const probes::ProbeSpec& spec = pp.specs[i];
      if (!samples[i].Usable()) continue;
      // On the first pass each reserve lasts for its part of the time left (as many parts as
      // probes still to run: StepShares::ReserveUntil), so one probe's reserve on slow syncs
      // cannot leave the probes after it unmeasured; the top-up below gives what is left over.
      const std::uint64_t own_shares = probes::SharesOf(spec, pp.rule);
      probes::StopRule rule =
          reserve_rule(i, shares.ReserveUntil(ReserveDeadlineNs(s), own_shares));
      if (!MayStart(s) && !(rule.reserved_ops > 0 && MayStartReserved(s))) continue;
      const std::string label = model::ProbeLabel(spec);
      SampleReference(s.platform, dir, repeat == 0 ? label : RepeatPhase(label, repeat, repeats),
                      s.origin_ns, t, s.plan.probes.op_options.file_size, shares.Share(own_shares));
      s.progress.Start(RepeatPhase("probe", repeat, repeats), t.path + ": " + label,
                       PlannedProbeNs(rule));
      probes::StopRule cut = CutTo(rule, shares.Share(own_shares));
      // Behind a probe short of its reserve, one with a reserve stops once it is met: the time
      // it would spend narrowing its interval goes to the top-up of the probe before.
      if (held && cut.reserved_ops > 0) cut.max_ns = cut.min_ns = 0;
      probes::LoopOutcome loop = probes::SampleProbe(s.platform, dir, spec, cut, pp.op_options);
      shares.Done(loop.wall_ns, own_shares);
      samples[i].Add(repeat, loop);
      held = held || (last && loop.status.ok() && reserve_rule(i, 0).reserved_ops > 0);
      if (last && !held) report_until(i + 1);
    }
  }
  // The top-up: each probe still short of its reserve, in order, runs until it is met or its
  // part of the time left to the reserve's deadline (the parts shared by those still short) is
  // spent, without another warm-up's worth of time: on the etcd preset's 150 syncs a second the
  // WAL probe's 367 take 2.4 s, which its first part of --quick's 3.5 s does not hold.
  std::vector<std::size_t> short_of;
  for (std::size_t i = 0; held && i < pp.specs.size(); ++i) {
    if (samples[i].repeats() == repeats && samples[i].Usable() &&
        reserve_rule(i, 0).reserved_ops > 0) {
      short_of.push_back(i);
    }
  }
  for (std::size_t k = 0; k < short_of.size() && MayStartReserved(s); ++k) {
    const std::size_t i = short_of[k];
    const std::uint64_t now = s.platform.NowNanos();
    const std::uint64_t part = PartUntil(now, ReserveDeadlineNs(s), short_of.size() - k);
    probes::StopRule rule = reserve_rule(i, part);
    rule.max_ns = rule.min_ns = 0;  // ends once the reserve is met
    rule.warmup_ns = std::min<std::uint64_t>(rule.warmup_ns, kTopUpWarmupNs);
    s.progress.Start("probe", t.path + ": " + model::ProbeLabel(pp.specs[i]) + " (top-up)",
                     part > now ? part - now : 0);
    samples[i].Add(repeats - 1,
                   probes::SampleProbe(s.platform, dir, pp.specs[i], rule, pp.op_options));
  }
  report_until(pp.specs.size());
  bool sqlite_next = s.plan.run_sqlite && !s.plan.sqlite.configs.empty();
  if (!pp.specs.empty() && !sqlite_next && MayStart(s)) {
    SampleReference(s.platform, dir, "end", s.origin_ns, t, s.plan.probes.op_options.file_size);
  }
}

// The SQLite matrix on one path, its repetitions interleaved: each round runs one repetition of
// every configuration (in an order that rotates with the round; the first round opens and warms
// up each one before its first repetition) and samples the reference probe, so a device that
// changes state mid-run moves every configuration alike instead of the last few. Interrupted or
// out of budget, every configuration keeps the repetitions it finished. With --repeat N the
// rounds run N times over, each configuration's budget N times its own, and spreads gets each
// kept row's figures over the repeats (model/repeats.h).
std::vector<sqlite_bench::CommitResult> RunSqliteOn(
    RunState& s, model::Target& t, const std::string& dir, WalGate& wal,
    std::vector<std::optional<model::SqliteRepeats>>& spreads) {
  const sqlite_bench::MatrixPlan& mp = s.plan.sqlite;
  const std::size_t n = mp.configs.size();
  const int repeats = s.plan.Repeats();
  const std::uint32_t per_repeat = mp.options.TimedRepetitions();
  const std::uint32_t reps = per_repeat * static_cast<std::uint32_t>(repeats);
  sqlite_bench::CommitOptions options = mp.options;
  options.deadline_ns = s.timeline.DeadlineNs();
  options.repetitions = reps;
  options.budget_ns = mp.options.budget_ns * static_cast<std::uint64_t>(repeats);
  options.flush_counting = CountingFor(s.platform, t, s.plan.count_flushes);
  Result<std::unique_ptr<sqlite_bench::CommitSession>> session =
      sqlite_bench::CommitSession::Open(s.platform, dir);
  std::vector<sqlite_bench::CommitResult> results(n);
  std::vector<std::unique_ptr<sqlite_bench::CommitRun>> runs(n);
  std::vector<RepeatedCommits> repeated(n);
  if (n > 0 && MayStart(s)) {
    SampleReference(s.platform, dir, sqlite_bench::Label(mp.configs[0]), s.origin_ns, t,
                    s.plan.probes.op_options.file_size);
  }
  // Each configuration is begun (opened, set up, warmed up) just before its first repetition,
  // so a budget that runs out early still leaves the first ones measured.
  std::vector<bool> begun(n, false);
  auto begin = [&](std::size_t i) {
    const sqlite_bench::CommitConfig& config = mp.configs[i];
    begun[i] = true;
    s.progress.Start("sqlite", t.path + ": " + sqlite_bench::Label(config) + " (setup)", 0);
    if (UsesWal(config) && !wal.usable()) {
      results[i] = wal.Refuse(config);
      return;
    }
    Result<std::unique_ptr<sqlite_bench::CommitRun>> run =
        session.ok() ? (*session)->Begin(config, options)
                     : Result<std::unique_ptr<sqlite_bench::CommitRun>>(session.status());
    if (run.ok()) {
      runs[i] = std::move(*run);
    } else {
      results[i] =
          sqlite_bench::NotRun(config, probes::OutcomeOf(run.status()), run.status().message());
    }
  };
  // Each repetition gets at most its share of the phase's time left, so the setups and the
  // reference samples between rounds, which the configurations' budgets do not count, shorten
  // the later repetitions a little instead of leaving the last round out.
  StepShares shares(s.platform, s.timeline, n * reps);
  for (std::uint32_t round = 0; round < reps && MayStart(s); ++round) {
    for (std::size_t k = 0; k < n && MayStart(s); ++k) {
      std::size_t i = (k + round) % n;
      if (!begun[i]) begin(i);
      if (!runs[i] || Interrupted()) continue;
      s.progress.Start(RepeatPhase("sqlite", static_cast<int>(round / per_repeat), repeats),
                       fmt::format("{}: {} ({}/{})", t.path, sqlite_bench::Label(mp.configs[i]),
                                   round % per_repeat + 1, per_repeat),
                       mp.options.budget_ns / per_repeat);
      // A failure stays in the run, which Finish reports as the configuration's outcome.
      (void)runs[i]->Repetition(shares.Share());
      shares.Done(runs[i]->last_repetition_ns());
    }
    for (std::size_t i = 0; repeats > 1 && (round + 1) % per_repeat == 0 && i < n; ++i) {
      if (runs[i]) repeated[i].EndRepeat(*runs[i]);
    }
    if (MayStart(s)) {
      SampleReference(s.platform, dir,
                      round + 1 < reps ? fmt::format("round {}", round + 2) : "end", s.origin_ns, t,
                      s.plan.probes.op_options.file_size);
    }
  }
  const model::UnfinishedReason why = StopReason();
  std::vector<sqlite_bench::CommitResult> kept;
  for (std::size_t i = 0; i < n; ++i) {
    std::string label = sqlite_bench::Label(mp.configs[i]);
    if (!runs[i] && results[i].outcome == probes::Outcome::kOk) {  // never begun
      t.unfinished.push_back({model::UnfinishedKind::kSqlite, label, why});
      continue;
    }
    if (runs[i] && repeats > 1) repeated[i].EndRepeat(*runs[i]);  // a repeat cut short
    if (runs[i]) results[i] = runs[i]->Finish();
    runs[i].reset();
    sqlite_bench::CommitResult& r = results[i];
    bool stopped = r.outcome == probes::Outcome::kOk || r.outcome == probes::Outcome::kInterrupted;
    if (stopped && r.repetitions < reps) {  // interrupted or out of budget
      t.unfinished.push_back(
          {model::UnfinishedKind::kSqlite,
           r.repetitions == 0 ? label : RepetitionsLabel(label, r.repetitions, reps), why});
      if (r.repetitions == 0) continue;
    }
    Rebase(r, s.origin_ns);
    spreads.push_back(repeated[i].Apply(r, repeats));
    kept.push_back(std::move(r));
  }
  return kept;
}

void RunWorkloadsOn(RunState& s, model::Target& t, const std::string& dir, WalGate& wal) {
  const sqlite_bench::WorkloadPlan& wp = s.plan.workloads;
  for (sqlite_bench::Workload w : sqlite_bench::SelectedWorkloads(wp)) {
    std::string name(sqlite_bench::NameOf(w));
    if (!MayStart(s)) {
      t.unfinished.push_back({model::UnfinishedKind::kWorkload, name, StopReason()});
      continue;
    }
    if (!wal.usable()) {  // every workload opens a WAL database
      wal.SkipWorkload(name);
      continue;
    }
    s.progress.Start("workload", t.path + ": " + name, PlannedWorkloadNs(wp, w));
    sqlite_bench::WorkloadPlan cut_plan = wp;
    cut_plan.options.deadline_ns = s.timeline.DeadlineNs();
    sqlite_bench::RunWorkload(s.platform, dir, cut_plan, w, t.sqlite_workloads);
    for (std::string& label : t.sqlite_workloads.cut) {
      t.unfinished.push_back(
          {model::UnfinishedKind::kWorkload, std::move(label), model::Unfinished::kBudget});
    }
    t.sqlite_workloads.cut.clear();
    s.listener.WorkloadDone(t, name);
  }
}

}  // namespace

// Crashsim stops after the trial under way when interrupted: that configuration and every one
// after it are listed as unfinished, by name, so the summary line counts what the JSON lists.
void RunCrashsimOn(RunState& s, model::Target& t, const std::string& dir) {
  const std::vector<sqlite_bench::CrashsimConfig>& configs = s.plan.crashsim.configs;
  if (!Interrupted()) {
    s.progress.Start("crashsim", t.path + ": simulated power cuts", 0);
    t.crashsim = sqlite_bench::RunCrashsim(s.platform, dir, s.plan.crashsim);
  }
  for (std::size_t i = 0; i < configs.size(); ++i) {
    const sqlite_bench::CrashsimConfig& c = configs[i];
    std::string label = fmt::format("{}/{} x{}", sqlite_bench::NameOf(c.journal),
                                    sqlite_bench::NameOf(c.sync), c.rows_per_commit);
    if (i >= t.crashsim.size()) {
      t.unfinished.push_back({model::UnfinishedKind::kCrashsim, label});
    } else if (t.crashsim[i].outcome == probes::Outcome::kInterrupted) {
      t.unfinished.push_back({model::UnfinishedKind::kCrashsim,
                              fmt::format("{}: {} of {} trials", label, t.crashsim[i].trials,
                                          s.plan.crashsim.options.trials)});
    }
  }
}

void RunPathByPath(RunState& s) {
  const PhasePlan phases = PlannedPhases(s.plan);
  const std::size_t n = s.plan.paths.size();
  for (std::size_t p = 0; p < n; ++p) {
    // Each phase's deadline: its share of the time left, against this path's later phases and
    // every later path's.
    const std::uint64_t later_paths = (n - p - 1) * phases.Total();
    model::Target t;
    t.path = s.plan.paths[p];
    s.listener.TargetStarted(t);
    if (s.plan.run_inspect) {
      InspectTarget(s.platform, s.report.context, t,
                    s.plan.powercut_evidence ? &*s.plan.powercut_evidence : nullptr);
      s.listener.MountKnown(t);
    }
    if (s.plan.Measures()) {
      const std::string& dir = s.scratch[p]->work_path();
      const std::uint64_t after_sqlite = PhasePlan::Counted(phases.workloads) + later_paths;
      const std::uint64_t after_concurrency = PhasePlan::Counted(phases.sqlite) + after_sqlite;
      if (s.plan.run_probes) {
        s.timeline.StartPhase(phases.probes, phases.concurrency + after_concurrency);
        RunProbesOn(s, t, dir);
      }
      if (s.plan.run_concurrency) {
        s.timeline.StartPhase(phases.concurrency, after_concurrency);
        RunConcurrencyPhase(s, {&t}, {p});
      }
      WalGate wal(s.platform, dir, NeedsWal(s.plan));
      Measured m{.measured = true, .wal = &wal};
      if (s.plan.run_sqlite) {
        s.timeline.StartPhase(phases.sqlite, after_sqlite);
        m.sqlite = RunSqliteOn(s, t, dir, wal, m.sqlite_repeats);
      }
      AnalyzeTarget(t, s.report.context, std::move(m), [&](std::size_t first_row) {
        // Announced once analysed, so a live row and its notes read what the report will say.
        for (std::size_t i = first_row; i < t.sqlite.size(); ++i) {
          s.listener.SqliteDone(t, t.sqlite[i]);
        }
        if (s.plan.run_workloads) {
          s.timeline.StartPhase(phases.workloads, later_paths);
          RunWorkloadsOn(s, t, dir, wal);
        }
        if (s.plan.run_crashsim) RunCrashsimOn(s, t, dir);  // trials, not time: never cut
        if (s.plan.run_crashtest) RunCrashtestOn(s, t, *s.scratch[p]);  // states: never cut
        if (s.plan.run_faults) RunFaultsOn(s, t, *s.scratch[p]);        // experiments: never cut
        s.progress.Finish();
        // Free this path's scratch now: the next path may share its filesystem. One that moved
        // stops the run.
        if (ScratchesInPlace(s)) {
          Status removed = s.scratch[p]->Remove();
          if (!removed.ok() && s.stopped != nullptr && s.stopped->ok()) *s.stopped = removed;
        }
      });
    } else {
      AnalyzeTarget(t, s.report.context, Measured{});
    }
    s.listener.TargetDone(t);
    s.report.targets.push_back(std::move(t));
  }
}

}  // namespace durprobe::run
