// A crash-simulating SQLite VFS. Files live in a CrashDisk (crash_disk.h) held in memory; the
// VFS keeps SQLite's view (live content) and the disk's (durable content and the ordered log of
// unsynced writes and directory operations), and can "cut the power" at a chosen call.
//
// Why in memory rather than on top of a real directory: a crash state must be exactly what the
// model says, not what the host's page cache and filesystem happened to persist; thousands of
// runs must cost no real fsync; and every run must be reproducible from a seed. The image a
// crash leaves is written to a real directory afterwards (crashsim.h) and opened there with
// plain SQLite and its default VFS, so recovery itself is never simulated.
//
// It behaves as SQLite's unix VFS does towards the directory: the first successful xSync of a
// journal, super-journal or WAL file it opened with SQLITE_OPEN_CREATE also syncs the directory,
// and xDelete syncs it when SQLite passes syncDir (synchronous=EXTRA in DELETE mode). It tells
// SQLite what the unix VFS tells it on Linux (sector size 4096, POWERSAFE_OVERWRITE), whatever
// the simulated device does: crashsim asks what unmodified SQLite risks on such a device.
// set_powersafe_overwrite(false) tells SQLite what the psow=0 URI parameter would.
//
// One connection at a time: locks always succeed and shared memory is plain heap memory. Not
// thread-safe. Unregisters itself when destroyed.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "platform/status.h"
#include "sqlite_bench/crash_disk.h"

namespace durprobe::sqlite_bench {

class CrashVfs {
 public:
  static constexpr std::uint64_t kNever = 0;

  static Result<std::unique_ptr<CrashVfs>> Register(const std::string& name, DeviceModel device);
  ~CrashVfs();
  CrashVfs(const CrashVfs&) = delete;
  CrashVfs& operator=(const CrashVfs&) = delete;

  const char* name() const { return name_.c_str(); }
  CrashDisk& disk() { return disk_; }
  const CrashDisk& disk() const { return disk_; }

  // Starts counting calls that change the disk (xWrite, xTruncate, xSync, xDelete, a creating
  // xOpen) from zero. With at_call = N > 0 the power goes just before the Nth such call: it and
  // every later one fail with SQLITE_IOERR and change nothing, so disk() holds the crash state.
  void ArmCrash(std::uint64_t at_call);
  // As ArmCrash, counting only xSync calls: the power goes just before the Nth sync.
  void ArmCrashAtSync(std::uint64_t at_sync);
  // The power goes now (after the workload's last call): later calls fail and change nothing.
  void CutPower() { crashed_ = true; }
  // A fresh, empty disk with the same device model, no crash armed.
  void Reset();
  bool crashed() const { return crashed_; }
  // Whether xDeviceCharacteristics reports SQLITE_IOCAP_POWERSAFE_OVERWRITE (default true).
  void set_powersafe_overwrite(bool on) { powersafe_overwrite_ = on; }
  bool powersafe_overwrite() const { return powersafe_overwrite_; }
  std::uint64_t calls() const { return calls_; }
  std::uint64_t syncs() const { return syncs_; }

  // Used by the VFS callbacks: false once the power is out (the call must fail).
  bool Admit(bool is_sync);
  std::vector<std::unique_ptr<char[]>>& ShmRegions(const std::string& db) { return shm_[db]; }
  void DropShm(const std::string& db) { shm_.erase(db); }

 private:
  CrashVfs(std::string name, DeviceModel device) : name_(std::move(name)), disk_(device) {}

  std::string name_;
  CrashDisk disk_;
  sqlite3_vfs vfs_{};
  bool registered_ = false;
  std::uint64_t crash_at_call_ = kNever, crash_at_sync_ = kNever;
  std::uint64_t calls_ = 0, syncs_ = 0;
  bool crashed_ = false;
  bool powersafe_overwrite_ = true;
  std::map<std::string, std::vector<std::unique_ptr<char[]>>> shm_;
};

// The file name SQLite's path maps to on the simulated disk (one flat directory).
std::string CrashDiskName(const char* path);

}  // namespace durprobe::sqlite_bench
