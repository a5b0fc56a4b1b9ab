// ClassifyWatchFile: each kind from the paths the engines use, and a database known by the
// journal or WAL seen beside it.
#include "analysis/watch_files.h"

#include <gtest/gtest.h>

namespace durprobe::report {
namespace {

WatchFileKind Kind(const std::string& path, const std::set<std::string>& seen = {}) {
  return ClassifyWatchFile(path, false, seen);
}

TEST(WatchFilesTest, SqliteFilesByTheirSuffixesAndNeighbours) {
  EXPECT_EQ(Kind("/srv/app/state-journal"), WatchFileKind::kSqliteJournal);
  EXPECT_EQ(Kind("/srv/app/state-wal"), WatchFileKind::kSqliteWal);
  EXPECT_EQ(Kind("/srv/app/state", {"/srv/app/state-wal"}), WatchFileKind::kSqliteDatabase);
  EXPECT_EQ(Kind("/srv/app/state", {"/srv/app/state-journal"}), WatchFileKind::kSqliteDatabase);
  EXPECT_EQ(Kind("/srv/app/state"), WatchFileKind::kOther);
  EXPECT_EQ(Kind("/srv/app/x.sqlite3"), WatchFileKind::kSqliteDatabase);
  EXPECT_EQ(ClassifyWatchFile("/srv/app", true, {}), WatchFileKind::kDirectory);
}

TEST(WatchFilesTest, PostgresEtcdMysqlRocksdb) {
  EXPECT_EQ(Kind("/var/lib/postgresql/15/main/pg_wal/000000010000000000000001"),
            WatchFileKind::kPostgresWal);
  EXPECT_EQ(Kind("/var/lib/postgresql/15/main/base/16384/2619"), WatchFileKind::kPostgresData);
  EXPECT_EQ(Kind("/var/lib/postgresql/15/main/base/16384/2619_fsm"), WatchFileKind::kPostgresData);
  EXPECT_EQ(Kind("/var/lib/postgresql/15/main/global/1262.1"), WatchFileKind::kPostgresData);
  EXPECT_EQ(Kind("/var/lib/etcd/member/wal/0000000000000000-0000000000000000.wal"),
            WatchFileKind::kEtcdWal);
  EXPECT_EQ(Kind("/var/lib/etcd/member/snap/db"), WatchFileKind::kEtcdSnapshot);
  EXPECT_EQ(Kind("/var/lib/mysql/ib_logfile0"), WatchFileKind::kMysqlRedo);
  EXPECT_EQ(Kind("/var/lib/mysql/#innodb_redo/#ib_redo10"), WatchFileKind::kMysqlRedo);
  EXPECT_EQ(Kind("/var/lib/mysql/binlog.000042"), WatchFileKind::kMysqlBinlog);
  EXPECT_EQ(Kind("/var/lib/mysql/mysql-bin.000042"), WatchFileKind::kMysqlBinlog);
  EXPECT_EQ(Kind("/var/lib/mysql/shop/orders.ibd"), WatchFileKind::kMysqlData);
  EXPECT_EQ(Kind("/data/rocks/000123.log"), WatchFileKind::kRocksdbLog);
  EXPECT_EQ(Kind("/data/rocks/MANIFEST-000005"), WatchFileKind::kRocksdbManifest);
  EXPECT_EQ(Kind("/data/rocks/LOG"), WatchFileKind::kRocksdbInfoLog);
}

TEST(WatchFilesTest, LookAlikesStayOther) {
  EXPECT_EQ(Kind("/home/u/notes/pg_wal/readme.txt"), WatchFileKind::kOther);
  EXPECT_EQ(Kind("/var/log/app.log"), WatchFileKind::kOther);
  EXPECT_EQ(Kind("/data/MANIFEST-draft"), WatchFileKind::kOther);
  EXPECT_EQ(Kind("/srv/base/readme"), WatchFileKind::kOther);
}

TEST(WatchFilesTest, EveryKindHasItsNameAndPhrase) {
  for (int i = 0; i <= static_cast<int>(WatchFileKind::kLastWatchFileKind); ++i) {
    auto kind = static_cast<WatchFileKind>(i);
    EXPECT_FALSE(WatchFileKindName(kind).empty()) << i;
    EXPECT_FALSE(WatchFileKindPhrase(kind).empty()) << i;
  }
}

}  // namespace
}  // namespace durprobe::report
