#include "probes/primitive_ops.h"

#include <iterator>

namespace durprobe::probes {
namespace {

using platform::SyncCall;

constexpr PrimitiveOps kPrimitives[] = {
    {.primitive = Primitive::kNone,
     .name = "none",
     .in_default_set = InDefaultSet::kYes,
     .caveat = "no sync: page-cache baseline, not durable"},
    {.primitive = Primitive::kFsync,
     .name = "fsync",
     .sync = SyncCall::kFsync,
     .durable = true,
     .in_default_set = InDefaultSet::kYes},
    {.primitive = Primitive::kFdatasync,
     .name = "fdatasync",
     .sync = SyncCall::kFdatasync,
     .durable = true,
     .in_default_set = InDefaultSet::kYes},
    {.primitive = Primitive::kOdsync,
     .name = "odsync",
     .open = {.dsync = true},
     .durable = true,
     .in_default_set = InDefaultSet::kYes},
    {.primitive = Primitive::kOsync, .name = "osync", .open = {.sync = true}, .durable = true},
    {.primitive = Primitive::kSyncFileRange,
     .name = "sync_file_range",
     .sync = SyncCall::kSyncFileRange,
     .caveat = "not a durability primitive: no metadata, no device cache flush"},
    {.primitive = Primitive::kFullFsync,
     .name = "full_fsync",
     .sync = SyncCall::kFullFsync,
     .durable = true,
     .in_default_set = InDefaultSet::kWherePlatformHasIt},
    {.primitive = Primitive::kBarrierFsync,
     .name = "barrier_fsync",
     .sync = SyncCall::kBarrierFsync,
     .in_default_set = InDefaultSet::kWherePlatformHasIt,
     .caveat = "orders writes, does not flush the drive cache"},
    {.primitive = Primitive::kDirFsync,
     .name = "dir_fsync",
     .syncs_directory = true,
     .durable = true,
     .in_default_set = InDefaultSet::kYes},
    // The modern sync paths, measured by default in one table with O_DIRECT|O_DSYNC; where the
    // OS or the filesystem refuses one, its row is unsupported and says why.
    {.primitive = Primitive::kOdirectDsync,
     .name = "odirect_dsync",
     .open = {.dsync = true, .direct = true},
     .durable = true,
     .in_default_set = InDefaultSet::kYes},
    {.primitive = Primitive::kRwfDsync,
     .name = "rwf_dsync",
     .write = WritePath::kPWriteDsync,
     .durable = true,
     .in_default_set = InDefaultSet::kYes},
    {.primitive = Primitive::kIoUringFsync,
     .name = "io_uring_fsync",
     .write = WritePath::kRingLinked,
     .durable = true,
     .in_default_set = InDefaultSet::kYes},
    {.primitive = Primitive::kIoUringFdatasync,
     .name = "io_uring_fdatasync",
     .write = WritePath::kRingLinked,
     .ring_datasync = true,
     .durable = true,
     .in_default_set = InDefaultSet::kYes},
    // What pg_test_fsync measures as open_sync where O_DIRECT is supported (probe --pg).
    {.primitive = Primitive::kOdirectSync,
     .name = "odirect_sync",
     .open = {.sync = true, .direct = true},
     .durable = true},
};

// The rows in the enum's order, one per enumerator up to the last: a primitive added to the enum
// without its row (or a row out of place) fails here, not at run time.
constexpr bool RowsInEnumOrder() {
  for (std::size_t i = 0; i < std::size(kPrimitives); ++i) {
    if (kPrimitives[i].primitive != static_cast<Primitive>(i)) return false;
  }
  return true;
}
static_assert(std::size(kPrimitives) == static_cast<std::size_t>(kLastPrimitive) + 1,
              "one row per Primitive");
static_assert(RowsInEnumOrder(), "the rows in the enum's order");

}  // namespace

std::span<const PrimitiveOps> PrimitiveTable() { return kPrimitives; }

const PrimitiveOps& OpsOf(Primitive p) {
  for (const PrimitiveOps& row : kPrimitives) {
    if (row.primitive == p) return row;
  }
  // Not a row: only a value cast from outside the enum gets here. No sync, no flags.
  static constexpr PrimitiveOps kUnknown{.primitive = Primitive::kNone, .name = "unknown"};
  return kUnknown;
}

}  // namespace durprobe::probes
