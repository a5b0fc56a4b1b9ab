// `probe --quick` on a FUSE server that drops every sync and is slow on every write (issue 54):
// each probe's setup and plain writes cost as much as a sync there, and the quick budget once
// left each sync probe one operation, so the verdict fell back to `unproven`. The durable probes
// keep the operations their flush count needs (run/flush_counting.h ReserveFlushEvidence), so
// the verdict is decided: `not_durable`, from the flush counters.
#include <nlohmann/json.hpp>

#include "analysis/device_flushes.h"
#include "tests/integration/lab_mounts.h"
#include "tests/integration/passthrough_mount.h"

namespace durprobe {
namespace {

using nlohmann::json;
using testing_support::Passthrough;

TEST_F(LabMountsTest, AQuickProbeOfASlowServerThatDropsSyncsIsNotDurable) {
  INSPECT_OR_SKIP(ext4, "ext4");
  // 20 ms a write: a 16 MiB probe file takes over 2 s to lay out, half the quick budget.
  Passthrough fuse(dir_ + "/ext4/slow-src", dir_ + "/slow-mnt", true, 20'000);
  PASSTHROUGH_OR_SKIP(fuse);
  CliRun r = testing_support::RunDurprobe("probe " + dir_ + "/slow-mnt --quick --json -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json t = json::parse(r.out)["targets"][0];
  // fdatasync, the sync SQLite, PostgreSQL and etcd rely on, comes after the plain writes and
  // fsync: without its reserve it timed 7 operations here, and only the directory syncs (no
  // data written, so fast even on this server) could decide the verdict.
  const json* fdatasync = nullptr;
  for (const json& p : t["probes"]) {
    if (p["primitive"] == "fdatasync" && p["pattern"] == "overwrite") fdatasync = &p;
  }
  ASSERT_NE(fdatasync, nullptr) << t["probes"].dump();
  EXPECT_GE((*fdatasync)["ops"].get<std::uint64_t>(), analysis::kMinFlushEvidenceOps)
      << fdatasync->dump();
  EXPECT_NE(t["durability"]["reason"].get<std::string>().find("fdatasync reached no device"),
            std::string::npos)
      << t["durability"];
  EXPECT_EQ(t["durability"]["verdict"], "not_durable") << t["durability"];
  EXPECT_EQ(t["durability"]["deciding_layer"], "device_flushes") << t["durability"];
}

}  // namespace
}  // namespace durprobe
