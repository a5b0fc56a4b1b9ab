// BuildWatchReport from a recording made by hand: syncs grouped per process and file with their
// kind, latency percentiles only where the count supports them, the bytes per sync, a file
// written and never synced listed with 0 syncs, each device's flushes per observed sync, and a
// SQLite database found from its journal and inferred.
#include "analysis/watch_report.h"

#include <gtest/gtest.h>

namespace durprobe::analysis {
namespace {

model::WatchSync Sync(std::uint32_t pid, const std::string& path, std::uint64_t latency_ns,
                      std::uint64_t bytes, double at, bool directory = false) {
  model::WatchSync w;
  w.sync.pid = pid;
  w.sync.comm = "app";
  w.sync.path = path;
  w.sync.call = platform::ObservedCall::kFdatasync;
  w.sync.latency_ns = latency_ns;
  w.sync.bytes_since_sync = bytes;
  w.at_seconds = at;
  w.directory = directory;
  return w;
}

model::WatchRecording Recording() {
  model::WatchRecording rec;
  rec.seconds = 10.0;
  for (int i = 0; i < 40; ++i) {
    double t = 0.1 * i;
    rec.syncs.push_back(Sync(9, "/d/t.db-journal", 2000000, 8720, t));
    rec.syncs.push_back(Sync(9, "/d", 1000000, 0, t, true));
    rec.syncs.push_back(Sync(9, "/d/t.db-journal", 2000000, 12, t));
    rec.syncs.push_back(Sync(9, "/d/t.db", 4000000, 8192, t + 0.05));
  }
  rec.unsynced.push_back({9, 3, 4096, 1, "/d/cache.bin"});
  rec.devices = {{"vda", 170, 400}, {"vdb", 5, 9}};
  rec.file_devices = {{"/d/t.db-journal", {"vda"}}, {"/d", {"vda"}}, {"/d/t.db", {"vda"}}};
  return rec;
}

const model::WatchFile* FileAt(const model::WatchReport& r, const std::string& path) {
  for (const model::WatchFile& f : r.files) {
    if (f.path == path) return &f;
  }
  return nullptr;
}

TEST(WatchReportTest, FilesKindsAndFigures) {
  model::WatchReport r = BuildWatchReport(Recording());
  EXPECT_EQ(r.syncs, 160u);
  ASSERT_EQ(r.files.size(), 4u);
  EXPECT_EQ(r.files[0].path, "/d/t.db-journal");  // most syncs first
  const model::WatchFile* journal = FileAt(r, "/d/t.db-journal");
  ASSERT_NE(journal, nullptr);
  EXPECT_EQ(journal->kind, model::WatchFileKind::kSqliteJournal);
  EXPECT_EQ(journal->syncs, 80u);
  EXPECT_DOUBLE_EQ(journal->syncs_per_second, 8.0);
  EXPECT_DOUBLE_EQ(journal->bytes_per_sync, (8720.0 + 12.0) / 2);
  EXPECT_EQ(journal->calls,
            (std::vector<std::pair<std::string, std::uint64_t>>{{"fdatasync", 80}}));
  const model::WatchFile* db = FileAt(r, "/d/t.db");
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->kind, model::WatchFileKind::kSqliteDatabase);
  EXPECT_FALSE(db->latency.p99_ns.has_value());  // 40 syncs support no p99
  EXPECT_NEAR(static_cast<double>(db->latency.p50_ns), 4e6, 4e6 / 100);
  EXPECT_EQ(FileAt(r, "/d")->kind, model::WatchFileKind::kDirectory);
  const model::WatchFile* cache = FileAt(r, "/d/cache.bin");
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(cache->syncs, 0u);
  EXPECT_EQ(cache->unsynced_bytes, 4096u);
}

TEST(WatchReportTest, DevicesAndTheDatabase) {
  model::WatchReport r = BuildWatchReport(Recording());
  ASSERT_EQ(r.devices.size(), 1u);  // vdb holds no observed file
  EXPECT_EQ(r.devices[0].device.name, "vda");
  EXPECT_EQ(r.devices[0].syncs, 160u);
  EXPECT_DOUBLE_EQ(*r.devices[0].flushes_per_sync, 170.0 / 160.0);
  ASSERT_EQ(r.sqlite.size(), 1u);
  EXPECT_EQ(r.sqlite[0].database, "/d/t.db");
  EXPECT_EQ(r.sqlite[0].journal_mode, model::SqliteJournalSeen::kDelete);
  EXPECT_EQ(r.sqlite[0].synchronous, model::SqliteSyncSeen::kFull);
  EXPECT_EQ(r.sqlite[0].transactions, 40u);
  EXPECT_DOUBLE_EQ(*r.sqlite[0].syncs_per_transaction, 4.0);
}

}  // namespace
}  // namespace durprobe::analysis
