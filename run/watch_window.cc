#include "run/watch_window.h"

#include <map>
#include <set>
#include <utility>

#include "platform/block_counters.h"
#include "platform/inspect.h"
#include "platform/interrupt.h"
#include "platform/sync_observer.h"
#include "run/context.h"

namespace durprobe::run {
namespace {

constexpr int kPollMs = 200;

// Every disk sysfs lists, with its counters now; an empty list when sysfs cannot be read (the
// window then counts no flushes, which the document says by having no devices).
std::vector<platform::BlockCount> ReadEveryDisk(platform::Platform& p, const std::string& sys) {
  Result<std::vector<std::string>> names = p.ListDirectory(sys + "/block");
  if (!names.ok()) return {};
  Result<std::vector<platform::BlockCount>> counts = platform::ReadBlockCounts(p, sys, *names);
  return counts.ok() ? *counts : std::vector<platform::BlockCount>{};
}

std::string Parent(const std::string& path) {
  std::size_t slash = path.rfind('/');
  if (slash == std::string::npos || slash == 0) return "/";
  return path.substr(0, slash);
}

// The devices that speak for each synced file, found from its directory (a journal is gone by
// the time this runs).
std::vector<std::pair<std::string, std::vector<std::string>>> FileDevices(
    platform::Platform& p, const std::string& sys, const std::vector<model::WatchSync>& syncs) {
  std::map<std::string, std::vector<std::string>> by_dir;
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  std::set<std::string> seen;
  for (const model::WatchSync& s : syncs) {
    const std::string& path = s.sync.path;
    if (path.empty() || !seen.insert(path).second) continue;
    std::string dir = s.directory ? path : Parent(path);
    auto known = by_dir.find(dir);
    if (known == by_dir.end()) {
      std::vector<std::string> names;
      platform::InspectRoots roots;
      roots.sys = sys;
      Result<platform::MountInfo> mount = platform::InspectPath(p, dir, roots);
      if (mount.ok()) names = platform::DevicesToCount(p, sys, *mount).names;
      known = by_dir.emplace(dir, std::move(names)).first;
    }
    out.emplace_back(path, known->second);
  }
  return out;
}

}  // namespace

bool PathWithin(const std::string& path, const std::string& dir) {
  if (dir.empty()) return true;
  std::string d = dir;
  while (d.size() > 1 && d.back() == '/') d.pop_back();
  if (path == d) return true;
  if (d == "/") return !path.empty() && path[0] == '/';
  return path.size() > d.size() && path.compare(0, d.size(), d) == 0 && path[d.size()] == '/';
}

Result<model::WatchRecording> RecordWatch(platform::Platform& platform, const WatchRequest& request,
                                          const std::function<void()>& on_ready) {
  model::WatchRecording rec;
  rec.context = MakeContext(platform, "watch");
  rec.pids = request.pids;
  rec.comm = request.comm;
  rec.path = request.path;
  platform::SyncObserverFilter filter{request.pids, request.comm};
  Result<std::unique_ptr<platform::SyncObserver>> opened = platform::OpenSyncObserver(filter);
  if (!opened.ok()) return opened.status();
  platform::SyncObserver& observer = **opened;
  rec.unobserved = observer.unobserved();

  std::vector<platform::BlockCount> before = ReadEveryDisk(platform, request.sys_root);
  std::uint64_t start = platform.NowNanos();
  std::uint64_t end = start + static_cast<std::uint64_t>(request.seconds * 1e9);
  if (on_ready) on_ready();
  std::vector<platform::ObservedSync> batch;
  std::map<std::string, bool> directories;
  auto keep = [&](std::vector<platform::ObservedSync>& syncs) {
    for (platform::ObservedSync& s : syncs) {
      if (!PathWithin(s.path, request.path)) continue;
      model::WatchSync w;
      w.at_seconds = s.end_ns > start ? static_cast<double>(s.end_ns - start) / 1e9 : 0.0;
      auto dir = directories.find(s.path);
      if (dir == directories.end()) {
        bool is_dir = !s.path.empty() && platform.KindOf(s.path) == platform::PathKind::kDirectory;
        dir = directories.emplace(s.path, is_dir).first;
      }
      w.directory = dir->second;
      w.sync = std::move(s);
      rec.syncs.push_back(std::move(w));
    }
  };
  for (;;) {
    std::uint64_t now = platform.NowNanos();
    if (platform::InterruptSignal() != 0) break;
    if (request.seconds > 0 && now >= end) break;
    int wait = kPollMs;
    if (request.seconds > 0) {
      wait = static_cast<int>(std::min<std::uint64_t>(kPollMs, (end - now) / 1000000 + 1));
    }
    batch.clear();
    if (Status st = observer.Poll(wait, &batch); !st.ok()) return st;
    keep(batch);
  }
  // What arrived between the last poll and the end of the window is still read.
  batch.clear();
  (void)observer.Poll(0, &batch);
  keep(batch);
  rec.seconds = static_cast<double>(platform.NowNanos() - start) / 1e9;
  rec.lost = observer.lost();
  for (platform::UnsyncedWrites& u : observer.Unsynced()) {
    if (!u.path.empty() && u.path[0] == '/' && !u.path.starts_with("/dev/") &&
        PathWithin(u.path, request.path)) {
      rec.unsynced.push_back(std::move(u));
    }
  }
  std::vector<platform::BlockCount> after = ReadEveryDisk(platform, request.sys_root);
  for (const platform::BlockCount& a : after) {
    for (const platform::BlockCount& b : before) {
      if (a.name != b.name) continue;
      rec.devices.push_back({a.name, a.flushes - b.flushes, a.writes - b.writes});
    }
  }
  rec.file_devices = FileDevices(platform, request.sys_root, rec.syncs);
  return rec;
}

}  // namespace durprobe::run
