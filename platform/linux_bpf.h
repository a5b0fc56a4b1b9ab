// The BPF loader (Linux): the maps of a parsed object created, its programs loaded (the verifier's
// log kept for a refusal) and attached to their tracepoints through perf events, and a reader of
// a BPF ring buffer map. The bpf(2) system call directly, so no libbpf is needed at build or run
// time; what is missing (permission, tracefs, a tracepoint) is said in one sentence.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "platform/bpf_object.h"
#include "platform/status.h"

namespace durprobe::platform {

// A descriptor closed when the holder goes.
class OwnedFd {
 public:
  OwnedFd() = default;
  explicit OwnedFd(int fd) : fd_(fd) {}
  ~OwnedFd();
  OwnedFd(OwnedFd&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  OwnedFd& operator=(OwnedFd&& other) noexcept;
  OwnedFd(const OwnedFd&) = delete;
  OwnedFd& operator=(const OwnedFd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_ = -1;
};

// The tracefs events directory ("/sys/kernel/tracing/events", or debugfs's), or Unsupported
// saying how to mount it.
Result<std::string> TracefsEvents();

class BpfSession {
 public:
  // Creates obj's maps and loads its programs. A program whose tracepoint tracefs lacks is left
  // out when its category is in optional_categories (listed by skipped()), else Unsupported.
  // A refusal by the verifier is an Error carrying the end of the verifier's log; a refusal for
  // want of privilege is Unsupported naming it.
  static Result<std::unique_ptr<BpfSession>> Load(
      const BpfObject& object, const std::string& events_dir,
      const std::vector<std::string>& optional_categories);
  ~BpfSession();
  // The map's descriptor, -1 when the object has no map of that name.
  int MapFd(std::string_view name) const;
  // Attaches every loaded program to its tracepoint (from then on they run).
  Status Attach();
  const std::vector<std::string>& skipped() const { return skipped_; }

 private:
  BpfSession() = default;
  struct Program {
    std::string name;
    std::string event;
    std::uint64_t tracepoint_id = 0;
    OwnedFd fd;
  };
  std::vector<std::string> map_names_;
  std::vector<OwnedFd> maps_;
  std::vector<Program> programs_;
  std::vector<OwnedFd> perf_events_;
  std::vector<std::string> skipped_;
};

// bpf(BPF_MAP_UPDATE_ELEM) and BPF_MAP_LOOKUP_ELEM.
Status UpdateBpfMap(int map_fd, const void* key, const void* value);
Status LookupBpfMap(int map_fd, const void* key, void* value);
// BPF_MAP_GET_NEXT_KEY: the key after key (the first with key null); false at the end.
bool NextBpfMapKey(int map_fd, const void* key, void* next);

// The consumer side of a BPF_MAP_TYPE_RINGBUF map of `size` bytes.
class BpfRingReader {
 public:
  static Result<std::unique_ptr<BpfRingReader>> Open(int map_fd, std::size_t size);
  ~BpfRingReader();
  // Waits up to timeout_ms for records, then hands each to on_record in order. Returns how many;
  // a signal ends the wait early with 0.
  Result<std::size_t> Poll(int timeout_ms,
                           const std::function<void(const void*, std::size_t)>& on_record);

 private:
  BpfRingReader() = default;
  int map_fd_ = -1;
  std::size_t size_ = 0;
  std::size_t page_ = 0;
  void* consumer_ = nullptr;  // one page, read-write
  void* producer_ = nullptr;  // one page, then the data twice over, read-only
};

}  // namespace durprobe::platform
