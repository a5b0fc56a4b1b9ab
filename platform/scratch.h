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
  // Creates <target>/.durprobe-scratch-<pid>-<n> (0700) with its marker, and holds both open: the
  // directory for every later call, the marker with a lock (Platform::TryLock) that tells
  // `durprobe clean` the run is live. Refuses a directory that is not this user's alone (someone
  // swapped another in between mkdir and open).
  static Result<std::unique_ptr<ScratchDir>> Create(Platform& platform, const std::string& target);
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  // The path measurement works under: the held directory itself (Platform::DescriptorPath), so
  // a rename of the scratch, or a symlink put in its place, cannot send a file anywhere else.
  // Where the OS has no such path (macOS) it is the real path.
  const std::string& work_path() const { return work_; }
  // The real path, for messages (Status messages map work_path() back to it on their own).
  const std::string& shown_path() const { return path_; }
  // The directory itself, held open (the *at calls' dir_fd), for as long as the ScratchDir lives.
  int fd() const { return self_.get(); }
  std::string FilePath(std::string_view name) const;
  // Ok while the scratch's name in its target is still this directory; otherwise an Error naming
  // what happened (moved away, replaced by a symlink or another directory, another device).
  // Ok once removed.
  Status CheckInPlace();
  // Removes the directory and everything in it, wherever a rename has moved its parent;
  // idempotent. Refuses, removing nothing, when a filesystem is mounted inside it; when the
  // directory itself was renamed or replaced, empties it (it is still ours, by descriptor) and
  // says its empty directory stays.
  Status Remove();

 private:
  Status Finish();      // Create's work once the directory is held: work_ and the marker
  void Abandon();       // undoes a Create that failed, needing no new descriptor
  Status RemoveHeld();  // Remove's work, while self_ is open
  ScratchDir(Platform& platform, std::string path, std::string name)
      : platform_(platform), path_(std::move(path)), name_(std::move(name)) {}
  Platform& platform_;
  std::string path_;
  std::string name_;   // its name in the target
  std::string work_;   // what work_path() returns
  FileHandle self_;    // the directory, open since it was made
  FileHandle marker_;  // the marker, locked while the scratch lives
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
  // Its run still holds the marker's lock, or a durprobe process still has its pid.
  std::vector<std::string> skipped_live;
  std::vector<ReusedPid> reused_pid;  // removed: the pid now belongs to another program
  std::vector<std::string> refused;   // named like scratch but no valid marker (or a symlink)
  struct Kept {
    std::string dir;
    std::string why;
  };
  // Named like scratch but another user's, or writable by others: never entered (why says).
  std::vector<Kept> not_owned;
  // durprobe's, but not removed, or not wholly (why: the first thing that failed). The others
  // were cleaned all the same.
  std::vector<Kept> failed;
  // Kept whole: a filesystem is mounted inside (mount_inside names it). Nothing of it removed.
  struct Mounted {
    std::string dir;
    std::string mount_inside;
  };
  std::vector<Mounted> mounted;
  // A killed run's crash device (platform/crash_device.h), undone before its scratch is removed:
  // the mounts unmounted and the loop devices detached, each as "dir: what".
  std::vector<std::string> crash_devices;
};
// Removes scratch directories left in target by killed runs. Never follows a symlink: a link
// named like a scratch directory is refused, and links inside scratch are unlinked, not entered.
// Only the running user's own scratch (0700, as durprobe makes it) is entered. The walk inside
// holds one descriptor per level and goes no deeper than kMaxScratchDepth (platform/
// scratch_tree.h). An error only when target cannot be opened or listed; one scratch that cannot
// be removed is in failed, and the rest are cleaned.
Result<CleanOutcome> CleanScratch(Platform& platform, const std::string& target);

// Removes dir and its contents (files and subdirectories); never follows symlinks out of it and
// never enters a filesystem mounted inside it (it then removes nothing and says where).
Status RemoveTree(Platform& platform, const std::string& dir);

}  // namespace durprobe::platform
