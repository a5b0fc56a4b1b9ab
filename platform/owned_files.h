// Files read back as proof (the power-cut run's directory, records, secret, database): opened one
// component at a time under a directory descriptor, never through a symlink, without blocking on
// a FIFO or a device, and described by fstat on the descriptor itself, so what is checked is what
// is read. Also the per-run secret's randomness, a private file and a private directory.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "platform/platform.h"

namespace durprobe::platform {

// What fstat says of an open descriptor.
struct OwnedEntry {
  PathKind kind = PathKind::kMissing;  // kFile, kDirectory or kOther (FIFO, device, socket)
  std::uint64_t dev = 0;
  std::uint64_t ino = 0;
  std::uint32_t uid = 0;
  std::uint32_t mode = 0;  // st_mode & 07777
  std::uint64_t links = 0;
  std::uint64_t size = 0;
};

struct OwnedHandle {
  FileHandle handle;
  OwnedEntry entry;
};

// openat(dir_fd, name) read-only with O_NOFOLLOW | O_NONBLOCK (| O_DIRECTORY when directory), then
// fstat: a symlink is ELOOP, a FIFO opens at once and shows as kOther. dir_fd may be kNoDirectory
// for an absolute or working-directory name (its last component is still not followed).
Result<OwnedHandle> OpenOwnedAt(Platform& platform, int dir_fd, const std::string& name,
                                bool directory);

// fstat of an open descriptor.
Result<OwnedEntry> DescribeOpen(int fd);

// Creates name under dir_fd new (O_CREAT | O_EXCL | O_NOFOLLOW), mode 0600 whatever the umask,
// writes text, fsyncs it; the caller syncs the directory.
Status WritePrivateFileAt(Platform& platform, int dir_fd, const std::string& name,
                          const std::string& text);

// mkdirat(dir_fd, name, 0700): a new directory only its owner can enter.
Status MakeOwnDirectoryAt(int dir_fd, const std::string& name);

// Fills out from the system's random source (as the run ids are made).
void RandomBytes(std::span<std::uint8_t> out);

// A new directory mode 0700 made by this process under the temporary directory ($TMPDIR, else
// /tmp), named prefix + random: its path and an open descriptor. RemovePrivateDirectory empties
// (plain files only, through the descriptor) and removes it.
struct PrivateDirectory {
  std::string path;
  FileHandle dir;
};
Result<PrivateDirectory> MakePrivateDirectory(Platform& platform, const std::string& prefix);
void RemovePrivateDirectory(Platform& platform, PrivateDirectory& d);

}  // namespace durprobe::platform
