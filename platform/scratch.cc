#include "platform/scratch.h"

#include <fmt/format.h>

#include <atomic>
#include <cerrno>
#include <charconv>

#include "platform/crash_device.h"
#include "platform/scratch_tree.h"
#include "platform/shown_paths.h"

namespace durprobe::platform {
namespace {

std::string JoinPath(const std::string& dir, std::string_view name) {
  if (!dir.empty() && dir.back() == '/') return dir + std::string(name);
  return dir + "/" + std::string(name);
}

std::string_view BaseName(const std::string& path) {
  std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string_view(path)
                                    : std::string_view(path).substr(slash + 1);
}

bool HasScratchName(std::string_view name) {
  return name.substr(0, kScratchPrefix.size()) == kScratchPrefix;
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

// The marker's text when the open directory dir_fd holds a regular marker file (not a link,
// not a FIFO) that starts with durprobe's first line; empty otherwise.
std::string MarkerAt(Platform& platform, int dir_fd) {
  Result<EntryStat> st = platform.StatAt(dir_fd, std::string(kScratchMarker));
  if (!st.ok() || st->kind != PathKind::kFile) return {};
  Result<FileHandle> file = platform.OpenFileAt(dir_fd, std::string(kScratchMarker));
  if (!file.ok()) return {};
  std::string text(4096, '\0');
  Result<std::size_t> n = platform.PRead(file->get(), text.data(), text.size(), 0);
  if (!n.ok()) return {};
  text.resize(*n);
  if (text.rfind(kScratchMarkerFirstLine, 0) != 0) return {};
  return text;
}

bool SameEntry(const EntryStat& a, const EntryStat& b) { return a.dev == b.dev && a.ino == b.ino; }

// Refuses a tree with a mount inside (nothing removed), then empties it.
Status EmptyUnlessMounted(Platform& platform, int dir_fd, std::uint64_t root_dev,
                          const std::string& shown, std::string_view keep = {}) {
  Result<std::string> mount = MountInside(platform, dir_fd, root_dev, shown);
  if (!mount.ok()) return mount.status();
  if (!mount->empty()) {
    return Status::Error(fmt::format(
        "kept {}: a filesystem is mounted inside it at {}; nothing of it was removed (unmount "
        "it, then run `durprobe clean`)",
        shown, *mount));
  }
  return EmptyDirectoryAt(platform, dir_fd, root_dev, shown, keep);
}

// Unlinks the marker last, after its lock is released: a FUSE filesystem keeps a file that is
// still open when it is unlinked as a hidden file (bindfs: .fuse_hidden*), and the directory
// could then not be removed.
Status UnlinkMarker(Platform& platform, int dir_fd, FileHandle& lock, const std::string& shown) {
  (void)lock.Close();
  Status gone = platform.UnlinkAt(dir_fd, std::string(kScratchMarker), false);
  if (!gone.ok() && gone.error_number() != ENOENT) {
    return Status::FromErrno(gone.error_number(), "remove " + JoinPath(shown, kScratchMarker));
  }
  return Status::Ok();
}

// What became of the scratch at path since durprobe held it as identity (nullptr: since it was
// made, before durprobe could hold it): "" when it is still there and the same.
std::string WhatBecameOf(Platform& platform, const std::string& path, const EntryStat* identity) {
  Result<EntryStat> there = platform.StatAt(kNoDirectory, path);
  if (!there.ok()) {
    return there.status().error_number() == ENOENT
               ? "was moved away (nothing has its name now)"
               : "can no longer be found (" + there.status().message() + ")";
  }
  if (there->kind == PathKind::kSymlink) return "was replaced by a symlink";
  if (identity == nullptr) {
    return there->kind == PathKind::kDirectory ? "" : "was replaced by something else";
  }
  if (there->dev != identity->dev) return "was replaced by a directory on another device";
  if (there->ino != identity->ino) {
    return there->kind == PathKind::kDirectory ? "was replaced by another directory"
                                               : "was replaced by something else";
  }
  return "";
}

Status Replaced(const std::string& path, const std::string& what, std::string_view when) {
  return Status::Error(fmt::format(
      "scratch {} {} {}: stopped (durprobe works only inside the directory it holds: nothing "
      "outside it was touched)",
      path, what, when));
}

}  // namespace

Result<std::unique_ptr<ScratchDir>> ScratchDir::Create(Platform& platform,
                                                       const std::string& target) {
  static std::atomic<int> counter{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string name = fmt::format("{}{}-{}", kScratchPrefix, platform.ProcessId(), counter++);
    std::string path = JoinPath(target, name);
    Status made = platform.MakeDirectory(path);
    if (!made.ok() && made.error_number() == EEXIST) continue;
    if (!made.ok()) return made;
    std::unique_ptr<ScratchDir> dir(new ScratchDir(platform, path, name));
    Result<FileHandle> self = platform.OpenDirectoryAt(kNoDirectory, path, false);
    Result<EntryStat> identity = self.ok() ? platform.StatAt(self->get(), "") : self.status();
    if (!identity.ok()) {
      dir->removed_ = true;
      // Moved away or swapped for a link between mkdir and open: say so, and touch nothing.
      std::string what = WhatBecameOf(platform, path, nullptr);
      if (!what.empty()) return Replaced(path, what, "as it was made");
      // Only just made, and still empty (rmdir refuses anything else).
      (void)platform.RemoveDirectory(path);
      return identity.status();
    }
    if (identity->uid != platform.EffectiveUserId() || (identity->mode & 077) != 0) {
      // Another directory took the name between mkdir and open: never work, or remove, in it.
      dir->removed_ = true;
      return Status::Error(fmt::format(
          "{} was replaced as it was made (owner uid {}, mode {:o}): another user writes in {}",
          path, identity->uid, identity->mode, target));
    }
    dir->self_ = std::move(*self);
    dir->identity_ = *identity;
    Status made_all = dir->Finish();
    if (!made_all.ok()) {
      dir->Abandon();
      return made_all;
    }
    return dir;
  }
  return Status::Error(fmt::format("could not find a free scratch name under {}", target));
}

Status ScratchDir::Finish() {
  Result<std::string> work = platform_.DescriptorPath(self_.get());
  if (!work.ok() && !work.status().unsupported()) return work.status();
  work_ = work.ok() ? *work : path_;
  if (work.ok()) ShowDescriptorPathAs(work_, path_);
  Result<FileHandle> marker =
      platform_.Open(FilePath(kScratchMarker), {.create = true, .exclusive = true});
  if (!marker.ok()) return marker.status();
  std::string text = fmt::format("{}\npid={}\n", kScratchMarkerFirstLine, platform_.ProcessId());
  if (Status s = platform_.PWrite(marker->get(), text.data(), text.size(), 0); !s.ok()) return s;
  if (Status s = platform_.TryLock(marker->get()); !s.ok()) return s;
  marker_ = std::move(*marker);
  return Status::Ok();
}

void ScratchDir::Abandon() {
  // Without a descriptor to spare (`ulimit -n`) Remove could not list the directory: it holds at
  // most the marker, so unlink that, let go of the directory and rmdir its name if it is still
  // this directory (rmdir removes nothing but an empty one).
  removed_ = true;
  (void)platform_.UnlinkAt(self_.get(), std::string(kScratchMarker), false);
  (void)marker_.Close();
  (void)self_.Close();
  if (work_ != path_ && !work_.empty()) ForgetDescriptorPath(work_);
  Result<EntryStat> there = platform_.StatAt(kNoDirectory, path_);
  if (there.ok() && SameEntry(*there, identity_)) (void)platform_.RemoveDirectory(path_);
}

// A destructor has no one to tell; a caller that must know calls Remove and reads its Status.
ScratchDir::~ScratchDir() { (void)Remove(); }

std::string ScratchDir::FilePath(std::string_view name) const { return JoinPath(work_, name); }

Status ScratchDir::CheckInPlace() {
  if (removed_) return Status::Ok();
  std::string what = WhatBecameOf(platform_, path_, &identity_);
  if (what.empty()) return Status::Ok();
  return Replaced(path_, what, "during the run");
}

Status ScratchDir::Remove() {
  if (removed_) return Status::Ok();
  removed_ = true;
  Status removed = RemoveHeld();
  if (!removed.ok() && (removed.error_number() == EMFILE || removed.error_number() == ENFILE)) {
    // No descriptor to spare for listing the directory (`ulimit -n`, issue 53 point 9: a check
    // at `ulimit -n 8` left its scratch): the marker's is given up, its lock with it (a clean
    // that comes now removes the same files), and the removal tried again.
    (void)marker_.Close();
    removed = RemoveHeld();
  }
  if (work_ != path_) ForgetDescriptorPath(work_);
  (void)marker_.Close();  // the lock goes with it: clean may take what is left
  return removed;
}

Status ScratchDir::RemoveHeld() {
  if (Status s = EmptyUnlessMounted(platform_, self_.get(), identity_.dev, path_, kScratchMarker);
      !s.ok()) {
    return s;
  }
  if (Status s = UnlinkMarker(platform_, self_.get(), marker_, path_); !s.ok()) return s;
  // ".." is wherever the directory is now, even after its parent was renamed; the name there
  // must still be this directory before it is removed.
  Result<FileHandle> parent = platform_.OpenDirectoryAt(self_.get(), "..", true);
  Result<EntryStat> there = parent.ok() ? platform_.StatAt(parent->get(), name_) : parent.status();
  if (!there.ok() || !SameEntry(*there, identity_)) {
    return Status::Error(
        fmt::format("scratch {} was renamed or replaced during the run: emptied it, but its empty "
                    "directory stays where it went",
                    path_));
  }
  (void)self_.Close();
  return platform_.UnlinkAt(parent->get(), name_, /*directory=*/true);
}

bool IsScratchDirectory(Platform& platform, const std::string& dir) {
  if (!HasScratchName(BaseName(dir))) return false;
  Result<FileHandle> fd = platform.OpenDirectoryAt(kNoDirectory, dir, /*follow_last=*/false);
  return fd.ok() && !MarkerAt(platform, fd->get()).empty();
}

namespace {

// Why the scratch-named directory (whose stat is self) is not this user's to remove, or "":
// durprobe makes its scratch 0700, owned by the user it runs as, so nothing else ever is. Never
// entered otherwise: another user could reshape it while clean walks it.
std::string NotOwned(const EntryStat& self, std::uint32_t me) {
  if (self.uid != me) {
    return fmt::format(
        "owned by uid {}, not by this user (uid {}): its owner's durprobe clean "
        "removes it",
        self.uid, me);
  }
  if ((self.mode & 022) != 0) {
    return fmt::format("writable by others (mode {:04o}), which no durprobe scratch is", self.mode);
  }
  return "";
}

// Cleans the scratch-named entry name of the open target top (shown as dir), recording what
// became of it in outcome. An error is what stopped this one scratch's removal; the caller goes
// on with the next.
Status CleanOne(Platform& platform, int top, const std::string& name, const std::string& dir,
                CleanOutcome& outcome) {
  // Opened without following a link: a symlink named like scratch is refused, and what is
  // checked below is what is removed, whatever happens to the name meanwhile.
  Result<FileHandle> fd = platform.OpenDirectoryAt(top, name, /*follow_last=*/false);
  Result<EntryStat> self = fd.ok() ? platform.StatAt(fd->get(), "") : fd.status();
  if (!self.ok()) {
    outcome.refused.push_back(dir);
    return Status::Ok();
  }
  if (std::string why = NotOwned(*self, platform.EffectiveUserId()); !why.empty()) {
    outcome.not_owned.push_back({dir, why});
    return Status::Ok();
  }
  std::string marker = MarkerAt(platform, fd->get());
  int pid = marker.empty() ? 0 : MarkerPid(marker);
  if (pid <= 0) {
    outcome.refused.push_back(dir);
    return Status::Ok();
  }
  // A run holds its marker's lock as long as its scratch lives, whatever its pid reads as from
  // here (another pid namespace, a copy of the binary under another name). Held by clean from
  // now on, so a run cannot take it back while its scratch is removed.
  Result<FileHandle> marker_file = platform.OpenFileAt(fd->get(), std::string(kScratchMarker));
  Status lock = marker_file.ok() ? platform.TryLock(marker_file->get()) : marker_file.status();
  if (!lock.ok() && (lock.error_number() == EWOULDBLOCK || lock.error_number() == EAGAIN)) {
    outcome.skipped_live.push_back(dir);
    return Status::Ok();
  }
  if (pid != platform.ProcessId() && platform.ProcessAlive(pid)) {
    // A live pid is durprobe's run only if that process is durprobe; pids are reused.
    Result<std::string> name_of = platform.ProcessName(pid);
    if (!name_of.ok() || *name_of == kProcessName) {
      outcome.skipped_live.push_back(dir);
      return Status::Ok();
    }
    outcome.reused_pid.push_back({dir, pid, *name_of});
  }
  // What a killed run's crash device left: its mounts inside and the loop devices over its
  // files. Only the crash device's own mount names are undone; any other mount keeps it whole.
  Result<CrashCleanup> crash = CleanCrashDevices(platform, dir);
  if (!crash.ok()) return crash.status();
  for (const std::string& m : crash->unmounted) {
    outcome.crash_devices.push_back(dir + ": unmounted " + m);
  }
  for (const std::string& d : crash->detached) {
    outcome.crash_devices.push_back(dir + ": detached " + d);
  }
  Result<EntryStat> top_stat = platform.StatAt(top, "");
  if (!top_stat.ok()) return top_stat.status();
  if (OnAnotherMount(*self, top_stat->dev)) {  // a filesystem mounted on it
    outcome.mounted.push_back({dir, dir});
    return Status::Ok();
  }
  Result<std::string> mount = MountInside(platform, fd->get(), self->dev, dir);
  if (!mount.ok()) return mount.status();
  if (!mount->empty()) {
    outcome.mounted.push_back({dir, *mount});
    return Status::Ok();
  }
  if (Status s = EmptyDirectoryAt(platform, fd->get(), self->dev, dir, kScratchMarker); !s.ok()) {
    return s;
  }
  if (marker_file.ok()) {
    if (Status s = UnlinkMarker(platform, fd->get(), *marker_file, dir); !s.ok()) return s;
  } else if (Status s = platform.UnlinkAt(fd->get(), std::string(kScratchMarker), false);
             !s.ok() && s.error_number() != ENOENT) {
    return Status::FromErrno(s.error_number(), "remove " + JoinPath(dir, kScratchMarker));
  }
  Result<EntryStat> there = platform.StatAt(top, name);
  if (!there.ok() || !SameEntry(*there, *self)) {
    return Status::Error(dir + " was renamed or replaced while clean emptied it; left it");
  }
  if (Status s = platform.UnlinkAt(top, name, true); !s.ok()) {
    return Status::FromErrno(s.error_number(), "remove " + dir);
  }
  outcome.removed.push_back(dir);
  return Status::Ok();
}

}  // namespace

Result<CleanOutcome> CleanScratch(Platform& platform, const std::string& target) {
  Result<FileHandle> top = platform.OpenDirectoryAt(kNoDirectory, target, true);
  if (!top.ok()) return Status::FromErrno(top.status().error_number(), "open " + target);
  Result<std::vector<std::string>> names = platform.ListDirectoryAt(top->get());
  if (!names.ok()) return names.status();
  CleanOutcome outcome;
  for (const std::string& name : *names) {
    if (!HasScratchName(name)) continue;
    const std::string dir = JoinPath(target, name);
    // One scratch that cannot be removed (a decoy too deep, no descriptor to spare) never keeps
    // clean from the others.
    if (Status s = CleanOne(platform, top->get(), name, dir, outcome); !s.ok()) {
      outcome.failed.push_back({dir, s.message()});
    }
  }
  return outcome;
}

Status RemoveTree(Platform& platform, const std::string& dir) {
  Result<FileHandle> fd = platform.OpenDirectoryAt(kNoDirectory, dir, /*follow_last=*/false);
  if (!fd.ok()) {
    int err = fd.status().error_number();
    if (err == ENOENT) return Status::Ok();
    // A symlink (or a file) where a directory was expected: unlink the name, never its target.
    if (err == ELOOP || err == ENOTDIR) return platform.Unlink(dir);
    return fd.status();
  }
  Result<EntryStat> self = platform.StatAt(fd->get(), "");
  if (!self.ok()) return self.status();
  if (Status s = EmptyUnlessMounted(platform, fd->get(), self->dev, dir); !s.ok()) return s;
  (void)fd->Close();
  return platform.RemoveDirectory(dir);
}

}  // namespace durprobe::platform
