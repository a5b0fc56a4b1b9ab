// durprobe's scratch directory: created under the target with a unique name and a marker file,
// removed when the ScratchDir goes away. `durprobe clean` removes only directories whose name
// and marker both say they are durprobe's, and whose owning process is gone.
// Removal goes by descriptor, never by path: a ScratchDir holds its directory open from the
// moment it makes it, so a target renamed during the run (or a path swapped under it) cannot
// turn removal onto anything else; nothing is ever removed on a filesystem mounted inside.
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
  // Removes the directory and everything in it, wherever a rename has moved its parent;
  // idempotent. Refuses, removing nothing, when a filesystem is mounted inside it; when the
  // directory itself was renamed or replaced, empties it (it is still ours, by descriptor) and
  // says its empty directory stays.
  Status Remove();

 private:
  ScratchDir(Platform& platform, std::string path, std::string name)
      : platform_(platform), path_(std::move(path)), name_(std::move(name)) {}
  Platform& platform_;
  std::string path_;
  std::string name_;  // its name in the target
  FileHandle self_;   // the directory, open since it was made
  EntryStat identity_;
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
  // Kept whole: a filesystem is mounted inside (mount_inside names it). Nothing of it removed.
  struct Mounted {
    std::string dir;
    std::string mount_inside;
  };
  std::vector<Mounted> mounted;
};
// Removes scratch directories left in target by killed runs. Never follows a symlink: a link
// named like a scratch directory is refused, and links inside scratch are unlinked, not entered.
Result<CleanOutcome> CleanScratch(Platform& platform, const std::string& target);

// Removes dir and its contents (files and subdirectories); never follows symlinks out of it and
// never enters a filesystem mounted inside it (it then removes nothing and says where).
Status RemoveTree(Platform& platform, const std::string& dir);

// The first mount found inside the open directory dir_fd (shown is its name for the message),
// as "shown/sub/mnt", or empty when there is none. A mount is an entry on another device than
// root_dev, or one the OS marks as a mount's root (a bind mount keeps the device).
Result<std::string> MountInside(Platform& platform, int dir_fd, std::uint64_t root_dev,
                                const std::string& shown);

}  // namespace durprobe::platform
