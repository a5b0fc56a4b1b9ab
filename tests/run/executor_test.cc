// The executor's phases on a temporary directory, through the fault platform where a fault is
// needed: what it announces, in which order, and what an interruption or a bad path leaves.
#include "run/executor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "platform/interrupt.h"
#include "sqlite_bench/commit_spec.h"
#include "tests/support/fault_platform.h"
#include "tests/test_dirs.h"

namespace durprobe::run {
namespace {

// Records every event as a short word, and can raise an interruption at the Nth ProbeDone or
// when an item whose name holds interrupt_at_item starts.
class Recorder : public model::RunListener {
 public:
  void RunStarted(const model::Context&) override { events.push_back("run"); }
  void TargetStarted(const model::Target&) override { events.push_back("target"); }
  void MountKnown(const model::Target&) override { events.push_back("mount"); }
  void ProbeDone(const model::Target&, const probes::ProbeResult&) override {
    events.push_back("probe");
    if (++probes_done == interrupt_after_probes) platform::SetInterruptSignalForTest(2);
  }
  void SqliteDone(const model::Target&, const model::SqliteEntry&) override {
    events.push_back("sqlite");
  }
  void WorkloadDone(const model::Target&, const std::string& name) override {
    events.push_back("workload " + name);
  }
  void TargetDone(const model::Target&) override { events.push_back("done"); }
  void Progress(const model::ProgressEvent& e) override {
    progress.push_back(e);
    if (!interrupt_at_item.empty() && e.item.find(interrupt_at_item) != std::string::npos) {
      platform::SetInterruptSignalForTest(15);
    }
  }
  void RunFinished(const model::Report&) override { events.push_back("finished"); }

  std::vector<std::string> events;
  std::vector<model::ProgressEvent> progress;
  int probes_done = 0;
  int interrupt_after_probes = -1;
  std::string interrupt_at_item;
};

probes::StopRule TinyRule() {
  probes::StopRule rule;
  rule.warmup_ops = 0;
  rule.warmup_ns = 0;
  rule.min_ops = 3;
  rule.min_ns = 0;
  rule.max_ns = 20'000'000;
  rule.max_ops = 5;
  return rule;
}

Plan ProbePlan(const std::vector<std::string>& paths) {
  Plan plan;
  plan.command = "probe";
  plan.paths = paths;
  plan.run_probes = true;
  plan.probes.rule = TinyRule();
  plan.probes.op_options.file_size = 64 << 10;
  plan.probes.specs = {{probes::Primitive::kNone, probes::Pattern::kOverwrite, 4096},
                       {probes::Primitive::kFdatasync, probes::Pattern::kOverwrite, 4096},
                       {probes::Primitive::kFsync, probes::Pattern::kAppend, 4096}};
  return plan;
}

bool IsEmptyDirectory(const std::string& dir) {
  Result<std::vector<std::string>> names = platform::Default().ListDirectory(dir);
  return names.ok() && names->empty();
}

class ExecutorTest : public ::testing::Test {
 protected:
  void TearDown() override { platform::SetInterruptSignalForTest(0); }
  testing_support::TempDir a_, b_;
  Recorder rec_;
};

TEST_F(ExecutorTest, InspectOnlyWritesNothingIntoTheTarget) {
  Plan plan;
  plan.command = "inspect";
  plan.paths = {a_.path()};
  plan.run_inspect = true;
  Execution ex = Execute(platform::Default(), plan, rec_);
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  ASSERT_EQ(ex.report.targets.size(), 1u);
  ASSERT_TRUE(ex.report.targets[0].mount.has_value());
  EXPECT_FALSE(ex.report.targets[0].mount->fstype.empty());
  EXPECT_TRUE(IsEmptyDirectory(a_.path()));
  EXPECT_EQ(rec_.events, (std::vector<std::string>{"run", "target", "mount", "done", "finished"}));
}

TEST_F(ExecutorTest, AnnouncesEachProbeAsItFinishesAndRemovesScratch) {
  Execution ex = Execute(platform::Default(), ProbePlan({a_.path()}), rec_);
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  EXPECT_EQ(rec_.events, (std::vector<std::string>{"run", "target", "probe", "probe", "probe",
                                                   "done", "finished"}));
  ASSERT_EQ(rec_.progress.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(rec_.progress[i].phase, "probe");
    EXPECT_EQ(rec_.progress[i].index, i);
    EXPECT_EQ(rec_.progress[i].total, 3u);
  }
  EXPECT_NE(rec_.progress[1].item.find("fdatasync overwrite 4 KiB"), std::string::npos);
  EXPECT_EQ(ex.report.targets[0].probes.size(), 3u);
  EXPECT_TRUE(ex.report.targets[0].unfinished.empty());
  EXPECT_FALSE(ex.report.context.interrupted);
  EXPECT_TRUE(IsEmptyDirectory(a_.path()));
}

TEST_F(ExecutorTest, RecordsWhatShapedTheMeasurementInTheContext) {
  Plan plan = ProbePlan({a_.path()});
  plan.options = {{"quick", true}, {"budget_ns", 123}};
  Execution ex = Execute(platform::Default(), plan, rec_);
  const nlohmann::json& o = ex.report.context.options;
  EXPECT_EQ(o["quick"], true);
  EXPECT_EQ(o["budget_ns"], 123);
  EXPECT_EQ(o["probes"].size(), 3u);
  EXPECT_EQ(o["probes"][1], "fdatasync overwrite 4 KiB");
  EXPECT_EQ(o["schedule"], "path_by_path");
}

TEST_F(ExecutorTest, InterruptionKeepsFinishedProbesAndListsTheRest) {
  rec_.interrupt_after_probes = 1;
  Execution ex = Execute(platform::Default(), ProbePlan({a_.path(), b_.path()}), rec_);
  EXPECT_EQ(ex.status.kind(), Status::Kind::kInterrupted);
  EXPECT_TRUE(ex.report.context.interrupted);
  EXPECT_EQ(ex.report.context.interrupt_signal, 2);
  ASSERT_EQ(ex.report.targets.size(), 2u);
  EXPECT_EQ(ex.report.targets[0].probes.size(), 1u);
  EXPECT_EQ(ex.report.targets[0].unfinished.size(), 2u);
  EXPECT_EQ(NameOf(ex.report.targets[0].unfinished[0].kind), "probe");
  EXPECT_EQ(ex.report.targets[0].unfinished[0].label, "fdatasync overwrite 4 KiB");
  EXPECT_TRUE(ex.report.targets[1].probes.empty());
  EXPECT_EQ(ex.report.targets[1].unfinished.size(), 3u);
  EXPECT_TRUE(IsEmptyDirectory(a_.path()));
  EXPECT_TRUE(IsEmptyDirectory(b_.path()));
  EXPECT_EQ(rec_.events.back(), "finished");
}

Plan MatrixPlan(const std::string& path, std::uint32_t repetitions) {
  Plan plan;
  plan.command = "sqlite";
  plan.paths = {path};
  plan.run_sqlite = true;
  sqlite_bench::CommitConfig full, normal, off;
  normal.sync = sqlite_bench::Synchronous::kNormal;
  off.sync = sqlite_bench::Synchronous::kOff;
  plan.sqlite.configs = {full, normal, off};
  plan.sqlite.options.fixed_commits = 3;
  plan.sqlite.options.repetitions = repetitions;
  plan.sqlite.options.warmup_commits = 0;
  plan.sqlite.options.device_warmup_ns = 0;
  return plan;
}

std::vector<std::string> SqliteItems(const std::vector<model::ProgressEvent>& progress,
                                     const std::string& path) {
  std::vector<std::string> items;
  for (const model::ProgressEvent& e : progress) {
    if (e.phase == "sqlite") items.push_back(e.item.substr(path.size() + 2));
  }
  return items;
}

TEST_F(ExecutorTest, TheMatrixRunsInRoundsOfOneRepetitionPerConfigurationInARotatingOrder) {
  Plan plan = MatrixPlan(a_.path(), 3);
  Execution ex = Execute(platform::Default(), plan, rec_);
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  std::string full = sqlite_bench::Label(plan.sqlite.configs[0]);
  std::string normal = sqlite_bench::Label(plan.sqlite.configs[1]);
  std::string off = sqlite_bench::Label(plan.sqlite.configs[2]);
  EXPECT_EQ(SqliteItems(rec_.progress, a_.path()),
            (std::vector<std::string>{full + " (setup)", full + " (1/3)", normal + " (setup)",
                                      normal + " (1/3)", off + " (setup)", off + " (1/3)",
                                      normal + " (2/3)", off + " (2/3)", full + " (2/3)",
                                      off + " (3/3)", full + " (3/3)", normal + " (3/3)"}));
  const model::Target& t = ex.report.targets.at(0);
  ASSERT_EQ(t.sqlite.size(), 3u);
  // Every repetition's window, in time: the same rotation, none overlapping another.
  std::vector<std::pair<std::uint64_t, std::string>> windows;
  for (const model::SqliteEntry& e : t.sqlite) {
    EXPECT_EQ(e.result.outcome, probes::Outcome::kOk) << e.result.reason;
    EXPECT_EQ(e.result.repetitions, 3u);
    EXPECT_EQ(e.result.commits, 9u);
    EXPECT_EQ(e.result.verified_rows, 9u);
    for (const sqlite_bench::Repetition& w : e.result.repetition_windows) {
      windows.emplace_back(w.start_ns, sqlite_bench::Label(e.result.config));
    }
  }
  std::sort(windows.begin(), windows.end());
  std::vector<std::string> order;
  for (const auto& w : windows) order.push_back(w.second);
  EXPECT_EQ(order,
            (std::vector<std::string>{full, normal, off, normal, off, full, off, full, normal}));
  // The reference probe before the matrix and after every round.
  std::vector<std::string> samples;
  for (const model::ReferenceSample& r : t.reference) samples.push_back(r.before);
  EXPECT_EQ(samples, (std::vector<std::string>{full, "round 2", "round 3", "end"}));
  // Each configuration counted alone: DELETE/FULL syncs more per commit than NORMAL, OFF none.
  EXPECT_GT(t.sqlite[0].result.commit_counts.sync_calls(),
            t.sqlite[1].result.commit_counts.sync_calls());
  EXPECT_EQ(t.sqlite[2].result.commit_counts.sync_calls(), 0u);
  EXPECT_TRUE(IsEmptyDirectory(a_.path()));
}

TEST_F(ExecutorTest, InterruptionDuringTheMatrixKeepsEveryFinishedRepetition) {
  Plan plan = MatrixPlan(a_.path(), 3);
  rec_.interrupt_at_item = sqlite_bench::Label(plan.sqlite.configs[1]) + " (2/3)";  // round 2
  Execution ex = Execute(platform::Default(), plan, rec_);
  EXPECT_EQ(ex.status.kind(), Status::Kind::kInterrupted);
  EXPECT_EQ(ex.report.context.interrupt_signal, 15);
  const model::Target& t = ex.report.targets.at(0);
  ASSERT_EQ(t.sqlite.size(), 3u);
  for (const model::SqliteEntry& e : t.sqlite) {
    EXPECT_EQ(e.result.outcome, probes::Outcome::kOk);
    EXPECT_EQ(e.result.repetitions, 1u);
    EXPECT_EQ(e.result.verified_rows, 3u);
  }
  ASSERT_EQ(t.unfinished.size(), 3u);
  EXPECT_EQ(NameOf(t.unfinished[0].kind), "sqlite");
  EXPECT_EQ(t.unfinished[0].label,
            sqlite_bench::Label(plan.sqlite.configs[0]) + ": 1 of 3 repetitions");
  EXPECT_TRUE(IsEmptyDirectory(a_.path()));
}

TEST_F(ExecutorTest, InterruptionDuringASetupKeepsWhatRanAndListsTheRest) {
  Plan plan = MatrixPlan(a_.path(), 2);
  rec_.interrupt_at_item = sqlite_bench::Label(plan.sqlite.configs[1]) + " (setup)";
  Execution ex = Execute(platform::Default(), plan, rec_);
  EXPECT_EQ(ex.status.kind(), Status::Kind::kInterrupted);
  const model::Target& t = ex.report.targets.at(0);
  // The first configuration had its first repetition before the second was set up.
  ASSERT_EQ(t.sqlite.size(), 1u);
  EXPECT_EQ(t.sqlite[0].result.repetitions, 1u);
  ASSERT_EQ(t.unfinished.size(), 3u);
  EXPECT_EQ(t.unfinished[0].label,
            sqlite_bench::Label(plan.sqlite.configs[0]) + ": 1 of 2 repetitions");
  for (std::size_t i = 1; i < 3; ++i) {
    EXPECT_EQ(t.unfinished[i].label, sqlite_bench::Label(plan.sqlite.configs[i]));
  }
  for (const model::Unfinished& u : t.unfinished)
    EXPECT_EQ(u.reason, model::Unfinished::kInterrupted);
  EXPECT_TRUE(IsEmptyDirectory(a_.path()));
}

TEST_F(ExecutorTest, APathWithoutScratchFailsBeforeAnythingIsMeasured) {
  std::string missing = a_.path() + "/no-such-dir";
  Execution ex = Execute(platform::Default(), ProbePlan({a_.path(), missing}), rec_);
  EXPECT_EQ(ex.status.kind(), Status::Kind::kInvalidArgument);
  EXPECT_NE(ex.status.message().find(missing), std::string::npos);
  EXPECT_TRUE(ex.report.targets.empty());
  EXPECT_TRUE(rec_.events.empty());          // not even started
  EXPECT_TRUE(IsEmptyDirectory(a_.path()));  // the first path's scratch is gone again
}

TEST_F(ExecutorTest, AFailedSyncIsAResultAndTheRunGoesOn) {
  platform::FaultPlatform faulty(platform::Default());
  faulty.FailSyncs(EIO);
  Execution ex = Execute(faulty, ProbePlan({a_.path()}), rec_);
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  const std::vector<probes::ProbeResult>& r = ex.report.targets.at(0).probes;
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[1].outcome, probes::Outcome::kError);
  EXPECT_NE(r[1].reason.find("Input/output error"), std::string::npos) << r[1].reason;
  EXPECT_EQ(r[2].outcome, probes::Outcome::kError);
  EXPECT_TRUE(IsEmptyDirectory(a_.path()));
}

TEST_F(ExecutorTest, InterleavedScheduleSamplesEveryProbeOnEveryPathEachRound) {
  Plan plan = ProbePlan({a_.path(), b_.path()});
  plan.command = "compare";
  plan.schedule = Schedule::kInterleaved;
  plan.rounds = 2;
  plan.ops = {probes::FileOp::kStat};
  Execution ex = Execute(platform::Default(), plan, rec_);
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  // (3 probes + 1 op) x 2 paths x 2 rounds, announced in round order, path by path.
  ASSERT_EQ(rec_.progress.size(), 16u);
  EXPECT_EQ(rec_.progress[0].phase, "round 1/2 probe");
  EXPECT_EQ(rec_.progress[0].item.rfind(a_.path(), 0), 0u);
  EXPECT_EQ(rec_.progress[1].item.rfind(b_.path(), 0), 0u);
  EXPECT_EQ(rec_.progress[8].phase, "round 2/2 probe");
  for (const model::Target& t : ex.report.targets) {
    ASSERT_EQ(t.probes.size(), 3u);
    ASSERT_EQ(t.op_costs.size(), 1u);
    // Two rounds of at most max_ops each, merged.
    EXPECT_GT(t.probes[0].ops, plan.probes.rule.max_ops);
  }
  EXPECT_TRUE(IsEmptyDirectory(a_.path()));
  EXPECT_TRUE(IsEmptyDirectory(b_.path()));
}

// A device that changes state mid-probe (the fault platform's sync latency goes from 1 ms to
// 10 ms after 400 syncs, on a fake clock): the probe's series steps and latency_drift names it;
// the same run without the switch raises nothing.
Plan LongFdatasyncPlan(const std::string& path) {
  Plan plan = ProbePlan({path});
  plan.probes.specs = {{probes::Primitive::kFdatasync, probes::Pattern::kOverwrite, 4096}};
  plan.probes.rule.max_ops = 0;
  plan.probes.rule.min_ns = 2'000'000'000;
  plan.probes.rule.max_ns = 2'000'000'000;
  return plan;
}

bool HasFinding(const model::Target& t, const std::string& code) {
  for (const model::Finding& f : t.findings) {
    if (f.code == code) return true;
  }
  return false;
}

TEST_F(ExecutorTest, ALatencyStepMidRunIsLatencyDrift) {
  platform::FaultPlatform fake(platform::Default());
  fake.UseFakeClock();
  fake.AddSyncLatency(1'000'000);
  fake.AddSyncLatencyAfter(9'000'000, 400);
  Execution ex = Execute(fake, LongFdatasyncPlan(a_.path()));
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  const model::Target& t = ex.report.targets.at(0);
  ASSERT_GE(t.probes.at(0).series.size(), 10u);
  ASSERT_TRUE(HasFinding(t, "latency_drift"));
  for (const model::Finding& f : t.findings) {
    if (f.code != "latency_drift") continue;
    EXPECT_NE(f.message.find("fdatasync overwrite 4 KiB:"), std::string::npos) << f.message;
    EXPECT_NE(f.message.find("burst-credit throttling"), std::string::npos) << f.message;
  }
}

TEST_F(ExecutorTest, ASteadyDeviceHasNoLatencyDrift) {
  platform::FaultPlatform fake(platform::Default());
  fake.UseFakeClock();
  fake.AddSyncLatency(1'000'000);
  Execution ex = Execute(fake, LongFdatasyncPlan(a_.path()));
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  EXPECT_FALSE(HasFinding(ex.report.targets.at(0), "latency_drift"));
}

// Asks for a tick every millisecond and holds the first probe's start until two ticks for it
// have come: a long item, without depending on how long anything takes.
class TickWatcher : public model::RunListener {
 public:
  std::uint64_t TickIntervalNs() const override { return 1'000'000; }
  void RunStarted(const model::Context&) override { running_ = true; }
  void Progress(const model::ProgressEvent& e) override {
    if (e.index != 0) return;
    std::unique_lock<std::mutex> lock(mu_);
    got_two_ = arrived_.wait_for(lock, std::chrono::minutes(1), [&] { return ticks.size() >= 2; });
  }
  void ProgressTick(const model::ProgressEvent& e) override {
    std::lock_guard<std::mutex> lock(mu_);
    ticks.push_back(e);
    if (!running_) ++outside_run;
    arrived_.notify_all();
  }
  void RunFinished(const model::Report&) override {
    std::lock_guard<std::mutex> lock(mu_);
    running_ = false;
    ticks_at_finish = ticks.size();
  }

  std::vector<model::ProgressEvent> ticks;
  std::size_t ticks_at_finish = 0;
  int outside_run = 0;
  bool got_two_ = false;

 private:
  std::mutex mu_;
  std::condition_variable arrived_;
  bool running_ = false;
};

TEST_F(ExecutorTest, ALongItemTicksForTheListenerThatAsksAndNotAfterTheRun) {
  TickWatcher watcher;
  Execution ex = Execute(platform::Default(), ProbePlan({a_.path()}), watcher);
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  EXPECT_TRUE(watcher.got_two_);
  ASSERT_GE(watcher.ticks.size(), 2u);
  EXPECT_EQ(watcher.ticks[0].index, 0u);
  EXPECT_EQ(watcher.ticks[0].phase, "probe");
  EXPECT_EQ(watcher.ticks[0].total, 3u);
  EXPECT_EQ(watcher.outside_run, 0);
  EXPECT_EQ(watcher.ticks.size(), watcher.ticks_at_finish);
}

}  // namespace
}  // namespace durprobe::run
