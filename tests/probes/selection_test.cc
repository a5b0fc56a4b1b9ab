#include <gtest/gtest.h>

#include <algorithm>

#include "probes/runner.h"

namespace durprobe::probes {
namespace {

platform::Platform& P() { return platform::Default(); }

bool Has(const std::vector<ProbeSpec>& specs, Primitive prim, Pattern pat) {
  return std::any_of(specs.begin(), specs.end(),
                     [&](const ProbeSpec& s) { return s.primitive == prim && s.pattern == pat; });
}

TEST(SelectionTest, DefaultSetMatchesTheDocumentedOne) {
  std::vector<ProbeSpec> specs = DefaultSpecs(P());
  for (Primitive prim :
       {Primitive::kNone, Primitive::kFsync, Primitive::kFdatasync, Primitive::kOdsync}) {
    EXPECT_TRUE(Has(specs, prim, Pattern::kOverwrite)) << NameOf(prim);
    EXPECT_TRUE(Has(specs, prim, Pattern::kAppend)) << NameOf(prim);
  }
  EXPECT_TRUE(Has(specs, Primitive::kDirFsync, Pattern::kCreate));
  EXPECT_TRUE(Has(specs, Primitive::kDirFsync, Pattern::kRename));
  for (const ProbeSpec& s : specs) {
    if (s.primitive != Primitive::kDirFsync) {
      EXPECT_EQ(s.write_size, 4096u);
    }
  }
  // macOS primitives are in the default set exactly where the platform has them.
  EXPECT_EQ(Has(specs, Primitive::kFullFsync, Pattern::kOverwrite),
            P().SupportsSync(platform::SyncCall::kFullFsync).ok());
}

// The default set's order is the table's: the classic file syncs, the directory sync, then the
// modern paths beside O_DIRECT|O_DSYNC (the order a run measures and a report lists them).
TEST(SelectionTest, DefaultSetIsInTheTablesOrder) {
  std::vector<Primitive> order;
  for (const ProbeSpec& s : DefaultSpecs(P())) {
    if (order.empty() || order.back() != s.primitive) order.push_back(s.primitive);
  }
  std::vector<Primitive> expected = {Primitive::kNone, Primitive::kFsync, Primitive::kFdatasync,
                                     Primitive::kOdsync};
  if (P().SupportsSync(platform::SyncCall::kFullFsync).ok()) {
    expected.push_back(Primitive::kFullFsync);
  }
  if (P().SupportsSync(platform::SyncCall::kBarrierFsync).ok()) {
    expected.push_back(Primitive::kBarrierFsync);
  }
  for (Primitive p : {Primitive::kDirFsync, Primitive::kOdirectDsync, Primitive::kRwfDsync,
                      Primitive::kIoUringFsync, Primitive::kIoUringFdatasync}) {
    expected.push_back(p);
  }
  EXPECT_EQ(order, expected);
}

TEST(SelectionTest, SizesSweepEveryDataPrimitive) {
  Selection sel{{Primitive::kFdatasync, Primitive::kDirFsync}, {}, {512, 2300, 8192}};
  auto specs = ExpandSelection(P(), sel);
  ASSERT_TRUE(specs.ok());
  // fdatasync: 2 patterns x 3 sizes; dir_fsync: 2 patterns, no size.
  EXPECT_EQ(specs->size(), 8u);
}

TEST(SelectionTest, PatternsThatDoNotFitArePassedOverOrRefused) {
  Selection fits{
      {Primitive::kFsync, Primitive::kOdsync}, {Pattern::kWriteCloseSync, Pattern::kOverwrite}, {}};
  auto specs = ExpandSelection(P(), fits);
  ASSERT_TRUE(specs.ok());
  EXPECT_TRUE(Has(*specs, Primitive::kFsync, Pattern::kWriteCloseSync));
  EXPECT_FALSE(Has(*specs, Primitive::kOdsync, Pattern::kWriteCloseSync));

  Selection none_fit{{Primitive::kDirFsync}, {Pattern::kAppend}, {}};
  auto refused = ExpandSelection(P(), none_fit);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("dir_fsync"), std::string::npos);
}

TEST(SelectionTest, OversizedWritesAreRefused) {
  Selection sel{{Primitive::kFsync}, {}, {std::uint64_t{1} << 30}};
  Result<std::vector<ProbeSpec>> specs = ExpandSelection(P(), sel);
  ASSERT_FALSE(specs.ok());
  EXPECT_TRUE(specs.status().out_of_range());
  EXPECT_EQ(specs.status().kind(), Status::Kind::kInvalidArgument);
  EXPECT_EQ(specs.status().message(), "write size 1073741824 is outside 1 byte .. 64 MiB");
}

// The pairing is checked before the size: a pattern that does not apply is skipped, not reported
// as a size out of range.
TEST(SelectionTest, ASizeOutOfRangeOnAPatternThatDoesNotApplyIsNotTheError) {
  Selection sel{{Primitive::kFsync}, {Pattern::kCreate}, {0}};
  Result<std::vector<ProbeSpec>> specs = ExpandSelection(P(), sel);
  ASSERT_FALSE(specs.ok());
  EXPECT_FALSE(specs.status().out_of_range());
  EXPECT_EQ(specs.status().message(), "none of the chosen patterns applies to primitive fsync");
}

TEST(SelectionTest, WorkBetweenOperationsIsBoundedAndNotPaced) {
  ProbeSpec spec{.write_size = 8192, .work_us = 200};
  EXPECT_TRUE(Validate(spec).ok());
  spec.work_us = kMaxWorkUs + 1;
  EXPECT_TRUE(Validate(spec).out_of_range());
  spec.work_us = 200;
  spec.paced_per_sec = 150;  // open and closed loop at once
  Status both = Validate(spec);
  EXPECT_EQ(both.kind(), Status::Kind::kInvalidArgument);
  EXPECT_FALSE(both.out_of_range());
  EXPECT_EQ(both.message(), "a probe is paced or does work between operations, not both");
  ProbeSpec trips{.write_size = 8192, .work_round_trips = 4};  // trips of no work
  EXPECT_EQ(Validate(trips).message(), "round trips of work need the work's time (work_us)");
  trips.work_us = 200;
  EXPECT_TRUE(Validate(trips).ok());
  trips.work_round_trips = kMaxWorkRoundTrips + 1;
  EXPECT_TRUE(Validate(trips).out_of_range());
}

TEST(SelectionTest, BudgetIsSharedButKeepsAFloor) {
  StopRule r = RuleForBudget(10'000'000'000, 10, 0.05);
  EXPECT_EQ(r.max_ns, 1'000'000'000u);
  EXPECT_LE(r.min_ns, r.max_ns);
  StopRule tiny = RuleForBudget(1'000'000, 100, 0.05);
  EXPECT_GE(tiny.max_ns, 50'000'000u);
  EXPECT_LE(tiny.min_ns, tiny.max_ns);
}

TEST(SelectionTest, TheWalSyncsWaitForTheirP99WithThreeShares) {
  const ProbeSpec fdatasync{Primitive::kFdatasync, Pattern::kOverwrite, 4096};
  const ProbeSpec fsync{Primitive::kFsync, Pattern::kOverwrite, 4096};
  const ProbeSpec append{Primitive::kFdatasync, Pattern::kAppend, 4096};
  const ProbeSpec larger{Primitive::kFdatasync, Pattern::kOverwrite, 8192};
  ProbeSpec paced = fdatasync;
  paced.paced_per_sec = 150;
  EXPECT_TRUE(TailMatters(fdatasync));
  EXPECT_TRUE(TailMatters(fsync));
  EXPECT_FALSE(TailMatters(append));
  EXPECT_FALSE(TailMatters(larger));
  EXPECT_FALSE(TailMatters(paced));

  const std::vector<ProbeSpec> specs{fdatasync, fsync, append, larger};
  const StopRule plan = PlanRule(8'000'000'000, specs, 0.05);
  EXPECT_EQ(SharesOf(specs, plan), 3 + 3 + 1 + 1u);
  EXPECT_EQ(plan.max_ns, 1'000'000'000u);  // 8 s over 8 shares
  const StopRule tail = RuleFor(fdatasync, plan);
  EXPECT_EQ(tail.max_ns, 3'000'000'000u);
  EXPECT_DOUBLE_EQ(tail.tail_target_ci, kTailCiFactor * 0.05);
  const StopRule median = RuleFor(append, plan);
  EXPECT_EQ(median.max_ns, 1'000'000'000u);
  EXPECT_EQ(median.tail_target_ci, 0.0);

  StopRule every = plan;  // check's: every probe waits for its tail, in even shares
  every.tail_every_probe = true;
  EXPECT_EQ(SharesOf(specs, every), 4u);
  EXPECT_GT(RuleFor(append, every).tail_target_ci, 0.0);
  EXPECT_EQ(RuleFor(fdatasync, every).max_ns, plan.max_ns);
}

TEST(SelectionTest, NamesRoundTrip) {
  for (const auto& [name, prim] : PrimitiveNames()) EXPECT_EQ(NameOf(prim), name);
  for (const auto& [name, pat] : PatternNames()) EXPECT_EQ(NameOf(pat), name);
}

}  // namespace
}  // namespace durprobe::probes
