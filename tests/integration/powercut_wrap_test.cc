// Cuts taken after the writer went round its file (issue 53 item 0): a 256 KiB file of 64 slots,
// gone round many times before the cut, on ext4 with 1 KiB and 4 KiB blocks, in the overwrite
// mode and the allocating one (--mode append, rounds of 256 KiB files). An honest device loses no
// acknowledged record (a record being rewritten at the cut counts in_flight, not torn); a device
// that ignores flushes fails every cut. CI takes 2 honest cuts and 1 lying one per case;
// DURPROBE_POWERCUT_CUTS=N takes N of each (docs/powercut.md, "How it is tested here", has the
// campaign). Root, `ip netns`, veth, /dev/fuse and loop devices, else skipped with the reason.
#include <cstdlib>
#include <string>

#include "tests/integration/powercut_fixture.h"

namespace durprobe {
namespace powercut_test {

struct WrapCase {
  const char* name;
  const char* args;
  std::uint32_t block_bytes;
};

int CutsFromEnvironment(int fallback) {
  const char* n = std::getenv("DURPROBE_POWERCUT_CUTS");
  const int v = n != nullptr ? std::atoi(n) : 0;
  return v > 0 ? v : fallback;
}

class PowercutWrapTest : public PowercutTest, public ::testing::WithParamInterface<WrapCase> {
 protected:
  CutOutcome WrapCut(platform::CacheMode mode, int index) {
    CutPlan plan;
    plan.mode = mode;
    plan.index = index;
    plan.args = GetParam().args;
    plan.block_bytes = GetParam().block_bytes;
    plan.file_size = "256KiB";
    plan.wait_ms = 700;
    return Cut(plan);
  }
};

// Whether the writer had gone round before the cut: some acknowledged records were overwritten
// by later ones in their slot (overwrite), or were in a round older than the two verify reads
// (append: the writer was in its third round at least).
bool WentRound(const json& records) { return records["overwritten"].get<int>() > 0; }

TEST_P(PowercutWrapTest, AnHonestDevicePassesEveryCutAfterTheWriterWentRound) {
  std::unique_ptr<Background> witness = StartWitness(dir_.path() + "/witness.log", "witness");
  const int cuts = CutsFromEnvironment(2);
  int in_flight = 0, round = 0, early = 0;
  // A cut that came before the writer went round (a slow disk, a loaded machine) must pass too,
  // but does not count: up to three times as many cuts as asked, until enough went round.
  for (int i = 0; round < cuts && i < 3 * cuts; ++i) {
    CutOutcome o = WrapCut(platform::CacheMode::kHonest, i);
    if (o.skip) GTEST_SKIP() << o.detail;
    ASSERT_NE(o.writer_exit, 0) << "the cut came after the writer finished: " << o.detail;
    ASSERT_EQ(o.verify_exit, 0) << GetParam().name << " cut " << i << ": " << o.detail;
    const json& r = o.evidence["records"];
    EXPECT_EQ(r["lost"], 0) << o.detail;
    const bool went_round = WentRound(r);
    (went_round ? round : early) += 1;
    in_flight += r.value("in_flight", 0);
    std::printf("%s honest cut %d: %d acknowledged, %d overwritten, %d in flight, %d lost%s\n",
                GetParam().name, i, r["acknowledged"].get<int>(), r["overwritten"].get<int>(),
                r.value("in_flight", 0), r["lost"].get<int>(),
                went_round ? "" : " (before the writer went round: not counted)");
  }
  EXPECT_EQ(round, cuts) << "too few cuts came after the writer went round";
  std::printf("%s honest: %d cuts after going round, 0 failed, %d in flight; %d cuts before\n",
              GetParam().name, round, in_flight, early);
}

TEST_P(PowercutWrapTest, ADeviceThatIgnoresFlushesFailsEveryCut) {
  std::unique_ptr<Background> witness = StartWitness(dir_.path() + "/witness.log", "witness");
  const int cuts = CutsFromEnvironment(1);
  for (int i = 0; i < cuts; ++i) {
    CutOutcome o = WrapCut(platform::CacheMode::kIgnoresFlush, i);
    if (o.skip) GTEST_SKIP() << o.detail;
    ASSERT_NE(o.writer_exit, 0) << "the cut came after the writer finished: " << o.detail;
    ASSERT_EQ(o.verify_exit, 1) << GetParam().name << " cut " << i << ": " << o.detail;
    const json& r = o.evidence["records"];
    EXPECT_GT(r["lost"].get<int>(), 0) << o.detail;
    EXPECT_EQ(o.evidence["verdict"], "failed") << o.detail;
    std::printf("%s ignores-flush cut %d: %d acknowledged, %d lost (%d missing, %d torn)\n",
                GetParam().name, i, r["acknowledged"].get<int>(), r["lost"].get<int>(),
                r["missing"].get<int>(), r["torn"].get<int>());
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, PowercutWrapTest,
                         ::testing::Values(WrapCase{"overwrite_1k", "", 1024},
                                           WrapCase{"overwrite_4k", "", 4096},
                                           WrapCase{"append_1k", "--mode append", 1024},
                                           WrapCase{"append_4k", "--mode append", 4096}),
                         [](const ::testing::TestParamInfo<WrapCase>& i) {
                           return std::string(i.param.name);
                         });

}  // namespace powercut_test
}  // namespace durprobe
