// Flush accounting: what the block devices under a path completed while a probe, a SQLite
// configuration or a concurrency cell ran, against a control, so a sync can be seen to reach a
// device (or not) instead of guessed from its time. The timed part is cut into slices (A); after
// each, the same writes without the sync (B, the control) and a short idle (C): C gives the
// background flush rate (journal commits, a neighbour's fsyncs), B whether plain writes flush by
// themselves (-o sync), A minus the background what each operation's sync caused.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "platform/block_counters.h"
#include "platform/platform.h"

namespace durprobe::probes {

// Where to count: set by the executor from the path's identification
// (platform::DevicesToCount); neither devices nor unavailable set means "not counted".
struct FlushCounting {
  std::vector<std::string> devices;
  std::string sys_root = "/sys";
  std::string how;
  std::string unavailable;
  bool requested() const { return !devices.empty() || !unavailable.empty(); }
  bool operator==(const FlushCounting&) const = default;
};

struct DeviceFlushes {
  std::string name;
  std::uint64_t flushes = 0;          // completed during the timed slices
  std::uint64_t writes = 0;           // write requests completed during them
  std::uint64_t control_flushes = 0;  // during the control writes
  std::uint64_t idle_flushes = 0;     // during the idle slices
  bool operator==(const DeviceFlushes&) const = default;
};

// A slice's control gets at most this share of the slice's time for its writes, and the idle
// slice as much again: the counting costs a probe about 1/16 of its operations, none of its
// operations' latency.
inline constexpr std::uint64_t kControlShare = 32;

// Flushes per operation from which the operations reach a device.
inline constexpr double kFlushReachesPerOp = 0.5;

// A timed slice of at least this many operations in which no device counted a single flush is
// silent: syncs that reach a device each wait for a flush, so they cannot all have reached one.
// A neighbour's flushes come and go; a slice they leave quiet shows what the syncs did alone.
inline constexpr std::uint64_t kSilentSliceOps = 20;

struct FlushTally {
  bool counted = false;      // counting was asked for: the report carries device_flushes
  std::string unavailable;   // set: nothing could be counted, and why
  std::string how;           // which devices, and why those
  std::string control_note;  // set when the operation has no control or its control failed
  std::vector<DeviceFlushes> devices;
  std::uint64_t ops = 0;  // operations (syncs, commits) in the timed slices
  std::uint64_t ns = 0;   // the timed slices' time
  std::uint64_t control_ops = 0;
  std::uint64_t control_ns = 0;
  std::uint64_t idle_ns = 0;
  std::uint64_t silent_slices = 0;  // timed slices with kSilentSliceOps or more and no flush
  std::uint64_t silent_ops = 0;     // the operations in them

  bool ok() const { return counted && unavailable.empty() && !devices.empty(); }
  // Flushes a second with nothing of ours running (the idle slices); 0 without idle time.
  double BackgroundPerSec(const DeviceFlushes& d) const;
  // Flushes a second while the same writes ran without the sync (the control), or the idle
  // slices' rate where there was no control: what the slices would have flushed anyway. Writes
  // can raise it (a neighbour's fsyncs commit our dirty pages in their journal commits), which
  // the idle slices alone would miss.
  double WithoutSyncPerSec(const DeviceFlushes& d) const;
  // What the sync added on d: its flushes per operation less WithoutSyncPerSec over the slices'
  // time; never below 0.
  double PerOp(const DeviceFlushes& d) const;
  // d's flushes per control write less the background over the control's time, never below 0;
  // 0 without control writes.
  double ControlPerWrite(const DeviceFlushes& d) const;
  // The most flushes per operation the sync can have added on d (95%, one-sided): its flushes
  // less the fewest WithoutSyncPerSec's count allows (a Poisson lower bound), so a rate read
  // high by chance in the short control never makes the syncs look as if they flushed nothing.
  double PerOpUpperBound(const DeviceFlushes& d) const;
  double MostPerOpUpperBound() const;  // over the devices
  // The flushes per operation the slices would have counted without the sync
  // (WithoutSyncPerSec over their time): the background a sync's own flushes must stand out of.
  double MostWithoutSyncPerOp() const;  // over the devices
  // The device that holds the data: the first device, in the order counted (the filesystem's own
  // device, then down the loop chain; sorted names for every local disk), whose operations
  // flushed at least kFlushReachesPerOp each; else the one where they flushed the most; nullptr
  // when there are no devices. The devices below the data's (the disk under a loop device's
  // backing file) may count more: the loop device syncs its whole backing file.
  const DeviceFlushes* Leading() const;
  double PerOp() const;            // the leading device's; 0 when none
  double ControlPerWrite() const;  // the most over the devices
  bool operator==(const FlushTally&) const = default;
};

// Adds more's counts into into (rounds or repeats of one measurement); the first reason kept.
void Merge(FlushTally& into, const FlushTally& more);

// Reads the counters around the parts of a measurement and adds the differences to a tally.
class FlushCounter {
 public:
  FlushCounter(platform::Platform& platform, const FlushCounting& counting);
  bool active() const { return active_; }
  // Takes the counters as they are now, as the start of the next part.
  void Mark();
  // Adds what the devices completed since the last mark to the timed slices (ops operations in
  // ns), the control (ops plain writes) or the idle slices, and marks again.
  void EndTimed(std::uint64_t ops, std::uint64_t ns);
  void EndControl(std::uint64_t ops, std::uint64_t ns);
  void EndIdle(std::uint64_t ns);
  // An idle slice of ns: sleeps, then EndIdle.
  void Idle(std::uint64_t ns);
  void NoteControl(std::string note);
  const FlushTally& tally() const { return tally_; }

 private:
  enum class Part { kTimed, kControl, kIdle };
  // Adds the counts since the mark to part and marks again; the flushes over every device.
  std::uint64_t End(Part part);

  platform::Platform& platform_;
  FlushCounting counting_;
  FlushTally tally_;
  std::vector<platform::BlockCount> mark_;
  bool active_ = false;
};

}  // namespace durprobe::probes
