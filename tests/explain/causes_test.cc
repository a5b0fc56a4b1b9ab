#include "explain/causes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>

#include "explain/cause_table.h"
#include "explain/diff_analysis.h"
#include "platform/ebs_stats.h"
#include "tests/cause_fixtures.h"
#include "tests/verdicts.h"

namespace durprobe::explain {
namespace {

using testing_support::CausePath;
using testing_support::Scale;

// One fixture pair per knowledge entry: b measured with scale (a's signature times it) and
// changed by change (its mount, its findings, its context); the entry must lead.
struct CauseCase {
  const char* key;
  Scale scale;
  std::function<void(model::Target& b, model::Context& cb)> change;
};

const std::vector<CauseCase>& Cases() {
  static const std::vector<CauseCase> cases = {
      {"tmpfs",
       {.overwrite = 0.01, .append = 0.01, .dir = 0.01},
       [](model::Target& b, model::Context&) {
         b.mount->fstype = "tmpfs";
         b.mount->device.reset();
         b.findings.push_back({model::Severity::kWarn, "sync_noop_memory_fs", "memory"});
       }},
      {"overlay",
       {.op = 1.6, .meta = 2.0},
       [](model::Target& b, model::Context&) {
         b.mount->fstype = "overlay";
         b.mount->overlay = platform::OverlayInfo{};
       }},
      {"fuse",
       {.dir = 0.05, .op = 9, .meta = 5},
       [](model::Target& b, model::Context&) {
         b.mount->fstype = "fuse.bindfs";
         b.mount->fs_subtype = "bindfs";
         b.mount->device.reset();
       }},
      {"virtiofs",
       {.overwrite = 3, .op = 5},
       [](model::Target& b, model::Context&) {
         b.mount->fstype = "virtiofs";
         b.mount->device.reset();
       }},
      {"9p",
       {.overwrite = 4, .op = 20, .meta = 10},
       [](model::Target& b, model::Context&) {
         b.mount->fstype = "9p";
         b.mount->device.reset();
       }},
      {"network_fs",
       {.overwrite = 5, .append = 5, .dir = 5, .op = 30},
       [](model::Target& b, model::Context&) {
         b.mount->fstype = "nfs4";
         b.mount->device.reset();
       }},
      {"btrfs_cow",
       {.overwrite = 15, .append = 20},
       [](model::Target& b, model::Context&) { b.mount->fstype = "btrfs"; }},
      {"filesystem",
       {.append = 0.05, .dir = 0.05},
       [](model::Target& b, model::Context&) { b.mount->fstype = "xfs"; }},
      {"ext4_data_mode",
       {.overwrite = 2.5, .append = 2.2},
       [](model::Target& b, model::Context&) { b.mount->options.push_back("data=journal"); }},
      {"barrier",
       {.overwrite = 0.01, .append = 0.01, .dir = 0.02},
       [](model::Target& b, model::Context&) {
         b.mount->options.push_back("nobarrier");
         testing_support::MarkNotDurable(b, "barrier_disabled");
       }},
      {"commit_interval",
       {},
       [](model::Target& b, model::Context&) { b.mount->options.push_back("commit=60"); }},
      {"sync_mount",
       {.op = 50},
       [](model::Target& b, model::Context&) { b.mount->options.push_back("sync"); }},
      {"dirsync",
       {.meta = 8},
       [](model::Target& b, model::Context&) { b.mount->options.push_back("dirsync"); }},
      {"discard",
       {.dir = 2, .meta = 2},
       [](model::Target& b, model::Context&) { b.mount->options.push_back("discard"); }},
      {"bind", {}, [](model::Target& b, model::Context&) { b.mount->bind = true; }},
      {"loop",
       {.overwrite = 3, .append = 2},
       [](model::Target& b, model::Context&) {
         b.mount->device->kind = "loop";
         b.mount->device->backing_fstype = "ext4";
         b.mount->device->backing_mount_point = "/";
       }},
      {"loop_backing",
       {.overwrite = 4, .append = 3},
       [](model::Target& b, model::Context&) { b.mount->device->backing_fstype = "xfs"; }},
      {"write_cache",
       {.overwrite = 0.2, .append = 0.3},
       [](model::Target& b, model::Context&) { b.mount->device->write_cache = "write through"; }},
      {"fua",
       {.overwrite = 0.6},
       [](model::Target& b, model::Context&) { b.mount->device->fua = true; }},
      {"rotational",
       {.overwrite = 20, .append = 20, .dir = 20},
       [](model::Target& b, model::Context&) { b.mount->device->rotational = true; }},
      {"queue_depth",
       {},
       [](model::Target& b, model::Context&) { b.mount->device->queue_depth = 32; }},
      {"scheduler",
       {.overwrite = 1.6},
       [](model::Target& b, model::Context&) { b.mount->device->scheduler = "bfq"; }},
      {"drift",
       {.overwrite = 4, .append = 4, .dir = 4},
       [](model::Target& b, model::Context&) {
         b.findings.push_back({model::Severity::kWarn, "latency_drift", "moved"});
       }},
      {"ebs_volume_limit",
       {.overwrite = 6, .append = 5},
       [](model::Target& b, model::Context&) {
         platform::EbsStats e;
         e.device = "nvme1n1";
         e.volume_exceeded_iops_us = 4'200'000;
         b.ebs = e;
       }},
      {"ebs_instance_limit",
       {.overwrite = 6, .append = 5},
       [](model::Target& b, model::Context&) {
         platform::EbsStats e;
         e.device = "nvme1n1";
         e.instance_exceeded_tp_us = 900'000;
         b.ebs = e;
       }},
      {"container_role",
       {.op = 1.5},
       [](model::Target& b, model::Context&) {
         b.mount->container.path_role = platform::PathRole::kOverlayRoot;
       }},
      {"sqlite_build", {}, [](model::Target&, model::Context& c) { c.sqlite_version = "3.46.0"; }},
      {"kernel", {}, [](model::Target&, model::Context& c) { c.kernel = "6.8.0"; }},
      {"ld_preload",
       {.overwrite = 0.01},
       [](model::Target& b, model::Context& c) {
         c.ld_preload = "libeatmydata.so";
         b.findings.push_back({model::Severity::kFail, "ld_preload_eatmydata", "eatmydata"});
       }},
  };
  return cases;
}

std::vector<Cause> RankCase(const CauseCase& c) {
  model::Target a = CausePath("/a"), b = CausePath("/b", c.scale);
  model::Context ca, cb;
  ca.kernel = cb.kernel = "6.1.0";
  ca.sqlite_version = cb.sqlite_version = "3.40.1";
  if (std::string(c.key) == "loop_backing") {  // both sides on loop devices
    for (model::Target* t : {&a, &b}) {
      t->mount->device->kind = "loop";
      t->mount->device->backing_fstype = "ext4";
    }
  }
  c.change(b, cb);
  std::vector<Difference> differences;
  if (ca.kernel != cb.kernel) differences.push_back({"context.kernel", ca.kernel, cb.kernel});
  if (ca.sqlite_version != cb.sqlite_version) {
    differences.push_back({"context.sqlite_version", ca.sqlite_version, cb.sqlite_version});
  }
  std::vector<ConfigDiff> configs;
  if (std::string(c.key) == "sqlite_build") {
    ConfigDiff d;
    d.label = "DELETE/FULL x1";
    d.syncs_a = 3;
    d.syncs_b = 2;
    configs.push_back(d);
  }
  return RankCauses({&a, &b, &ca, &cb, "a", "b", &configs, differences});
}

TEST(CausesTest, EveryKnowledgeEntryLeadsOnItsFixturePair) {
  for (const CauseCase& c : Cases()) {
    std::vector<Cause> causes = RankCase(c);
    ASSERT_FALSE(causes.empty()) << c.key;
    EXPECT_EQ(causes.front().key, c.key) << causes.front().evidence;
    for (const Cause& cause : causes) {
      EXPECT_GE(cause.score, 0.0) << cause.key;
      EXPECT_LE(cause.score, 1.0) << cause.key;
      EXPECT_FALSE(cause.evidence.empty()) << cause.key;
      EXPECT_FALSE(cause.advice.empty()) << cause.key;
      EXPECT_EQ(cause.advice.find('{'), std::string::npos) << cause.advice;
    }
  }
}

TEST(CausesTest, EveryKnowledgeEntryHasAFixturePair) {
  std::set<std::string> table, cases;
  for (const Knowledge& k : KnowledgeTable()) table.insert(k.key);
  for (const CauseCase& c : Cases()) cases.insert(c.key);
  EXPECT_EQ(table, cases);
}

TEST(CausesTest, NothingDiffersNoCauses) {
  model::Target a = CausePath("/a"), b = CausePath("/b");
  model::Context c;
  EXPECT_TRUE(RankCauses({&a, &b, &c, &c, "a", "b", nullptr, {}}).empty());
}

TEST(CausesTest, EvidenceQuotesTheRatiosFromTheSideThatHasTheCause) {
  model::Target a = CausePath("/a"),
                b = CausePath("/b", {.overwrite = 0.01, .append = 0.01, .dir = 0.01});
  b.mount->options.push_back("nobarrier");
  testing_support::MarkNotDurable(b, "barrier_disabled");
  std::vector<Cause> causes = RankCauses({&a, &b, nullptr, nullptr, "a", "b", nullptr, {}});
  ASSERT_FALSE(causes.empty());
  const Cause& c = causes.front();
  EXPECT_EQ(c.side, "b");
  EXPECT_NE(c.evidence.find("its fdatasync overwrite is 1/100x a's (2.00 us vs 200 us)"),
            std::string::npos)
      << c.evidence;
  EXPECT_NE(c.evidence.find("b's syncs do no durable work (barrier_disabled)"), std::string::npos)
      << c.evidence;
  EXPECT_NE(c.evidence.find("consistent with write barriers off"), std::string::npos);
  EXPECT_GE(c.score, 0.95);
}

// Issue 32 item 18: `barrier=0` is how ext4 spells nobarrier in /proc/mounts, and the fixtures
// used only `nobarrier`; a matcher that forgot it would rank nothing.
TEST(CausesTest, BarrierZeroRanksTheBarrierCauseOnItsSide) {
  model::Target a = CausePath("/a"),
                b = CausePath("/b", {.overwrite = 0.01, .append = 0.01, .dir = 0.02});
  b.mount->options.push_back("barrier=0");
  testing_support::MarkNotDurable(b, "barrier_disabled");
  std::vector<Cause> causes = RankCauses({&a, &b, nullptr, nullptr, "a", "b", nullptr, {}});
  ASSERT_FALSE(causes.empty());
  EXPECT_EQ(causes.front().key, "barrier") << causes.front().evidence;
  EXPECT_EQ(causes.front().side, "b");
  EXPECT_NE(causes.front().what.find("b mounts with write barriers off"), std::string::npos)
      << causes.front().what;
  // barrier=1 is barriers on: no barrier cause.
  model::Target on = CausePath("/b");
  on.mount->options.push_back("barrier=1");
  for (const Cause& c : RankCauses({&a, &on, nullptr, nullptr, "a", "b", nullptr, {}})) {
    EXPECT_NE(c.key, "barrier");
  }
}

// Issue 34 item 6: the reference probe runs on the measured path, so on a nobarrier path its
// level is the barrier's effect (no flush), not the device's state: a 100x gap between the two
// sides' reference levels must not make the barrier look like drift, even before the verdict
// says not durable.
TEST(CausesTest, TheReferenceOnANobarrierPathIsTheBarrierNotTheDevicesState) {
  model::Target a = CausePath("/a"),
                b = CausePath("/b", {.overwrite = 0.01, .append = 0.01, .dir = 0.01});
  a.reference_probe = b.reference_probe = "fdatasync overwrite 4 KiB";
  for (std::uint64_t t : {0u, 1000u, 2000u}) {
    a.reference.push_back({t, "probes", 40, 200'000, 200'000.0});
    b.reference.push_back({t, "probes", 40, 2'000, 2'000.0});
  }
  std::vector<Cause> with_barriers = RankCauses({&a, &b, nullptr, nullptr, "a", "b", nullptr, {}});
  b.mount->options.push_back("nobarrier");
  std::vector<Cause> causes = RankCauses({&a, &b, nullptr, nullptr, "a", "b", nullptr, {}});
  ASSERT_FALSE(causes.empty());
  EXPECT_EQ(causes.front().key, "barrier") << causes.front().evidence;
  for (const Cause& c : causes) {
    EXPECT_NE(c.key, "drift") << c.evidence;
    EXPECT_EQ(c.evidence.find("reference probe level"), std::string::npos) << c.evidence;
  }
  // With barriers on both sides the same gap is the device's state.
  ASSERT_FALSE(with_barriers.empty());
  EXPECT_EQ(with_barriers.front().key, "drift") << with_barriers.front().evidence;
}

// Issue 32 item 18: the LD_PRELOAD cause names the side that ran with the library and the
// library itself (the fixture pair checked only the key), whichever side has it.
TEST(CausesTest, ThePreloadCauseNamesTheSideThatHasIt) {
  for (int side : {0, 1}) {
    SCOPED_TRACE(side);
    model::Target a = CausePath("/a"), b = CausePath("/b");
    model::Context ca, cb;
    ca.kernel = cb.kernel = "6.1.0";
    ca.sqlite_version = cb.sqlite_version = "3.40.1";
    model::Target& fast = side == 0 ? a : b;
    fast = CausePath(fast.path, {.overwrite = 0.01});
    (side == 0 ? ca : cb).ld_preload = "libeatmydata.so";
    fast.findings.push_back({model::Severity::kFail, "ld_preload_eatmydata", "eatmydata"});
    std::vector<Cause> causes = RankCauses({&a, &b, &ca, &cb, "a", "b", nullptr, {}});
    ASSERT_FALSE(causes.empty());
    EXPECT_EQ(causes.front().key, "ld_preload");
    std::string name = side == 0 ? "a" : "b";
    EXPECT_EQ(causes.front().side, name);
    EXPECT_EQ(causes.front().what, name + " ran with LD_PRELOAD=libeatmydata.so");
  }
}

// Issue 32 item 17 (LabCausesTest.TryRunsTheLeadingCausesTest led with bind 1 run in 3): a
// --quick budget cut the FUSE side's op costs, so its per-op cost was read from the pwrite
// outside fdatasync while the bind side's was the four op costs' sum, two different things that
// happened to be alike. A signal compares both sides on one measure.
TEST(CausesTest, BothSidesOfASignalAreTheSameMeasure) {
  model::Target bind = CausePath("/bind");
  bind.mount->bind = true;
  model::Target fuse = CausePath("/mnt/fuse/db", {.op = 3.8});
  fuse.mount->fstype = "fuse.bindfs";
  fuse.mount->mount_point = "/mnt/fuse";
  fuse.mount->device.reset();
  fuse.op_costs.clear();  // the budget ran out before them on this side only
  std::vector<Cause> causes = RankCauses({&bind, &fuse, nullptr, nullptr, "a", "b", nullptr, {}});
  ASSERT_FALSE(causes.empty());
  EXPECT_EQ(causes.front().key, "fuse") << causes.front().evidence;
  EXPECT_NE(causes.front().evidence.find("per-operation cost is 3.80x a's (3.80 us vs 1.00 us)"),
            std::string::npos)
      << causes.front().evidence;
}

TEST(CausesTest, ACauseTheMeasurementsContradictScoresLow) {
  // b mounts nobarrier but its syncs are slower: not what barriers off do.
  model::Target a = CausePath("/a"), b = CausePath("/b", {.overwrite = 5, .append = 5, .dir = 5});
  b.mount->options.push_back("nobarrier");
  std::vector<Cause> causes = RankCauses({&a, &b, nullptr, nullptr, "a", "b", nullptr, {}});
  ASSERT_EQ(causes.size(), 1u);
  EXPECT_LT(causes.front().score, 0.4);
  EXPECT_NE(causes.front().evidence.find("not what to expect from write barriers off"),
            std::string::npos)
      << causes.front().evidence;
}

TEST(CausesTest, DurabilityVerdictCountsWhenSetAndIsIgnoredWhenUnset) {
  model::Target a = CausePath("/a"), b = CausePath("/b", {.overwrite = 0.01});
  b.mount->options.push_back("nobarrier");
  double unset = RankCauses({&a, &b, nullptr, nullptr, "a", "b", nullptr, {}}).front().score;
  b.durability = model::Durability{};
  b.durability->verdict = model::DurabilityVerdict::kNotDurable;
  double set = RankCauses({&a, &b, nullptr, nullptr, "a", "b", nullptr, {}}).front().score;
  EXPECT_GT(set, unset);
}

TEST(CausesTest, TheLeadingCauseCarriesItsTest) {
  model::Target a = CausePath("/a"), b = CausePath("/b", {.overwrite = 15, .append = 20});
  b.mount->fstype = "btrfs";
  std::vector<Cause> causes = RankCauses({&a, &b, nullptr, nullptr, "a", "b", nullptr, {}});
  ASSERT_FALSE(causes.empty());
  EXPECT_EQ(causes.front().trial.kind, TrialKind::kNocowDir);
  EXPECT_EQ(causes.front().trial.paths, std::vector<std::string>{"/b"});
  EXPECT_NE(causes.front().trial.command.find("chattr +C /b/nocow"), std::string::npos);
}

// Issue 32 item 7: the test command names the path as one shell word, pasted or not.
TEST(CausesTest, TheTestCommandQuotesItsPaths) {
  model::Target a = CausePath("/a"),
                b = CausePath("/b $(touch x)", {.overwrite = 15, .append = 20});
  b.mount->fstype = "btrfs";
  std::vector<Cause> causes = RankCauses({&a, &b, nullptr, nullptr, "a", "b", nullptr, {}});
  ASSERT_FALSE(causes.empty());
  EXPECT_EQ(causes.front().trial.command,
            "mkdir '/b $(touch x)/nocow' && chattr +C '/b $(touch x)/nocow' && durprobe compare "
            "--no-sqlite '/b $(touch x)' '/b $(touch x)/nocow'");
}

TEST(CausesTest, FuseTestComparesWithTheDirectoryItExports) {
  model::Target a = CausePath("/a"), b = CausePath("/mnt/fuse/db", {.op = 9});
  b.mount->fstype = "fuse.bindfs";
  b.mount->mount_point = "/mnt/fuse";
  b.mount->source = "/srv/export";
  b.mount->device.reset();
  std::vector<Cause> causes = RankCauses({&a, &b, nullptr, nullptr, "a", "b", nullptr, {}});
  ASSERT_FALSE(causes.empty());
  EXPECT_EQ(causes.front().trial.kind, TrialKind::kComparePaths);
  EXPECT_EQ(causes.front().trial.paths,
            (std::vector<std::string>{"/mnt/fuse/db", "/srv/export/db"}));
}

TEST(IdentityKeysTest, NamesLeaveTheListUnlessNothingElseDiffers) {
  std::vector<Difference> d = {{"mount.device.name", "loop0", "loop1"},
                               {"mount.device.dev", "7:0", "7:1"},
                               {"mount.device.backing_file", "/x/a.img", "/x/b.img"},
                               {"mount.mount_point", "/a", "/b"},
                               {"mount.source", "/dev/loop0", "/dev/loop1"},
                               {"mount.container.path_role_reason", "one", "two"},
                               {"mount.options", "[\"rw\"]", "[\"rw\",\"nobarrier\"]"}};
  DropIdentityKeys(d);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].key, "mount.options");
  std::vector<Difference> only = {{"mount.mount_point", "/a", "/b"}};
  DropIdentityKeys(only);
  EXPECT_EQ(only.size(), 1u);
  EXPECT_FALSE(IdentifiesOnly("mount.device.write_cache"));
  EXPECT_TRUE(IdentifiesOnly("targets[1].mount.source"));
}

}  // namespace
}  // namespace durprobe::explain
