// What counts as evidence in cause ranking (explain/cause_signature.h): a median from enough
// operations, and a reference probe level only where the reference reads the device.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "explain/cause_signature.h"
#include "explain/causes.h"
#include "tests/cause_fixtures.h"

namespace durprobe::explain {
namespace {

// bind against bindfs (a FUSE server exporting the directory bind mounts).
struct BindAndFuse {
  model::Target bind = testing_support::CausePath("/bind");
  model::Target fuse = testing_support::CausePath("/mnt/fuse/db", {.op = 0.1, .meta = 0.1});
  BindAndFuse() {
    bind.mount->bind = true;
    bind.mount->container.path_role = platform::PathRole::kBindFromHost;
    fuse.mount->fstype = "fuse.bindfs";
    fuse.mount->mount_point = "/mnt/fuse";
    fuse.mount->device.reset();
    fuse.mount->container.path_role = platform::PathRole::kOtherMount;
  }
  std::vector<Cause> Rank() const {
    return RankCauses({&bind, &fuse, nullptr, nullptr, "a", "b", nullptr, {}});
  }
  void Thin() {
    for (model::Target* t : {&bind, &fuse}) {
      for (probes::ProbeResult& p : t->probes) p.ops = kMinEvidenceOps - 1;
      for (probes::OpCostResult& o : t->op_costs) o.ops = 1;
    }
  }
};

// A compare --quick on a starved machine timed one operation per probe and op cost; a single
// write that waited for the CPU made the bind mount's per-operation cost 10x the FUSE server's,
// and the path's role or drift led instead of fuse. A median of fewer than kMinEvidenceOps
// operations is no evidence: the FUSE mount leads on what its mount says, and the evidence says
// nothing measured tells for or against it.
TEST(CauseEvidenceTest, FiguresFromTooFewOperationsAreNoEvidence) {
  BindAndFuse pair;
  // Enough operations: the faster per-op cost contradicts a FUSE server, and fuse scores low.
  std::vector<Cause> measured = pair.Rank();
  ASSERT_FALSE(measured.empty());
  EXPECT_NE(measured.front().key, "fuse");
  pair.Thin();
  std::vector<Cause> thin = pair.Rank();
  ASSERT_FALSE(thin.empty());
  EXPECT_EQ(thin.front().key, "fuse") << thin.front().evidence;
  EXPECT_NE(thin.front().evidence.find("nothing both sides measured tells for or against"),
            std::string::npos)
      << thin.front().evidence;
  for (const Cause& c : thin) EXPECT_EQ(c.evidence.find(" us vs "), std::string::npos) << c.key;
}

// The reference probe runs on the measured path: on a FUSE mount its level holds the server's
// round trips, so a gap to the other side's reference is the FUSE server, not the device's state
// (a compare --quick whose probes had one operation each led with drift on the reference alone).
TEST(CauseEvidenceTest, TheReferenceOnAFuseMountIsTheServerNotTheDevicesState) {
  BindAndFuse pair;
  pair.Thin();
  pair.bind.reference_probe = pair.fuse.reference_probe = "fdatasync overwrite 4 KiB";
  for (std::uint64_t t : {0u, 1000u, 2000u}) {
    pair.bind.reference.push_back({t, "probes", 40, 186'000, 186'000.0});
    pair.fuse.reference.push_back({t, "probes", 40, 311'000, 311'000.0});
  }
  std::vector<Cause> causes = pair.Rank();
  ASSERT_FALSE(causes.empty());
  EXPECT_EQ(causes.front().key, "fuse") << causes.front().evidence;
  for (const Cause& c : causes) {
    EXPECT_NE(c.key, "drift") << c.evidence;
    EXPECT_EQ(c.evidence.find("reference probe level"), std::string::npos) << c.evidence;
  }
  // Two kernel-served paths with the same gap: the device's state.
  pair.fuse.mount->fstype = "ext4";
  std::vector<Cause> kernel = pair.Rank();
  ASSERT_FALSE(kernel.empty());
  EXPECT_EQ(kernel.front().key, "drift") << kernel.front().evidence;
}

}  // namespace
}  // namespace durprobe::explain
