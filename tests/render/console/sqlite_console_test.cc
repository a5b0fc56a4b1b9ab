// The SQLite table's text: every time cell carries its unit, commits/s the median repetition as in
// every format (commit the mean over all timed commits), ratios in one style, and the legend that
// says so.
#include "render/console/sqlite_console.h"

#include <gtest/gtest.h>

#include <sstream>

#include "analysis/durability_risk.h"
#include "analysis/sqlite_correlation.h"
#include "tests/sqlite_samples.h"
#include "text/line_width.h"

namespace durprobe::render::console {
namespace {

using sqlite_bench::CommitResult;
using testing_support::DeleteFull;
using testing_support::Probes;

// The table of entries on a path with these findings, the risk decided as the run decides it.
std::string Table(const std::vector<model::SqliteEntry>& entries,
                  std::optional<model::Durability> durability = std::nullopt) {
  model::Target t;
  t.sqlite = entries;
  t.durability = std::move(durability);
  analysis::AssessRisks(t);
  std::ostringstream out;
  PrintSqliteTable(t.sqlite, {}, out);
  return out.str();
}

TEST(SqliteConsoleTest, ExactText) {
  model::Target t;
  t.probes = Probes();
  CommitResult broken = DeleteFull();
  broken.config.journal = sqlite_bench::JournalMode::kWal;
  broken.outcome = probes::Outcome::kError;
  broken.reason = "checksum mismatch";
  CommitResult few = DeleteFull(40);  // too few commits for a p99
  few.config.rows_per_commit = 100;
  few.config.statement = sqlite_bench::StatementMode::kPerRow;
  few.timed_ns = 40 * 1'400'000;
  few.commits_per_sec = 1e9 / 1'400'000;
  few.rows_per_sec = few.commits_per_sec * 100;
  analysis::AddSqliteResults(t, {DeleteFull(), few, broken});
  EXPECT_EQ(
      Table(t.sqlite),
      "journal  sync  rows  stmt     commits/s  rows/s   commit     p50     p99  syncs  "
      "db+j+wal+dir  sync%  speedup  predicted  explained  power-loss risk\n"
      "DELETE   FULL     1  reused       1,429   1,429   700 us  650 us  900 us      4  1+2+0+1   "
      "      86%    1.00x     650 us        79%  last commit may roll back on power loss\n"
      "DELETE   FULL   100  per_row        714  71,429  1.40 ms  650 us       -      4  1+2+0+1   "
      "      43%    50.0x    1.35 ms        39%  last commit may roll back on power loss\n"
      "WAL      FULL     1  reused   error: checksum mismatch\n"
      "  commits/s: the median of the repetitions' rates (as in every format and check); rows/s "
      "= commits/s x rows;\n"
      "  commit: mean time of a timed transaction (all repetitions); speedup: rows/s against "
      "DELETE/FULL x1 with reused statements;\n"
      "  p50, p99: of single transactions; syncs: sync calls per commit, by file as "
      "db+j+wal+dir (main database, rollback journal, WAL, directory syncs inside SQLite's unix "
      "VFS);\n"
      "  predicted: syncs x probe mean sync latency + measured non-sync time, against commit; "
      "explained: share of commit the probes' syncs explain;\n"
      "  risk on power loss or OS crash as SQLite documents it "
      "(https://www.sqlite.org/pragma.html#pragma_synchronous), as far as this path's "
      "durability verdict lets syncs reach stable storage (docs/sqlite.md)\n"
      "  p90, p99, p99.9 \"-\": fewer operations than that percentile needs (10, 100, 1,000)\n");
}

// Issue 57: at 80 columns the table dropped syncs per commit, the figure that explains the rate,
// and kept p99; it now leaves out the split by file and the latencies first.
TEST(SqliteConsoleTest, EightyColumnsKeepSyncsPerCommit) {
  model::Target t;
  t.probes = Probes();
  analysis::AddSqliteResults(t, {DeleteFull()});
  analysis::AssessRisks(t);
  std::ostringstream out;
  text::SetLineWidth(out, 80);
  PrintSqliteTable(t.sqlite, {}, out);
  const std::string text = out.str();
  const std::size_t header = text.find("journal  sync");
  ASSERT_NE(header, std::string::npos) << text;
  const std::string line = text.substr(header, text.find('\n', header) - header);
  EXPECT_NE(line.find("commits/s"), std::string::npos) << text;
  EXPECT_NE(line.find("syncs"), std::string::npos) << text;
  EXPECT_NE(line.find("speedup"), std::string::npos) << text;
  EXPECT_NE(text.find("left out to fit 80 columns"), std::string::npos) << text;
  EXPECT_NE(text.find("db+j+wal+dir"), std::string::npos) << "named as left out\n" << text;
  // The table's own lines fit (the legend under it is wrapped by the report's last pass).
  for (std::size_t at = 0, end = 0; at < text.size(); at = end + 1) {
    end = text.find('\n', at);
    if (text.compare(at, 2, "  ") == 0 && text.compare(at, 3, "   ") != 0) continue;
    EXPECT_LE(end - at, 80u) << text.substr(at, end - at);
  }
}

TEST(SqliteConsoleTest, CommitsPerSecondIsTheMedianRepetitionAsInEveryFormat) {
  model::Target t;
  t.probes = Probes();
  CommitResult r = DeleteFull();
  r.repetition_commits_per_sec = {1500, 1400, 900};
  r.commits_per_sec = 1400;  // the median repetition, not 1 s / the mean commit (1,429)
  r.rows_per_sec = 1400;
  analysis::AddSqliteResults(t, {r});
  std::string text = Table(t.sqlite);
  // commits/s and rows/s are JSON's commits_per_sec; commit stays the mean over every commit.
  EXPECT_NE(text.find("  1,400   1,400  700 us"), std::string::npos) << text;
  EXPECT_EQ(text.find("1,429"), std::string::npos) << text;
  EXPECT_NE(text.find("commits/s: the median of the repetitions' rates"), std::string::npos)
      << text;
}

TEST(SqliteConsoleTest, ExplainedAboveAHundredPercentIsExplained) {
  model::Target t;
  t.probes = Probes();
  CommitResult r = DeleteFull();
  r.timed_ns = r.commits * 300'000;  // commits faster than the probes' syncs alone
  analysis::AddSqliteResults(t, {r});
  std::string text = Table(t.sqlite);
  EXPECT_NE(text.find("explained above 100%: the probes' syncs alone take longer"),
            std::string::npos)
      << text;
}

TEST(SqliteConsoleTest, SpeedupReadsAsAFraction) {
  model::Target t;
  t.probes = Probes();
  CommitResult slow = DeleteFull();
  slow.config.fullfsync = true;  // not the baseline
  slow.timed_ns = slow.commits * 700'000 * 1400;
  slow.commits_per_sec = 1e9 / (700'000.0 * 1400);
  slow.rows_per_sec = slow.commits_per_sec;
  analysis::AddSqliteResults(t, {DeleteFull(), slow});
  std::string text = Table(t.sqlite);
  EXPECT_NE(text.find("1/1400x"), std::string::npos) << text;
  EXPECT_EQ(text.find("0.00"), std::string::npos) << text;
  EXPECT_NE(text.find("980 ms"), std::string::npos) << text;
}

// The risk column follows the path's durability verdict: on tmpfs, a nobarrier mount or under
// a no-op-sync preload, SQLite's documented guarantee would be false.
TEST(SqliteConsoleTest, RiskColumnNamesTheFindingThatVoidsDurability) {
  model::Target t;
  t.probes = Probes();
  CommitResult wal_normal = DeleteFull();
  wal_normal.config.journal = sqlite_bench::JournalMode::kWal;
  wal_normal.config.sync = sqlite_bench::Synchronous::kNormal;
  CommitResult off = DeleteFull();
  off.config.sync = sqlite_bench::Synchronous::kOff;
  analysis::AddSqliteResults(t, {DeleteFull(), wal_normal, off});
  EXPECT_NE(Table(t.sqlite).find("  last commit may roll back on power loss\n"), std::string::npos);
  for (const char* code :
       {"sync_noop_memory_fs", "barrier_disabled", "ld_preload_eatmydata", "sync_noop_suspected"}) {
    model::Durability d;
    d.verdict = model::DurabilityVerdict::kNotDurable;
    d.deciding_layer = model::LayerKind::kFilesystem;
    d.findings = {code};
    std::string text = Table(t.sqlite, d);
    EXPECT_EQ(text.find("last commit may roll back"), std::string::npos) << text;
    EXPECT_NE(text.find(std::string("  durability not provided here (") + code + ")\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find(std::string("durability not provided here (") + code +
                        "); corruption possible\n"),
              std::string::npos)
        << text;
  }
  model::Durability unproven;
  unproven.verdict = model::DurabilityVerdict::kUnproven;
  unproven.deciding_layer = model::LayerKind::kDevice;
  std::string cached = Table(t.sqlite, unproven);
  EXPECT_NE(cached.find("  last commit may roll back on power loss if syncs reach stable storage "
                        "(unproven: device)\n"),
            std::string::npos)
      << cached;
  EXPECT_NE(cached.find("last commits may be lost, no corruption if syncs reach stable storage "
                        "(unproven: device)\n"),
            std::string::npos)
      << cached;
}

// The basis note cites latency_drift only when the finding is in the list, and a configuration
// without syncs gets no sync-timing note ("a sync took 0 ns in SQLite, 0 ns in the probes").
TEST(SqliteConsoleTest, NotesCiteOnlyFindingsInTheListAndNeedSyncs) {
  model::SqliteEntry synced;
  synced.result = DeleteFull();
  synced.correlation = analysis::Correlate(synced.result, Probes());
  synced.correlation.basis = model::CorrelationBasis::kSqliteSyncTiming;
  model::SqliteEntry unsynced = synced;
  unsynced.result.config.sync = sqlite_bench::Synchronous::kOff;
  unsynced.result.commit_counts = {};
  unsynced.correlation = analysis::Correlate(unsynced.result, Probes());
  unsynced.correlation.basis = model::CorrelationBasis::kSqliteSyncTiming;
  for (bool cite : {false, true}) {
    std::ostringstream out;
    text::SetEveryNote(out, true);  // the basis notes are --verbose's
    PrintSqliteTable({synced, unsynced}, {}, out, cite);
    std::string text = out.str();
    EXPECT_NE(text.find("DELETE/FULL x1: predicted from SQLite's own sync timing"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("DELETE/OFF x1: predicted"), std::string::npos) << text;
    EXPECT_EQ(text.find("(latency_drift)") != std::string::npos, cite) << text;
  }
}

// Without --verbose the notes on how a prediction was made are counted in one line, not printed;
// the notes that explain a column stay.
TEST(SqliteConsoleTest, TheShortFormCountsTheNotesOnlyVerbosePrints) {
  model::SqliteEntry synced;
  synced.result = DeleteFull();
  synced.correlation = analysis::Correlate(synced.result, Probes());
  synced.correlation.basis = model::CorrelationBasis::kSqliteSyncTiming;
  model::SqliteEntry wal = synced;
  wal.result.config.journal = sqlite_bench::JournalMode::kWal;
  std::ostringstream out;
  PrintSqliteTable({synced, wal}, {}, out, false);
  std::string text = out.str();
  EXPECT_EQ(text.find("predicted from SQLite's own sync timing"), std::string::npos) << text;
  EXPECT_NE(text.find("  note: 2 notes more with --verbose (2 on how its prediction was made)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("p50, p99: of single transactions"), std::string::npos) << text;
}

// Counted flushes add flush/c beside the syncs: 2 flushes per commit for DELETE/FULL's syncs
// here, background and all; a table where nothing was counted has no such column.
TEST(SqliteConsoleTest, CountedFlushesStandBesideTheSyncs) {
  model::Target t;
  t.probes = Probes();
  CommitResult r = DeleteFull();
  analysis::AddSqliteResults(t, {r});
  EXPECT_EQ(Table(t.sqlite).find("flush/c"), std::string::npos);
  r.device_flushes = {.counted = true,
                      .devices = {{"vda", 200, 400, 0, 0}},
                      .ops = r.commits,
                      .ns = 1'000'000'000,
                      .idle_ns = 31'250'000};
  model::Target counted;
  counted.probes = Probes();
  analysis::AddSqliteResults(counted, {r});
  std::string text = Table(counted.sqlite);
  EXPECT_NE(text.find("flush/c"), std::string::npos) << text;
  EXPECT_NE(text.find(" 2.00 "), std::string::npos) << text;
  EXPECT_NE(text.find("flush/c: flush requests the device completed per commit"), std::string::npos)
      << text;
}

// Where the probes' flushes were counted too and the commits made half as many flushes as their
// syncs did in the probes, a note says the prediction went per flush.
TEST(SqliteConsoleTest, APredictionPerFlushIsNoted) {
  model::Target counted;
  counted.probes = Probes();
  for (probes::ProbeResult& p : counted.probes) {
    p.device_flushes = {.counted = true, .devices = {{"vda", 100, 100, 0, 0}}, .ops = 100};
  }
  CommitResult r = DeleteFull();
  r.device_flushes = {.counted = true, .devices = {{"vda", 200, 400, 0, 0}}, .ops = r.commits};
  analysis::AddSqliteResults(counted, {r});
  std::string text = Table(counted.sqlite);
  EXPECT_NE(text.find("DELETE/FULL x1: 2.00 flushes a commit where the probes' syncs made 4.00 for "
                      "as many syncs: predicted per flush (1/2.00x the probes' sync time)"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace durprobe::render::console
