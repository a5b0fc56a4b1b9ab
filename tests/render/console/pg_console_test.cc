// `probe --pg` (issue 35 item 5): pg_test_fsync's table, its sections and method names in its
// order, filled from durprobe's probes.
#include "render/console/pg_console.h"

#include <gtest/gtest.h>

#include <sstream>

#include "gate/wal_sync_method.h"
#include "probes/primitive_ops.h"

namespace durprobe::render::console {
namespace {

using probes::Primitive;

TEST(PgConsoleTest, TheCellsArePgTestFsyncsWithODirectForTheOpenMethods) {
  std::vector<std::string> sizes;
  for (const gate::WalSyncCell& c : gate::PgTestFsyncCells()) {
    if (c.method == "open_datasync") {
      EXPECT_EQ(c.spec.primitive, Primitive::kOdirectDsync);
    }
    if (c.method == "open_sync") {
      EXPECT_EQ(c.spec.primitive, Primitive::kOdirectSync);
    }
    if (c.row == "Compare open_sync with different write sizes") {
      EXPECT_EQ(c.spec.write_size * c.spec.writes_per_op, 16384u) << c.method;
      EXPECT_EQ(c.spec.primitive, Primitive::kOdirectSync);
      sizes.push_back(c.method);
    }
  }
  EXPECT_EQ(sizes,
            (std::vector<std::string>{" 1 * 16kB open_sync write", " 2 *  8kB open_sync writes",
                                      " 4 *  4kB open_sync writes", " 8 *  2kB open_sync writes",
                                      "16 *  1kB open_sync writes"}));
  // The 2 x 8 KiB open_sync probe stands in two sections and is measured once.
  EXPECT_EQ(gate::PgTestFsyncSpecs().size(), gate::PgTestFsyncCells().size() - 1);
}

TEST(PgConsoleTest, TheTableFollowsPgTestFsyncsOrderWithDurprobesPercentiles) {
  model::Target t;
  probes::ProbeResult fdatasync;
  fdatasync.spec = gate::PgTestFsyncCells()[1].spec;  // one 8kB write, fdatasync
  fdatasync.ops = 500;
  fdatasync.ops_per_sec = 5000;
  fdatasync.latency.count = 500;
  fdatasync.latency.p50 = 180'000;
  fdatasync.latency.p99 = 900'000;
  probes::ProbeResult open_sync;
  open_sync.spec = gate::PgTestFsyncCells()[3].spec;
  open_sync.outcome = probes::Outcome::kUnsupported;
  open_sync.reason = "O_DIRECT refused (EINVAL)";
  t.probes = {fdatasync, open_sync};
  std::ostringstream out;
  PrintPgTestFsync(t, out);
  const std::string text = out.str();
  std::size_t one = text.find("Compare file sync methods using one 8kB write:\n");
  ASSERT_NE(one, std::string::npos) << text;
  std::size_t datasync = text.find("  open_datasync  not measured\n", one);
  std::size_t row = text.find("  fdatasync      5,000  200 us  180 us  900 us\n", one);
  std::size_t unsupported = text.find("  open_sync      unsupported: O_DIRECT refused (EINVAL)\n");
  EXPECT_LT(datasync, row) << text;
  EXPECT_LT(row, unsupported) << text;
  EXPECT_NE(unsupported, std::string::npos) << text;
  EXPECT_NE(text.find("Non-sync'ed 8kB writes:\n"), std::string::npos) << text;

  std::ostringstream none;
  PrintPgTestFsync(model::Target{}, none);
  EXPECT_EQ(none.str(), "");
}

}  // namespace
}  // namespace durprobe::render::console
