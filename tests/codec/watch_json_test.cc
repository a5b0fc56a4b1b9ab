// The watch document's keys as docs/json.md lists them, a percentile the count cannot support
// written as null, and the inferred settings by name.
#include "codec/watch_json.h"

#include <gtest/gtest.h>

namespace durprobe::codec {
namespace {

TEST(WatchJsonTest, KeysNullsAndNames) {
  model::WatchReport r;
  r.seconds = 5.0;
  r.pids = {42};
  r.syncs = 3;
  model::WatchFile f;
  f.pid = 42;
  f.path = "/d/t.db-wal";
  f.kind = model::WatchFileKind::kSqliteWal;
  f.syncs = 3;
  f.calls = {{"fdatasync", 3}};
  f.latency.p50_ns = 1000;
  r.files.push_back(f);
  r.devices.push_back({{"vda", 4, 10}, 3, 4.0 / 3});
  model::WatchSqlite s;
  s.database = "/d/t.db";
  s.journal_mode = model::SqliteJournalSeen::kWal;
  s.synchronous = model::SqliteSyncSeen::kNormal;
  s.durable = false;
  r.sqlite.push_back(s);
  nlohmann::json j = ToJson(r);
  EXPECT_EQ(j["schema"], "durprobe.watch/1");
  EXPECT_EQ(j["window"]["pids"], nlohmann::json::array({42}));
  EXPECT_EQ(j["window"]["lost_records"], 0);
  const nlohmann::json& file = j["files"][0];
  EXPECT_EQ(file["kind"], "sqlite_wal");
  EXPECT_EQ(file["calls"]["fdatasync"], 3);
  EXPECT_TRUE(file["latency"]["p99_ns"].is_null());
  EXPECT_EQ(file["latency"]["p50_ns"], 1000);
  EXPECT_EQ(j["devices"][0]["flushes"], 4);
  EXPECT_EQ(j["sqlite"][0]["journal_mode"], "WAL");
  EXPECT_EQ(j["sqlite"][0]["synchronous"], "NORMAL");
  EXPECT_EQ(j["sqlite"][0]["durable"], false);
  EXPECT_TRUE(j["sqlite"][0]["transactions"].is_null());
}

}  // namespace
}  // namespace durprobe::codec
