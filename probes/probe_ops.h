// One operation per probe kind: set up files in the scratch directory, run one timed operation,
// tear down. The timed loop (probes/timed_loop.h) drives them; they never print.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "platform/platform.h"
#include "probes/probe_spec.h"

namespace durprobe::probes {

// Operations are timed back to back: an operation starts at the previous one's end timestamp,
// so the loop reads the clock once per operation (twice with a separate sync) and the times
// add up to the elapsed time. The loop's bookkeeping between operations (a few ns) is counted in.
struct OpTiming {
  std::uint64_t start_ns = 0;  // set by the loop
  bool time_sync = true;       // set by the loop: time the sync call alone on this operation
  std::uint64_t end_ns = 0;    // set by the op: its last clock reading
  std::uint64_t sync_ns = 0;   // the sync call alone; 0 when the op has no separate sync
};

class ProbeOp {
 public:
  virtual ~ProbeOp() = default;
  // Creates and preallocates files; untimed. Unsupported when the filesystem refuses a flag.
  virtual Status Setup() = 0;
  // One operation from timing->start_ns, timed with the platform's monotonic clock; sets end_ns
  // and sync_ns. A failed sync is returned as is.
  virtual Status RunOnce(OpTiming* timing) = 0;
  // Untimed housekeeping between operations (an append file reaching its cap starts over).
  virtual bool NeedsMaintenance() const { return false; }
  virtual Status Maintain() { return Status::Ok(); }
  virtual bool has_sync_part() const = 0;
  // One operation's writes without its sync, untimed: the control the flush counts are read
  // against (probes/flush_tally.h). Unsupported where the operation has none.
  virtual Status RunControl() { return Status::Unsupported("this operation has no control"); }
  virtual Status Teardown() = 0;
};

// Files the create and rename operations make: "<dir>/f<n>".
std::string NumberedFile(const std::string& dir, std::uint64_t n);
// Creates an empty file (O_CREAT|O_EXCL) and closes it: the create part of a create operation.
Status CreateEmptyFile(platform::Platform& platform, const std::string& path);
// Unlinks <dir>/f1 .. <dir>/f<count>; files already gone are fine.
Status RemoveNumberedFiles(platform::Platform& platform, const std::string& dir,
                           std::uint64_t count);

// Fills buf with a non-repeating byte pattern so no layer can compress or dedupe the writes.
void FillPattern(std::byte* buf, std::size_t n);
// Writes zeros over [0, size) of a fresh file at path and fsyncs it, so later overwrites touch
// allocated, written blocks (no unwritten-extent conversion inside the timed loop).
Status Preallocate(platform::Platform& p, const std::string& path, std::uint64_t size);
// One operation of spec on fd at offset, its primitive's way (primitive_ops.h): writes_per_op
// writes of write_size from buf (pwrite, pwritev2(RWF_DSYNC), or io_uring write-then-sync on
// ring, which kRingLinked rows need), then the row's sync call timed as the sync part. Sets
// t->end_ns (and sync_ns); a failure is returned as it came.
Status WriteDurably(platform::Platform& p, platform::IoRing* ring, int fd, const ProbeSpec& spec,
                    const std::byte* buf, std::uint64_t offset, OpTiming* t);

struct OpOptions {
  std::uint64_t file_size = 16u << 20;  // preallocated size (overwrite) and cap (append)
};

// The op for spec in scratch_dir, or Unsupported / InvalidArgument with the reason.
Result<std::unique_ptr<ProbeOp>> MakeProbeOp(platform::Platform& platform,
                                             const std::string& scratch_dir, const ProbeSpec& spec,
                                             const OpOptions& options);

}  // namespace durprobe::probes
