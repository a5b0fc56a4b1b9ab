#include "platform/linux_bpf.h"

#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>

namespace durprobe::platform {
namespace {

long Bpf(int command, union bpf_attr* attr) {
  return syscall(__NR_bpf, command, attr, sizeof(*attr));
}

bool IsDirectory(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// The last lines of the verifier's log: where it stopped and why.
std::string LogTail(const std::string& log, std::size_t lines) {
  std::size_t end = log.find_last_not_of("\n ");
  if (end == std::string::npos) return "(the verifier wrote no log)";
  std::size_t start = end + 1;
  for (std::size_t n = 0; n < lines && start > 0; ++n) {
    std::size_t nl = log.rfind('\n', start - 1);
    start = nl == std::string::npos ? 0 : nl;
    if (nl == std::string::npos) break;
  }
  std::string tail = log.substr(start, end + 1 - start);
  if (!tail.empty() && tail[0] == '\n') tail.erase(0, 1);
  return tail;
}

Status PermissionStatus(int err, std::string_view what) {
  std::string message = std::string(what) + ": " + std::strerror(err) +
                        " (watch needs root, or CAP_BPF with CAP_PERFMON";
  std::ifstream lock("/sys/kernel/security/lockdown");
  std::string line;
  if (std::getline(lock, line) && line.find("[none]") == std::string::npos) {
    message += "; kernel lockdown is " + line;
  }
  return Status::Unsupported(message + ")");
}

Result<std::uint64_t> TracepointId(const std::string& events_dir, const std::string& category,
                                   const std::string& event) {
  std::ifstream in(events_dir + "/" + category + "/" + event + "/id");
  std::uint64_t id = 0;
  if (!(in >> id)) {
    return Status::Unsupported("the kernel has no tracepoint " + category + "/" + event + " (" +
                               events_dir + ")");
  }
  return id;
}

}  // namespace

OwnedFd::~OwnedFd() {
  if (fd_ >= 0) ::close(fd_);
}

OwnedFd& OwnedFd::operator=(OwnedFd&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

Result<std::string> TracefsEvents() {
  for (const char* dir : {"/sys/kernel/tracing/events", "/sys/kernel/debug/tracing/events"}) {
    if (IsDirectory(std::string(dir) + "/syscalls")) return std::string(dir);
  }
  struct stat st;
  if (::stat("/sys/kernel/tracing/events", &st) != 0 && errno == EACCES) {
    return Status::Unsupported(
        "/sys/kernel/tracing cannot be read: permission denied (watch needs root, or CAP_BPF "
        "with CAP_PERFMON and access to tracefs)");
  }
  if (IsDirectory("/sys/kernel/tracing") && !IsDirectory("/sys/kernel/tracing/events")) {
    return Status::Unsupported(
        "tracefs is not mounted at /sys/kernel/tracing (as root: mount -t tracefs nodev "
        "/sys/kernel/tracing)");
  }
  return Status::Unsupported(
      "no syscall tracepoints in tracefs (a kernel without CONFIG_FTRACE_SYSCALLS, or tracefs "
      "not mounted: mount -t tracefs nodev /sys/kernel/tracing)");
}

Result<std::unique_ptr<BpfSession>> BpfSession::Load(
    const BpfObject& object, const std::string& events_dir,
    const std::vector<std::string>& optional_categories) {
  std::unique_ptr<BpfSession> session(new BpfSession());
  for (const BpfMapSpec& spec : object.maps) {
    union bpf_attr attr;
    std::memset(&attr, 0, sizeof(attr));
    attr.map_type = spec.type;
    attr.key_size = spec.key_size;
    attr.value_size = spec.value_size;
    attr.max_entries = spec.max_entries;
    attr.map_flags = spec.flags;
    std::strncpy(attr.map_name, spec.name.c_str(), sizeof(attr.map_name) - 1);
    long fd = Bpf(BPF_MAP_CREATE, &attr);
    if (fd < 0) {
      int err = errno;
      if (err == EPERM || err == EACCES) return PermissionStatus(err, "cannot create BPF maps");
      return Status::FromErrno(err, "cannot create the BPF map " + spec.name);
    }
    session->map_names_.push_back(spec.name);
    session->maps_.emplace_back(static_cast<int>(fd));
  }
  for (const BpfProgramSpec& spec : object.programs) {
    Result<std::uint64_t> id = TracepointId(events_dir, spec.category, spec.event);
    if (!id.ok()) {
      bool optional = false;
      for (const std::string& c : optional_categories) optional = optional || c == spec.category;
      if (!optional) return id.status();
      session->skipped_.push_back(spec.category + "/" + spec.event);
      continue;
    }
    std::vector<std::uint64_t> code = spec.instructions;
    for (const BpfMapReference& ref : spec.map_references) {
      struct bpf_insn insn;
      std::memcpy(&insn, &code[ref.instruction], sizeof(insn));
      insn.src_reg = BPF_PSEUDO_MAP_FD;
      insn.imm = session->maps_[ref.map].get();
      std::memcpy(&code[ref.instruction], &insn, sizeof(insn));
    }
    std::string log(1 << 20, '\0');
    long fd = -1;
    int err = 0;
    // First without a log (the verifier is faster so), then again with one to show a refusal.
    for (std::uint32_t level : {0u, 1u}) {
      union bpf_attr attr;
      std::memset(&attr, 0, sizeof(attr));
      attr.prog_type = BPF_PROG_TYPE_TRACEPOINT;
      attr.insns = reinterpret_cast<std::uint64_t>(code.data());
      attr.insn_cnt = static_cast<std::uint32_t>(code.size());
      attr.license = reinterpret_cast<std::uint64_t>(object.license.c_str());
      attr.log_level = level;
      if (level != 0) {
        attr.log_buf = reinterpret_cast<std::uint64_t>(log.data());
        attr.log_size = static_cast<std::uint32_t>(log.size());
      }
      std::strncpy(attr.prog_name, spec.name.c_str(), sizeof(attr.prog_name) - 1);
      fd = Bpf(BPF_PROG_LOAD, &attr);
      err = errno;
      if (fd >= 0 || err == EPERM) break;
    }
    if (fd < 0) {
      if (err == EPERM) return PermissionStatus(err, "cannot load BPF programs");
      log.resize(std::strlen(log.c_str()));
      return Status::Error("the kernel's verifier refused the BPF program " + spec.name + " (" +
                           std::strerror(err) + "); the end of its log:\n" + LogTail(log, 30));
    }
    session->programs_.push_back(
        {spec.name, spec.category + "/" + spec.event, *id, OwnedFd(static_cast<int>(fd))});
  }
  return session;
}

BpfSession::~BpfSession() = default;

int BpfSession::MapFd(std::string_view name) const {
  for (std::size_t i = 0; i < map_names_.size(); ++i) {
    if (map_names_[i] == name) return maps_[i].get();
  }
  return -1;
}

Status BpfSession::Attach() {
  for (const Program& program : programs_) {
    struct perf_event_attr attr;
    std::memset(&attr, 0, sizeof(attr));
    attr.type = PERF_TYPE_TRACEPOINT;
    attr.size = sizeof(attr);
    attr.config = program.tracepoint_id;
    attr.sample_period = 1;
    attr.wakeup_events = 1;
    // One event on CPU 0 for any process: a BPF program on a tracepoint runs on every CPU.
    long fd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0) {
      int err = errno;
      if (err == EPERM || err == EACCES) {
        return PermissionStatus(err, "cannot open the tracepoint " + program.event);
      }
      return Status::FromErrno(err, "cannot open the tracepoint " + program.event);
    }
    OwnedFd event(static_cast<int>(fd));
    if (ioctl(event.get(), PERF_EVENT_IOC_SET_BPF, program.fd.get()) != 0 ||
        ioctl(event.get(), PERF_EVENT_IOC_ENABLE, 0) != 0) {
      return Status::FromErrno(errno, "cannot attach " + program.name + " to " + program.event);
    }
    perf_events_.push_back(std::move(event));
  }
  return Status::Ok();
}

Status UpdateBpfMap(int map_fd, const void* key, const void* value) {
  union bpf_attr attr;
  std::memset(&attr, 0, sizeof(attr));
  attr.map_fd = static_cast<std::uint32_t>(map_fd);
  attr.key = reinterpret_cast<std::uint64_t>(key);
  attr.value = reinterpret_cast<std::uint64_t>(value);
  attr.flags = BPF_ANY;
  if (Bpf(BPF_MAP_UPDATE_ELEM, &attr) != 0) return Status::FromErrno(errno, "BPF map update");
  return Status::Ok();
}

Status LookupBpfMap(int map_fd, const void* key, void* value) {
  union bpf_attr attr;
  std::memset(&attr, 0, sizeof(attr));
  attr.map_fd = static_cast<std::uint32_t>(map_fd);
  attr.key = reinterpret_cast<std::uint64_t>(key);
  attr.value = reinterpret_cast<std::uint64_t>(value);
  if (Bpf(BPF_MAP_LOOKUP_ELEM, &attr) != 0) return Status::FromErrno(errno, "BPF map lookup");
  return Status::Ok();
}

bool NextBpfMapKey(int map_fd, const void* key, void* next) {
  union bpf_attr attr;
  std::memset(&attr, 0, sizeof(attr));
  attr.map_fd = static_cast<std::uint32_t>(map_fd);
  attr.key = reinterpret_cast<std::uint64_t>(key);
  attr.next_key = reinterpret_cast<std::uint64_t>(next);
  return Bpf(BPF_MAP_GET_NEXT_KEY, &attr) == 0;
}

Result<std::unique_ptr<BpfRingReader>> BpfRingReader::Open(int map_fd, std::size_t size) {
  std::unique_ptr<BpfRingReader> reader(new BpfRingReader());
  reader->map_fd_ = map_fd;
  reader->size_ = size;
  reader->page_ = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* consumer = mmap(nullptr, reader->page_, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd, 0);
  if (consumer == MAP_FAILED) return Status::FromErrno(errno, "cannot map the BPF ring buffer");
  reader->consumer_ = consumer;
  void* producer = mmap(nullptr, reader->page_ + 2 * size, PROT_READ, MAP_SHARED, map_fd,
                        static_cast<off_t>(reader->page_));
  if (producer == MAP_FAILED) return Status::FromErrno(errno, "cannot map the BPF ring buffer");
  reader->producer_ = producer;
  return reader;
}

BpfRingReader::~BpfRingReader() {
  if (consumer_ != nullptr) munmap(consumer_, page_);
  if (producer_ != nullptr) munmap(producer_, page_ + 2 * size_);
}

Result<std::size_t> BpfRingReader::Poll(
    int timeout_ms, const std::function<void(const void*, std::size_t)>& on_record) {
  auto* consumer_pos = static_cast<std::uint64_t*>(consumer_);
  auto* producer_pos = static_cast<std::uint64_t*>(producer_);
  const char* data = static_cast<const char*>(producer_) + page_;
  auto pending = [&] {
    return __atomic_load_n(producer_pos, __ATOMIC_ACQUIRE) !=
           __atomic_load_n(consumer_pos, __ATOMIC_ACQUIRE);
  };
  if (!pending()) {
    struct pollfd p = {map_fd_, POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) < 0) {
      if (errno == EINTR) return std::size_t{0};
      return Status::FromErrno(errno, "waiting on the BPF ring buffer");
    }
  }
  std::size_t records = 0;
  std::uint64_t cons = __atomic_load_n(consumer_pos, __ATOMIC_ACQUIRE);
  std::uint64_t prod = __atomic_load_n(producer_pos, __ATOMIC_ACQUIRE);
  while (cons < prod) {
    const auto* header = reinterpret_cast<const std::uint32_t*>(data + (cons & (size_ - 1)));
    std::uint32_t len = __atomic_load_n(header, __ATOMIC_ACQUIRE);
    if ((len & BPF_RINGBUF_BUSY_BIT) != 0) break;
    std::uint32_t length = len & ~(BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT);
    if ((len & BPF_RINGBUF_DISCARD_BIT) == 0) {
      on_record(reinterpret_cast<const char*>(header) + BPF_RINGBUF_HDR_SZ, length);
      ++records;
    }
    cons += (length + BPF_RINGBUF_HDR_SZ + 7) & ~std::uint64_t{7};
    __atomic_store_n(consumer_pos, cons, __ATOMIC_RELEASE);
    prod = __atomic_load_n(producer_pos, __ATOMIC_ACQUIRE);
  }
  return records;
}

}  // namespace durprobe::platform
