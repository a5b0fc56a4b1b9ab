// A file durprobe keeps as its own record and reads back as proof (the power-cut witness's log):
// reached without following any symlink, and refused unless it is a regular file only the running
// user (or root) could have written.
#pragma once

#include <cstdint>
#include <string>

#include "platform/file_handle.h"
#include "platform/platform.h"

namespace durprobe::platform {

// Opens path read-write, creating it (mode 0600) when absent and create is set. The path is
// walked from / (or, relative, from the working directory) one component at a time: each
// directory is opened from the one before with O_DIRECTORY|O_NOFOLLOW, so no symlink anywhere on
// the path is followed (a symlinked directory is refused, whoever made it), and the file itself
// is looked at (fstatat, no follow) before it is opened with O_NOFOLLOW|O_NONBLOCK, so a device
// is never opened and a FIFO never waited on. InvalidArgument in one line naming the path and
// what is wrong when the entry is a symlink, not a regular file, owned by another user than the
// running one or root, writable by group or others, linked more than once (a hard link planted
// to another file), or larger than max_bytes; the errno with the component otherwise.
Result<FileHandle> OpenOwnedFile(Platform& platform, const std::string& path, bool create,
                                 std::uint64_t max_bytes);

// The size of the open file fd (fstat); the errno otherwise.
Result<std::uint64_t> OpenFileSize(int fd);

// Whether s failed because the filesystem is full for this writer (ENOSPC, EDQUOT).
bool IsDiskFull(const Status& s);

}  // namespace durprobe::platform
