// The pre-flight of a shared mapping (Platform::CheckSharedMapping): what SQLite's unix VFS does
// to a WAL's -shm file (unixShmMap), done in a child so that a SIGBUS kills the child, not the run.
#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>

#include "platform/posix_platform.h"

namespace durprobe::platform {
namespace {

constexpr std::uint64_t kPage = 4096;  // SQLite extends the -shm file a 4 KiB page at a time
constexpr const char* kMapFile = "shm-preflight";

// The child's report to its parent: the call that failed and its errno, or nothing.
struct MapFailure {
  char call[32] = {};
  int err = 0;
};

MapFailure Failed(const char* call, int err) {
  MapFailure f;
  std::strncpy(f.call, call, sizeof(f.call) - 1);
  f.err = err;
  return f;
}

// In the child: SQLite's steps on the -shm file, in its order. Returns what failed, if anything;
// a fault while touching the mapping ends the child by a signal instead.
MapFailure MapAndTouch(const std::string& file, const SharedMapping& m) {
  int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return Failed("open", errno);
  std::uint64_t bytes = (m.bytes + kPage - 1) / kPage * kPage;
  for (std::uint64_t page = 0; page < bytes / kPage; ++page) {
    char zero = 0;
    if (::pwrite(fd, &zero, 1, static_cast<off_t>(page * kPage + kPage - 1)) != 1) {
      return Failed("write", errno);
    }
  }
  std::uint64_t mapped = m.touch_past_end ? bytes + kPage : bytes;
  void* p = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) return Failed("mmap", errno);
  volatile unsigned char* mem = static_cast<volatile unsigned char*>(p);
  for (std::uint64_t at = 0; at < mapped; at += kPage) {
    mem[at] = 1;
    if (mem[at] != 1) return Failed("read back", EIO);
  }
  ::munmap(p, mapped);
  ::close(fd);
  return {};
}

}  // namespace

Status PosixPlatform::CheckSharedMapping(const std::string& dir, const SharedMapping& mapping) {
  std::string file = dir + "/" + kMapFile;
  // The child's report goes through anonymous shared memory, which every system maps.
  void* shared = ::mmap(nullptr, sizeof(MapFailure), PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) return Status::FromErrno(errno, "mmap an anonymous page");
  auto* report = new (shared) MapFailure();
  Result<int> pid = Spawn([&] {
    ::signal(SIGBUS, SIG_DFL);
    ::signal(SIGSEGV, SIG_DFL);
    *report = MapAndTouch(file, mapping);
    return report->err == 0 ? 0 : 1;
  });
  Status out;
  if (!pid.ok()) {
    out = pid.status();
  } else if (Result<int> code = WaitChild(*pid); !code.ok()) {
    out = code.status().kind() == Status::Kind::kInterrupted
              ? code.status()
              : Status::Error(fmt::format("a shared mapping of a file in {} killed the process "
                                          "that touched it ({})",
                                          dir, code.status().message()));
  } else if (*code != 0) {
    out = Status::Unsupported(fmt::format("{} for a shared mapping of a file in {} failed: {}",
                                          report->call, dir, ::strerror(report->err)));
  }
  ::munmap(shared, sizeof(MapFailure));
  ::unlink(file.c_str());
  return out;
}

}  // namespace durprobe::platform
