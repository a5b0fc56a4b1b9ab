#include "report/sqlite_correlation.h"

#include <gtest/gtest.h>

#include <sstream>

#include "report/sqlite_console.h"
#include "report/sqlite_json.h"

namespace durprobe::report {
namespace {

using sqlite_bench::CommitResult;
using sqlite_bench::FileKind;

probes::ProbeResult Probe(probes::Primitive p, probes::Pattern pat, std::uint64_t size,
                          std::uint64_t sync_p50) {
  probes::ProbeResult r;
  r.spec = {p, pat, size};
  r.ops = 100;
  r.has_sync_part = true;
  r.sync_latency.p50 = sync_p50;
  r.sync_latency.mean = static_cast<double>(sync_p50);  // the correlation uses means
  r.latency.p50 = sync_p50 + 5'000;
  r.latency.mean = static_cast<double>(sync_p50 + 5'000);
  return r;
}

std::vector<probes::ProbeResult> Probes() {
  return {Probe(probes::Primitive::kFdatasync, probes::Pattern::kOverwrite, 4096, 100'000),
          Probe(probes::Primitive::kFdatasync, probes::Pattern::kAppend, 4096, 200'000),
          Probe(probes::Primitive::kDirFsync, probes::Pattern::kCreate, 0, 50'000)};
}

// DELETE/FULL-like: per commit 2 journal syncs (both after growth), 1 db overwrite, 1 dir sync.
CommitResult DeleteFull(std::uint64_t commits = 100) {
  CommitResult r;
  r.config = {sqlite_bench::JournalMode::kDelete, sqlite_bench::Synchronous::kFull, 1,
              sqlite_bench::StatementMode::kReused, 100, std::nullopt};
  r.sync_primitive = "fdatasync";
  r.commits = commits;
  r.rows = commits;
  r.timed_ns = commits * 700'000;  // mean commit 700 us
  r.latency.p50 = 650'000;
  r.commits_per_sec = 1e9 / 700'000;
  r.rows_per_sec = r.commits_per_sec;
  r.commit_counts.of(FileKind::kJournal).syncs = 2 * commits;
  r.commit_counts.of(FileKind::kJournal).syncs_grown = 2 * commits;
  r.commit_counts.of(FileKind::kJournal).dir_syncs = commits;
  r.commit_counts.of(FileKind::kDb).syncs = commits;
  r.commit_counts.of(FileKind::kJournal).sync_ns = commits * 500'000;
  r.commit_counts.of(FileKind::kDb).sync_ns = commits * 100'000;
  return r;
}

TEST(SqliteCorrelationTest, PredictsSyncsTimesProbeLatencyPlusNonSyncTime) {
  SqliteCorrelation c = Correlate(DeleteFull(), Probes());
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
  SqliteCorrelation c = Correlate(DeleteFull(), probes);
  EXPECT_FALSE(c.available);
  EXPECT_EQ(c.missing, "dir_fsync create");
}

TEST(SqliteCorrelationTest, SyncsPerCommitFollowTheContract) {
  SyncsPerCommit s = SyncsOf(DeleteFull());
  EXPECT_DOUBLE_EQ(s.journal, 2.0);
  EXPECT_DOUBLE_EQ(s.db, 1.0);
  EXPECT_DOUBLE_EQ(s.wal, 0.0);
  EXPECT_DOUBLE_EQ(s.dir, 1.0);
  EXPECT_DOUBLE_EQ(s.total, 4.0);
}

TEST(SqliteCorrelationTest, FailuresAndLargeResidualsBecomeFindings) {
  Target t;
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
  EXPECT_EQ(t.findings[1].severity, Severity::kFail);
  EXPECT_NE(t.findings[1].message.find("checksum mismatch"), std::string::npos);
}

TEST(SqliteConsoleTest, PrintsOneRowPerConfigurationWithRiskAndErrors) {
  Target t;
  t.probes = Probes();
  CommitResult broken = DeleteFull();
  broken.config.journal = sqlite_bench::JournalMode::kWal;
  broken.outcome = probes::Outcome::kError;
  broken.reason = "checksum mismatch";
  AddSqliteResults(t, {DeleteFull(), broken});
  std::ostringstream out;
  PrintSqliteTable(t.sqlite, {}, out);
  std::string text = out.str();
  EXPECT_NE(text.find("DELETE   FULL       1 reused      1,429      1,429    700 us    650 us"),
            std::string::npos) << text;
  EXPECT_NE(text.find("4 (1+2+0+1)"), std::string::npos) << text;
  EXPECT_NE(text.find("86%    1.00x    650 us    79%  nothing lost"), std::string::npos) << text;
  EXPECT_NE(text.find("WAL      FULL       1 reused  error: checksum mismatch"), std::string::npos) << text;
  EXPECT_NE(text.find("https://www.sqlite.org/pragma.html#pragma_synchronous"), std::string::npos);
}

TEST(SqliteJsonTest, EntryCarriesContractKeysAndNullsWithoutProbes) {
  Target t;
  AddSqliteResults(t, {DeleteFull()});
  nlohmann::json j = ToJson(t.sqlite[0]);
  EXPECT_EQ(j["journal_mode"], "DELETE");
  EXPECT_EQ(j["synchronous"], "FULL");
  EXPECT_EQ(j["rows_per_commit"], 1);
  EXPECT_DOUBLE_EQ(j["syncs_per_commit"]["total"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(j["sync_time_share"].get<double>(), 600.0 / 700.0);
  EXPECT_TRUE(j["predicted_commit_ns"].is_null());
  EXPECT_TRUE(j["explained_share"].is_null());
  EXPECT_EQ(j["correlation_missing"], "fdatasync overwrite, fdatasync append, dir_fsync create");
  EXPECT_EQ(j["risk"]["level"], "none");
  EXPECT_EQ(j["latency_ns"]["p50"], 650'000);
}

}  // namespace
}  // namespace durprobe::report
