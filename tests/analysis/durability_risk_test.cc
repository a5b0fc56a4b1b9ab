// SQLite's documented guarantee, as the path's durability verdict lets it hold or not.
#include "analysis/durability_risk.h"

#include <gtest/gtest.h>

namespace durprobe::analysis {
namespace {

using sqlite_bench::JournalMode;
using sqlite_bench::RiskLevel;
using sqlite_bench::Synchronous;

model::Durability Verdict(model::DurabilityVerdict v, std::optional<model::LayerKind> layer,
                          std::vector<std::string> codes) {
  model::Durability d;
  d.verdict = v;
  d.deciding_layer = layer;
  d.findings = std::move(codes);
  return d;
}

TEST(DurabilityRiskTest, WithoutAVerdictItIsWhatSqliteDocuments) {
  model::RowRisk r = RiskOf(JournalMode::kWal, Synchronous::kFull, std::nullopt);
  EXPECT_EQ(NameOf(r.level), "none");
  EXPECT_EQ(r.summary, "nothing lost");
  EXPECT_TRUE(r.findings.empty());
  EXPECT_EQ(NameOf(RiskOf(JournalMode::kWal, Synchronous::kNormal, std::nullopt).level),
            "recent_commits");
}

TEST(DurabilityRiskTest, DeleteFullIsToldApartFromDeleteExtra) {
  model::Durability durable = Verdict(model::DurabilityVerdict::kDurable, std::nullopt, {});
  model::RowRisk full = RiskOf(JournalMode::kDelete, Synchronous::kFull, durable);
  model::RowRisk extra = RiskOf(JournalMode::kDelete, Synchronous::kExtra, durable);
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
  model::Durability d = Verdict(model::DurabilityVerdict::kNotDurable,
                                model::LayerKind::kFilesystem, {"sync_noop_memory_fs"});
  for (Synchronous s : {Synchronous::kOff, Synchronous::kNormal, Synchronous::kFull}) {
    model::RowRisk r = RiskOf(JournalMode::kWal, s, d);
    EXPECT_EQ(NameOf(r.level), "not_durable");
    EXPECT_EQ(r.findings, std::vector<std::string>{"sync_noop_memory_fs"});
  }
  EXPECT_EQ(RiskOf(JournalMode::kWal, Synchronous::kOff, d).summary,
            "durability not provided here (sync_noop_memory_fs); corruption possible");
  // No finding names the layer: the layer does.
  model::Durability bare =
      Verdict(model::DurabilityVerdict::kNotDurable, model::LayerKind::kLoop, {});
  EXPECT_EQ(RiskOf(JournalMode::kWal, Synchronous::kFull, bare).findings,
            std::vector<std::string>{"loop"});
}

TEST(DurabilityRiskTest, AnUnprovenPathQualifiesTheGuarantee) {
  model::Durability d = Verdict(model::DurabilityVerdict::kUnproven, model::LayerKind::kDevice,
                                {"volatile_write_cache_no_fua"});
  model::RowRisk r = RiskOf(JournalMode::kWal, Synchronous::kFull, d);
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
  t.durability = Verdict(model::DurabilityVerdict::kUnproven, model::LayerKind::kDevice, {"x"});
  EXPECT_TRUE(NotDurableCodes(t).empty());
  t.durability = Verdict(model::DurabilityVerdict::kNotDurable, model::LayerKind::kOverlay,
                         {"overlay_volatile"});
  EXPECT_EQ(NotDurableCodes(t), std::vector<std::string>{"overlay_volatile"});
}

TEST(DurabilityRiskTest, TheRiskCitesTheCrashStatesOfThePathsOwnFilesystem) {
  Target t;
  model::SqliteEntry e;
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
}  // namespace durprobe::analysis
