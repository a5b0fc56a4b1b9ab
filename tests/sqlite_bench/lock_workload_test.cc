// Seed 000's lock table, reproduced with threads and with processes: which party gets
// SQLITE_BUSY under busy_timeout 0 in rollback-journal and WAL modes. Outcomes, not timing.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "platform/platform.h"
#include "sqlite_bench/workloads.h"
#include "tests/test_dirs.h"

namespace durprobe::sqlite_bench {
namespace {

TEST(LockWorkloadTest, SeedTableHoldsForThreadsAndProcesses) {
  testing_support::TempDir dir;
  std::vector<LockResult> results = RunLockWorkload(platform::Default(), dir.path());
  ASSERT_EQ(results.size(), 8u);
  // journal, case -> (outcome, statement that got SQLITE_BUSY)
  const std::map<std::pair<std::string, std::string>, std::pair<std::string, std::string>> want = {
      {{"DELETE", "writer_vs_writer"}, {"busy", "BEGIN IMMEDIATE"}},
      {{"DELETE", "reader_vs_commit"}, {"busy", "COMMIT"}},
      {{"WAL", "writer_vs_writer"}, {"busy", "BEGIN IMMEDIATE"}},
      {{"WAL", "reader_vs_commit"}, {"ok", ""}},
  };
  std::map<std::string, int> per_via;
  for (const LockResult& r : results) {
    SCOPED_TRACE(r.journal_mode + " " + r.lock_case + " via " + r.via);
    ASSERT_EQ(r.outcome, probes::Outcome::kOk) << r.reason;
    auto expected = want.at({r.journal_mode, r.lock_case});
    EXPECT_EQ(r.lock_outcome, expected.first);
    EXPECT_EQ(r.busy_at, expected.second);
    if (r.lock_outcome == "busy") {
      EXPECT_EQ(r.message, "database is locked");
    }
    // The row afterwards: only the WAL reader_vs_commit writer committed.
    EXPECT_EQ(r.final_value,
              r.journal_mode == "WAL" && r.lock_case == "reader_vs_commit" ? "w" : "1");
    ++per_via[r.via];
  }
  EXPECT_EQ(per_via["threads"], 4);
  EXPECT_EQ(per_via["processes"], 4);
}

}  // namespace
}  // namespace durprobe::sqlite_bench
