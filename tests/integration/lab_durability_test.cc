// The durability verdict on real mounts, one test per layer rule: ext4 on a loop device backed by
// a file on tmpfs, an overlay whose upper layer is on tmpfs, an overlay mounted volatile (shown
// as fsync=volatile), a no-op sync under a neutral library name, and the durable-looking paths
// (the lab's ext4 and this machine's root) that must never be called not_durable. `check` fails
// every not_durable path under every preset with its `durable` rule.
#include <nlohmann/json.hpp>

#include "tests/integration/lab_mounts.h"

namespace durprobe {
namespace {

using nlohmann::json;

json Durability(const std::string& path) {
  CliRun r = testing_support::RunDurprobe("inspect " + path + " --json -");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  if (r.exit_code != 0) return json();
  return json::parse(r.out)["targets"][0]["durability"];
}

TEST_F(LabMountsTest, Ext4OnALoopDeviceOnTmpfsIsNotDurable) {
  INSPECT_OR_SKIP(m, "loop-on-tmpfs");
  ASSERT_EQ(m->backing.size(), 1u) << "the loop device's backing file was not followed";
  EXPECT_EQ(m->backing.front().fstype, "tmpfs");
  EXPECT_TRUE(HasCode(*m, "loop_backing_not_durable"));
  json d = Durability(dir_ + "/loop-on-tmpfs");
  EXPECT_EQ(d["verdict"], "not_durable") << d.dump();
  EXPECT_EQ(d["deciding_layer"], "filesystem") << d.dump();
  ASSERT_GE(d["layers"].size(), 3u) << d.dump();
  EXPECT_EQ(d["layers"][1]["kind"], "loop");
  EXPECT_EQ(d["layers"][2]["effect"], "voids");
}

TEST_F(LabMountsTest, AnOverlayWithItsUpperLayerOnTmpfsIsNotDurable) {
  INSPECT_OR_SKIP(m, "overlay-tmpfs-upper");
  ASSERT_TRUE(m->overlay.has_value());
  EXPECT_EQ(m->overlay->upper_fstype, "tmpfs");
  json d = Durability(dir_ + "/overlay-tmpfs-upper");
  EXPECT_EQ(d["verdict"], "not_durable") << d.dump();
  EXPECT_EQ(d["findings"][0], "sync_noop_memory_fs") << d.dump();
}

TEST_F(LabMountsTest, AVolatileOverlayIsNotDurableInTheKernelsSpelling) {
  INSPECT_OR_SKIP(m, "overlay-volatile");
  ASSERT_TRUE(m->overlay.has_value());
  EXPECT_TRUE(m->overlay->volatile_mount);
  EXPECT_TRUE(HasCode(*m, "overlay_volatile"));
  json d = Durability(dir_ + "/overlay-volatile");
  EXPECT_EQ(d["verdict"], "not_durable") << d.dump();
  EXPECT_EQ(d["deciding_layer"], "overlay") << d.dump();
}

TEST_F(LabMountsTest, DurableLookingPathsAreNeverCalledNotDurable) {
  INSPECT_OR_SKIP(ext4, "ext4");
  for (const std::string& path :
       {dir_ + "/ext4", dir_ + "/xfs", std::string("/"), std::string(DURPROBE_SOURCE_DIR)}) {
    json d = Durability(path);
    ASSERT_TRUE(d.is_object()) << path;
    EXPECT_NE(d["verdict"], "not_durable") << path << ": " << d.dump();
  }
}

// Every preset fails a path that keeps nothing, with a rule of its own; the ext4 passes it.
TEST_F(LabMountsTest, EveryPresetFailsANotDurablePath) {
  INSPECT_OR_SKIP(m, "loop-on-tmpfs");
  for (const char* preset : {"etcd", "postgres-wal", "sqlite-app"}) {
    CliRun r = testing_support::RunDurprobe(std::string("check ") + dir_ +
                                            "/loop-on-tmpfs --quick --json - --preset " + preset);
    EXPECT_EQ(r.exit_code, 1) << preset << ": " << r.err;
    if (r.out.empty()) continue;
    bool durable_failed = false;
    json report = json::parse(r.out);
    for (const json& c : report["checks"]) {
      if (c["rule"] == "durable") durable_failed = c["status"] == "fail";
    }
    EXPECT_TRUE(durable_failed) << preset << ": " << r.out.substr(0, 2000);
  }
}

// A no-op sync under a neutral file name (the fault layer's noop mode, not named eatmydata): only
// what a sync costs gives it away, and the durable rule fails on that.
TEST_F(LabMountsTest, ANoopSyncUnderANeutralNameIsCaughtByWhatItCosts) {
  INSPECT_OR_SKIP(ext4, "ext4");
  CliRun r = testing_support::RunShell("env LD_PRELOAD=" DURPROBE_FAULTLIB
                                       " DURPROBE_FAULT_SYNC=noop " DURPROBE_BINARY " check " +
                                       dir_ + "/ext4 --quick --json - --preset etcd");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  ASSERT_FALSE(r.out.empty()) << r.err;
  json report = json::parse(r.out);
  json d = report["targets"][0]["durability"];
  EXPECT_EQ(d["verdict"], "not_durable") << d.dump();
  EXPECT_EQ(d["deciding_layer"], "measured") << d.dump();
}

}  // namespace
}  // namespace durprobe
