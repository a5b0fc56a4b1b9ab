// The differences diff lists: context and mount fields as the report names them, and warnings.
#include "explain/diff_differences.h"

#include <gtest/gtest.h>

#include "explain/diff_analysis.h"
#include "tests/diff_fixtures.h"

namespace durprobe::explain {
namespace {

model::Report WithMount(const std::string& host, platform::MountInfo mount) {
  model::Report r;
  r.context.host = host;
  r.context.kernel = "6.1";
  model::Target t;
  t.path = "/data";
  t.mount = std::move(mount);
  r.targets.push_back(std::move(t));
  return r;
}

TEST(DiffDifferencesTest, OneSidedBlockIsOneDifferenceAndNullIsAbsent) {
  platform::MountInfo ma;
  ma.fstype = "ext4";
  ma.dev_major = 7;
  platform::DeviceInfo loop;
  loop.name = "loop0";
  loop.major = 7;
  loop.write_cache = "write back";
  ma.device = loop;
  platform::MountInfo mb;
  mb.fstype = "fuse.bindfs";
  mb.dev_minor = 52;
  Result<Diff> diffed = DiffReports(WithMount("a", ma), WithMount("b", mb), "a.json", "b.json");
  ASSERT_TRUE(diffed.ok()) << diffed.status().message();
  const Diff& d = *diffed;
  ASSERT_EQ(d.differences.size(), 2u);
  EXPECT_EQ(d.differences[0].key, "mount.fstype");
  EXPECT_EQ(d.differences[1].key, "mount.device");
  EXPECT_EQ(d.differences[1].a, "(present)");
  EXPECT_EQ(d.differences[1].b, "(absent)");
  EXPECT_EQ(NameOf(d.verdict.factor), "configuration");
}

TEST(DiffDifferencesTest, HowTheReportsWereMadeIsListedAndQuickVsFullWarns) {
  Diff d = testing_support::DiffFixtures("a_quick.json", "a_full.json");
  EXPECT_TRUE(testing_support::ListsDifference(d, "context.command"));  // run against sqlite
  EXPECT_TRUE(testing_support::ListsDifference(d, "context.options.quick"));
  EXPECT_TRUE(testing_support::ListsDifference(d, "context.options.budget"));
  EXPECT_TRUE(testing_support::ListsDifference(d, "context.options.probes.primitives"));
  ASSERT_EQ(d.warnings.size(), 1u);
  EXPECT_EQ(d.warnings[0].rfind("a is a quick run and b a full one", 0), 0u) << d.warnings[0];
  EXPECT_TRUE(testing_support::DiffFixtures("a.json", "a_quick.json")
                  .warnings.empty());  // not known for a: no claim
}

}  // namespace
}  // namespace durprobe::explain
