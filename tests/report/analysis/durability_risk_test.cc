// SQLite's documented guarantee, as the path's findings let it hold or not.
#include "report/analysis/durability_risk.h"

#include <gtest/gtest.h>

namespace durprobe::report {
namespace {

using sqlite_bench::JournalMode;
using sqlite_bench::Synchronous;

TEST(DurabilityRiskTest, WithoutFindingsItIsWhatSqliteDocuments) {
  RowRisk r = RiskOf(JournalMode::kWal, Synchronous::kFull, {});
  EXPECT_EQ(r.level, "none");
  EXPECT_EQ(r.summary, "nothing lost");
  EXPECT_TRUE(r.findings.empty());
  EXPECT_EQ(RiskOf(JournalMode::kWal, Synchronous::kNormal, {}).level, "recent_commits");
}

TEST(DurabilityRiskTest, EveryVoidingFindingMakesEveryRowNotDurable) {
  for (const char* code :
       {"sync_noop_memory_fs", "barrier_disabled", "sync_noop_suspected", "ld_preload_eatmydata",
        "overlay_volatile", "fuse_overlayfs_fsync_disabled", "zfs_sync_disabled"}) {
    EXPECT_TRUE(VoidsDurability(code)) << code;
    RowRisk r = RiskOf(JournalMode::kDelete, Synchronous::kFull, {{Severity::kFail, code, "."}});
    EXPECT_EQ(r.level, "not_durable") << code;
    EXPECT_EQ(r.documented_level, "none") << code;
    EXPECT_EQ(r.findings, std::vector<std::string>{code});
  }
}

TEST(DurabilityRiskTest, CodesAreNamedOnceInFindingOrder) {
  std::vector<Finding> f = {{Severity::kWarn, "sync_noop_suspected", "."},
                            {Severity::kInfo, "loop_device", "."},
                            {Severity::kFail, "sync_noop_memory_fs", "."},
                            {Severity::kFail, "sync_noop_memory_fs", "the overlay's upper"}};
  RowRisk r = RiskOf(JournalMode::kWal, Synchronous::kOff, f);
  EXPECT_EQ(r.findings, (std::vector<std::string>{"sync_noop_suspected", "sync_noop_memory_fs"}));
  EXPECT_EQ(r.summary,
            "durability not provided here (sync_noop_suspected, sync_noop_memory_fs); corruption "
            "possible");
  EXPECT_EQ(NotDurableCodes(f), r.findings);
}

TEST(DurabilityRiskTest, AVolatileCacheOrAPreloadQualifiesTheGuarantee) {
  RowRisk r = RiskOf(JournalMode::kWal, Synchronous::kFull,
                     {{Severity::kWarn, "sync_faster_than_device", "."},
                      {Severity::kWarn, "ld_preload_set", "."}});
  EXPECT_EQ(r.level, "none");
  EXPECT_EQ(r.summary,
            "nothing lost if syncs reach stable storage (sync_faster_than_device, ld_preload_set)");
  EXPECT_EQ(r.findings.size(), 2u);
  // Nothing to qualify where SQLite already risks corruption.
  EXPECT_EQ(RiskOf(JournalMode::kWal, Synchronous::kOff,
                   {{Severity::kWarn, "sync_faster_than_device", "."}})
                .summary,
            "corruption possible");
}

TEST(DurabilityRiskTest, UnrelatedFindingsChangeNothing) {
  RowRisk r = RiskOf(JournalMode::kDelete, Synchronous::kFull,
                     {{Severity::kWarn, "sync_tail_heavy", "."},
                      {Severity::kWarn, "volatile_write_cache_no_fua", "."}});
  EXPECT_EQ(r.summary, "nothing lost");
  EXPECT_TRUE(r.findings.empty());
}

}  // namespace
}  // namespace durprobe::report
