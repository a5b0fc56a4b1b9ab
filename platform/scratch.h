// durprobe's scratch directory: created under the target with a unique name and a marker file,
// removed when the ScratchDir goes away. `durprobe clean` removes only directories whose name
// and marker both say they are durprobe's, and whose owning process is gone.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "platform/platform.h"

namespace durprobe::platform {

inline constexpr std::string_view kScratchPrefix = ".durprobe-scratch-";
inline constexpr std::string_view kScratchMarker = "DURPROBE_SCRATCH";
inline constexpr std::string_view kScratchMarkerFirstLine = "durprobe scratch directory";
// The program name a live owner must have (Platform::ProcessName) for clean to spare its scratch.
inline constexpr std::string_view kProcessName = "durprobe";

class ScratchDir {
 public:
  // Creates <target>/.durprobe-scratch-<pid>-<n> with its marker.
  static Result<std::unique_ptr<ScratchDir>> Create(Platform& platform, const std::string& target);
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::string& path() const { return path_; }
  std::string FilePath(std::string_view name) const;
  // Removes the directory and everything in it; idempotent.
  Status Remove();

 private:
  ScratchDir(Platform& platform, std::string path) : platform_(platform), path_(std::move(path)) {}
  Platform& platform_;
  std::string path_;
  bool removed_ = false;
};

// Whether dir (a direct child of a target) is a durprobe scratch directory: its name, a real
// directory (a symlink never is), and a regular marker file that starts with durprobe's line.
bool IsScratchDirectory(Platform& platform, const std::string& dir);

struct ReusedPid {
  std::string dir;
  int pid = 0;
  std::string process;  // the unrelated program now running under the marker's pid
};

struct CleanOutcome {
  std::vector<std::string> removed;
  std::vector<std::string> skipped_live;  // owned by a durprobe process that is still running
  std::vector<ReusedPid> reused_pid;      // removed: the pid now belongs to another program
  std::vector<std::string> refused;       // named like scratch but no valid marker (or a symlink)
};
// Removes scratch directories left in target by killed runs. Never follows a symlink: a link
// named like a scratch directory is refused, and links inside scratch are unlinked, not entered.
Result<CleanOutcome> CleanScratch(Platform& platform, const std::string& target);

// Removes dir and its contents (files and subdirectories); never follows symlinks out of it.
Status RemoveTree(Platform& platform, const std::string& dir);

}  // namespace durprobe::platform
