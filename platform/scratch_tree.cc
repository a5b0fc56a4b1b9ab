#include "platform/scratch_tree.h"

#include <fmt/format.h>

#include <cerrno>

namespace durprobe::platform {
namespace {

std::string ChildPath(const std::string& dir, std::string_view name) {
  if (!dir.empty() && dir.back() == '/') return dir + std::string(name);
  return dir + "/" + std::string(name);
}

struct Entry {
  std::string name;
  std::string shown;  // its path for messages
  EntryStat stat;
};

// The entries of the open directory dir_fd as they are now; one gone since it was listed is
// left out.
Result<std::vector<Entry>> EntriesAt(Platform& platform, int dir_fd, const std::string& shown) {
  Result<std::vector<std::string>> names = platform.ListDirectoryAt(dir_fd);
  if (!names.ok()) return names.status();
  std::vector<Entry> entries;
  for (const std::string& name : *names) {
    Result<EntryStat> st = platform.StatAt(dir_fd, name);
    if (!st.ok() && st.status().error_number() == ENOENT) continue;
    if (!st.ok()) return st.status();
    entries.push_back({name, ChildPath(shown, name), *st});
  }
  return entries;
}

// One directory of a walk: held open (the top one is the caller's), its entries as listed, the
// next one to visit.
struct Level {
  FileHandle fd;  // empty for the top: the caller's descriptor
  std::vector<Entry> entries;
  std::size_t next = 0;
  std::string name;   // in the level above
  std::string shown;  // for messages
};

int FdOf(const Level& level, int top_fd) { return level.fd.valid() ? level.fd.get() : top_fd; }

// Opens the directory e under parent_fd, never through a link, as the level below; an Error
// when it is too deep, cannot be opened or read, or is not the directory listed (replaced since).
Result<Level> Descend(Platform& platform, int parent_fd, const Entry& e, std::size_t depth,
                      std::uint64_t root_dev) {
  if (depth >= kMaxScratchDepth) {
    return Status::Error(
        fmt::format("{}: deeper than {} levels, which no durprobe scratch is: "
                    "not entered",
                    e.shown, kMaxScratchDepth));
  }
  Result<FileHandle> sub = platform.OpenDirectoryAt(parent_fd, e.name, /*follow_last=*/false);
  if (!sub.ok()) return Status::FromErrno(sub.status().error_number(), "open " + e.shown);
  Result<EntryStat> held = platform.StatAt(sub->get(), "");
  if (!held.ok()) return held.status();
  if (held->dev != e.stat.dev || held->ino != e.stat.ino || held->dev != root_dev) {
    return Status::Error(fmt::format("{} was replaced while it was walked: not entered", e.shown));
  }
  Result<std::vector<Entry>> entries = EntriesAt(platform, sub->get(), e.shown);
  if (!entries.ok()) return entries.status();
  return Level{std::move(*sub), std::move(*entries), 0, e.name, e.shown};
}

// The first failure of a walk that goes on past it, and how many came after.
class Failures {
 public:
  void Add(const Status& s) {
    if (first_.ok()) {
      first_ = s;
    } else {
      ++more_;
    }
  }
  Status Result() const {
    if (first_.ok() || more_ == 0) return first_;
    return Status::Error(
        fmt::format("{} (and {} more entries not removed)", first_.message(), more_));
  }

 private:
  Status first_ = Status::Ok();
  std::size_t more_ = 0;
};

}  // namespace

bool OnAnotherMount(const EntryStat& st, std::uint64_t root_dev) {
  // An overlay reports a file's st_dev from the layer that holds it, so only a directory's
  // device says where another filesystem starts; a bind-mounted file still shows as a mount root.
  if (st.mount_root) return true;
  return st.kind == PathKind::kDirectory && st.dev != root_dev;
}

Result<std::string> MountInside(Platform& platform, int dir_fd, std::uint64_t root_dev,
                                const std::string& shown) {
  Result<std::vector<Entry>> top = EntriesAt(platform, dir_fd, shown);
  if (!top.ok()) return top.status();
  std::vector<Level> stack;
  stack.push_back({FileHandle(), std::move(*top), 0, "", shown});
  while (!stack.empty()) {
    Level& level = stack.back();
    if (level.next == level.entries.size()) {
      stack.pop_back();
      continue;
    }
    const Entry& e = level.entries[level.next++];
    if (OnAnotherMount(e.stat, root_dev)) return e.shown;
    if (e.stat.kind != PathKind::kDirectory) continue;
    Result<Level> below = Descend(platform, FdOf(level, dir_fd), e, stack.size(), root_dev);
    if (!below.ok()) return below.status();
    stack.push_back(std::move(*below));  // level is not used past this point
  }
  return std::string();
}

Status EmptyDirectoryAt(Platform& platform, int dir_fd, std::uint64_t root_dev,
                        const std::string& shown, std::string_view keep) {
  Result<std::vector<Entry>> top = EntriesAt(platform, dir_fd, shown);
  if (!top.ok()) return top.status();
  std::vector<Level> stack;
  stack.push_back({FileHandle(), std::move(*top), 0, "", shown});
  Failures failures;
  while (!stack.empty()) {
    Level& level = stack.back();
    if (level.next == level.entries.size()) {
      if (stack.size() == 1) break;
      // Emptied (or as far as it could be): the directory itself goes, from the level above.
      const std::string name = level.name;
      const std::string done = level.shown;
      stack.pop_back();  // closes it
      Status gone = platform.UnlinkAt(FdOf(stack.back(), dir_fd), name, /*directory=*/true);
      if (!gone.ok() && gone.error_number() != ENOENT) {
        failures.Add(Status::FromErrno(gone.error_number(), "remove " + done));
      }
      continue;
    }
    const Entry e = level.entries[level.next++];
    const int here = FdOf(level, dir_fd);
    if (stack.size() == 1 && !keep.empty() && e.name == keep) continue;
    if (OnAnotherMount(e.stat, root_dev)) {
      failures.Add(
          Status::Error(fmt::format("a filesystem is mounted at {}: not entered", e.shown)));
      continue;
    }
    if (e.stat.kind == PathKind::kDirectory) {
      Result<Level> below = Descend(platform, here, e, stack.size(), root_dev);
      if (below.ok()) {
        stack.push_back(std::move(*below));
      } else {
        failures.Add(below.status());
      }
      continue;
    }
    Status gone = platform.UnlinkAt(here, e.name, /*directory=*/false);
    if (!gone.ok() && gone.error_number() != ENOENT) {
      failures.Add(Status::FromErrno(gone.error_number(), "remove " + e.shown));
    }
  }
  return failures.Result();
}

}  // namespace durprobe::platform
