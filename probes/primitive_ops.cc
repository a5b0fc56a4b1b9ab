#include "probes/primitive_ops.h"

namespace durprobe::probes {
namespace {

using platform::SyncCall;

constexpr PrimitiveOps kPrimitives[] = {
    {.primitive = Primitive::kNone,
     .name = "none",
     .caveat = "no sync: page-cache baseline, not durable"},
    {.primitive = Primitive::kFsync, .name = "fsync", .sync = SyncCall::kFsync},
    {.primitive = Primitive::kFdatasync, .name = "fdatasync", .sync = SyncCall::kFdatasync},
    {.primitive = Primitive::kOdsync, .name = "odsync", .open = {.dsync = true}},
    {.primitive = Primitive::kOsync, .name = "osync", .open = {.sync = true}},
    {.primitive = Primitive::kOdirectDsync,
     .name = "odirect_dsync",
     .open = {.dsync = true, .direct = true}},
    {.primitive = Primitive::kSyncFileRange,
     .name = "sync_file_range",
     .sync = SyncCall::kSyncFileRange,
     .caveat = "not a durability primitive: no metadata, no device cache flush"},
    {.primitive = Primitive::kFullFsync, .name = "full_fsync", .sync = SyncCall::kFullFsync},
    {.primitive = Primitive::kBarrierFsync,
     .name = "barrier_fsync",
     .sync = SyncCall::kBarrierFsync,
     .caveat = "orders writes, does not flush the drive cache"},
    {.primitive = Primitive::kDirFsync, .name = "dir_fsync", .syncs_directory = true},
    {.primitive = Primitive::kRwfDsync, .name = "rwf_dsync", .write = WritePath::kPWriteDsync},
    {.primitive = Primitive::kIoUringFsync,
     .name = "io_uring_fsync",
     .write = WritePath::kRingLinked},
    {.primitive = Primitive::kIoUringFdatasync,
     .name = "io_uring_fdatasync",
     .write = WritePath::kRingLinked,
     .ring_datasync = true},
};

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
