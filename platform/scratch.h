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

// Whether dir (a direct child of a target) is a durprobe scratch directory: name and marker.
bool IsScratchDirectory(Platform& platform, const std::string& dir);

struct CleanOutcome {
  std::vector<std::string> removed;
  std::vector<std::string> skipped_live;  // owned by a process that is still running
};
// Removes scratch directories left in target by killed runs.
Result<CleanOutcome> CleanScratch(Platform& platform, const std::string& target);

// Removes dir and its contents (files and subdirectories); never follows symlinks out of it.
Status RemoveTree(Platform& platform, const std::string& dir);

}  // namespace durprobe::platform
