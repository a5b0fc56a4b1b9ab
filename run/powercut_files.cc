#include "run/powercut_files.h"

#include <fmt/format.h>

#include <array>
#include <cerrno>
#include <sstream>

#include "probes/powercut_protocol.h"
#include "run/powercut_names.h"

namespace durprobe::run {

std::string NewPowercutSecret() {
  std::array<std::uint8_t, 16> bytes{};
  platform::RandomBytes(bytes);
  std::string out;
  for (std::uint8_t b : bytes) out += fmt::format("{:02x}", b);
  return out;
}

Status RecordIdentity(platform::Platform& platform, int dir_fd, const std::string& run_id,
                      const std::vector<std::string>& files) {
  std::string text = fmt::format("run {}\n", run_id);
  Result<platform::OwnedEntry> self = platform::DescribeOpen(dir_fd);
  if (!self.ok()) return self.status();
  text += fmt::format(". {} {}\n", self->dev, self->ino);
  for (const std::string& name : files) {
    Result<platform::OwnedHandle> f = platform::OpenOwnedAt(platform, dir_fd, name, false);
    if (!f.ok()) return f.status();
    text += fmt::format("{} {} {}\n", name, f->entry.dev, f->entry.ino);
  }
  return platform::WritePrivateFileAt(platform, dir_fd, kPowercutIdentityFile, text);
}

std::string NotOwned(const platform::OwnedEntry& entry, const std::string& what, bool directory,
                     std::uint32_t uid) {
  if (directory && entry.kind != platform::PathKind::kDirectory) {
    return fmt::format("{} is not a directory", what);
  }
  if (!directory && entry.kind != platform::PathKind::kFile) {
    return fmt::format("{} is not a regular file (a FIFO, a device or a directory)", what);
  }
  if (entry.uid != uid && entry.uid != 0) {
    return fmt::format("{} is owned by uid {}, not by you (uid {}) or root", what, entry.uid, uid);
  }
  if ((entry.mode & 022) != 0) {
    return fmt::format("{} is writable by {} (mode {:04o})", what,
                       (entry.mode & 002) != 0 ? "others" : "its group", entry.mode);
  }
  if (!directory && entry.links != 1) {
    return fmt::format("{} has {} links (a hard link to another file)", what, entry.links);
  }
  return "";
}

Result<PowercutRunFiles> PowercutRunFiles::Open(platform::Platform& platform,
                                                const std::string& path, const std::string& run_id,
                                                bool* missing) {
  *missing = false;
  Result<platform::OwnedHandle> top =
      platform::OpenOwnedAt(platform, platform::kNoDirectory, path, true);
  if (!top.ok())
    return Status::InvalidArgument(fmt::format("{}: {}", path, top.status().message()));
  PowercutRunFiles r;
  r.platform_ = &platform;
  r.uid_ = platform.EffectiveUserId();
  const std::string name = std::string(kPowercutDirPrefix) + run_id;
  r.shown_ = path + "/" + name;
  Result<platform::OwnedHandle> dir =
      platform::OpenOwnedAt(platform, top->handle.get(), name, true);
  if (!dir.ok()) {
    *missing = dir.status().error_number() == ENOENT;
    return Status::InvalidArgument(fmt::format("{}: {}", r.shown_, dir.status().message()));
  }
  if (std::string why = NotOwned(dir->entry, r.shown_, true, r.uid_); !why.empty()) {
    return Status::InvalidArgument(why + ": not the writer's run directory, refused");
  }
  r.dir_ = std::move(*dir);
  Result<std::string> text = r.ReadText(kPowercutIdentityFile, 4096);
  if (!text.ok()) return text.status();
  std::istringstream lines(*text);
  std::string word, kept_run;
  if (!(lines >> word >> kept_run) || word != "run" || kept_run != run_id) {
    return Status::InvalidArgument(
        fmt::format("{}/{} names run '{}', not {}: the directory was swapped, refused", r.shown_,
                    kPowercutIdentityFile, kept_run.substr(0, 32), run_id));
  }
  std::uint64_t dev = 0, ino = 0;
  while (lines >> word >> dev >> ino) r.identity_[word] = {dev, ino};
  const auto self = r.identity_.find(".");
  // The inode only: the device's number may change at the reboot the test is about (another
  // enumeration, a loop device attached again), the inode of a file on ext4, xfs or btrfs not.
  if (self == r.identity_.end() || self->second.second != r.dir_.entry.ino) {
    return Status::InvalidArgument(fmt::format(
        "{} is not the directory the writer made (its inode changed): refused", r.shown_));
  }
  return r;
}

Result<platform::OwnedHandle> PowercutRunFiles::OpenFile(const std::string& name) {
  const std::string what = shown_ + "/" + name;
  Result<platform::OwnedHandle> f = platform::OpenOwnedAt(*platform_, dir(), name, false);
  if (!f.ok() && f.status().error_number() == ENOENT) return platform::OwnedHandle{};
  if (!f.ok()) return Status::InvalidArgument(fmt::format("{}: {}", what, f.status().message()));
  if (std::string why = NotOwned(f->entry, what, false, uid_); !why.empty()) {
    return Status::InvalidArgument(why + ": not the writer's file, refused");
  }
  if (const auto id = identity_.find(name); id != identity_.end()) {
    if (id->second.second != f->entry.ino) {
      return Status::InvalidArgument(
          fmt::format("{} is not the file the writer made (its inode changed): refused", what));
    }
  }
  return f;
}

Result<std::string> PowercutRunFiles::ReadText(const std::string& name, std::size_t max_bytes,
                                               bool* missing) {
  Result<platform::OwnedHandle> f = OpenFile(name);
  if (!f.ok()) return f.status();
  if (missing != nullptr) *missing = !f->handle.valid();
  if (!f->handle.valid() && missing != nullptr) return std::string();
  if (!f->handle.valid()) {
    return Status::InvalidArgument(fmt::format("{}/{}: not there", shown_, name));
  }
  std::string text(max_bytes, '\0');
  Result<std::size_t> n = platform_->PRead(f->handle.get(), text.data(), text.size(), 0);
  if (!n.ok()) return n.status();
  text.resize(*n);
  return text;
}

Result<std::string> PowercutRunFiles::Secret() {
  Result<platform::OwnedHandle> f = OpenFile(kPowercutSecretFile);
  if (!f.ok()) return f.status();
  if (f->handle.valid() && (f->entry.mode & 077) != 0) {
    return Status::InvalidArgument(fmt::format("{}/{} is readable by others (mode {:04o}): refused",
                                               shown_, kPowercutSecretFile, f->entry.mode));
  }
  Result<std::string> text = ReadText(kPowercutSecretFile, 64);
  if (!text.ok()) return text.status();
  std::string s = *text;
  while (!s.empty() && s.back() == '\n') s.pop_back();
  if (!probes::IsSecret(s)) {
    return Status::InvalidArgument(
        fmt::format("{}/{} holds no run secret: refused", shown_, kPowercutSecretFile));
  }
  return s;
}

}  // namespace durprobe::run
