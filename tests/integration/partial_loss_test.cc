// Issue 55: FUSE servers that honour one sync in N (tests/fuse_passthrough --honour-one-in N)
// over a directory on the disk: the flush counters see fewer flushes than syncs beyond their
// noise, so the path is not durable and the reason counts the syncs that reached no device,
// never saying that none did while it counts the flushes of those that did.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli_runner.h"
#include "tests/integration/passthrough_mount.h"

namespace durprobe {
namespace partial_loss_test {

using nlohmann::json;
using testing_support::CliRun;
using testing_support::Passthrough;
using testing_support::TempDir;

TEST(PartialLossTest, AServerHonouringOneSyncInNIsNotDurableWithTheCountNamed) {
  if (!testing_support::IsRoot()) GTEST_SKIP() << "needs root to mount FUSE";
  TempDir disk("/var/tmp");
  for (int n : {3, 8}) {
    const std::string mount =
        "/tmp/durprobe-causes-fuse-" + std::to_string(::getpid()) + "-" + std::to_string(n);
    Passthrough fuse(disk.path() + "/src" + std::to_string(n), mount,
                     "--honour-one-in " + std::to_string(n));
    PASSTHROUGH_OR_SKIP(fuse);
    CliRun r = testing_support::RunDurprobe(
        "probe --budget 10s --primitives fdatasync --patterns overwrite --json - " + mount);
    ASSERT_FALSE(r.out.empty()) << r.err;
    const json t = json::parse(r.out)["targets"][0];
    const json& d = t["durability"];
    EXPECT_EQ(d["verdict"], "not_durable") << "one in " << n << ": " << d;
    EXPECT_EQ(d["deciding_layer"], "device_flushes") << "one in " << n << ": " << d;
    const std::string all = d.dump();
    EXPECT_NE(all.find("fdatasyncs reached no device ("), std::string::npos) << all;
    EXPECT_EQ(all.find("fdatasync reached no device:"), std::string::npos) << all;
  }
}

}  // namespace partial_loss_test
}  // namespace durprobe
