// What the crash device (linux_crash_device.cc, linux_crash_state.cc) and its FUSE server
// (linux_fuse_server.cc) share: the server's configuration, its control commands, and the sparse
// copy both make of an image.
#pragma once

#include <cstdint>
#include <string>

#include "platform/crash_device.h"

namespace durprobe::platform {

// A command on the control pipe, answered with one byte: 'k' done, 'e' failed.
struct CrashCommand {
  enum Op : std::uint32_t { kFault = 1, kCheckpoint = 2, kClearFaults = 3 };
  std::uint32_t op = 0;
  std::int32_t error = 0;
  std::uint32_t count = 0;
  std::uint32_t marker_length = 0;  // 0: the fault matches by range alone
  std::uint32_t skip = 0;           // matching writes let through before the first that fails
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  char marker[kFaultMarkerBytes] = {};
};

struct CrashServerConfig {
  int scratch_fd = -1;
  std::string mountpoint;  // a path the child can reach (the scratch's descriptor path)
  int image_fd = -1;       // the flushed image
  int log_fd = -1;         // appended to
  std::uint64_t image_bytes = 0;
  CacheMode mode = CacheMode::kHonest;
  std::uint64_t cache_bytes = 0;
  int control_fd = -1;  // commands in; end of stream stops the server
  int reply_fd = -1;    // 'r' once mounted (or 'e' and a message), then one byte per command
};

// Runs in the forked child: mounts the FUSE file system, serves until the control pipe closes,
// unmounts; the exit code.
int ServeCrashImage(const CrashServerConfig& config);

// Copies size bytes of src to dst (both open), skipping holes, so a mostly empty image costs
// only what it holds. An errno-style Status on failure.
Status CopySparse(int src_fd, int dst_fd, std::uint64_t size);

}  // namespace durprobe::platform
