// An LD_PRELOAD fault layer for integration tests: it sits where durprobe (platform/) and
// SQLite's unix VFS make their system calls, so a test can make the real path fail the way
// storage fails. Both reach libc through the dynamic linker (SQLite keeps libc pointers in its
// syscall table, filled by symbol lookup), so the symbols defined here are the ones they call.
//
// Configuration, all optional (read once, at load):
//   DURPROBE_FAULT_SYNC=EIO           fsync/fdatasync on matching files fail with this errno
//   DURPROBE_FAULT_SYNC=noop          ...or return 0 at once without syncing (what libeatmydata
//                                     does, under this library's neutral file name)
//   DURPROBE_FAULT_SYNC_CALLS=fsync|fdatasync   which of the two calls DURPROBE_FAULT_SYNC
//                                     applies to, a comma list (default: both); the other one
//                                     stays honest (still delayed and logged, and not counted by
//                                     DURPROBE_FAULT_AFTER/TIMES), so e.g. only fdatasync is a noop
//   DURPROBE_FAULT_WRITE=ENOSPC|short write/pwrite fail with this errno, or write half the bytes
//   DURPROBE_FAULT_OPEN=EACCES|EROFS  open/openat of matching paths fail with this errno
//   DURPROBE_FAULT_MOUNT=EINVAL|EIO   mount(2) onto a matching target fails with this errno (a
//                                     filesystem the kernel will not mount, as a crash state's)
//   DURPROBE_FAULT_AFTER=N            let the first N matching calls of a faulted kind succeed
//   DURPROBE_FAULT_TIMES=N            fail only N calls after those (default: every one)
//   DURPROBE_FAULT_PATH=GLOB          only paths matching this fnmatch(3) glob ('*' spans '/');
//                                     default: every regular file (every mount target)
//   DURPROBE_FAULT_DELAY_MS=N         sleep N ms in each matching call of DURPROBE_FAULT_DELAY_ON
//   DURPROBE_FAULT_DELAY_ON=sync|write|open   (default sync)
//   DURPROBE_FAULT_LOG=FILE           append "<call> <path> <ok|noop|ERRNO|short|delay> pid=<pid>":
//                                     every matching sync, every injected fault, every delay
//                                     (before it)
// Calls on descriptors that are not files or directories (pipes, terminals, sockets) always pass
// through, so a child's pipe or the console never fails.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

enum Kind { kSync, kWrite, kOpen, kMount, kKinds };
static const char* const kKindNames[kKinds] = {"sync", "write", "open", "mount"};

// The sync calls DURPROBE_FAULT_SYNC_CALLS names, as bits of Config.sync_calls.
enum SyncCallBit { kFsyncBit = 1u << 0, kFdatasyncBit = 1u << 1 };

struct Config {
  int err[kKinds];  // errno to inject per kind; 0: none
  int short_writes;
  int noop_syncs;
  unsigned sync_calls;  // which of fsync and fdatasync DURPROBE_FAULT_SYNC applies to (bits)
  long after, times;
  const char* glob;
  long delay_ms;
  int delay_kind;
  const char* log;
};

static struct Config config;
static atomic_long calls[kKinds];

static int ErrnoByName(const char* name) {
  static const struct {
    const char* name;
    int value;
  } kNames[] = {{"EIO", EIO},       {"ENOSPC", ENOSPC}, {"EACCES", EACCES}, {"EROFS", EROFS},
                {"EDQUOT", EDQUOT}, {"EPERM", EPERM},   {"EFBIG", EFBIG},   {"EINVAL", EINVAL}};
  for (size_t i = 0; i < sizeof kNames / sizeof kNames[0]; ++i) {
    if (strcmp(name, kNames[i].name) == 0) return kNames[i].value;
  }
  return EIO;
}

static const char* NameOfErrno(int err) {
  switch (err) {
    case EIO:
      return "EIO";
    case ENOSPC:
      return "ENOSPC";
    case EACCES:
      return "EACCES";
    case EROFS:
      return "EROFS";
    case EDQUOT:
      return "EDQUOT";
    case EPERM:
      return "EPERM";
    case EFBIG:
      return "EFBIG";
    case EINVAL:
      return "EINVAL";
    default:
      return "E?";
  }
}

static long EnvLong(const char* name, long fallback) {
  const char* v = getenv(name);
  return v && *v ? strtol(v, NULL, 10) : fallback;
}

// "fsync,fdatasync", "fdatasync", ...: the calls named (unknown words are ignored); unset or
// empty, both.
static unsigned SyncCallsByNames(const char* list) {
  if (list == NULL || !*list) return kFsyncBit | kFdatasyncBit;
  unsigned bits = 0;
  while (*list) {
    size_t n = strcspn(list, ",");
    if (n == 5 && strncmp(list, "fsync", n) == 0) bits |= kFsyncBit;
    if (n == 9 && strncmp(list, "fdatasync", n) == 0) bits |= kFdatasyncBit;
    list += n;
    if (*list == ',') ++list;
  }
  return bits;
}

__attribute__((constructor)) static void LoadConfig(void) {
  const char* v;
  config.sync_calls = SyncCallsByNames(getenv("DURPROBE_FAULT_SYNC_CALLS"));
  if ((v = getenv("DURPROBE_FAULT_SYNC")) && *v) {
    if (strcmp(v, "noop") == 0) {
      config.noop_syncs = 1;
    } else {
      config.err[kSync] = ErrnoByName(v);
    }
  }
  if ((v = getenv("DURPROBE_FAULT_WRITE")) && *v) {
    if (strcmp(v, "short") == 0) {
      config.short_writes = 1;
    } else {
      config.err[kWrite] = ErrnoByName(v);
    }
  }
  if ((v = getenv("DURPROBE_FAULT_OPEN")) && *v) config.err[kOpen] = ErrnoByName(v);
  if ((v = getenv("DURPROBE_FAULT_MOUNT")) && *v) config.err[kMount] = ErrnoByName(v);
  config.after = EnvLong("DURPROBE_FAULT_AFTER", 0);
  config.times = EnvLong("DURPROBE_FAULT_TIMES", 0);
  config.glob = getenv("DURPROBE_FAULT_PATH");
  if (config.glob && !*config.glob) config.glob = NULL;
  config.delay_ms = EnvLong("DURPROBE_FAULT_DELAY_MS", 0);
  config.delay_kind = kSync;
  if ((v = getenv("DURPROBE_FAULT_DELAY_ON")) && *v) {
    for (int k = 0; k < kKinds; ++k) {
      if (strcmp(v, kKindNames[k]) == 0) config.delay_kind = k;
    }
  }
  config.log = getenv("DURPROBE_FAULT_LOG");
  if (config.log && !*config.log) config.log = NULL;
}

static void* Next(const char* name) { return dlsym(RTLD_NEXT, name); }

// Raw system calls for the layer's own I/O, so logging never re-enters the wrappers.
static void Log(const char* call, const char* path, const char* result) {
  if (!config.log) return;
  char line[4400];
  int n = snprintf(line, sizeof line, "%s %s %s pid=%ld\n", call, path, result,
                   (long)syscall(SYS_getpid));
  if (n <= 0) return;
  if (n > (int)sizeof line) n = sizeof line;
  int saved = errno;
  long fd =
      syscall(SYS_openat, AT_FDCWD, config.log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd >= 0) {
    syscall(SYS_write, fd, line, (size_t)n);
    syscall(SYS_close, fd);
  }
  errno = saved;
}

static int PathMatches(const char* path) {
  return config.glob == NULL || fnmatch(config.glob, path, 0) == 0;
}

// The path of a regular file behind fd, or 0 when fd is something else or does not match.
static int FdPath(int fd, char* path, size_t size) {
  struct stat st;
  if (syscall(SYS_fstat, fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) return 0;
  char link[64];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, path, size - 1);
  if (n < 0) return 0;
  path[n] = '\0';
  return PathMatches(path);
}

// Logs "<call> <path> delay" first, so a test knows the program is held inside this call.
static void Delay(int kind, const char* call, const char* path) {
  if (config.delay_ms <= 0 || config.delay_kind != kind) return;
  Log(call, path, "delay");
  struct timespec ts = {config.delay_ms / 1000, (config.delay_ms % 1000) * 1000000L};
  // A signal ends the delay early (EINTR), as it would end a slow system call.
  nanosleep(&ts, &ts);
}

// Whether this matching call of kind is one to fail (counts calls past DURPROBE_FAULT_AFTER).
static int Trips(int kind) {
  int armed = config.err[kind] != 0 || (kind == kWrite && config.short_writes);
  if (!armed) return 0;
  long n = atomic_fetch_add(&calls[kind], 1);
  if (n < config.after) return 0;
  return config.times <= 0 || n < config.after + config.times;
}

typedef int (*SyncFn)(int);

// bit: the call's SyncCallBit; a call DURPROBE_FAULT_SYNC_CALLS leaves out is never faulted.
static int SyncCall(const char* name, unsigned bit, int fd) {
  SyncFn real = (SyncFn)Next(name);
  char path[4096];
  if (!FdPath(fd, path, sizeof path)) return real(fd);
  Delay(kSync, name, path);
  int faulted = (config.sync_calls & bit) != 0;
  if (faulted && config.noop_syncs) {
    Log(name, path, "noop");
    return 0;
  }
  if (faulted && Trips(kSync)) {
    Log(name, path, NameOfErrno(config.err[kSync]));
    errno = config.err[kSync];
    return -1;
  }
  int rc = real(fd);
  Log(name, path, rc == 0 ? "ok" : NameOfErrno(errno));
  return rc;
}

int fsync(int fd) { return SyncCall("fsync", kFsyncBit, fd); }
int fdatasync(int fd) { return SyncCall("fdatasync", kFdatasyncBit, fd); }

// For a write of n bytes: -1 with errno to fail, the count to pass on (n, or n/2 for a short
// write), after logging.
static ssize_t WriteFault(const char* name, int fd, size_t n, size_t* pass) {
  *pass = n;
  char path[4096];
  if (!FdPath(fd, path, sizeof path)) return 0;
  Delay(kWrite, name, path);
  if (!Trips(kWrite)) return 0;
  if (config.short_writes && n > 1) {
    *pass = n / 2;
    Log(name, path, "short");
    return 0;
  }
  if (config.short_writes) return 0;
  Log(name, path, NameOfErrno(config.err[kWrite]));
  errno = config.err[kWrite];
  return -1;
}

ssize_t write(int fd, const void* buf, size_t n) {
  static ssize_t (*real)(int, const void*, size_t);
  if (!real) real = (ssize_t(*)(int, const void*, size_t))Next("write");
  size_t pass;
  if (WriteFault("write", fd, n, &pass) < 0) return -1;
  return real(fd, buf, pass);
}

ssize_t pwrite(int fd, const void* buf, size_t n, off_t offset) {
  static ssize_t (*real)(int, const void*, size_t, off_t);
  if (!real) real = (ssize_t(*)(int, const void*, size_t, off_t))Next("pwrite");
  size_t pass;
  if (WriteFault("pwrite", fd, n, &pass) < 0) return -1;
  return real(fd, buf, pass, offset);
}

ssize_t pwrite64(int fd, const void* buf, size_t n, off64_t offset) {
  static ssize_t (*real)(int, const void*, size_t, off64_t);
  if (!real) real = (ssize_t(*)(int, const void*, size_t, off64_t))Next("pwrite64");
  size_t pass;
  if (WriteFault("pwrite64", fd, n, &pass) < 0) return -1;
  return real(fd, buf, pass, offset);
}

// durprobe opens files in its scratch through the descriptor it holds (/proc/self/fd/N/name):
// the glob is matched against the directory's name with the rest of the path, as for syncs.
static const char* NamedPath(const char* path, char* out, size_t size) {
  static const char kPrefix[] = "/proc/self/fd/";
  if (path == NULL || strncmp(path, kPrefix, sizeof kPrefix - 1) != 0) return path;
  const char* rest = path + sizeof kPrefix - 1;
  while (*rest >= '0' && *rest <= '9') ++rest;
  char link[64];
  snprintf(link, sizeof link, "%.*s", (int)(rest - path), path);
  ssize_t n = readlink(link, out, size - 1);
  if (n < 0) return path;
  snprintf(out + n, size - (size_t)n, "%s", rest);
  return out;
}

// 0 to let the open through, -1 (errno set) to fail it.
static int OpenFault(const char* name, const char* given) {
  char named[4096];
  const char* path = NamedPath(given, named, sizeof named);
  if (path == NULL || !PathMatches(path)) return 0;
  Delay(kOpen, name, path);
  if (!Trips(kOpen)) return 0;
  Log(name, path, NameOfErrno(config.err[kOpen]));
  errno = config.err[kOpen];
  return -1;
}

static mode_t ModeArg(int flags, va_list ap) {
  return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

#define DEFINE_OPEN(NAME)                                                             \
  int NAME(const char* path, int flags, ...) {                                        \
    va_list ap;                                                                       \
    va_start(ap, flags);                                                              \
    mode_t mode = ModeArg(flags, ap);                                                 \
    va_end(ap);                                                                       \
    if (OpenFault(#NAME, path) < 0) return -1;                                        \
    int (*real)(const char*, int, ...) = (int (*)(const char*, int, ...))Next(#NAME); \
    return real(path, flags, mode);                                                   \
  }

#define DEFINE_OPENAT(NAME)                                                                     \
  int NAME(int dirfd, const char* path, int flags, ...) {                                       \
    va_list ap;                                                                                 \
    va_start(ap, flags);                                                                        \
    mode_t mode = ModeArg(flags, ap);                                                           \
    va_end(ap);                                                                                 \
    if (OpenFault(#NAME, path) < 0) return -1;                                                  \
    int (*real)(int, const char*, int, ...) = (int (*)(int, const char*, int, ...))Next(#NAME); \
    return real(dirfd, path, flags, mode);                                                      \
  }

DEFINE_OPEN(open)
DEFINE_OPEN(open64)
DEFINE_OPENAT(openat)
DEFINE_OPENAT(openat64)

// _FORTIFY_SOURCE builds call these when the flags are not known at compile time.
int __open_2(const char* path, int flags) {
  if (OpenFault("__open_2", path) < 0) return -1;
  return ((int (*)(const char*, int))Next("__open_2"))(path, flags);
}
int __open64_2(const char* path, int flags) {
  if (OpenFault("__open64_2", path) < 0) return -1;
  return ((int (*)(const char*, int))Next("__open64_2"))(path, flags);
}

// The crash device mounts its states with mount(2) from the durprobe process itself.
int mount(const char* source, const char* target, const char* type, unsigned long flags,
          const void* data) {
  if (target != NULL && PathMatches(target) && Trips(kMount)) {
    Log("mount", target, NameOfErrno(config.err[kMount]));
    errno = config.err[kMount];
    return -1;
  }
  int (*real)(const char*, const char*, const char*, unsigned long, const void*) =
      (int (*)(const char*, const char*, const char*, unsigned long, const void*))Next("mount");
  return real(source, target, type, flags, data);
}
