// A SQLite entry's JSON keys: the contract, nulls where the probes or the count do not support
// a figure.
#include "codec/sqlite_json.h"

#include <gtest/gtest.h>

#include "analysis/durability_risk.h"
#include "analysis/sqlite_correlation.h"
#include "tests/sqlite_samples.h"

namespace durprobe::codec {
namespace {

using testing_support::DeleteFull;

TEST(SqliteJsonTest, EntryCarriesContractKeysAndNullsWithoutProbes) {
  model::Target t;
  analysis::AddSqliteResults(t, {DeleteFull()});
  nlohmann::json j = ToJson(t.sqlite[0]);
  EXPECT_EQ(j["journal_mode"], "DELETE");
  EXPECT_EQ(j["synchronous"], "FULL");
  EXPECT_EQ(j["rows_per_commit"], 1);
  EXPECT_DOUBLE_EQ(j["syncs_per_commit"]["total"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(j["sync_time_share"].get<double>(), 600.0 / 700.0);
  EXPECT_TRUE(j["predicted_commit_ns"].is_null());
  EXPECT_TRUE(j["explained_share"].is_null());
  EXPECT_EQ(j["correlation_missing"], "fdatasync overwrite, fdatasync append, dir_fsync create");
  EXPECT_EQ(j["risk"]["level"], "last_commit");
  EXPECT_EQ(j["latency_ns"]["p50"], 650'000);
}

TEST(SqliteJsonTest, ATailTooFewCommitsSupportIsNull) {
  model::Target t;
  analysis::AddSqliteResults(t, {DeleteFull(100), DeleteFull(99)});
  EXPECT_EQ(ToJson(t.sqlite[0])["latency_ns"]["p99"], 900'000);
  EXPECT_TRUE(ToJson(t.sqlite[0])["latency_ns"]["p999"].is_null());
  EXPECT_TRUE(ToJson(t.sqlite[1])["latency_ns"]["p99"].is_null());
  EXPECT_EQ(ToJson(t.sqlite[1])["commits"], 99);
}

TEST(SqliteJsonTest, RiskCarriesTheDecidingFindingCodes) {
  model::Target t;
  analysis::AddSqliteResults(t, {DeleteFull()});
  nlohmann::json plain = ToJson(t.sqlite[0])["risk"];
  EXPECT_EQ(plain["level"], "last_commit");
  EXPECT_EQ(plain["documented_level"], "last_commit");
  EXPECT_EQ(plain["findings"], nlohmann::json::array());
  model::Durability tmpfs_verdict;
  tmpfs_verdict.verdict = model::DurabilityVerdict::kNotDurable;
  tmpfs_verdict.deciding_layer = model::LayerKind::kFilesystem;
  tmpfs_verdict.findings = {"sync_noop_memory_fs"};
  t.durability = tmpfs_verdict;
  analysis::AssessRisks(t);  // the writer writes the risk as the analysis decided it
  nlohmann::json tmpfs = ToJson(t.sqlite[0])["risk"];
  EXPECT_EQ(tmpfs["level"], "not_durable");
  EXPECT_EQ(tmpfs["documented_level"], "last_commit");
  EXPECT_EQ(tmpfs["findings"], nlohmann::json({"sync_noop_memory_fs"}));
  EXPECT_EQ(tmpfs["summary"], "durability not provided here (sync_noop_memory_fs)");
}

}  // namespace
}  // namespace durprobe::codec
