// ClassifyWatchFile: each kind from the paths the engines use, and a database known by the
// journal or WAL seen beside it.
#include "analysis/watch_files.h"

#include <gtest/gtest.h>

namespace durprobe::analysis {
namespace {

model::WatchFileKind Kind(const std::string& path, const std::set<std::string>& seen = {}) {
  return ClassifyWatchFile(path, false, seen);
}

TEST(WatchFilesTest, SqliteFilesByTheirSuffixesAndNeighbours) {
  EXPECT_EQ(Kind("/srv/app/state-journal"), model::WatchFileKind::kSqliteJournal);
  EXPECT_EQ(Kind("/srv/app/state-wal"), model::WatchFileKind::kSqliteWal);
  EXPECT_EQ(Kind("/srv/app/state", {"/srv/app/state-wal"}), model::WatchFileKind::kSqliteDatabase);
  EXPECT_EQ(Kind("/srv/app/state", {"/srv/app/state-journal"}),
            model::WatchFileKind::kSqliteDatabase);
  EXPECT_EQ(Kind("/srv/app/state"), model::WatchFileKind::kOther);
  EXPECT_EQ(Kind("/srv/app/x.sqlite3"), model::WatchFileKind::kSqliteDatabase);
  EXPECT_EQ(ClassifyWatchFile("/srv/app", true, {}), model::WatchFileKind::kDirectory);
}

TEST(WatchFilesTest, PostgresEtcdMysqlRocksdb) {
  EXPECT_EQ(Kind("/var/lib/postgresql/15/main/pg_wal/000000010000000000000001"),
            model::WatchFileKind::kPostgresWal);
  EXPECT_EQ(Kind("/var/lib/postgresql/15/main/base/16384/2619"),
            model::WatchFileKind::kPostgresData);
  EXPECT_EQ(Kind("/var/lib/postgresql/15/main/base/16384/2619_fsm"),
            model::WatchFileKind::kPostgresData);
  EXPECT_EQ(Kind("/var/lib/postgresql/15/main/global/1262.1"), model::WatchFileKind::kPostgresData);
  EXPECT_EQ(Kind("/var/lib/etcd/member/wal/0000000000000000-0000000000000000.wal"),
            model::WatchFileKind::kEtcdWal);
  EXPECT_EQ(Kind("/var/lib/etcd/member/snap/db"), model::WatchFileKind::kEtcdSnapshot);
  EXPECT_EQ(Kind("/var/lib/mysql/ib_logfile0"), model::WatchFileKind::kMysqlRedo);
  EXPECT_EQ(Kind("/var/lib/mysql/#innodb_redo/#ib_redo10"), model::WatchFileKind::kMysqlRedo);
  EXPECT_EQ(Kind("/var/lib/mysql/binlog.000042"), model::WatchFileKind::kMysqlBinlog);
  EXPECT_EQ(Kind("/var/lib/mysql/mysql-bin.000042"), model::WatchFileKind::kMysqlBinlog);
  EXPECT_EQ(Kind("/var/lib/mysql/shop/orders.ibd"), model::WatchFileKind::kMysqlData);
  EXPECT_EQ(Kind("/data/rocks/000123.log"), model::WatchFileKind::kRocksdbLog);
  EXPECT_EQ(Kind("/data/rocks/MANIFEST-000005"), model::WatchFileKind::kRocksdbManifest);
  EXPECT_EQ(Kind("/data/rocks/LOG"), model::WatchFileKind::kRocksdbInfoLog);
}

TEST(WatchFilesTest, LookAlikesStayOther) {
  EXPECT_EQ(Kind("/home/u/notes/pg_wal/readme.txt"), model::WatchFileKind::kOther);
  EXPECT_EQ(Kind("/var/log/app.log"), model::WatchFileKind::kOther);
  EXPECT_EQ(Kind("/data/MANIFEST-draft"), model::WatchFileKind::kOther);
  EXPECT_EQ(Kind("/srv/base/readme"), model::WatchFileKind::kOther);
}

TEST(WatchFilesTest, EveryKindHasItsNameAndPhrase) {
  for (int i = 0; i <= static_cast<int>(model::WatchFileKind::kLastWatchFileKind); ++i) {
    auto kind = static_cast<model::WatchFileKind>(i);
    EXPECT_FALSE(WatchFileKindName(kind).empty()) << i;
    EXPECT_FALSE(WatchFileKindPhrase(kind).empty()) << i;
  }
}

}  // namespace
}  // namespace durprobe::analysis
