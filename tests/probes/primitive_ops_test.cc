// The primitive table: one row per Primitive, unique names that the command line and the JSON
// keep, and rows that say how each primitive reaches the disk.
#include "probes/primitive_ops.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace durprobe::probes {
namespace {

constexpr int kPrimitiveCount = static_cast<int>(kLastPrimitive) + 1;

TEST(PrimitiveOpsTest, EveryPrimitiveHasExactlyOneRowInEnumOrder) {
  ASSERT_EQ(PrimitiveTable().size(), static_cast<std::size_t>(kPrimitiveCount));
  for (int i = 0; i < kPrimitiveCount; ++i) {
    const Primitive p = static_cast<Primitive>(i);
    int rows = 0;
    for (const PrimitiveOps& row : PrimitiveTable()) rows += row.primitive == p ? 1 : 0;
    EXPECT_EQ(rows, 1) << "primitive " << i;
    EXPECT_EQ(PrimitiveTable()[i].primitive, p);
    EXPECT_EQ(OpsOf(p).primitive, p);
  }
}

TEST(PrimitiveOpsTest, NamesAreUniqueAndAreTheOnesTheJsonUses) {
  std::set<std::string> names;
  for (const PrimitiveOps& row : PrimitiveTable()) {
    EXPECT_TRUE(names.insert(std::string(row.name)).second) << row.name;
    EXPECT_EQ(NameOf(row.primitive), row.name);
    EXPECT_EQ(PrimitiveNames().at(std::string(row.name)), row.primitive);
  }
  const std::set<std::string> expected = {
      "none",          "fsync",           "fdatasync",          "odsync",        "osync",
      "odirect_dsync", "sync_file_range", "full_fsync",         "barrier_fsync", "dir_fsync",
      "rwf_dsync",     "io_uring_fsync",  "io_uring_fdatasync", "odirect_sync"};
  EXPECT_EQ(names, expected);
  EXPECT_EQ(PrimitiveNames().size(), PrimitiveTable().size());
}

TEST(PrimitiveOpsTest, EachRowMakesItsWritesDurableOneWayAtMost) {
  for (const PrimitiveOps& row : PrimitiveTable()) {
    const bool by_flag = row.open.dsync || row.open.sync;
    const bool by_write = row.write != WritePath::kPWrite;
    EXPECT_FALSE(by_flag && row.sync.has_value()) << row.name;
    EXPECT_FALSE(by_write && (by_flag || row.sync.has_value())) << row.name;
    EXPECT_FALSE(row.syncs_directory && (by_flag || row.sync.has_value())) << row.name;
    EXPECT_FALSE(row.open.create || row.open.truncate || row.open.exclusive) << row.name;
  }
  EXPECT_FALSE(OpsOf(Primitive::kNone).sync.has_value());
  EXPECT_TRUE(OpsOf(Primitive::kOdirectDsync).open.direct);
  // pg_test_fsync's open_sync where O_DIRECT is supported (probe --pg).
  EXPECT_TRUE(OpsOf(Primitive::kOdirectSync).open.direct &&
              OpsOf(Primitive::kOdirectSync).open.sync);
  EXPECT_EQ(OpsOf(Primitive::kSyncFileRange).sync, platform::SyncCall::kSyncFileRange);
  EXPECT_TRUE(OpsOf(Primitive::kDirFsync).syncs_directory);
  EXPECT_EQ(OpsOf(Primitive::kRwfDsync).write, WritePath::kPWriteDsync);
  EXPECT_EQ(OpsOf(Primitive::kIoUringFsync).write, WritePath::kRingLinked);
  EXPECT_FALSE(OpsOf(Primitive::kIoUringFsync).ring_datasync);
  EXPECT_TRUE(OpsOf(Primitive::kIoUringFdatasync).ring_datasync);
}

// Durable means the call promises stable storage when it returns: every way of syncing data but
// sync_file_range (no metadata, no cache flush) and barrier_fsync (ordering only), and not the
// page-cache baseline.
TEST(PrimitiveOpsTest, EachRowSaysWhetherItPromisesDurability) {
  std::set<std::string> durable;
  for (const PrimitiveOps& row : PrimitiveTable()) {
    if (row.durable) durable.insert(std::string(row.name));
  }
  const std::set<std::string> expected = {
      "fsync",          "fdatasync",          "odsync",        "osync",
      "full_fsync",     "dir_fsync",          "odirect_dsync", "rwf_dsync",
      "io_uring_fsync", "io_uring_fdatasync", "odirect_sync"};
  EXPECT_EQ(durable, expected);
}

// The default set is the rows marked for it, in the table's order; the macOS calls only where
// the platform has them, so those rows carry the call to ask about.
TEST(PrimitiveOpsTest, TheDefaultSetIsMarkedOnTheRows) {
  std::vector<std::string> always, where_offered;
  for (const PrimitiveOps& row : PrimitiveTable()) {
    if (row.in_default_set == InDefaultSet::kYes) always.push_back(std::string(row.name));
    if (row.in_default_set == InDefaultSet::kWherePlatformHasIt) {
      where_offered.push_back(std::string(row.name));
      EXPECT_TRUE(row.sync.has_value()) << row.name;
    }
  }
  EXPECT_EQ(always, (std::vector<std::string>{"none", "fsync", "fdatasync", "odsync", "dir_fsync",
                                              "odirect_dsync", "rwf_dsync", "io_uring_fsync",
                                              "io_uring_fdatasync"}));
  EXPECT_EQ(where_offered, (std::vector<std::string>{"full_fsync", "barrier_fsync"}));
}

TEST(PrimitiveOpsTest, CaveatsComeFromTheRows) {
  EXPECT_EQ(CaveatOf(Primitive::kNone), "no sync: page-cache baseline, not durable");
  EXPECT_EQ(CaveatOf(Primitive::kSyncFileRange),
            "not a durability primitive: no metadata, no device cache flush");
  EXPECT_EQ(CaveatOf(Primitive::kBarrierFsync), "orders writes, does not flush the drive cache");
  EXPECT_EQ(CaveatOf(Primitive::kFsync), "");
}

}  // namespace
}  // namespace durprobe::probes
