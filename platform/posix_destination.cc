// Report destinations: where a report named by a path lands, and how it gets there. durprobe runs
// as root in directories other users can write (/tmp, a database's data directory), so the kernel
// never follows a symlink here: each directory on the way is opened from the one before with
// O_NOFOLLOW, a symlink is read and followed by this code only when the running user or root owns
// it (anyone else's could point anywhere), and the final file is replaced by a rename onto the
// name reached, relative to the directory descriptor held, never onto a path looked up again.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <deque>
#include <random>

#include "platform/posix_platform.h"
#include "platform/words.h"

namespace durprobe::platform {
namespace {

// More symlinks than this on one path is a loop (the kernel's limit is 40).
constexpr int kMaxLinks = 40;
// Temporary names are drawn this many times before giving up: a planted name costs one draw.
constexpr int kMaxTempNames = 100;

// A descriptor closed on every path out of scope (FileHandle needs a Platform to close through;
// these never leave this file).
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() { Reset(-1); }
  Fd(Fd&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) Reset(other.Release());
    return *this;
  }
  int get() const { return fd_; }
  // Gives the descriptor up unclosed, for a close whose error counts.
  int Release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void Reset(int fd) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_;
};

bool TrustedOwner(uid_t uid) { return uid == ::geteuid() || uid == 0; }

std::string Join(const std::string& dir, const std::string& name) {
  if (dir.empty()) return name;
  return dir == "/" ? "/" + name : dir + "/" + name;
}

Result<Fd> OpenRoot(bool absolute) {
  int fd = ::open(absolute ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno(errno, absolute ? "open /" : "open .");
  return Fd(fd);
}

Status RefusedLink(const std::string& hop, const std::string& path, uid_t owner) {
  std::string who = hop == path ? "is a symlink" : hop + " is a symlink";
  return Status::InvalidArgument(fmt::format(
      "{} owned by another user (uid {}): not followed, as its owner can point it at any file "
      "(remove it, or name the file itself)",
      who, owner));
}

// The text of the symlink name under dir, when the running user or root owns it. On Linux the
// link is pinned with O_PATH first, so the owner checked is the owner of the text read even
// where others may swap names in dir; elsewhere it is stat'ed before and after the read.
Result<std::string> ReadTrustedLink(int dir, const std::string& name, const std::string& hop,
                                    const std::string& path) {
  char buf[PATH_MAX];
  ssize_t n;
  struct stat st {};
#ifdef O_PATH
  Fd link(::openat(dir, name.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
  if (link.get() < 0 || ::fstat(link.get(), &st) != 0) return Status::FromErrno(errno, hop);
  if (!S_ISLNK(st.st_mode)) return Status::Error(hop + " changed while it was read");
  if (!TrustedOwner(st.st_uid)) return RefusedLink(hop, path, st.st_uid);
  n = ::readlinkat(link.get(), "", buf, sizeof buf);
#else
  if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    return Status::FromErrno(errno, hop);
  }
  if (!TrustedOwner(st.st_uid)) return RefusedLink(hop, path, st.st_uid);
  n = ::readlinkat(dir, name.c_str(), buf, sizeof buf);
  struct stat again {};
  if (::fstatat(dir, name.c_str(), &again, AT_SYMLINK_NOFOLLOW) != 0 || again.st_ino != st.st_ino ||
      again.st_dev != st.st_dev || !TrustedOwner(again.st_uid)) {
    return Status::Error(hop + " changed while it was read");
  }
#endif
  if (n < 0) return Status::FromErrno(errno, "readlink " + hop);
  if (static_cast<std::size_t>(n) >= sizeof buf) {
    return Status::FromErrno(ENAMETOOLONG, "readlink " + hop);
  }
  return std::string(buf, static_cast<std::size_t>(n));
}

// Where a destination's path leads: its directory held open, the last name in it, and that
// entry as it is (exists false when the name is free).
struct Place {
  Fd dir;
  std::string name;
  std::string file;  // the path reached, for messages and identity
  bool through_link = false;
  bool anonymous = false;  // name is a /proc link to a pipe or socket, opened by the kernel
  bool exists = false;
  struct stat st {};
};

// "pipe:[123]", "socket:[456]", "anon_inode:[eventfd]": what /proc's descriptor links read as
// when they lead to no file.
bool IsAnonymousObject(const std::string& target) {
  std::size_t colon = target.find(':');
  return colon != std::string::npos && colon > 0 && target.find('/') == std::string::npos &&
         target.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") == colon;
}

Result<Place> Walk(const std::string& path) {
  if (path.empty()) return Status::InvalidArgument("an empty path");
  std::vector<std::string> names = PathComponents(path);
  std::deque<std::string> todo(names.begin(), names.end());
  Result<Fd> root = OpenRoot(path[0] == '/');
  if (!root.ok()) return root.status();
  Place p;
  p.dir = std::move(*root);
  std::string at = path[0] == '/' ? "/" : "";
  int links = 0;
  while (!todo.empty()) {
    std::string c = std::move(todo.front());
    todo.pop_front();
    std::string hop = Join(at, c);
    struct stat st {};
    if (::fstatat(p.dir.get(), c.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      if (errno == ENOENT && todo.empty()) {
        p.name = c;
        p.file = hop;
        return p;
      }
      return Status::FromErrno(errno, hop);
    }
    if (S_ISLNK(st.st_mode)) {
      if (++links > kMaxLinks) return Status::FromErrno(ELOOP, path);
      Result<std::string> target = ReadTrustedLink(p.dir.get(), c, hop, path);
      if (!target.ok()) return target.status();
      p.through_link = true;
      if (todo.empty() && IsAnonymousObject(*target)) {
        // A descriptor's link in /proc (/dev/stderr on a pipe: "pipe:[123]") names no path to
        // walk; only the kernel can follow it. Another user cannot make such a link.
        struct stat object {};
        if (::fstatat(p.dir.get(), c.c_str(), &object, 0) != 0) {
          return Status::FromErrno(errno, hop);
        }
        p.name = c;
        p.file = hop;
        p.exists = true;
        p.anonymous = true;
        p.st = object;
        return p;
      }
      std::vector<std::string> more = PathComponents(*target);
      todo.insert(todo.begin(), more.begin(), more.end());
      if (!target->empty() && (*target)[0] == '/') {
        Result<Fd> top = OpenRoot(true);
        if (!top.ok()) return top.status();
        p.dir = std::move(*top);
        at = "/";
      }
      if (todo.empty()) return Status::InvalidArgument(hop + " points to a directory");
      continue;
    }
    if (todo.empty()) {
      p.name = c;
      p.file = hop;
      p.exists = true;
      p.st = st;
      return p;
    }
    if (!S_ISDIR(st.st_mode)) return Status::FromErrno(ENOTDIR, hop);
    int fd = ::openat(p.dir.get(), c.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == ELOOP && ++links <= kMaxLinks) {
      todo.push_front(c);  // it became a symlink since the stat: read it as one
      continue;
    }
    if (fd < 0) return Status::FromErrno(errno, hop);
    p.dir.Reset(fd);
    at = hop;
  }
  return Status::InvalidArgument(path + " is a directory");
}

std::string RandomSuffix() {
  static const char kChars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::random_device device;
  std::uniform_int_distribution<std::size_t> pick(0, sizeof kChars - 2);
  std::string s(12, 'x');
  for (char& ch : s) ch = kChars[pick(device)];
  return s;
}

Status WriteAllTo(int fd, const std::string& text, const std::string& file) {
  for (std::size_t done = 0; done < text.size();) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::FromErrno(errno, "write " + file);
    if (n == 0) return Status::Error("write " + file + ": wrote 0 bytes");
    done += static_cast<std::size_t>(n);
  }
  return Status::Ok();
}

// A device or FIFO is written where it is (a rename would put a file in its place). Opened
// O_NOFOLLOW and checked to still be the entry Walk saw, so a name swapped for a link or a hard
// link to a regular file in between is never written in place.
Status WriteInPlace(const Place& p, const std::string& text) {
  int fd;
  do {
    fd = ::openat(p.dir.get(), p.name.c_str(),
                  O_WRONLY | O_NONBLOCK | O_CLOEXEC | (p.anonymous ? 0 : O_NOFOLLOW));
  } while (fd < 0 && errno == EINTR);
  if (fd < 0 && errno == ENXIO) {
    return Status::FromErrno(ENXIO, p.file + " is a FIFO that no process is reading");
  }
  if (fd < 0) return Status::FromErrno(errno, "open " + p.file);
  Fd file(fd);
  struct stat st {};
  if (::fstat(fd, &st) != 0) return Status::FromErrno(errno, "stat " + p.file);
  if (st.st_ino != p.st.st_ino || st.st_dev != p.st.st_dev || S_ISREG(st.st_mode)) {
    return Status::Error(p.file + " changed while the report was written");
  }
  int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
    return Status::FromErrno(errno, "fcntl " + p.file);
  }
  if (Status s = WriteAllTo(fd, text, p.file); !s.ok()) return s;
  if (::close(file.Release()) != 0) return Status::FromErrno(errno, "close " + p.file);
  return Status::Ok();
}

}  // namespace

Result<DestinationFile> PosixPlatform::ResolveDestination(const std::string& path) {
  Result<Place> p = Walk(path);
  if (!p.ok()) return p.status();
  DestinationFile out;
  out.file = p->file;
  out.through_symlink = p->through_link;
  if (!p->exists) {
    out.kind = PathKind::kMissing;
  } else if (S_ISDIR(p->st.st_mode)) {
    out.kind = PathKind::kDirectory;
  } else if (S_ISREG(p->st.st_mode)) {
    out.kind = PathKind::kFile;
  } else {
    out.kind = PathKind::kOther;
  }
  return out;
}

Status PosixPlatform::ReplaceFileAtomically(const std::string& path, const std::string& text) {
  Result<Place> p = Walk(path);
  if (!p.ok()) return p.status();
  if (p->exists && S_ISDIR(p->st.st_mode))
    return Status::InvalidArgument(p->file + " is a directory");
  if (p->exists && !S_ISREG(p->st.st_mode)) return WriteInPlace(*p, text);
  std::string tmp;
  int fd = -1;
  for (int tries = 0; fd < 0 && tries < kMaxTempNames; ++tries) {
    tmp = p->name + ".durprobe-tmp-" + RandomSuffix();
    do {
      fd = ::openat(p->dir.get(), tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                    0644);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0 && errno != EEXIST) {
      return Status::FromErrno(errno, "create a temporary file beside " + p->file);
    }
  }
  if (fd < 0) return Status::FromErrno(EEXIST, "create a temporary file beside " + p->file);
  // Not synced: a report is not worth a sync in a tool that counts syncs (strace would see it);
  // the rename alone keeps readers from seeing half a file.
  Status s = PWrite(fd, text.data(), text.size(), 0);
  if (::close(fd) != 0 && s.ok()) s = Status::FromErrno(errno, "close " + p->file);
  if (s.ok() && ::renameat(p->dir.get(), tmp.c_str(), p->dir.get(), p->name.c_str()) != 0) {
    s = Status::FromErrno(errno, fmt::format("rename {} -> {}", tmp, p->file));
  }
  if (!s.ok()) ::unlinkat(p->dir.get(), tmp.c_str(), 0);
  return s;
}

}  // namespace durprobe::platform
