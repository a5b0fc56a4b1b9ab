// compare's words for a path that loses syncs match its numbers (issue 54): "faster" only when
// it is, and a partial loss named for what it loses (bindfs passes file syncs on to the disk,
// not directory syncs), with the per-operation penalty still named beside it.
#include <gtest/gtest.h>

#include "explain/compare_analysis.h"
#include "tests/compare_samples.h"

namespace durprobe::explain {
namespace compare_loss_test {

using probes::Pattern;
using probes::Primitive;

// The flush counters of a probe of ops operations in one second, flushes on vda.
void Counted(probes::ProbeResult& r, std::uint64_t flushes) {
  r.device_flushes = {.counted = true,
                      .how = "every local disk",
                      .devices = {{"vda", flushes, r.ops, 0, 0}},
                      .ops = r.ops,
                      .ns = 1'000'000'000,
                      .control_ops = 100,
                      .control_ns = 1'000'000'000 / 32,
                      .idle_ns = 1'000'000'000 / 32};
}

model::Target NotDurable(model::Target t) {
  t.durability = model::Durability{};
  t.durability->verdict = model::DurabilityVerdict::kNotDurable;
  t.durability->findings = {"sync_reaches_no_device"};
  return t;
}

// bindfs over the first path's ext4: 24.6x a plain operation, its directory syncs flush
// nothing, its file syncs one flush each.
model::Target Bindfs() {
  model::Target t = NotDurable(testing_support::PathWith("/bindfs", 1.0, 24.6, 1.0));
  for (probes::ProbeResult& r : t.probes) {
    r.ops = r.latency.count = 200;
    Counted(r, r.spec.primitive == Primitive::kDirFsync ? 0 : 200);
  }
  return t;
}

TEST(CompareLossTest, APartialLossIsNamedWithThePenaltyBesideIt) {
  auto v = CompareVerdicts({testing_support::PathWith("/ext4", 1, 1, 1), Bindfs()});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(NameOf(v[0].dominant), "not_durable");
  EXPECT_EQ(v[0].message.rfind("directory syncs do not reach the device: a new file or a rename "
                               "may vanish on power loss; file data is synced",
                               0),
            0u)
      << v[0].message;
  EXPECT_NE(v[0].message.find("and it is not faster: plain file operations"), std::string::npos)
      << v[0].message;
  EXPECT_EQ(v[0].message.find("keeps nothing"), std::string::npos) << v[0].message;
  EXPECT_EQ(VerdictHeadline(v[0]), "loses directory syncs, and no faster");
}

// The same loss with nothing measured against the first path (compare --quick --no-sqlite on
// the lab's bindfs once headed it "faster because it keeps nothing (-)"): the loss alone.
TEST(CompareLossTest, APartialLossWithoutARatioSaysNothingOfSpeed) {
  model::Target bindfs = Bindfs();
  bindfs.op_costs.clear();  // the quick budget cut them: no component has a ratio
  auto v = CompareVerdicts({testing_support::PathWith("/ext4", 1, 1, 1), bindfs});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(NameOf(v[0].dominant), "not_durable");
  EXPECT_TRUE(v[0].loses_directory_syncs_only);
  EXPECT_EQ(VerdictHeadline(v[0]), "loses directory syncs");
  Verdict unmeasured = v[0];
  unmeasured.loses_directory_syncs_only = false;
  unmeasured.ratio = 0.0;
  EXPECT_EQ(VerdictHeadline(unmeasured), "keeps nothing");
}

TEST(CompareLossTest, AMemoryFilesystemThatIsFasterKeepsItsWords) {
  model::Target shm = NotDurable(testing_support::PathWith("/dev/shm", 0.01, 1, 1));
  shm.durability->findings = {"sync_noop_memory_fs"};
  auto v = CompareVerdicts({testing_support::PathWith("/ext4", 1, 1, 1), shm});
  EXPECT_EQ(VerdictHeadline(v[0]), "faster because it keeps nothing");
  EXPECT_NE(v[0].message.find("faster because it keeps nothing"), std::string::npos)
      << v[0].message;
}

}  // namespace compare_loss_test
}  // namespace durprobe::explain
