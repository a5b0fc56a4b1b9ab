// SQLite's documented guarantee, as the path's durability verdict lets it hold or not.
#include "analysis/durability_risk.h"

#include <gtest/gtest.h>

namespace durprobe::report {
namespace {

using sqlite_bench::JournalMode;
using sqlite_bench::RiskLevel;
using sqlite_bench::Synchronous;

Durability Verdict(DurabilityVerdict v, std::optional<LayerKind> layer,
                   std::vector<std::string> codes) {
  Durability d;
  d.verdict = v;
  d.deciding_layer = layer;
  d.findings = std::move(codes);
  return d;
}

TEST(DurabilityRiskTest, WithoutAVerdictItIsWhatSqliteDocuments) {
  RowRisk r = RiskOf(JournalMode::kWal, Synchronous::kFull, std::nullopt);
  EXPECT_EQ(NameOf(r.level), "none");
  EXPECT_EQ(r.summary, "nothing lost");
  EXPECT_TRUE(r.findings.empty());
  EXPECT_EQ(NameOf(RiskOf(JournalMode::kWal, Synchronous::kNormal, std::nullopt).level),
            "recent_commits");
}

TEST(DurabilityRiskTest, DeleteFullIsToldApartFromDeleteExtra) {
  Durability durable = Verdict(DurabilityVerdict::kDurable, std::nullopt, {});
  RowRisk full = RiskOf(JournalMode::kDelete, Synchronous::kFull, durable);
  RowRisk extra = RiskOf(JournalMode::kDelete, Synchronous::kExtra, durable);
  EXPECT_EQ(NameOf(full.documented_level), "last_commit");
  EXPECT_EQ(full.summary, "last commit may roll back on power loss");
  EXPECT_EQ(NameOf(extra.documented_level), "none");
  // TRUNCATE and PERSIST sync the journal's end under FULL: nothing lost.
  EXPECT_EQ(NameOf(RiskOf(JournalMode::kTruncate, Synchronous::kFull, durable).level), "none");
  EXPECT_EQ(NameOf(RiskOf(JournalMode::kPersist, Synchronous::kFull, durable).level), "none");
  // The levels rank in the order of what they may lose.
  EXPECT_LT(extra.level, full.level);
  EXPECT_LT(RiskLevel::kLastCommit, RiskLevel::kRecentCommits);
  EXPECT_LT(RiskLevel::kRecentCommits, RiskLevel::kCorruption);
  EXPECT_LT(RiskLevel::kCorruption, RiskLevel::kNotDurable);
}

TEST(DurabilityRiskTest, ANotDurablePathMakesEveryRowNotDurable) {
  Durability d =
      Verdict(DurabilityVerdict::kNotDurable, LayerKind::kFilesystem, {"sync_noop_memory_fs"});
  for (Synchronous s : {Synchronous::kOff, Synchronous::kNormal, Synchronous::kFull}) {
    RowRisk r = RiskOf(JournalMode::kWal, s, d);
    EXPECT_EQ(NameOf(r.level), "not_durable");
    EXPECT_EQ(r.findings, std::vector<std::string>{"sync_noop_memory_fs"});
  }
  EXPECT_EQ(RiskOf(JournalMode::kWal, Synchronous::kOff, d).summary,
            "durability not provided here (sync_noop_memory_fs); corruption possible");
  // No finding names the layer: the layer does.
  Durability bare = Verdict(DurabilityVerdict::kNotDurable, LayerKind::kLoop, {});
  EXPECT_EQ(RiskOf(JournalMode::kWal, Synchronous::kFull, bare).findings,
            std::vector<std::string>{"loop"});
}

TEST(DurabilityRiskTest, AnUnprovenPathQualifiesTheGuarantee) {
  Durability d =
      Verdict(DurabilityVerdict::kUnproven, LayerKind::kDevice, {"volatile_write_cache_no_fua"});
  RowRisk r = RiskOf(JournalMode::kWal, Synchronous::kFull, d);
  EXPECT_EQ(NameOf(r.level), "none");
  EXPECT_EQ(r.summary, "nothing lost if syncs reach stable storage (unproven: device)");
  EXPECT_EQ(r.findings, std::vector<std::string>{"volatile_write_cache_no_fua"});
  // Nothing to qualify where SQLite already risks corruption.
  EXPECT_EQ(RiskOf(JournalMode::kWal, Synchronous::kOff, d).summary, "corruption possible");
}

TEST(DurabilityRiskTest, NotDurableCodesReadTheVerdictOnly) {
  Target t;
  t.findings = {{Severity::kFail, "sync_noop_memory_fs", "."}};
  EXPECT_TRUE(NotDurableCodes(t).empty());  // no verdict: nothing decided
  t.durability = Verdict(DurabilityVerdict::kUnproven, LayerKind::kDevice, {"x"});
  EXPECT_TRUE(NotDurableCodes(t).empty());
  t.durability = Verdict(DurabilityVerdict::kNotDurable, LayerKind::kOverlay, {"overlay_volatile"});
  EXPECT_EQ(NotDurableCodes(t), std::vector<std::string>{"overlay_volatile"});
}

TEST(DurabilityRiskTest, TheRiskCitesTheCrashStatesOfThePathsOwnFilesystem) {
  Target t;
  SqliteEntry e;
  e.result.config = {JournalMode::kWal, Synchronous::kFull, 1};
  t.sqlite = {e, e};
  t.sqlite[1].result.config.sync = Synchronous::kNormal;
  sqlite_bench::CrashtestResult tested;
  tested.config = {JournalMode::kWal, Synchronous::kFull, 1};
  tested.paths_own_fs = true;
  tested.device = "honest";
  tested.states = 612;
  t.crashtest = {tested};
  AssessRisks(t);
  EXPECT_EQ(t.sqlite[0].risk.summary, "nothing lost; crash-tested: 0 of 612 states lost a commit");
  EXPECT_EQ(t.sqlite[1].risk.summary, "last commits may be lost, no corruption")
      << "NORMAL was not crash-tested";
}

}  // namespace
}  // namespace durprobe::report
