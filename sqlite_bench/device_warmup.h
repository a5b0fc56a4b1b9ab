// The untimed warm-up a commit session does once, before its first configuration, so that
// configuration's rate does not depend on what ran before it in the same process.
//
// Why: measured with strace -T on this project's virtual disk (docs/accuracy.md), the first
// timed SQLite configuration's syncs were slower or faster depending on whether the probes ran
// first: the probes' deleted files (and, on a `discard` mount, their discards) were made durable
// by SQLite's first syncs, and a device that idled while the process started flushed at another
// speed than one that had just been syncing. Later configurations follow other configurations,
// so only the first one was exposed.
#pragma once

#include <cstdint>
#include <string>

#include "platform/platform.h"

namespace durprobe::sqlite_bench {

inline constexpr std::uint64_t kDeviceWarmupNs = 1'000'000'000;
inline constexpr std::uint64_t kDeviceWarmupMinSyncs = 5;
inline constexpr char kDeviceWarmupFile[] = "device-warmup.dat";

struct DeviceWarmup {
  std::uint64_t syncs = 0;  // fdatasync calls on the warm-up file
  std::uint64_t ns = 0;     // wall time of the warm-up
};

// In dir: creates a small file and overwrites its first 4 KiB block with fdatasync after each
// write for ns (at least kDeviceWarmupMinSyncs times), then removes it. The first sync extends
// the file, so a journaling filesystem commits its journal there, and with it what earlier
// phases deleted (the probes' files, and their discards on a `discard` mount). Only the file's
// own descriptor is synced, so a trace can tell these syncs from SQLite's by the file's name.
// Stops at the first failure (a failed sync is returned as is, never retried) or on an
// interruption; the file is removed on every path.
Result<DeviceWarmup> WarmUpDevice(platform::Platform& platform, const std::string& dir,
                                  std::uint64_t ns);

}  // namespace durprobe::sqlite_bench
