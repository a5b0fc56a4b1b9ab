// `durprobe watch`'s recording: the sync observer (platform/sync_observer.h) attached for a
// window, its syncs kept with their paths, and every disk's flush counters read at both ends.
// Records only; what the syncs mean is analysis/watch_*.h's, and nothing here prints.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "model/watch.h"
#include "platform/platform.h"

namespace durprobe::run {

struct WatchRequest {
  std::vector<int> pids;  // empty: every process
  std::string comm;
  std::string path;      // "": every file; else only files under this directory
  double seconds = 0.0;  // 0: until a signal
  std::string sys_root = "/sys";
};

// Observes until the window ends or a signal arrives (then the recording holds what came before
// it). on_ready runs once the observer is attached, so a caller can start the workload then.
// Unsupported in one sentence when BPF cannot be used here; an Error with the verifier's log when
// the kernel refuses the program.
Result<model::WatchRecording> RecordWatch(platform::Platform& platform, const WatchRequest& request,
                                          const std::function<void()>& on_ready);

// Whether path lies in dir (dir itself included), by whole components.
bool PathWithin(const std::string& path, const std::string& dir);

}  // namespace durprobe::run
