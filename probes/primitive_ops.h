// Each sync primitive described once, as a row of data (fio's ioengine_ops): its name, how the
// file it writes is opened, and how the writes are made durable. The probe ops (probe_ops.cc)
// and the names and caveats (probe_spec.h) read these rows, so a new primitive is a new row.
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
  // Printed with the result when the primitive does not mean what its name suggests; "" if none.
  std::string_view caveat;
};

// One row per Primitive, in the enum's order.
std::span<const PrimitiveOps> PrimitiveTable();
// The row of p.
const PrimitiveOps& OpsOf(Primitive p);

}  // namespace durprobe::probes
