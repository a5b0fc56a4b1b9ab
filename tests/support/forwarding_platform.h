// A Platform that forwards every call to another one (LevelDB's EnvWrapper): a test's wrapper
// derives from it and overrides only the calls it changes. Test support only: the durprobe binary
// has no wrapper of its Platform.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "platform/platform.h"

namespace durprobe::platform {

class ForwardingPlatform : public Platform {
 public:
  explicit ForwardingPlatform(Platform& target) : target_(target) {}

  // The platform every call goes to.
  Platform& target() const { return target_; }

  Result<FileHandle> Open(const std::string& path, const OpenFlags& flags) override {
    return target_.Open(path, flags);
  }
  Status Close(int fd) override { return target_.Close(fd); }
  Status PWrite(int fd, const void* buf, std::size_t n, std::uint64_t offset) override {
    return target_.PWrite(fd, buf, n, offset);
  }
  Result<std::size_t> PRead(int fd, void* buf, std::size_t n, std::uint64_t offset) override {
    return target_.PRead(fd, buf, n, offset);
  }
  Status Allocate(int fd, std::uint64_t size) override { return target_.Allocate(fd, size); }
  Status Truncate(int fd, std::uint64_t size) override { return target_.Truncate(fd, size); }
  Status Sync(int fd, SyncCall call, std::uint64_t offset, std::uint64_t length) override {
    return target_.Sync(fd, call, offset, length);
  }
  Status SupportsSync(SyncCall call) const override { return target_.SupportsSync(call); }
  Status SupportsOpenFlags(const OpenFlags& flags) const override {
    return target_.SupportsOpenFlags(flags);
  }
  Status DropCache(int fd) override { return target_.DropCache(fd); }
  Status EvictCache(int fd) override { return target_.EvictCache(fd); }
  Status PWriteDsync(int fd, const void* buf, std::size_t n, std::uint64_t offset) override {
    return target_.PWriteDsync(fd, buf, n, offset);
  }
  Result<std::unique_ptr<IoRing>> MakeRing(unsigned entries) override {
    return target_.MakeRing(entries);
  }

  Status SyncDirectory(const std::string& dir) override { return target_.SyncDirectory(dir); }
  Status MakeDirectory(const std::string& path) override { return target_.MakeDirectory(path); }
  Status RemoveDirectory(const std::string& path) override { return target_.RemoveDirectory(path); }
  Status Unlink(const std::string& path) override { return target_.Unlink(path); }
  Status Rename(const std::string& from, const std::string& to) override {
    return target_.Rename(from, to);
  }
  Result<std::vector<std::string>> ListDirectory(const std::string& dir) override {
    return target_.ListDirectory(dir);
  }
  PathKind KindOf(const std::string& path) override { return target_.KindOf(path); }
  PathKind KindOfNoFollow(const std::string& path) override { return target_.KindOfNoFollow(path); }
  Result<std::string> RealPath(const std::string& path) override { return target_.RealPath(path); }
  Result<std::string> ReadTextFile(const std::string& path, std::size_t max_bytes) override {
    return target_.ReadTextFile(path, max_bytes);
  }
  Status WriteTextFile(const std::string& path, const std::string& text) override {
    return target_.WriteTextFile(path, text);
  }
  Status ReplaceFileAtomically(const std::string& path, const std::string& text) override {
    return target_.ReplaceFileAtomically(path, text);
  }
  Result<DestinationFile> ResolveDestination(const std::string& path) override {
    return target_.ResolveDestination(path);
  }
  Result<FileHandle> OpenDirectoryAt(int dir_fd, const std::string& name,
                                     bool follow_last) override {
    return target_.OpenDirectoryAt(dir_fd, name, follow_last);
  }
  Result<EntryStat> StatAt(int dir_fd, const std::string& name) override {
    return target_.StatAt(dir_fd, name);
  }
  Result<std::string> DescriptorPath(int dir_fd) override { return target_.DescriptorPath(dir_fd); }
  Status TryLock(int fd) override { return target_.TryLock(fd); }
  Result<std::vector<std::string>> ListDirectoryAt(int dir_fd) override {
    return target_.ListDirectoryAt(dir_fd);
  }
  Status UnlinkAt(int dir_fd, const std::string& name, bool directory) override {
    return target_.UnlinkAt(dir_fd, name, directory);
  }
  Result<FileHandle> OpenFileAt(int dir_fd, const std::string& name) override {
    return target_.OpenFileAt(dir_fd, name);
  }
  Result<FileHandle> OpenFifoWriter(const std::string& path) override {
    return target_.OpenFifoWriter(path);
  }
  Status CheckWritableDirectory(const std::string& dir) override {
    return target_.CheckWritableDirectory(dir);
  }
  bool IsTerminal(int fd) override { return target_.IsTerminal(fd); }
  int TerminalColumns(int fd) override { return target_.TerminalColumns(fd); }

  Result<FsStat> StatFs(const std::string& path) override { return target_.StatFs(path); }
  Result<FileStat> Stat(const std::string& path) override { return target_.Stat(path); }
  Result<std::vector<std::uint8_t>> ReadNvmeLogPage(const std::string& name, std::uint8_t log_id,
                                                    std::uint32_t nsid,
                                                    std::size_t bytes) override {
    return target_.ReadNvmeLogPage(name, log_id, nsid, bytes);
  }
  Status SetNoCopyOnWrite(const std::string& dir) override { return target_.SetNoCopyOnWrite(dir); }

  std::uint64_t NowNanos() override { return target_.NowNanos(); }
  void SleepNanos(std::uint64_t ns) override { target_.SleepNanos(ns); }
  void SpinNanos(std::uint64_t ns) override { target_.SpinNanos(ns); }
  Result<std::unique_ptr<Partner>> StartPartner() override { return target_.StartPartner(); }
  CpuQuota ReadCpuQuota() override { return target_.ReadCpuQuota(); }
  Result<CpuThrottleCount> ReadCpuThrottling(const CpuQuota& quota) override {
    return target_.ReadCpuThrottling(quota);
  }
  std::string WallClockIso8601() override { return target_.WallClockIso8601(); }
  SystemInfo System() override { return target_.System(); }
  int ProcessId() override { return target_.ProcessId(); }
  std::uint32_t EffectiveUserId() override { return target_.EffectiveUserId(); }
  Result<std::uint64_t> StackLimitBytes() override { return target_.StackLimitBytes(); }
  bool ProcessAlive(int pid) override { return target_.ProcessAlive(pid); }
  Result<std::string> ProcessName(int pid) override { return target_.ProcessName(pid); }
  std::string GetEnv(const std::string& name) override { return target_.GetEnv(name); }

  Result<std::uint64_t> FileSize(const std::string& path) override {
    return target_.FileSize(path);
  }
  Result<std::uint64_t> FreeBytes(const std::string& path) override {
    return target_.FreeBytes(path);
  }

  Result<Pipe> MakePipe() override { return target_.MakePipe(); }
  Status WriteAll(int fd, const void* buf, std::size_t n) override {
    return target_.WriteAll(fd, buf, n);
  }
  Result<std::size_t> ReadSome(int fd, void* buf, std::size_t n) override {
    return target_.ReadSome(fd, buf, n);
  }
  Result<int> Spawn(const std::function<int()>& body) override { return target_.Spawn(body); }
  Result<int> WaitChild(int pid) override { return target_.WaitChild(pid); }

  Status CheckSharedMapping(const std::string& dir, const SharedMapping& mapping) override {
    return target_.CheckSharedMapping(dir, mapping);
  }

 private:
  Platform& target_;
};

}  // namespace durprobe::platform
