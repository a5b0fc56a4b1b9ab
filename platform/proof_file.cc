#include "platform/proof_file.h"

#include <fmt/format.h>

namespace durprobe::platform {
namespace {

constexpr std::uint32_t kGroupOrOtherWrite = 0022;
constexpr std::uint32_t kSticky = 01000;

const char* KindName(PathKind kind) {
  switch (kind) {
    case PathKind::kDirectory:
      return "a directory";
    case PathKind::kSymlink:
      return "a symlink (never followed: give the file itself)";
    case PathKind::kMissing:
      return "missing";
    default:
      return "not a regular file (a FIFO, a socket or a device)";
  }
}

bool Trusted(std::uint32_t uid, std::uint32_t me) { return uid == me || uid == 0; }

// Why the file (whose stat is st) could have been written by another user, or "".
std::string Untrusted(const EntryStat& st, std::uint32_t me) {
  if (st.kind != PathKind::kFile) return fmt::format("is {}", KindName(st.kind));
  if (!Trusted(st.uid, me)) {
    return fmt::format(
        "is owned by uid {}, not by this user (uid {}) or root: another user wrote it", st.uid, me);
  }
  if ((st.mode & kGroupOrOtherWrite) != 0) {
    return fmt::format("is writable by group or others (mode {:04o}): another user could change it",
                       st.mode);
  }
  return "";
}

}  // namespace

Result<std::string> ReadOwnedFile(Platform& platform, const std::string& path,
                                  std::size_t max_bytes) {
  const std::size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (name.empty() || name == "." || name == "..") {
    return Status::InvalidArgument(fmt::format("{}: is a directory", path));
  }
  Result<FileHandle> d = platform.OpenDirectoryAt(kNoDirectory, dir, /*follow_last=*/true);
  if (!d.ok()) return Status::InvalidArgument(fmt::format("{}: {}", path, d.status().message()));
  const std::uint32_t me = platform.EffectiveUserId();
  Result<EntryStat> held = platform.StatAt(d->get(), "");
  if (!held.ok())
    return Status::InvalidArgument(fmt::format("{}: {}", path, held.status().message()));
  if (!Trusted(held->uid, me) ||
      ((held->mode & kGroupOrOtherWrite) != 0 && (held->mode & kSticky) == 0)) {
    return Status::InvalidArgument(fmt::format(
        "{}: its directory is owned by uid {} with mode {:04o}: another user could replace the "
        "file there",
        path, held->uid, held->mode));
  }
  // Checked before it is opened, so a device is never opened (an open can rewind a tape), then
  // again once open, as what was opened may not be what was checked.
  Result<EntryStat> named = platform.StatAt(d->get(), name);
  if (!named.ok())
    return Status::InvalidArgument(fmt::format("{}: {}", path, named.status().message()));
  if (std::string why = Untrusted(*named, me); !why.empty()) {
    return Status::InvalidArgument(fmt::format("{}: {}", path, why));
  }
  Result<FileHandle> file = platform.OpenFileAt(d->get(), name);
  if (!file.ok())
    return Status::InvalidArgument(fmt::format("{}: {}", path, file.status().message()));
  Result<EntryStat> open = platform.StatAt(file->get(), "");
  if (!open.ok())
    return Status::InvalidArgument(fmt::format("{}: {}", path, open.status().message()));
  if (std::string why = Untrusted(*open, me); !why.empty()) {
    return Status::InvalidArgument(fmt::format("{}: {}", path, why));
  }
  if (open->dev != named->dev || open->ino != named->ino) {
    return Status::InvalidArgument(fmt::format("{}: was replaced while it was opened", path));
  }
  std::string text(max_bytes + 1, '\0');
  std::size_t have = 0;
  while (have < text.size()) {
    Result<std::size_t> n =
        platform.PRead(file->get(), text.data() + have, text.size() - have, have);
    if (!n.ok()) return Status::InvalidArgument(fmt::format("{}: {}", path, n.status().message()));
    if (*n == 0) break;
    have += *n;
  }
  if (have > max_bytes) {
    return Status::InvalidArgument(fmt::format("{}: larger than {} bytes", path, max_bytes));
  }
  text.resize(have);
  return text;
}

}  // namespace durprobe::platform
