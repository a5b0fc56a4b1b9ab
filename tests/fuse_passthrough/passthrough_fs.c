// A FUSE passthrough filesystem for the integration tests: it mirrors one existing directory
// (SOURCE_DIR) at a mount point, every call made relative to a descriptor of that directory, so
// a test can put durprobe and SQLite on a FUSE mount whose syncs it controls.
//
//   durprobe_test_passthrough [--ignore-syncs | --honour-one-in N] [--write-delay-us N]
//                             SOURCE_DIR MOUNTPOINT
//                             [fuse options]
//
// Honest (the default): fsync calls fdatasync or fsync on the backing descriptor as the datasync
// flag says, and fsyncdir fsyncs the backing directory. With --ignore-syncs, fsync and fsyncdir
// return 0 at once and the O_SYNC/O_DSYNC bits of an open are dropped on the backing file, so
// nothing this server does reaches the disk's flush: a server that drops syncs. With
// --honour-one-in N, fsync honours the first sync of every N it receives (counted across the
// server's threads) and answers the others at once: a server that drops syncs in part. With
// --write-delay-us N, each write waits N microseconds before it is passed on: a slow server (a
// userspace one in an interpreted language), whose plain writes cost as much as a sync.
//
// fuse_main runs it: it daemonizes unless given -f, and is multi-threaded unless given -s. The
// mount always gets default_permissions (the kernel checks modes; tests run as root). Without a
// lock operation, the kernel keeps fcntl and flock locks local to this mount, which is what
// SQLite needs. O_DIRECT is dropped on the backing file: the buffers libfuse hands a write are
// not aligned; data still reaches the disk only through the backing file's syncs.
#define FUSE_USE_VERSION 31
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse3/fuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <unistd.h>

static int source_fd = -1;  // the mirrored directory, opened before fuse_main
static int ignore_syncs;
static unsigned long honour_one_in;  // 0: every sync honoured (unless ignore_syncs)
static unsigned long syncs_seen;
static unsigned write_delay_us;  // --write-delay-us

// The FUSE path ("/", "/a/b") relative to source_fd ("." or "a/b").
static const char* Rel(const char* path) {
  while (*path == '/') ++path;
  return *path ? path : ".";
}

static int Fail(void) { return -errno; }

static void* OnInit(struct fuse_conn_info* conn, struct fuse_config* cfg) {
  (void)conn;
  cfg->use_ino = 1;  // the backing inode numbers, as stat returns them
  // Unlink an open file at once, as a local filesystem does: no .fuse_hidden file is left for
  // its release to remove, so an rmdir just after a close (SQLite's -shm) never meets one. The
  // price: a stat or fstat of an unlinked file still open fails with ESTALE (the kernel sends
  // no handle with it); reads, writes and syncs through its handle work (NULL path).
  cfg->hard_remove = 1;
  cfg->nullpath_ok = 1;
  return NULL;
}

static int OnGetattr(const char* path, struct stat* st, struct fuse_file_info* fi) {
  int rc = fi ? fstat((int)fi->fh, st) : fstatat(source_fd, Rel(path), st, AT_SYMLINK_NOFOLLOW);
  return rc == 0 ? 0 : Fail();
}

static int OnReadlink(const char* path, char* buf, size_t size) {
  if (size == 0) return -EINVAL;
  ssize_t n = readlinkat(source_fd, Rel(path), buf, size - 1);
  if (n < 0) return Fail();
  buf[n] = '\0';
  return 0;
}

static int OnOpendir(const char* path, struct fuse_file_info* fi) {
  int fd = openat(source_fd, Rel(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Fail();
  fi->fh = (uint64_t)fd;
  return 0;
}

static int OnReleasedir(const char* path, struct fuse_file_info* fi) {
  (void)path;
  close((int)fi->fh);
  return 0;
}

// Every entry in one call (offset 0 to the filler): libfuse keeps them for the kernel's reads.
static int OnReaddir(const char* path, void* buf, fuse_fill_dir_t filler, off_t offset,
                     struct fuse_file_info* fi, enum fuse_readdir_flags flags) {
  (void)path;
  (void)offset;
  (void)flags;
  int fd = openat((int)fi->fh, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Fail();
  DIR* dir = fdopendir(fd);
  if (dir == NULL) {
    int err = errno;
    close(fd);
    return -err;
  }
  int rc = 0;
  errno = 0;
  struct dirent* e;
  while ((e = readdir(dir)) != NULL) {
    struct stat st;
    memset(&st, 0, sizeof st);
    st.st_ino = e->d_ino;
    st.st_mode = (mode_t)DTTOIF(e->d_type);
    if (filler(buf, e->d_name, &st, 0, 0) != 0) break;
  }
  if (e == NULL && errno != 0) rc = -errno;
  closedir(dir);
  return rc;
}

static int BackingFlags(int flags) {
  flags &= ~O_DIRECT;
  if (ignore_syncs) flags &= ~(O_SYNC | O_DSYNC);
  return flags | O_CLOEXEC | O_NOFOLLOW;
}

static int OnOpen(const char* path, struct fuse_file_info* fi) {
  int fd = openat(source_fd, Rel(path), BackingFlags(fi->flags));
  if (fd < 0) return Fail();
  fi->fh = (uint64_t)fd;
  return 0;
}

static int OnCreate(const char* path, mode_t mode, struct fuse_file_info* fi) {
  int fd = openat(source_fd, Rel(path), BackingFlags(fi->flags) | O_CREAT, mode);
  if (fd < 0) return Fail();
  fi->fh = (uint64_t)fd;
  return 0;
}

static int OnRead(const char* path, char* buf, size_t size, off_t offset,
                  struct fuse_file_info* fi) {
  (void)path;
  ssize_t n = pread((int)fi->fh, buf, size, offset);
  return n < 0 ? Fail() : (int)n;
}

static int OnWrite(const char* path, const char* buf, size_t size, off_t offset,
                   struct fuse_file_info* fi) {
  (void)path;
  if (write_delay_us > 0) usleep(write_delay_us);
  ssize_t n = pwrite((int)fi->fh, buf, size, offset);
  return n < 0 ? Fail() : (int)n;
}

static int OnTruncate(const char* path, off_t size, struct fuse_file_info* fi) {
  if (fi) return ftruncate((int)fi->fh, size) == 0 ? 0 : Fail();
  int fd = openat(source_fd, Rel(path), O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return Fail();
  int rc = ftruncate(fd, size) == 0 ? 0 : Fail();
  close(fd);
  return rc;
}

static int OnFallocate(const char* path, int mode, off_t offset, off_t length,
                       struct fuse_file_info* fi) {
  (void)path;
  return fallocate((int)fi->fh, mode, offset, length) == 0 ? 0 : Fail();
}

static int OnUnlink(const char* path) {
  return unlinkat(source_fd, Rel(path), 0) == 0 ? 0 : Fail();
}

static int OnMkdir(const char* path, mode_t mode) {
  return mkdirat(source_fd, Rel(path), mode) == 0 ? 0 : Fail();
}

static int OnRmdir(const char* path) {
  return unlinkat(source_fd, Rel(path), AT_REMOVEDIR) == 0 ? 0 : Fail();
}

static int OnSymlink(const char* target, const char* path) {
  return symlinkat(target, source_fd, Rel(path)) == 0 ? 0 : Fail();
}

static int OnLink(const char* from, const char* to) {
  return linkat(source_fd, Rel(from), source_fd, Rel(to), 0) == 0 ? 0 : Fail();
}

// flags: RENAME_NOREPLACE or RENAME_EXCHANGE, which renameat2 takes as they are.
static int OnRename(const char* from, const char* to, unsigned int flags) {
  return renameat2(source_fd, Rel(from), source_fd, Rel(to), flags) == 0 ? 0 : Fail();
}

static int OnChmod(const char* path, mode_t mode, struct fuse_file_info* fi) {
  int rc = fi ? fchmod((int)fi->fh, mode) : fchmodat(source_fd, Rel(path), mode, 0);
  return rc == 0 ? 0 : Fail();
}

static int OnChown(const char* path, uid_t uid, gid_t gid, struct fuse_file_info* fi) {
  int rc = fi ? fchown((int)fi->fh, uid, gid)
              : fchownat(source_fd, Rel(path), uid, gid, AT_SYMLINK_NOFOLLOW);
  return rc == 0 ? 0 : Fail();
}

static int OnUtimens(const char* path, const struct timespec ts[2], struct fuse_file_info* fi) {
  int rc =
      fi ? futimens((int)fi->fh, ts) : utimensat(source_fd, Rel(path), ts, AT_SYMLINK_NOFOLLOW);
  return rc == 0 ? 0 : Fail();
}

static int OnStatfs(const char* path, struct statvfs* st) {
  (void)path;
  return fstatvfs(source_fd, st) == 0 ? 0 : Fail();
}

// close(2) on the kernel's side: a close of a duplicate reports what the backing close would
// (NFS-style deferred errors) without giving up the descriptor, which release closes.
static int OnFlush(const char* path, struct fuse_file_info* fi) {
  (void)path;
  int fd = dup((int)fi->fh);
  if (fd < 0) return Fail();
  return close(fd) == 0 ? 0 : Fail();
}

static int OnRelease(const char* path, struct fuse_file_info* fi) {
  (void)path;
  close((int)fi->fh);
  return 0;
}

static int OnFsync(const char* path, int datasync, struct fuse_file_info* fi) {
  (void)path;
  if (ignore_syncs) return 0;
  if (honour_one_in > 1 && __atomic_fetch_add(&syncs_seen, 1, __ATOMIC_RELAXED) % honour_one_in) {
    return 0;
  }
  int fd = (int)fi->fh;
  return (datasync ? fdatasync(fd) : fsync(fd)) == 0 ? 0 : Fail();
}

// fi->fh is the directory opendir opened: the backing directory itself is synced.
static int OnFsyncdir(const char* path, int datasync, struct fuse_file_info* fi) {
  (void)path;
  (void)datasync;
  if (ignore_syncs) return 0;
  return fsync((int)fi->fh) == 0 ? 0 : Fail();
}

static const struct fuse_operations kOps = {
    .init = OnInit,
    .getattr = OnGetattr,
    .readlink = OnReadlink,
    .mkdir = OnMkdir,
    .unlink = OnUnlink,
    .rmdir = OnRmdir,
    .symlink = OnSymlink,
    .rename = OnRename,
    .link = OnLink,
    .chmod = OnChmod,
    .chown = OnChown,
    .truncate = OnTruncate,
    .open = OnOpen,
    .read = OnRead,
    .write = OnWrite,
    .statfs = OnStatfs,
    .flush = OnFlush,
    .release = OnRelease,
    .fsync = OnFsync,
    .opendir = OnOpendir,
    .readdir = OnReaddir,
    .releasedir = OnReleasedir,
    .fsyncdir = OnFsyncdir,
    .create = OnCreate,
    .utimens = OnUtimens,
    .fallocate = OnFallocate,
};

static int Usage(const char* self) {
  fprintf(stderr,
          "usage: %s [--ignore-syncs | --honour-one-in N] [--write-delay-us N] SOURCE_DIR "
          "MOUNTPOINT [fuse options]\n",
          self);
  return 2;
}

int main(int argc, char** argv) {
  int i = 1;
  for (; i < argc && strncmp(argv[i], "--", 2) == 0; ++i) {
    if (strcmp(argv[i], "--ignore-syncs") == 0) {
      ignore_syncs = 1;
    } else if (strcmp(argv[i], "--honour-one-in") == 0 && i + 1 < argc) {
      char* end = NULL;
      honour_one_in = strtoul(argv[i + 1], &end, 10);
      if (end == argv[i + 1] || *end != '\0' || honour_one_in == 0) return Usage(argv[0]);
      ++i;
    } else if (strcmp(argv[i], "--write-delay-us") == 0 && i + 1 < argc) {
      write_delay_us = (unsigned)strtoul(argv[++i], NULL, 10);
    } else {
      return Usage(argv[0]);
    }
  }
  if (argc - i < 2) return Usage(argv[0]);
  const char* source = argv[i++];
  // Opened before fuse_main, which changes to / when it daemonizes; the descriptor stays.
  source_fd = open(source, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (source_fd < 0) {
    fprintf(stderr, "%s: cannot open %s: %s\n", argv[0], source, strerror(errno));
    return 1;
  }
  // The modes the kernel asks for are the modes created: the caller's umask is already applied.
  umask(0);
  // argv[0], MOUNTPOINT and the caller's fuse options, with default_permissions added.
  char** args = calloc((size_t)(argc - i) + 4, sizeof *args);
  if (args == NULL) return 1;
  int n = 0;
  args[n++] = argv[0];
  args[n++] = "-o";
  args[n++] = "default_permissions,fsname=durprobe_passthrough";
  while (i < argc) args[n++] = argv[i++];
  args[n] = NULL;
  int rc = fuse_main(n, args, &kOps, NULL);
  free(args);
  close(source_fd);
  return rc;
}
