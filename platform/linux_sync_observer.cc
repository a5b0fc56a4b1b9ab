// The sync observer on Linux: the embedded BPF object (bpf/sync_observer.bpf.c, compiled by the
// build) loaded by linux_bpf.h, its filter written to its maps, its records read from the ring
// buffer and their descriptors resolved to paths.
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <utility>

#include "platform/bpf_object.h"
#include "platform/linux_bpf.h"
#include "platform/sync_observer.h"
#include "platform/sync_observer_abi.h"
#include "platform/sync_observer_bpf_object.h"

namespace durprobe::platform {
namespace {

static_assert(sizeof(dp_sync_event) != sizeof(dp_open_event) &&
                  sizeof(dp_map_event) != sizeof(dp_sync_event) &&
                  sizeof(dp_map_event) != sizeof(dp_open_event),
              "records are told by their size");
constexpr std::size_t kRingBytes = 4 << 20;  // the program's dp_events
constexpr int kAtFdcwd = -100;

std::string ReadLink(const std::string& link) {
  char buf[4096];
  ssize_t n = ::readlink(link.c_str(), buf, sizeof(buf));
  if (n <= 0) return "";
  std::string target(buf, static_cast<std::size_t>(n));
  constexpr std::string_view kDeleted = " (deleted)";
  if (target.ends_with(kDeleted)) target.resize(target.size() - kDeleted.size());
  return target;
}

std::string ProcFd(std::uint32_t pid, int fd) {
  return ReadLink("/proc/" + std::to_string(pid) + "/fd/" + std::to_string(fd));
}

// The file mapped at address in pid's address space (/proc/PID/maps), "" when none.
std::string MappedFile(std::uint32_t pid, std::uint64_t address) {
  std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
  std::string line;
  while (std::getline(maps, line)) {
    std::uint64_t low = 0;
    std::uint64_t high = 0;
    char dash = 0;
    std::istringstream in(line);
    in >> std::hex >> low >> dash >> high;
    if (address < low || address >= high) continue;
    std::size_t slash = line.find('/');
    return slash == std::string::npos ? "" : line.substr(slash);
  }
  return "";
}

class LinuxSyncObserver : public SyncObserver {
 public:
  LinuxSyncObserver(std::unique_ptr<BpfSession> session, std::unique_ptr<BpfRingReader> ring)
      : session_(std::move(session)), ring_(std::move(ring)) {}

  Status Poll(int timeout_ms, std::vector<ObservedSync>* out) override {
    Result<std::size_t> read = ring_->Poll(timeout_ms, [&](const void* data, std::size_t size) {
      if (size == sizeof(dp_open_event)) {
        dp_open_event opened;
        std::memcpy(&opened, data, sizeof(opened));
        Opened(opened);
      } else if (size == sizeof(dp_map_event)) {
        dp_map_event mapped;
        std::memcpy(&mapped, data, sizeof(mapped));
        mappings_[mapped.tgid][mapped.addr] = {mapped.addr + mapped.length,
                                               Path(mapped.tgid, mapped.fd)};
      } else if (size == sizeof(dp_sync_event)) {
        dp_sync_event event;
        std::memcpy(&event, data, sizeof(event));
        out->push_back(Synced(event));
      }
    });
    return read.status();
  }

  std::uint64_t lost() const override {
    std::uint32_t zero = 0;
    std::uint64_t lost = 0;
    if (!LookupBpfMap(session_->MapFd("dp_lost"), &zero, &lost).ok()) return 0;
    return lost;
  }

  std::vector<UnsyncedWrites> Unsynced() override {
    std::vector<UnsyncedWrites> out;
    int fd = session_->MapFd("dp_files");
    dp_file_key key;
    dp_file_key next;
    const void* at = nullptr;
    while (NextBpfMapKey(fd, at, &next)) {
      key = next;
      at = &key;
      dp_file_state state;
      if (!LookupBpfMap(fd, &key, &state).ok() || state.bytes == 0) continue;
      out.push_back({key.tgid, key.fd, state.bytes, state.writes, Path(key.tgid, key.fd)});
    }
    return out;
  }

  std::vector<std::string> unobserved() const override { return session_->skipped(); }

 private:
  // The name the process gave openat, made absolute. Not read back from /proc/PID/fd: the
  // descriptor may already name another file when the record is read (SQLite closes its journal
  // and opens its WAL under the same number); /proc only when the name could not be read.
  void Opened(const dp_open_event& e) {
    std::string given(e.path, strnlen(e.path, sizeof(e.path)));
    std::string path;
    if (given.empty()) {
      path = ProcFd(e.tgid, e.fd);
    } else if (given[0] == '/') {
      path = given;
    } else {
      std::string base = e.dfd == kAtFdcwd ? ReadLink("/proc/" + std::to_string(e.tgid) + "/cwd")
                                           : Path(e.tgid, e.dfd);
      path = base.empty() ? given : (base == "/" ? "/" : base + "/") + given;
    }
    paths_[{e.tgid, e.fd}] = path;
  }

  std::string Path(std::uint32_t pid, int fd) {
    auto known = paths_.find({pid, fd});
    if (known != paths_.end() && !known->second.empty()) return known->second;
    std::string path = ProcFd(pid, fd);
    if (!path.empty()) paths_[{pid, fd}] = path;
    return path;
  }

  // The file mapped at address: from the mmap watch saw, else /proc/PID/maps now.
  std::string Mapped(std::uint32_t pid, std::uint64_t address) {
    auto process = mappings_.find(pid);
    if (process != mappings_.end()) {
      auto after = process->second.upper_bound(address);
      if (after != process->second.begin()) {
        const auto& [start, mapping] = *std::prev(after);
        if (address >= start && address < mapping.first) return mapping.second;
      }
    }
    return MappedFile(pid, address);
  }

  ObservedSync Synced(const dp_sync_event& e) {
    ObservedSync s;
    s.end_ns = e.end_ns;
    s.latency_ns = e.latency_ns;
    s.bytes_since_sync = e.bytes_since_sync;
    s.writes_since_sync = e.writes_since_sync;
    s.result = e.ret;
    s.pid = e.tgid;
    s.tid = e.tid;
    s.fd = e.fd;
    s.call = static_cast<ObservedCall>(e.op - DP_OP_FSYNC);
    s.flags = e.flags;
    s.address = e.addr;
    s.length = e.length;
    s.comm.assign(e.comm, strnlen(e.comm, sizeof(e.comm)));
    s.path = e.op == DP_OP_MSYNC ? Mapped(e.tgid, e.addr) : Path(e.tgid, e.fd);
    return s;
  }

  std::unique_ptr<BpfSession> session_;
  std::unique_ptr<BpfRingReader> ring_;
  std::map<std::pair<std::uint32_t, int>, std::string> paths_;
  // By process, by start address: the mapping's end and its file.
  std::map<std::uint32_t, std::map<std::uint64_t, std::pair<std::uint64_t, std::string>>> mappings_;
};

static_assert(DP_OP_URING_SYNC_RANGE - DP_OP_FSYNC ==
              static_cast<int>(ObservedCall::kUringSyncFileRange));

}  // namespace

Result<std::unique_ptr<SyncObserver>> OpenSyncObserver(const SyncObserverFilter& filter) {
  if (filter.comm.size() > 15) {
    return Status::InvalidArgument("a comm is 15 bytes at most: " + filter.comm);
  }
  Result<std::string> events = TracefsEvents();
  if (!events.ok()) return events.status();
  Result<BpfObject> object = ParseBpfObject(SyncObserverBpfObject());
  if (!object.ok()) return object.status();
  Result<std::unique_ptr<BpfSession>> session = BpfSession::Load(*object, *events, {"io_uring"});
  if (!session.ok()) return session.status();
  BpfSession& s = **session;

  dp_config config = {};
  config.filter_pids = filter.pids.empty() ? 0 : 1;
  config.filter_comm = filter.comm.empty() ? 0 : 1;
  config.self_tgid = static_cast<std::uint32_t>(::getpid());
  std::memcpy(config.comm, filter.comm.data(), filter.comm.size());
  std::uint32_t zero = 0;
  if (Status st = UpdateBpfMap(s.MapFd("dp_config"), &zero, &config); !st.ok()) return st;
  for (int pid : filter.pids) {
    std::uint32_t key = static_cast<std::uint32_t>(pid);
    std::uint8_t yes = 1;
    if (Status st = UpdateBpfMap(s.MapFd("dp_pids"), &key, &yes); !st.ok()) return st;
  }
  Result<std::unique_ptr<BpfRingReader>> ring =
      BpfRingReader::Open(s.MapFd("dp_events"), kRingBytes);
  if (!ring.ok()) return ring.status();
  if (Status st = s.Attach(); !st.ok()) return st;
  return std::unique_ptr<SyncObserver>(
      new LinuxSyncObserver(std::move(*session), std::move(*ring)));
}

}  // namespace durprobe::platform
