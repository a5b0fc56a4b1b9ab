// The crash VFS under real SQLite: files land on the simulated disk, a crash stops every later
// change, and the directory syncs follow the unix VFS's rules.
#include "sqlite_bench/crash_vfs.h"

#include <gtest/gtest.h>

#include "sqlite_bench/sqlite_db.h"

namespace durprobe::sqlite_bench {
namespace {

std::unique_ptr<CrashVfs> Register(const std::string& name) {
  Result<std::unique_ptr<CrashVfs>> vfs = CrashVfs::Register(name, DeviceModel{});
  EXPECT_TRUE(vfs.ok()) << vfs.status().message();
  return vfs.ok() ? std::move(*vfs) : nullptr;
}

TEST(CrashVfsTest, NamesAreFlatFileNames) {
  EXPECT_EQ(CrashDiskName("/crash.db-journal"), "crash.db-journal");
  EXPECT_EQ(CrashDiskName("crash.db"), "crash.db");
}

TEST(CrashVfsTest, SqliteWritesLandOnTheSimulatedDiskAndReadBack) {
  std::unique_ptr<CrashVfs> vfs = Register("crash-vfs-test-basic");
  ASSERT_TRUE(vfs);
  Result<std::unique_ptr<Db>> db = Db::Open("t.db", vfs->name());
  ASSERT_TRUE(db.ok()) << db.status().message();
  ASSERT_TRUE(
      (*db)->Exec("PRAGMA journal_mode=DELETE; CREATE TABLE x(v); INSERT INTO x VALUES (42)").ok());
  Result<std::string> v = (*db)->QueryText("SELECT v FROM x");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, "42");
  DiskImage live = vfs->disk().LiveImage();
  EXPECT_EQ(live.count("t.db"), 1u);
  EXPECT_EQ(live.count("t.db-journal"), 0u) << "DELETE mode removes the journal at commit";
  EXPECT_EQ(live["t.db"].substr(0, 15), "SQLite format 3");
}

TEST(CrashVfsTest, AfterTheCrashEveryChangeFailsAndTheDiskStaysAsItWas) {
  std::unique_ptr<CrashVfs> vfs = Register("crash-vfs-test-crash");
  ASSERT_TRUE(vfs);
  Result<std::unique_ptr<Db>> db = Db::Open("t.db", vfs->name());
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE((*db)->Exec("CREATE TABLE x(v)").ok());
  vfs->disk().MakeAllDurable();
  vfs->ArmCrash(1);
  EXPECT_FALSE((*db)->Exec("INSERT INTO x VALUES (1)").ok());
  EXPECT_TRUE(vfs->crashed());
  EXPECT_EQ(vfs->disk().pending(), 0u) << "the crashing call changed nothing";
  EXPECT_EQ(vfs->calls(), 1u);
}

TEST(CrashVfsTest, CrashAtTheNthSyncCountsOnlySyncs) {
  std::unique_ptr<CrashVfs> vfs = Register("crash-vfs-test-sync");
  ASSERT_TRUE(vfs);
  Result<std::unique_ptr<Db>> db = Db::Open("t.db", vfs->name());
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE((*db)->Exec("PRAGMA synchronous=FULL; CREATE TABLE x(v)").ok());
  vfs->ArmCrashAtSync(2);
  EXPECT_FALSE((*db)->Exec("INSERT INTO x VALUES (1)").ok());
  EXPECT_EQ(vfs->syncs(), 2u);
  EXPECT_GT(vfs->calls(), vfs->syncs()) << "writes came before the syncs";
  EXPECT_GT(vfs->disk().pending(), 0u) << "the db writes after the journal sync are not durable";
}

TEST(CrashVfsTest, ExtraSyncsTheDirectoryAfterDeletingTheJournalFullDoesNot) {
  for (const char* level : {"FULL", "EXTRA"}) {
    std::unique_ptr<CrashVfs> vfs = Register(std::string("crash-vfs-test-dir-") + level);
    ASSERT_TRUE(vfs);
    Result<std::unique_ptr<Db>> db = Db::Open("t.db", vfs->name());
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(
        (*db)->Exec(std::string("PRAGMA synchronous=") + level + "; CREATE TABLE x(v)").ok());
    vfs->disk().MakeAllDurable();
    ASSERT_TRUE((*db)->Exec("INSERT INTO x VALUES (1)").ok());
    // Everything but the journal's unlink was synced; FULL leaves that unlink pending.
    EXPECT_EQ(vfs->disk().pending(), std::string(level) == "FULL" ? 1u : 0u) << level;
  }
}

// What docs/durability.md explains TRUNCATE/NORMAL's losses with: at NORMAL the truncation that
// commits is still unsynced when COMMIT returns; PERSIST's zeroed header is synced.
TEST(CrashVfsTest, TruncateSyncsItsTruncationOnlyAtFullPersistSyncsItsHeaderAtNormal) {
  struct Case {
    const char* mode;
    const char* level;
    std::size_t pending;
  };
  for (Case c : {Case{"TRUNCATE", "NORMAL", 1}, Case{"TRUNCATE", "FULL", 0},
                 Case{"PERSIST", "NORMAL", 0}, Case{"PERSIST", "FULL", 0}}) {
    std::unique_ptr<CrashVfs> vfs =
        Register(std::string("crash-vfs-test-") + c.mode + "-" + c.level);
    ASSERT_TRUE(vfs);
    Result<std::unique_ptr<Db>> db = Db::Open("t.db", vfs->name());
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)
                    ->Exec(std::string("PRAGMA journal_mode=") + c.mode +
                           "; PRAGMA synchronous=" + c.level + "; CREATE TABLE x(v)")
                    .ok());
    ASSERT_TRUE((*db)->Exec("INSERT INTO x VALUES (1)").ok());
    vfs->disk().MakeAllDurable();
    ASSERT_TRUE((*db)->Exec("INSERT INTO x VALUES (2)").ok());
    EXPECT_EQ(vfs->disk().pending(), c.pending) << c.mode << "/" << c.level;
  }
}

}  // namespace
}  // namespace durprobe::sqlite_bench
