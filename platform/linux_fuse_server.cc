// The crash device's FUSE server (platform/crash_device.h), the one file that includes libfuse.
// Single-threaded, so the log holds the requests in the order the server answered them: a write
// is in the log before it is acknowledged, and a flush's record follows every write acknowledged
// before it.
#define FUSE_USE_VERSION 34
#include <fcntl.h>
#include <fuse3/fuse_lowlevel.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "platform/linux_crash_server.h"

namespace durprobe::platform {
namespace {

constexpr fuse_ino_t kImageIno = 2;
constexpr char kImageName[] = "image";

struct Pending {
  std::uint64_t offset;
  std::string data;
};

struct Server {
  const CrashServerConfig* config = nullptr;
  std::vector<Pending> cache;
  std::uint64_t cached_bytes = 0;
  std::uint64_t log_end = 0;
  std::uint64_t sequence = 0;
  std::vector<CrashCommand> faults;
  bool failed = false;  // the log or the image could not be written: every request fails
};

bool WriteAllAt(int fd, const void* buf, std::size_t n, std::uint64_t at) {
  const char* p = static_cast<const char*>(buf);
  while (n > 0) {
    ssize_t w = ::pwrite(fd, p, n, static_cast<off_t>(at));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
    at += static_cast<std::uint64_t>(w);
  }
  return true;
}

bool AppendRecord(Server& s, std::uint32_t kind, std::uint64_t offset, const char* data,
                  std::uint32_t length) {
  CrashLogHeader h{kind, length, offset, s.sequence};
  if (!WriteAllAt(s.config->log_fd, &h, sizeof h, s.log_end)) return false;
  if (length > 0 && !WriteAllAt(s.config->log_fd, data, length, s.log_end + sizeof h)) {
    return false;
  }
  s.log_end += sizeof h + length;
  ++s.sequence;
  return true;
}

// Writes the oldest cached writes to the image until at most keep bytes stay cached.
bool WriteBack(Server& s, std::uint64_t keep) {
  std::size_t done = 0;
  while (done < s.cache.size() && s.cached_bytes > keep) {
    const Pending& p = s.cache[done];
    if (!WriteAllAt(s.config->image_fd, p.data.data(), p.data.size(), p.offset)) return false;
    s.cached_bytes -= p.data.size();
    ++done;
  }
  s.cache.erase(s.cache.begin(), s.cache.begin() + static_cast<std::ptrdiff_t>(done));
  return true;
}

Server& Of(fuse_req_t req) { return *static_cast<Server*>(fuse_req_userdata(req)); }

void FillAttr(const Server& s, fuse_ino_t ino, struct stat* st) {
  std::memset(st, 0, sizeof *st);
  st->st_ino = ino;
  if (ino == FUSE_ROOT_ID) {
    st->st_mode = S_IFDIR | 0700;
    st->st_nlink = 2;
  } else {
    st->st_mode = S_IFREG | 0600;
    st->st_nlink = 1;
    st->st_size = static_cast<off_t>(s.config->image_bytes);
    st->st_blksize = 4096;
  }
}

void OnInit(void*, struct fuse_conn_info* conn) {
  conn->max_write = 1u << 20;
  conn->want &= ~FUSE_CAP_WRITEBACK_CACHE;  // every write must reach the server
}

void OnLookup(fuse_req_t req, fuse_ino_t parent, const char* name) {
  if (parent != FUSE_ROOT_ID || std::strcmp(name, kImageName) != 0) {
    fuse_reply_err(req, ENOENT);
    return;
  }
  struct fuse_entry_param e;
  std::memset(&e, 0, sizeof e);
  e.ino = kImageIno;
  e.attr_timeout = 3600;
  e.entry_timeout = 3600;
  FillAttr(Of(req), kImageIno, &e.attr);
  fuse_reply_entry(req, &e);
}

void OnGetattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info*) {
  struct stat st;
  FillAttr(Of(req), ino, &st);
  fuse_reply_attr(req, &st, 3600);
}

void OnSetattr(fuse_req_t req, fuse_ino_t ino, struct stat*, int, struct fuse_file_info*) {
  struct stat st;  // the image keeps its size and mode
  FillAttr(Of(req), ino, &st);
  fuse_reply_attr(req, &st, 3600);
}

void OnOpen(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info* fi) {
  if (ino != kImageIno) {
    fuse_reply_err(req, EISDIR);
    return;
  }
  fi->direct_io = 1;  // no page cache in between: each write of the loop device reaches us
  fi->keep_cache = 0;
  fuse_reply_open(req, fi);
}

void OnRead(fuse_req_t req, fuse_ino_t, size_t size, off_t off, struct fuse_file_info*) {
  Server& s = Of(req);
  std::uint64_t at = static_cast<std::uint64_t>(off);
  if (at >= s.config->image_bytes) {
    fuse_reply_buf(req, nullptr, 0);
    return;
  }
  std::uint64_t n = std::min<std::uint64_t>(size, s.config->image_bytes - at);
  std::string buf(n, '\0');
  std::uint64_t got = 0;
  while (got < n) {
    ssize_t r = ::pread(s.config->image_fd, buf.data() + got, n - got, off + got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      fuse_reply_err(req, EIO);
      return;
    }
    if (r == 0) break;  // past the image file's end: zeros, as it is sparse
    got += static_cast<std::uint64_t>(r);
  }
  // What the cache holds is what the disk returns, newest last.
  for (const Pending& p : s.cache) {
    std::uint64_t lo = std::max(at, p.offset);
    std::uint64_t hi = std::min(at + n, p.offset + p.data.size());
    if (lo < hi) std::memcpy(buf.data() + (lo - at), p.data.data() + (lo - p.offset), hi - lo);
  }
  fuse_reply_buf(req, buf.data(), n);
}

// Whether the write holds the fault's marker anywhere.
bool CarriesMarker(const CrashCommand& fault, const char* data, std::size_t size) {
  return ::memmem(data, size, fault.marker, fault.marker_length) != nullptr;
}

void OnWrite(fuse_req_t req, fuse_ino_t, const char* data, size_t size, off_t off,
             struct fuse_file_info*) {
  Server& s = Of(req);
  std::uint64_t at = static_cast<std::uint64_t>(off);
  for (auto it = s.faults.begin(); it != s.faults.end(); ++it) {
    if (at + size <= it->offset || at >= it->offset + it->length) continue;
    if (it->marker_length > 0 && !CarriesMarker(*it, data, size)) continue;
    if (it->skip > 0) {  // this one is let through: it is written as any other write
      --it->skip;
      break;
    }
    int error = it->error;
    if (it->count > 0 && --it->count == 0) s.faults.erase(it);
    fuse_reply_err(req, error);
    return;
  }
  if (s.failed || at + size > s.config->image_bytes ||
      !AppendRecord(s, CrashEvent::kWrite, at, data, static_cast<std::uint32_t>(size))) {
    s.failed = true;
    fuse_reply_err(req, EIO);
    return;
  }
  s.cache.push_back({at, std::string(data, size)});
  s.cached_bytes += size;
  if (s.config->mode == CacheMode::kIgnoresFlush && s.cached_bytes > s.config->cache_bytes &&
      !WriteBack(s, s.config->cache_bytes / 2)) {
    s.failed = true;
  }
  fuse_reply_write(req, size);
}

void OnFsync(fuse_req_t req, fuse_ino_t, int, struct fuse_file_info*) {
  Server& s = Of(req);
  if (s.failed || !AppendRecord(s, CrashEvent::kFlush, 0, nullptr, 0)) {
    s.failed = true;
    fuse_reply_err(req, EIO);
    return;
  }
  if (s.config->mode != CacheMode::kIgnoresFlush && !WriteBack(s, 0)) {
    s.failed = true;
    fuse_reply_err(req, EIO);
    return;
  }
  fuse_reply_err(req, 0);
}

void OnFlush(fuse_req_t req, fuse_ino_t, struct fuse_file_info*) { fuse_reply_err(req, 0); }
void OnRelease(fuse_req_t req, fuse_ino_t, struct fuse_file_info*) { fuse_reply_err(req, 0); }
void OnFallocate(fuse_req_t req, fuse_ino_t, int, off_t, off_t, struct fuse_file_info*) {
  fuse_reply_err(req, EOPNOTSUPP);  // no discard: a discarded block's contents are the device's
}

bool Checkpoint(Server& s) {
  if (s.failed || !WriteBack(s, 0)) return false;
  int base = ::openat(s.config->scratch_fd, "crash-base",
                      O_CREAT | O_TRUNC | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (base < 0) return false;
  bool ok = CopySparse(s.config->image_fd, base, s.config->image_bytes).ok();
  ::close(base);
  return ok && AppendRecord(s, CrashEvent::kCheckpoint, 0, nullptr, 0);
}

// Answers one control command; false at the end of the stream.
bool HandleCommand(Server& s) {
  CrashCommand c;
  std::size_t got = 0;
  while (got < sizeof c) {
    ssize_t r = ::read(s.config->control_fd, reinterpret_cast<char*>(&c) + got, sizeof c - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    got += static_cast<std::size_t>(r);
  }
  bool ok = true;
  if (c.op == CrashCommand::kFault) {
    s.faults.push_back(c);
  } else if (c.op == CrashCommand::kCheckpoint) {
    ok = Checkpoint(s);
  } else if (c.op == CrashCommand::kClearFaults) {
    s.faults.clear();
  } else {
    ok = false;
  }
  char reply = ok ? 'k' : 'e';
  return ::write(s.config->reply_fd, &reply, 1) == 1;
}

void Report(int fd, const std::string& message) {
  std::string text = "e" + message;
  (void)!::write(fd, text.data(), text.size());
}

}  // namespace

int ServeCrashImage(const CrashServerConfig& config) {
  // The parent decides when the server stops: a Ctrl-C reaches it, and it unmounts first.
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) ::signal(sig, SIG_IGN);
  Server server;
  server.config = &config;
  struct fuse_lowlevel_ops ops;
  std::memset(&ops, 0, sizeof ops);
  ops.init = OnInit;
  ops.lookup = OnLookup;
  ops.getattr = OnGetattr;
  ops.setattr = OnSetattr;
  ops.open = OnOpen;
  ops.read = OnRead;
  ops.write = OnWrite;
  ops.fsync = OnFsync;
  ops.flush = OnFlush;
  ops.release = OnRelease;
  ops.fallocate = OnFallocate;
  const char* argv[] = {"durprobe-crash", "-o", "allow_other,fsname=durprobe-crash", nullptr};
  struct fuse_args args = FUSE_ARGS_INIT(3, const_cast<char**>(argv));
  struct fuse_session* se = fuse_session_new(&args, &ops, sizeof ops, &server);
  if (se == nullptr) {
    Report(config.reply_fd, "fuse_session_new failed");
    return 1;
  }
  if (fuse_session_mount(se, config.mountpoint.c_str()) != 0) {
    Report(config.reply_fd, "cannot mount the FUSE file system at " + config.mountpoint);
    fuse_session_destroy(se);
    return 1;
  }
  char ready = 'r';
  if (::write(config.reply_fd, &ready, 1) != 1) return 1;
  struct fuse_buf buf;
  std::memset(&buf, 0, sizeof buf);
  struct pollfd fds[2] = {{fuse_session_fd(se), POLLIN, 0}, {config.control_fd, POLLIN, 0}};
  while (!fuse_session_exited(se)) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[1].revents != 0 && !HandleCommand(server)) break;
    if (fds[0].revents == 0) continue;
    int res = fuse_session_receive_buf(se, &buf);
    if (res == -EINTR) continue;
    if (res <= 0) break;
    fuse_session_process_buf(se, &buf);
  }
  std::free(buf.mem);
  fuse_session_unmount(se);
  fuse_session_destroy(se);
  return server.failed ? 1 : 0;
}

}  // namespace durprobe::platform
