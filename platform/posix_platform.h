// The parts of Platform that are the same on every POSIX system. linux_platform.cc and
// darwin_platform.cc derive from it and supply the sync calls and flags that differ.
#pragma once

#include "platform/platform.h"

namespace durprobe::platform {

class PosixPlatform : public Platform {
 public:
  Result<FileHandle> Open(const std::string& path, const OpenFlags& flags) override;
  Status Close(int fd) override;
  Status PWrite(int fd, const void* buf, std::size_t n, std::uint64_t offset) override;
  Result<std::size_t> PRead(int fd, void* buf, std::size_t n, std::uint64_t offset) override;
  Status Truncate(int fd, std::uint64_t size) override;
  Status SyncDirectory(const std::string& dir) override;
  Status MakeDirectory(const std::string& path) override;
  Status RemoveDirectory(const std::string& path) override;
  Status Unlink(const std::string& path) override;
  Status Rename(const std::string& from, const std::string& to) override;
  Result<std::vector<std::string>> ListDirectory(const std::string& dir) override;
  PathKind KindOf(const std::string& path) override;
  PathKind KindOfNoFollow(const std::string& path) override;
  Result<FileStat> Stat(const std::string& path) override;
  Result<std::string> RealPath(const std::string& path) override;
  Result<std::string> ReadTextFile(const std::string& path, std::size_t max_bytes) override;
  Status WriteTextFile(const std::string& path, const std::string& text) override;
  // posix_destination.cc
  Status ReplaceFileAtomically(const std::string& path, const std::string& text) override;
  Result<DestinationFile> ResolveDestination(const std::string& path) override;
  Status CheckWritableDirectory(const std::string& dir) override;
  Result<FileHandle> OpenFifoWriter(const std::string& path) override;
  // posix_directory.cc
  Result<FileHandle> OpenDirectoryAt(int dir_fd, const std::string& name,
                                     bool follow_last) override;
  Result<EntryStat> StatAt(int dir_fd, const std::string& name) override;
  Result<std::vector<std::string>> ListDirectoryAt(int dir_fd) override;
  Status UnlinkAt(int dir_fd, const std::string& name, bool directory) override;
  Result<FileHandle> OpenFileAt(int dir_fd, const std::string& name) override;
  Status TryLock(int fd) override;
  bool IsTerminal(int fd) override;
  int TerminalColumns(int fd) override;
  std::uint64_t NowNanos() override;
  void SleepNanos(std::uint64_t ns) override;
  void SpinNanos(std::uint64_t ns) override;
  Result<std::unique_ptr<Partner>> StartPartner() override;  // posix_partner.cc
  std::string WallClockIso8601() override;
  SystemInfo System() override;
  int ProcessId() override;
  std::uint32_t EffectiveUserId() override;
  Result<std::uint64_t> StackLimitBytes() override;
  bool ProcessAlive(int pid) override;
  std::string GetEnv(const std::string& name) override;
  Result<std::uint64_t> FileSize(const std::string& path) override;
  Result<std::uint64_t> FreeBytes(const std::string& path) override;
  // posix_process.cc
  Result<Pipe> MakePipe() override;
  Status WriteAll(int fd, const void* buf, std::size_t n) override;
  Result<std::size_t> ReadSome(int fd, void* buf, std::size_t n) override;
  Result<int> Spawn(const std::function<int()>& body) override;
  Result<int> WaitChild(int pid) override;
  // posix_shared_mapping.cc
  Status CheckSharedMapping(const std::string& dir, const SharedMapping& mapping) override;

 protected:
  // open(2) flag bits for the OS-specific flags (dsync, sync, direct); Unsupported if absent.
  virtual Result<int> ExtraOpenBits(const OpenFlags& flags) const = 0;
  // Called after a successful open, for flags set by fcntl (macOS F_NOCACHE).
  virtual Status AfterOpen(int fd, const OpenFlags& flags) = 0;
  // Whether the entry name under dir_fd (dir_fd itself when name is empty) is a mount's root,
  // where the OS can tell without a device change (Linux statx); false by default.
  virtual bool IsMountRoot(int dir_fd, const std::string& name);
};

}  // namespace durprobe::platform
