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
  // A FUSE server's syncs are counted on every local disk, and another process flushing the root
  // disk 20 to 50 times a second (the sanitizer build's journal commits in a fresh-clone run)
  // leaves 20 syncs of 20 ms undecided, rightly: the quick budget has no time for the control
  // that would tell its flushes from the syncs' (with a dd loop beside it, 3 runs of 12). So the
  // probe runs up to three times: each keeps its evidence and never calls the path durable, and
  // one at least is decided.
  std::string last;
  for (int attempt = 0; attempt < 3; ++attempt) {
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
    ASSERT_GE((*fdatasync)["ops"].get<std::uint64_t>(), analysis::kMinFlushEvidenceOps)
        << fdatasync->dump();
    ASSERT_NE(t["durability"]["verdict"], "durable") << t["durability"];
    last = t["durability"].dump();
    if (t["durability"]["verdict"] != "not_durable") continue;
    EXPECT_EQ(t["durability"]["deciding_layer"], "device_flushes") << last;
    // "fdatasync reached no device: 20 syncs, 0 flushes", or, beside a neighbour's flush, "19 of
    // 20 fdatasyncs reached no device (1 flush on vda, ...)": at most the one flush counted can
    // have been a sync's.
    const std::string reason = t["durability"]["reason"].get<std::string>();
    EXPECT_TRUE(reason.find("fdatasync reached no device:") != std::string::npos ||
                reason.find(" fdatasyncs reached no device (") != std::string::npos)
        << reason;
    return;
  }
  ADD_FAILURE() << "three quick probes and none decided; the last: " << last;
}

}  // namespace
}  // namespace durprobe
