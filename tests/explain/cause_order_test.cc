// The order of the causes beyond their scores: a cause that moves nothing by itself (a bind mount,
// the commit interval, the queue depth) is listed after every cause that stands for a cost.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "explain/causes.h"
#include "tests/cause_fixtures.h"

namespace durprobe::explain {
namespace cause_order_test {

using testing_support::CausePath;

// A bind mount against a FUSE mount whose figures the disk's noise blurred (per op only 1.2x):
// the bind mount fits "nothing moved" better, but it costs nothing by itself and never leads
// the FUSE server, which stands for a cost.
TEST(CausesTest, ACauseThatMovesNothingNeverLeadsOneThatStandsForACost) {
  model::Target a = CausePath("/a", {.overwrite = 1.1}), b = CausePath("/mnt/fuse/db", {.op = 1.2});
  a.mount->bind = true;
  b.mount->fstype = "fuse.bindfs";
  b.mount->fs_subtype = "bindfs";
  b.mount->device.reset();
  std::vector<Cause> causes = RankCauses({&a, &b, nullptr, nullptr, "a", "b", nullptr, {}});
  ASSERT_GE(causes.size(), 2u);
  EXPECT_EQ(causes.front().key, "fuse");
  const auto bind =
      std::find_if(causes.begin(), causes.end(), [](const Cause& c) { return c.key == "bind"; });
  ASSERT_NE(bind, causes.end());
  EXPECT_GT(bind->score, causes.front().score) << "the case this test is for";
}

}  // namespace cause_order_test
}  // namespace durprobe::explain
