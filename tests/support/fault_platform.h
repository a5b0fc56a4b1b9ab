// A Platform that forwards to another and injects faults, for tests (LevelDB's ErrorEnv on
// EnvWrapper): it overrides only the calls it changes, ForwardingPlatform forwards the rest.
// Faults apply from the given call on; a count of 0 means "every call".
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "platform/platform.h"
#include "tests/support/forwarding_platform.h"

namespace durprobe::platform {

class FaultPlatform final : public ForwardingPlatform {
 public:
  explicit FaultPlatform(Platform& base) : ForwardingPlatform(base) {}

  // errno for the next matching calls (0 disables). after_calls lets that many succeed first.
  void FailSyncs(int err, int after_calls = 0) {
    sync_err_ = err;
    sync_after_ = after_calls;
  }
  void FailWrites(int err, int after_calls = 0) {
    write_err_ = err;
    write_after_ = after_calls;
  }
  void FailOpens(int err) { open_err_ = err; }
  // errno for every Close from now on (0 disables). The descriptor is closed all the same, as
  // close(2) releases it even when it reports an error (NFS's deferred write errors).
  void FailCloses(int err) { close_err_ = err; }
  int close_calls() const { return close_calls_; }
  // From now on MakeRing and PWriteDsync say Unsupported(reason), as a kernel without io_uring
  // or a seccomp filter would ("" lets them through again).
  void RefuseModernSync(std::string reason) { refuse_modern_ = std::move(reason); }
  // Extra latency added inside every Sync and SyncDirectory call.
  void AddSyncLatency(std::uint64_t ns) { sync_latency_ns_ = ns; }
  // The same, from the (after_calls + 1)-th Sync or SyncDirectory call on: a device that changes
  // state mid-run.
  void AddSyncLatencyAfter(std::uint64_t ns, int after_calls) {
    late_latency_ns_ = ns;
    late_after_ = after_calls;
  }
  // From the next Sync or SyncDirectory call on, the added latency grows by ns every `every`
  // calls: a device that never settles.
  void AddSyncLatencyRamp(std::uint64_t ns, int every) {
    ramp_ns_ = ns;
    ramp_every_ = every;
    ramp_from_ = sync_calls_;
  }
  int sync_calls() const { return sync_calls_; }
  // The time waited on the CPU (SpinNanos) so far, apart from time slept.
  std::uint64_t spun_ns() const { return spun_ns_; }
  std::uint64_t round_trips() const { return round_trips_; }
  // CheckSharedMapping returns this status from now on instead of trying (ok disables).
  void FailSharedMapping(Status status) { shm_fault_ = std::move(status); }
  // CheckSharedMapping really tries, but touches a page past the file's end, so its child dies of
  // a real SIGBUS on any filesystem.
  void FaultSharedMapping() { shm_past_end_ = true; }
  int shared_mapping_calls() const { return shm_calls_; }
  // The data calls in order: 'w' per PWrite, 's' per Sync, 'd' per SyncDirectory, 'W' per
  // PWriteDsync, 'u' per io_uring write-then-sync (tests read how many writes each sync covers).
  // The data calls are counted under a lock, so writers on several threads may share this.
  const std::string& call_trace() const { return trace_; }
  // How many distinct threads made a data call (PWrite, Sync, PWriteDsync, ring write-then-sync).
  std::size_t data_call_threads() const {
    std::lock_guard<std::mutex> lock(mu_);
    return threads_.size();
  }

  // A fake monotonic clock, for tests of timing logic that must not depend on the machine's
  // speed: from this call on, NowNanos returns start_ns plus what AdvanceClock, SleepNanos and
  // the added sync latency have added; nothing else moves it.
  void UseFakeClock(std::uint64_t start_ns = 1'000'000'000) {
    fake_clock_ = true;
    now_ns_ = start_ns;
  }
  void AdvanceClock(std::uint64_t ns) { now_ns_ += ns; }
  // With the fake clock: every NowNanos first moves the clock on by ns, as if each reading
  // (and the caller's work since the previous one) took that long.
  void AdvanceClockOnEachRead(std::uint64_t ns) { read_cost_ns_ = ns; }

  Result<FileHandle> Open(const std::string& path, const OpenFlags& flags) override;
  Status Close(int fd) override;
  Status PWrite(int fd, const void* buf, std::size_t n, std::uint64_t offset) override;
  Status Sync(int fd, SyncCall call, std::uint64_t offset, std::uint64_t length) override;
  Status PWriteDsync(int fd, const void* buf, std::size_t n, std::uint64_t offset) override;
  Result<std::unique_ptr<IoRing>> MakeRing(unsigned entries) override;
  // What the ring wrapper calls, under the lock: traces 'u' and applies the sync faults.
  Status RingWriteThenSync(IoRing& ring, int fd, const void* buf, std::size_t n,
                           std::uint64_t offset, bool datasync);
  Status SyncDirectory(const std::string& dir) override;
  // DescriptorPath returns this status from now on instead of the path (ok forwards again), as
  // a system without /proc would.
  void FailDescriptorPath(Status status) { descriptor_path_fault_ = std::move(status); }
  Result<std::string> DescriptorPath(int dir_fd) override {
    if (!descriptor_path_fault_.ok()) return descriptor_path_fault_;
    return target().DescriptorPath(dir_fd);
  }
  // Without a page set, forwards; with one, every ReadNvmeLogPage returns the next page of the
  // list (the last one repeated), as an EBS device's counters would read before and after a run.
  void SetNvmeLogPages(std::vector<std::vector<std::uint8_t>> pages) {
    nvme_pages_ = std::move(pages);
  }
  int nvme_reads() const { return nvme_reads_; }
  Result<std::vector<std::uint8_t>> ReadNvmeLogPage(const std::string& name, std::uint8_t log_id,
                                                    std::uint32_t nsid,
                                                    std::size_t bytes) override {
    if (nvme_pages_.empty()) return target().ReadNvmeLogPage(name, log_id, nsid, bytes);
    std::size_t i = std::min<std::size_t>(nvme_reads_++, nvme_pages_.size() - 1);
    return nvme_pages_[i];
  }
  std::uint64_t NowNanos() override {
    return fake_clock_ ? (now_ns_ += read_cost_ns_) : target().NowNanos();
  }
  void SleepNanos(std::uint64_t ns) override;
  void SpinNanos(std::uint64_t ns) override;
  // With the fake clock a round trip takes its two sides' spins and counts in spun_ns and
  // round_trips; without it the base platform's partner runs.
  Result<std::unique_ptr<Partner>> StartPartner() override;
  // The CPU quota ReadCpuQuota reports from now on, and the throttling counters each
  // ReadCpuThrottling returns in turn (the last one repeated), as a cgroup under a limit would
  // count before and after a probe. With the fake clock and no quota set, ReadCpuQuota says
  // there is none, so timing tests do not depend on the machine's cgroup.
  void SetCpuQuota(CpuQuota quota) { cpu_quota_ = std::move(quota); }
  void SetCpuThrottling(std::vector<CpuThrottleCount> counts) {
    throttle_counts_ = std::move(counts);
  }
  int throttle_reads() const { return throttle_reads_; }
  CpuQuota ReadCpuQuota() override;
  Result<CpuThrottleCount> ReadCpuThrottling(const CpuQuota& quota) override;
  // StackLimitBytes returns bytes from now on (nullopt forwards again), as `ulimit -s` would set.
  void SetStackLimit(std::optional<std::uint64_t> bytes) { stack_limit_ = bytes; }
  Result<std::uint64_t> StackLimitBytes() override {
    if (stack_limit_) return *stack_limit_;
    return target().StackLimitBytes();
  }
  Result<Pipe> MakePipe() override;
  Status CheckSharedMapping(const std::string& dir, const SharedMapping& mapping) override;

 private:
  std::vector<std::vector<std::uint8_t>> nvme_pages_;
  std::optional<CpuQuota> cpu_quota_;
  std::vector<CpuThrottleCount> throttle_counts_;
  int throttle_reads_ = 0;
  int nvme_reads_ = 0;
  // True when this call should fail: counts down `after` first.
  static bool Trips(int err, int& after);
  void NoteDataCall(char kind);  // with mu_ held
  Status SyncFault(const char* what);

  int sync_err_ = 0, sync_after_ = 0;
  int write_err_ = 0, write_after_ = 0;
  int open_err_ = 0;
  int close_err_ = 0;
  int close_calls_ = 0;
  std::uint64_t sync_latency_ns_ = 0;
  std::uint64_t late_latency_ns_ = 0;
  int late_after_ = 0;
  std::uint64_t ramp_ns_ = 0;
  int ramp_every_ = 0, ramp_from_ = 0;
  int sync_calls_ = 0;
  std::uint64_t spun_ns_ = 0;
  std::uint64_t round_trips_ = 0;
  Status shm_fault_;
  Status descriptor_path_fault_;
  std::optional<std::uint64_t> stack_limit_;
  bool shm_past_end_ = false;
  int shm_calls_ = 0;
  std::string trace_;
  std::string refuse_modern_;
  mutable std::mutex mu_;  // the data calls' counters, trace and threads
  std::set<std::thread::id> threads_;
  bool fake_clock_ = false;
  std::atomic<std::uint64_t> now_ns_{0};  // read by the progress ticker's thread too
  std::uint64_t read_cost_ns_ = 0;
};

}  // namespace durprobe::platform
