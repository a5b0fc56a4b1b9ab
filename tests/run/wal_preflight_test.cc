// WAL's shared-memory pre-flight in the executor (run/wal_preflight.h): on a path where the
// pre-flight's child dies of a real SIGBUS (the fault platform makes it touch past the end of its
// file), the first WAL configuration fails with the reason, the other WAL configurations are
// skipped with sqlite_wal_shm_unusable, the rest runs, the scratch is removed and the run ends
// normally; without WAL configurations there is no pre-flight.
#include "run/wal_preflight.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "run/executor.h"
#include "tests/support/fault_platform.h"
#include "tests/test_dirs.h"

namespace durprobe::run {
namespace {

using sqlite_bench::JournalMode;
using sqlite_bench::Synchronous;

Plan WalMatrix(const std::vector<std::string>& paths) {
  Plan plan;
  plan.command = "sqlite";
  plan.paths = paths;
  plan.run_sqlite = true;
  sqlite_bench::CommitConfig del, wal_full, wal_normal;
  wal_full.journal = wal_normal.journal = JournalMode::kWal;
  wal_normal.sync = Synchronous::kNormal;
  plan.sqlite.configs = {wal_full, del, wal_normal};
  plan.sqlite.options.fixed_commits = 3;
  plan.sqlite.options.repetitions = 1;
  plan.sqlite.options.warmup_commits = 0;
  plan.sqlite.options.device_warmup_ns = 0;
  return plan;
}

const model::Finding* WalFinding(const model::Target& t, const std::string& code) {
  for (const model::Finding& f : t.findings) {
    if (f.code == code) return &f;
  }
  return nullptr;
}

bool NothingLeftIn(const std::string& dir) {
  Result<std::vector<std::string>> names = platform::Default().ListDirectory(dir);
  return names.ok() && names->empty();
}

void ExpectWalRefused(const model::Target& t) {
  ASSERT_EQ(t.sqlite.size(), 3u);
  const sqlite_bench::CommitResult& wal_full = t.sqlite[0].result;
  EXPECT_EQ(wal_full.outcome, probes::Outcome::kError);
  EXPECT_NE(wal_full.reason.find("shared-memory index cannot be mapped"), std::string::npos)
      << wal_full.reason;
  EXPECT_NE(wal_full.reason.find("Bus error"), std::string::npos) << wal_full.reason;
  EXPECT_EQ(t.sqlite[1].result.outcome, probes::Outcome::kOk) << t.sqlite[1].result.reason;
  EXPECT_EQ(t.sqlite[1].result.verified_rows, 3u);
  const sqlite_bench::CommitResult& wal_normal = t.sqlite[2].result;
  EXPECT_EQ(wal_normal.outcome, probes::Outcome::kUnsupported);
  EXPECT_EQ(wal_normal.reason.rfind("skipped: ", 0), 0u) << wal_normal.reason;
  const model::Finding* f = WalFinding(t, "sqlite_wal_shm_unusable");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->message.find("kills the process"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("reported failed: WAL/FULL"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("skipped: WAL/NORMAL"), std::string::npos) << f->message;
  EXPECT_NE(WalFinding(t, "sqlite_commit_error"), nullptr);
}

TEST(WalPreflightTest, ASigbusInThePreflightFailsOneWalConfigurationAndSkipsTheOthers) {
  testing_support::TempDir dir;
  platform::FaultPlatform fault(platform::Default());
  fault.FaultSharedMapping();
  Execution ex = Execute(fault, WalMatrix({dir.path()}));
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  EXPECT_EQ(fault.shared_mapping_calls(), 1);
  ExpectWalRefused(ex.report.targets.at(0));
  EXPECT_TRUE(NothingLeftIn(dir.path()));
}

TEST(WalPreflightTest, TheInterleavedScheduleRefusesWalPerPath) {
  testing_support::TempDir a, b;
  platform::FaultPlatform fault(platform::Default());
  fault.FaultSharedMapping();
  Plan plan = WalMatrix({a.path(), b.path()});
  plan.command = "compare";
  plan.schedule = Schedule::kInterleaved;
  Execution ex = Execute(fault, plan);
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  EXPECT_EQ(fault.shared_mapping_calls(), 2);
  ASSERT_EQ(ex.report.targets.size(), 2u);
  for (const model::Target& t : ex.report.targets) ExpectWalRefused(t);
  EXPECT_TRUE(NothingLeftIn(a.path()));
  EXPECT_TRUE(NothingLeftIn(b.path()));
}

TEST(WalPreflightTest, APathThatMapsRunsWalAndAPlanWithoutWalHasNoPreflight) {
  testing_support::TempDir dir;
  platform::FaultPlatform fault(platform::Default());
  Execution ex = Execute(fault, WalMatrix({dir.path()}));
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  EXPECT_EQ(fault.shared_mapping_calls(), 1);
  for (const model::SqliteEntry& e : ex.report.targets.at(0).sqlite) {
    EXPECT_EQ(e.result.outcome, probes::Outcome::kOk) << e.result.reason;
  }
  EXPECT_EQ(WalFinding(ex.report.targets.at(0), "sqlite_wal_shm_unusable"), nullptr);

  Plan rollback = WalMatrix({dir.path()});
  rollback.sqlite.configs.erase(rollback.sqlite.configs.begin());
  rollback.sqlite.configs.pop_back();
  platform::FaultPlatform other(platform::Default());
  ASSERT_TRUE(Execute(other, rollback).status.ok());
  EXPECT_EQ(other.shared_mapping_calls(), 0);
}

}  // namespace
}  // namespace durprobe::run
