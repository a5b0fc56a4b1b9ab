// The budget is a promise (docs/start.md, "How long it takes"): with every sync in the scratch
// held 200 ms by the fault layer (tests/faultlib), a command ends within its budget plus the step
// in flight at the deadline, says what the budget left out, and removes its scratch. Before the
// deadline, `run --quick` (5 s) took 37-42 s here. The bound asserted, budget + 4 s (twenty held
// syncs), is nearly twice the worst overrun measured (scripts/budget-bound.sh: +2.2 s), so machine
// noise does not decide it; a schedule that ignores the deadline overruns by tens of seconds.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/fault_runner.h"

namespace durprobe {
namespace {

using nlohmann::json;
using testing_support::CliRun;
using testing_support::TempDir;

constexpr const char* kHeldSyncs =
    "DURPROBE_FAULT_PATH='*/.durprobe-scratch-*/*' DURPROBE_FAULT_DELAY_MS=200";
constexpr double kAllowanceS = 4.0;

class BudgetBoundTest : public ::testing::Test {
 protected:
  // Runs `durprobe ARGS --quiet --json FILE DIR` with held syncs; returns the wall time in s.
  double Run(const std::string& args) {
    auto start = std::chrono::steady_clock::now();
    run_ = testing_support::RunFaulted(
        kHeldSyncs, args + " --quiet --json " + out_.path() + "/r.json " + dir_.path());
    std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    report_ = json::parse(testing_support::Slurp(out_.path() + "/r.json"), nullptr, false);
    return took.count();
  }

  // The report says the budget ran out, and every item it left out is listed with that reason.
  void ExpectBudgetSpentSaid() {
    ASSERT_TRUE(report_.is_object()) << run_.err;
    for (const json& t : report_["targets"]) {
      bool said = false;
      for (const json& f : t["findings"]) said = said || f["code"] == "budget_spent";
      EXPECT_TRUE(said) << t["findings"];
      ASSERT_TRUE(t.contains("unfinished")) << t.dump();
      for (const json& u : t["unfinished"]) EXPECT_EQ(u["reason"], "budget") << u;
    }
    EXPECT_TRUE(testing_support::ScratchLeft(dir_.path()).empty());
  }

  TempDir dir_, out_;
  CliRun run_;
  json report_;
};

TEST_F(BudgetBoundTest, RunQuickEndsWithinItsBudgetOnSlowSyncs) {
  double took = Run("run --quick");
  EXPECT_EQ(run_.exit_code, 0) << run_.err;
  EXPECT_LE(took, 5.0 + kAllowanceS);
  ExpectBudgetSpentSaid();
  // The split still holds: the SQLite matrix got its share instead of the probes taking all.
  EXPECT_FALSE(report_["targets"][0]["probes"].empty());
  EXPECT_FALSE(report_["targets"][0]["sqlite"].empty());
}

TEST_F(BudgetBoundTest, SqliteWithEveryWorkloadEndsWithinItsBudgetOnSlowSyncs) {
  double took = Run("sqlite --quick --workloads all");
  EXPECT_EQ(run_.exit_code, 0) << run_.err;
  EXPECT_LE(took, 10.0 + kAllowanceS);
  ExpectBudgetSpentSaid();
}

TEST_F(BudgetBoundTest, CompareEndsWithinItsBudgetOnSlowSyncs) {
  double took = Run("compare --quick " + dir_.path());
  EXPECT_EQ(run_.exit_code, 0) << run_.err;
  EXPECT_LE(took, 10.0 + kAllowanceS);
  ExpectBudgetSpentSaid();
}

}  // namespace
}  // namespace durprobe
