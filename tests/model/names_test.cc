// ParseName reads back what a closed set's NameOf writes, every value of it, and nothing else.
#include "model/names.h"

#include <gtest/gtest.h>

#include "explain/cause_signature.h"
#include "explain/causes.h"
#include "explain/compare_analysis.h"
#include "explain/diff_analysis.h"
#include "explain/summary.h"
#include "model/durability.h"
#include "platform/container.h"
#include "probes/concurrency.h"
#include "probes/op_cost.h"
#include "probes/probe_result.h"
#include "sqlite_bench/commit_spec.h"

namespace durprobe::model {
namespace {

template <typename E>
int RoundTrips() {
  int n = 0;
  for (int i = 0; !NameOf(static_cast<E>(i)).empty(); ++i, ++n) {
    std::optional<E> back = ParseName<E>(NameOf(static_cast<E>(i)));
    EXPECT_TRUE(back.has_value()) << NameOf(static_cast<E>(i));
    if (back) {
      EXPECT_EQ(static_cast<int>(*back), i);
    }
  }
  return n;
}

TEST(NamesTest, EveryValueRoundTrips) {
  EXPECT_EQ(RoundTrips<DurabilityVerdict>(), 3);
  EXPECT_EQ(RoundTrips<LayerEffect>(), 3);
  EXPECT_EQ(RoundTrips<sqlite_bench::RiskLevel>(), 5);
}

// The sets whose NameOf reads a table (platform/enum_table.h): "" past the last row ends the walk.
TEST(NamesTest, EveryValueOfATableRoundTrips) {
  EXPECT_EQ(RoundTrips<explain::Dominant>(), 8);
  EXPECT_EQ(RoundTrips<explain::DiffFactor>(), 5);
  EXPECT_EQ(RoundTrips<explain::SummarySort>(), 8);
  EXPECT_EQ(RoundTrips<explain::TrialKind>(), 3);
  EXPECT_EQ(RoundTrips<explain::Signal>(), 7);
  EXPECT_EQ(RoundTrips<platform::PathRole>(), 7);
  EXPECT_EQ(RoundTrips<probes::WriterMode>(), 3);
  EXPECT_EQ(RoundTrips<probes::FileOp>(), 6);
  EXPECT_EQ(RoundTrips<probes::Outcome>(), 4);
}

TEST(NamesTest, ANameNoValueHasIsNone) {
  EXPECT_EQ(ParseName<DurabilityVerdict>("not_durable"), DurabilityVerdict::kNotDurable);
  EXPECT_EQ(ParseName<sqlite_bench::RiskLevel>("recent_commits"),
            sqlite_bench::RiskLevel::kRecentCommits);
  EXPECT_FALSE(ParseName<DurabilityVerdict>("Durable").has_value());
  EXPECT_FALSE(ParseName<DurabilityVerdict>("").has_value());
  EXPECT_FALSE(ParseName<sqlite_bench::RiskLevel>("lost").has_value());
}

}  // namespace
}  // namespace durprobe::model
