// Each sync primitive described once, as a row of data (fio's ioengine_ops): its name, how the
// file it writes is opened, how the writes are made durable, whether it promises durability and
// whether a run measures it by default. The probe ops (probe_ops.cc), the names and caveats
// (probe_spec.h), the default set (runner.cc) and the analysis (the `durable` column) read these
// rows, so a new primitive is a new row.
// Whether the OS offers the call or flag, and why not, is the platform's answer
// (SupportsSync, SupportsOpenFlags), asked with the row's values.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "platform/platform.h"
#include "probes/probe_spec.h"

namespace durprobe::probes {

// How an operation's writes reach the file.
enum class WritePath {
  kPWrite,       // pwrite(2), then the row's sync call if it has one
  kPWriteDsync,  // pwritev2(RWF_DSYNC): each write makes itself durable
  kRingLinked,   // io_uring: each write linked to an IORING_OP_FSYNC in one submission
};

// Whether a run that names no primitive measures this one.
enum class InDefaultSet {
  kNo,
  kYes,
  kWherePlatformHasIt,  // only where the OS offers the row's sync call (SupportsSync)
};

struct PrimitiveOps {
  Primitive primitive;
  std::string_view name;  // the command line's and the JSON's "primitive" value
  // The durability flags of the data file's descriptor (dsync, sync, direct); the op adds create
  // and truncate. With direct, the write size must be a multiple of the block size and a
  // filesystem refusing O_DIRECT (EINVAL at open or first write) makes the probe unsupported.
  platform::OpenFlags open;
  // The call after each operation's writes, timed as its sync part; none when the write syncs
  // itself (O_DSYNC, O_SYNC) or nothing syncs.
  std::optional<platform::SyncCall> sync;
  WritePath write = WritePath::kPWrite;
  bool ring_datasync = false;  // kRingLinked: IORING_FSYNC_DATASYNC (fdatasync's promise)
  // True when the probe creates or renames a file and fsyncs the directory instead of writing.
  bool syncs_directory = false;
  // True when the call's promise is durability: once it returns, what was written (for
  // dir_fsync, the directory entry) is on stable storage, so a sync that costs no more than a
  // plain write is suspect. False for no sync, sync_file_range and barrier_fsync.
  bool durable = false;
  InDefaultSet in_default_set = InDefaultSet::kNo;
  // Printed with the result when the primitive does not mean what its name suggests; "" if none.
  std::string_view caveat;
};

// One row per Primitive, in the enum's order (which is the default set's order).
std::span<const PrimitiveOps> PrimitiveTable();
// The row of p.
const PrimitiveOps& OpsOf(Primitive p);

}  // namespace durprobe::probes
