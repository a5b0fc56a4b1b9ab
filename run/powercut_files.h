// A power-cut run belongs to its writer (docs/powercut.md, "Whose run it is"): the files the writer
// leaves in PATH/.durprobe-powercut-RUN/ (its records, database, secret, boot id) and how verify
// opens them again. Every one is opened under a directory descriptor without following a
// symlink or blocking (platform/owned_files.h) and refused, in one line naming it, when it is
// not owned by the user verify runs as (or root), is writable by group or others, is not a
// regular file (a directory for the run's), has more than one link, or is not the directory and
// file the writer recorded (its inode, in its own 0600 file `identity`; the device number is kept
// there too but not compared: it may change at the reboot).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "platform/owned_files.h"
#include "platform/platform.h"

namespace durprobe::run {

// The run's secret (32 lower-case hexadecimal digits; probes/powercut_protocol.h), mode 0600.
inline constexpr char kPowercutSecretFile[] = "secret";
// "run RUN\n" then "NAME DEV INO\n" for "." (the run's directory) and the records file or
// database: what verify checks it opens. Mode 0600.
inline constexpr char kPowercutIdentityFile[] = "identity";

// A new secret from the system's random source.
std::string NewPowercutSecret();

// What the writer records of its run's directory (open as dir_fd): the directory itself and
// each name in files (under dir_fd), written to `identity` (0600, synced; the caller syncs the
// directory).
Status RecordIdentity(platform::Platform& platform, int dir_fd, const std::string& run_id,
                      const std::vector<std::string>& files);

// Why entry (called what) is not one of this user's, or "" when it is: owned by uid or root,
// not writable by group or others, of the kind asked (a directory or a regular file), one link.
std::string NotOwned(const platform::OwnedEntry& entry, const std::string& what, bool directory,
                     std::uint32_t uid);

// The run's directory under PATH, opened and checked for verify.
class PowercutRunFiles {
 public:
  // Opens path (a directory: the PATH given) and its run directory for run_id: refused
  // (InvalidArgument) as NotOwned says, or when its identity file is missing, not the user's,
  // names another run or another directory. NotFound-like InvalidArgument with `missing` set
  // when the run's directory is not there.
  static Result<PowercutRunFiles> Open(platform::Platform& platform, const std::string& path,
                                       const std::string& run_id, bool* missing);

  // Opens name in the run's directory for reading, checked; kMissing entry (and an empty handle)
  // when it is not there. With the identity recorded for it, the device and inode must match.
  Result<platform::OwnedHandle> OpenFile(const std::string& name);
  // The file's text (at most max_bytes), checked as OpenFile. A file that is not there is an
  // InvalidArgument, or with missing given, "" and *missing set.
  Result<std::string> ReadText(const std::string& name, std::size_t max_bytes,
                               bool* missing = nullptr);
  // The run's secret, checked (owner, mode 0600 or stricter, 32 hex digits).
  Result<std::string> Secret();

  int dir() const { return dir_.handle.get(); }
  const std::string& shown() const { return shown_; }

 private:
  platform::Platform* platform_ = nullptr;
  platform::OwnedHandle dir_;
  std::string shown_;  // PATH/.durprobe-powercut-RUN, for messages
  std::uint32_t uid_ = 0;
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> identity_;
};

}  // namespace durprobe::run
