// A file whose contents are taken as proof (a power-cut evidence file, docs/powercut.md): read
// only when no other local user could have put it there or changed it.
#pragma once

#include <cstddef>
#include <string>

#include "platform/platform.h"

namespace durprobe::platform {

// The text of the file at path, at most max_bytes. InvalidArgument, one line naming the problem,
// unless:
// - path's last component is the file itself: a symlink is refused, never followed;
// - it is a regular file: a FIFO, socket or device is refused before it is opened, and the open
//   never waits (O_NONBLOCK), so a FIFO swapped in meanwhile is refused at once too;
// - the file is owned by the running user or root and not writable by group or others;
// - the directory holding it is owned by the running user or root, and is not writable by group
//   or others unless sticky (where no other user can rename or replace the file);
// - it holds no more than max_bytes.
// Symlinks in the directories on the way are followed: what they lead to is checked above.
Result<std::string> ReadOwnedFile(Platform& platform, const std::string& path,
                                  std::size_t max_bytes);

}  // namespace durprobe::platform
