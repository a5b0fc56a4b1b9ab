// Probes on real directories give well-formed results: every requested primitive is present,
// measured or marked unsupported with a reason, and the statistics are ordered. No speed checks.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>

#include "probes/runner.h"
#include "tests/test_dirs.h"

namespace durprobe::probes {
namespace {

std::vector<ProbeSpec> EverySpec() {
  std::vector<ProbeSpec> specs;
  for (const auto& [name, prim] : PrimitiveNames()) {
    if (prim == Primitive::kDirFsync) {
      specs.push_back({prim, Pattern::kCreate, 0});
      specs.push_back({prim, Pattern::kRename, 0});
      continue;
    }
    specs.push_back({prim, Pattern::kOverwrite, 4096});
    specs.push_back({prim, Pattern::kAppend, 4096});
    specs.push_back({prim, Pattern::kPreallocated, 4096});
  }
  specs.push_back({Primitive::kFsync, Pattern::kWriteSyncClose, 8192});
  specs.push_back({Primitive::kFsync, Pattern::kWriteCloseSync, 8192});
  return specs;
}

void ExpectWellFormed(const std::string& dir) {
  ProbePlan plan;
  plan.specs = EverySpec();
  plan.rule.warmup_ops = 2;
  plan.rule.min_ops = 10;
  plan.rule.min_ns = 5'000'000;
  plan.rule.max_ns = 100'000'000;
  plan.op_options.file_size = 2 << 20;
  auto scratch = platform::ScratchDir::Create(platform::Default(), dir);
  ASSERT_TRUE(scratch.ok()) << scratch.status().message();
  std::vector<ProbeResult> results = RunProbes(platform::Default(), (*scratch)->work_path(), plan);
  ASSERT_EQ(results.size(), plan.specs.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    const ProbeResult& r = results[i];
    SCOPED_TRACE(std::string(NameOf(r.spec.primitive)) + " " + std::string(NameOf(r.spec.pattern)));
    EXPECT_EQ(r.spec.primitive, plan.specs[i].primitive);
    EXPECT_EQ(r.spec.pattern, plan.specs[i].pattern);
    if (r.outcome == Outcome::kUnsupported) {
      // The reason names what is missing, so a user can act on it: a sentence, not a letter.
      EXPECT_GE(r.reason.size(), 10u) << r.reason;
      EXPECT_EQ(r.ops, 0u);
      const std::map<Primitive, std::string> names_it = {
          {Primitive::kFullFsync, "F_FULLFSYNC"},
          {Primitive::kBarrierFsync, "F_BARRIERFSYNC"},
          {Primitive::kOdirectDsync, "O_DIRECT"}};
      if (auto it = names_it.find(r.spec.primitive); it != names_it.end()) {
        EXPECT_NE(r.reason.find(it->second), std::string::npos) << r.reason;
      }
      continue;
    }
    ASSERT_EQ(r.outcome, Outcome::kOk) << r.reason;
    EXPECT_GT(r.ops, 0u);
    EXPECT_EQ(r.latency.count, r.ops);
    EXPECT_LE(r.latency.min, r.latency.p50);
    EXPECT_LE(r.latency.p50, r.latency.p90);
    EXPECT_LE(r.latency.p90, r.latency.p99);
    EXPECT_LE(r.latency.p99, r.latency.p999);
    EXPECT_LE(r.latency.p999, r.latency.max);
    EXPECT_GT(r.ops_per_sec, 0.0);
    if (r.has_sync_part) {
      // Every operation's sync, or one in sync_sample_every on fast paths.
      EXPECT_GE(r.sync_latency.count, r.ops / r.sync_sample_every);
      EXPECT_LE(r.sync_latency.count, r.ops);
      // The sync is part of its operation: with every sync timed the medians are ordered too.
      if (r.sync_sample_every == 1) {
        EXPECT_LE(r.sync_latency.p50, r.latency.p50);
      }
      EXPECT_LE(r.sync_latency.max, r.latency.max);
    }
  }
  // Linux-only primitives are measured or unsupported as the platform says, never silently
  // replaced by another call.
  for (const ProbeResult& r : results) {
    if (r.spec.primitive == Primitive::kFullFsync) {
      EXPECT_EQ(r.outcome == Outcome::kUnsupported,
                !platform::Default().SupportsSync(platform::SyncCall::kFullFsync).ok());
    }
  }
  ASSERT_TRUE((*scratch)->Remove().ok());
  auto names = platform::Default().ListDirectory(dir);
  ASSERT_TRUE(names.ok());
  for (const std::string& n : *names) {
    EXPECT_EQ(n.find(".durprobe-scratch-"), std::string::npos) << "scratch left behind: " << n;
  }
}

TEST(ProbesOnMountsTest, TemporaryDirectory) {
  testing_support::TempDir dir;
  ExpectWellFormed(dir.path());
}

TEST(ProbesOnMountsTest, Tmpfs) {
  if (!testing_support::IsRoot()) GTEST_SKIP() << "mounting a tmpfs needs root";
  testing_support::TempDir dir;
  std::string cmd = "mount -t tmpfs -o size=64m durprobe-test " + dir.path();
  if (std::system(cmd.c_str()) != 0) GTEST_SKIP() << "could not mount a tmpfs: " << cmd;
  ExpectWellFormed(dir.path());
  std::system(("umount " + dir.path()).c_str());
}

}  // namespace
}  // namespace durprobe::probes
