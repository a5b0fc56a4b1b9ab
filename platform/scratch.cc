#include "platform/scratch.h"

#include <fmt/format.h>

#include <atomic>
#include <cerrno>
#include <charconv>

namespace durprobe::platform {
namespace {

std::string JoinPath(const std::string& dir, std::string_view name) {
  if (!dir.empty() && dir.back() == '/') return dir + std::string(name);
  return dir + "/" + std::string(name);
}

// The pid written in the marker ("pid=<n>" on its second line), or 0.
int MarkerPid(const std::string& marker) {
  std::size_t at = marker.find("\npid=");
  if (at == std::string::npos) return 0;
  int pid = 0;
  const char* begin = marker.data() + at + 5;
  std::from_chars(begin, marker.data() + marker.size(), pid);
  return pid;
}

}  // namespace

Result<std::unique_ptr<ScratchDir>> ScratchDir::Create(Platform& platform,
                                                       const std::string& target) {
  static std::atomic<int> counter{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string path =
        JoinPath(target, fmt::format("{}{}-{}", kScratchPrefix, platform.ProcessId(), counter++));
    Status made = platform.MakeDirectory(path);
    if (!made.ok() && made.error_number() == EEXIST) continue;
    if (!made.ok()) return made;
    std::unique_ptr<ScratchDir> dir(new ScratchDir(platform, path));
    Status marked = platform.WriteTextFile(
        dir->FilePath(kScratchMarker),
        fmt::format("{}\npid={}\n", kScratchMarkerFirstLine, platform.ProcessId()));
    if (!marked.ok()) return marked;  // dir's destructor removes the half-made directory
    return dir;
  }
  return Status::Error(fmt::format("could not find a free scratch name under {}", target));
}

ScratchDir::~ScratchDir() { Remove(); }

std::string ScratchDir::FilePath(std::string_view name) const { return JoinPath(path_, name); }

Status ScratchDir::Remove() {
  if (removed_) return Status::Ok();
  removed_ = true;
  return RemoveTree(platform_, path_);
}

namespace {

bool HasScratchName(const std::string& dir) {
  std::size_t slash = dir.find_last_of('/');
  std::string_view name =
      slash == std::string::npos ? dir : std::string_view(dir).substr(slash + 1);
  return name.substr(0, kScratchPrefix.size()) == kScratchPrefix;
}

// The marker's text when dir is a real directory (not a symlink to one) holding a regular marker
// file that starts with durprobe's first line; empty otherwise.
std::string ValidMarker(Platform& platform, const std::string& dir) {
  if (!HasScratchName(dir) || platform.KindOfNoFollow(dir) != PathKind::kDirectory) return {};
  std::string marker_path = JoinPath(dir, kScratchMarker);
  if (platform.KindOfNoFollow(marker_path) != PathKind::kFile) return {};
  Result<std::string> marker = platform.ReadTextFile(marker_path, 4096);
  if (!marker.ok() || marker->rfind(kScratchMarkerFirstLine, 0) != 0) return {};
  return *marker;
}

}  // namespace

bool IsScratchDirectory(Platform& platform, const std::string& dir) {
  return !ValidMarker(platform, dir).empty();
}

Result<CleanOutcome> CleanScratch(Platform& platform, const std::string& target) {
  Result<std::vector<std::string>> names = platform.ListDirectory(target);
  if (!names.ok()) return names.status();
  CleanOutcome outcome;
  for (const std::string& name : *names) {
    std::string dir = JoinPath(target, name);
    if (!HasScratchName(dir)) continue;
    std::string marker = ValidMarker(platform, dir);
    int pid = marker.empty() ? 0 : MarkerPid(marker);
    if (pid <= 0) {
      outcome.refused.push_back(dir);
      continue;
    }
    if (pid != platform.ProcessId() && platform.ProcessAlive(pid)) {
      // A live pid is durprobe's run only if that process is durprobe; pids are reused.
      Result<std::string> name_of = platform.ProcessName(pid);
      if (!name_of.ok() || *name_of == kProcessName) {
        outcome.skipped_live.push_back(dir);
        continue;
      }
      outcome.reused_pid.push_back({dir, pid, *name_of});
    }
    Status removed = RemoveTree(platform, dir);
    if (!removed.ok()) return removed;
    outcome.removed.push_back(dir);
  }
  return outcome;
}

Status RemoveTree(Platform& platform, const std::string& dir) {
  Result<std::vector<std::string>> names = platform.ListDirectory(dir);
  if (!names.ok()) {
    return names.status().error_number() == ENOENT ? Status::Ok() : names.status();
  }
  for (const std::string& name : *names) {
    std::string child = JoinPath(dir, name);
    // Unlink first: it removes files and symlinks (never their targets); EISDIR/EPERM mean a
    // real directory, which is emptied recursively.
    Status unlinked = platform.Unlink(child);
    if (unlinked.ok()) continue;
    if (platform.KindOfNoFollow(child) == PathKind::kDirectory) {
      Status sub = RemoveTree(platform, child);
      if (!sub.ok()) return sub;
    } else if (unlinked.error_number() != ENOENT) {
      return unlinked;
    }
  }
  return platform.RemoveDirectory(dir);
}

}  // namespace durprobe::platform
