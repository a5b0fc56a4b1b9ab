#include "analysis/sqlite_correlation.h"

#include <gtest/gtest.h>

#include "tests/sqlite_samples.h"

namespace durprobe::analysis {
namespace {

using sqlite_bench::CommitResult;
using sqlite_bench::FileKind;
using testing_support::DeleteFull;
using testing_support::Probes;

TEST(SqliteCorrelationTest, PredictsSyncsTimesProbeLatencyPlusNonSyncTime) {
  model::SqliteCorrelation c = Correlate(DeleteFull(), Probes());
  ASSERT_TRUE(c.available) << c.missing;
  EXPECT_DOUBLE_EQ(c.measured_ns, 700'000);  // the mean commit
  EXPECT_DOUBLE_EQ(c.sync_ns, 600'000);
  EXPECT_DOUBLE_EQ(c.non_sync_ns, 100'000);
  // 2 x 200 us (journal append) + 1 x 100 us (db overwrite) + 1 x 50 us (dir) = 550 us.
  EXPECT_DOUBLE_EQ(c.predicted_sync_ns, 550'000);
  EXPECT_DOUBLE_EQ(c.predicted_ns, 650'000);
  EXPECT_DOUBLE_EQ(c.explained_share, 550'000.0 / 700'000.0);
  EXPECT_DOUBLE_EQ(c.residual_share, 50'000.0 / 700'000.0);
  EXPECT_EQ(c.probe_label.at("journal append"), "fdatasync append 4 KiB");
  EXPECT_DOUBLE_EQ(c.syncs_per_commit.at("dir"), 1.0);
}

TEST(SqliteCorrelationTest, MissingProbesMakeItUnavailableAndSayWhich) {
  std::vector<probes::ProbeResult> probes = Probes();
  probes.erase(probes.begin() + 2);  // no dir_fsync
  model::SqliteCorrelation c = Correlate(DeleteFull(), probes);
  EXPECT_FALSE(c.available);
  EXPECT_EQ(c.missing, "dir_fsync create");
}

TEST(SqliteCorrelationTest, SyncsPerCommitFollowTheContract) {
  model::SyncsPerCommit s = SyncsOf(DeleteFull());
  EXPECT_DOUBLE_EQ(s.journal, 2.0);
  EXPECT_DOUBLE_EQ(s.db, 1.0);
  EXPECT_DOUBLE_EQ(s.wal, 0.0);
  EXPECT_DOUBLE_EQ(s.dir, 1.0);
  EXPECT_DOUBLE_EQ(s.total, 4.0);
}

TEST(SqliteCorrelationTest, FailuresAndLargeResidualsBecomeFindings) {
  model::Target t;
  t.probes = Probes();
  CommitResult slow = DeleteFull();
  slow.config.sync = sqlite_bench::Synchronous::kNormal;
  // Its syncs take 1.9 ms per commit where the probes predict 550 us.
  slow.timed_ns = slow.commits * 2'000'000;
  slow.commit_counts.of(FileKind::kJournal).sync_ns = slow.commits * 1'800'000;
  CommitResult broken = DeleteFull();
  broken.config.journal = sqlite_bench::JournalMode::kWal;
  broken.outcome = probes::Outcome::kError;
  broken.reason = "checksum mismatch: inserted 3 rows";
  AddSqliteResults(t, {DeleteFull(), slow, broken});
  ASSERT_EQ(t.sqlite.size(), 3u);
  EXPECT_DOUBLE_EQ(t.sqlite[0].speedup.value(), 1.0);
  ASSERT_EQ(t.findings.size(), 2u);
  EXPECT_EQ(t.findings[0].code, "sqlite_prediction_residual");
  EXPECT_EQ(t.findings[1].code, "sqlite_commit_error");
  EXPECT_EQ(t.findings[1].severity, model::Severity::kFail);
  EXPECT_NE(t.findings[1].message.find("checksum mismatch"), std::string::npos);
}

// On a device that alternates between two states (a device_states finding), the same gap is
// the states' mixture: the check is skipped, and the finding says so.
TEST(SqliteCorrelationTest, TwoDeviceStatesLeaveTheResidualUnjudged) {
  model::Target t;
  t.probes = Probes();
  t.device_states = model::DeviceStates{"the reference probe", 216'000, 3'860'000, 0.32};
  t.findings.push_back({model::Severity::kInfo, "device_states", "two states"});
  CommitResult slow = DeleteFull();
  slow.config.sync = sqlite_bench::Synchronous::kNormal;
  slow.timed_ns = slow.commits * 2'000'000;
  slow.commit_counts.of(FileKind::kJournal).sync_ns = slow.commits * 1'800'000;
  AddSqliteResults(t, {DeleteFull(), slow});
  ASSERT_EQ(t.findings.size(), 1u) << t.findings.back().code;
  EXPECT_EQ(t.findings[0].code, "device_states");
  const std::string& why = t.findings[0].message;
  EXPECT_NE(why.find("The residual check (sqlite_prediction_residual) is skipped for"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("DELETE/NORMAL x1 reused 100B (+68% unexplained)"), std::string::npos) << why;
  EXPECT_NE(why.find("a gap would be the mixture's"), std::string::npos) << why;
}

}  // namespace
}  // namespace durprobe::analysis

namespace durprobe::analysis::flush_prediction {

using sqlite_bench::CommitResult;
using testing_support::DeleteFull;
using testing_support::Probes;

// ops operations that made flushes on one device with no background.
probes::FlushTally Counted(std::uint64_t ops, std::uint64_t flushes) {
  probes::FlushTally t;
  t.counted = true;
  t.devices.push_back({"vda", flushes, ops, 0, 0});
  t.ops = ops;
  t.ns = ops * 100'000;
  return t;
}

// The probes of Probes() with one flush per sync, and DELETE/FULL's 100 commits (4 syncs each)
// with `flushes` flushes in all.
model::SqliteCorrelation WithFlushes(std::uint64_t flushes) {
  std::vector<probes::ProbeResult> probes = Probes();
  for (probes::ProbeResult& p : probes) p.device_flushes = Counted(100, 100);
  CommitResult r = DeleteFull(100);
  r.device_flushes = Counted(100, flushes);
  return Correlate(r, probes);
}

TEST(SqliteFlushPredictionTest, AsManyFlushesAsTheProbesSyncsMadeLeaveThePredictionAsItIs) {
  model::SqliteCorrelation c = WithFlushes(400);
  ASSERT_TRUE(c.available) << c.missing;
  ASSERT_TRUE(c.flushes_per_commit && c.probe_flushes_per_commit);
  EXPECT_DOUBLE_EQ(*c.flushes_per_commit, 4.0);
  EXPECT_DOUBLE_EQ(*c.probe_flushes_per_commit, 4.0);  // 2 journal + 1 db + 1 dir, 1 each
  EXPECT_DOUBLE_EQ(c.flush_scale, 1.0);
  EXPECT_DOUBLE_EQ(c.predicted_sync_ns, 550'000);
}

TEST(SqliteFlushPredictionTest, SyncsMergedBelowSqlitePredictTheCommitPerFlush) {
  model::SqliteCorrelation c = WithFlushes(200);  // 2 flushes a commit for 4 syncs
  ASSERT_TRUE(c.available);
  EXPECT_DOUBLE_EQ(c.flush_scale, 0.5);
  EXPECT_DOUBLE_EQ(c.predicted_sync_ns, 275'000);
  EXPECT_DOUBLE_EQ(c.predicted_ns, 375'000);  // + 100 us of other work
  EXPECT_DOUBLE_EQ(c.probe_sync_mean_ns, 550'000.0 / 4.0);  // still the probes' per sync
  EXPECT_DOUBLE_EQ(c.residual_share, (700'000.0 - 375'000.0) / 700'000.0);
}

TEST(SqliteFlushPredictionTest, AFewFlushesApartOrUncountedProbesKeepTheSyncs) {
  EXPECT_DOUBLE_EQ(WithFlushes(360).flush_scale, 1.0);  // 3.6 against 4: within the noise
  std::vector<probes::ProbeResult> probes = Probes();
  probes[0].device_flushes = Counted(100, 100);  // the others uncounted
  CommitResult r = DeleteFull(100);
  r.device_flushes = Counted(100, 100);
  model::SqliteCorrelation c = Correlate(r, probes);
  EXPECT_FALSE(c.flushes_per_commit.has_value());
  EXPECT_DOUBLE_EQ(c.flush_scale, 1.0);
  EXPECT_DOUBLE_EQ(c.predicted_sync_ns, 550'000);
}

TEST(SqliteFlushPredictionTest, FlushesDifferByHalfAFlushAndAFactorOfOneAndAHalf) {
  EXPECT_TRUE(FlushesDiffer(2.0, 4.0));
  EXPECT_TRUE(FlushesDiffer(0.0, 1.0));
  EXPECT_TRUE(FlushesDiffer(2.0, 1.0));
  EXPECT_FALSE(FlushesDiffer(0.2, 0.0));  // under half a flush apart
  EXPECT_FALSE(FlushesDiffer(3.0, 4.0));  // 1.33x
  EXPECT_FALSE(FlushesDiffer(4.0, 4.0));
}

TEST(SqliteFlushPredictionTest, TheResidualFindingSaysThePredictionWasPerFlush) {
  model::Target t;
  t.probes = Probes();
  for (probes::ProbeResult& p : t.probes) p.device_flushes = Counted(100, 100);
  CommitResult r = DeleteFull(100);
  r.device_flushes = Counted(100, 200);
  AddSqliteResults(t, {r});
  ASSERT_EQ(t.findings.size(), 1u);
  EXPECT_EQ(t.findings[0].code, "sqlite_prediction_residual");
  EXPECT_NE(t.findings[0].message.find("per flush (2.00 flushes a commit where the probes' syncs "
                                       "made 4.00)"),
            std::string::npos)
      << t.findings[0].message;
}

}  // namespace durprobe::analysis::flush_prediction
