// mkfs, mount and unmount for the crash device (platform/linux_mount_device.h).
#include "platform/linux_mount_device.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

namespace durprobe::platform {
namespace {

struct MountArgs {
  unsigned long flags = 0;
  std::string data;
};

MountArgs ParseMountOptions(const std::string& options) {
  static const std::pair<const char*, unsigned long> kFlags[] = {
      {"ro", MS_RDONLY},        {"nosuid", MS_NOSUID},         {"nodev", MS_NODEV},
      {"noexec", MS_NOEXEC},    {"sync", MS_SYNCHRONOUS},      {"dirsync", MS_DIRSYNC},
      {"noatime", MS_NOATIME},  {"nodiratime", MS_NODIRATIME}, {"relatime", MS_RELATIME},
      {"lazytime", MS_LAZYTIME}};
  MountArgs args;
  std::size_t start = 0;
  while (start <= options.size()) {
    std::size_t comma = options.find(',', start);
    if (comma == std::string::npos) comma = options.size();
    std::string item = options.substr(start, comma - start);
    start = comma + 1;
    if (item.empty() || item == "rw" || item == "defaults") continue;
    bool flag = false;
    for (const auto& [name, bit] : kFlags) {
      if (item == name) {
        args.flags |= bit;
        flag = true;
      }
    }
    if (!flag) args.data += (args.data.empty() ? "" : ",") + item;
  }
  return args;
}

}  // namespace

KernelLog::KernelLog(Platform& platform) {
  int fd = ::open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return;
  fd_ = FileHandle(platform, fd);
  ::lseek(fd, 0, SEEK_END);
}

std::vector<std::string> KernelLog::LinesAbout(const std::string& device) {
  std::vector<std::string> lines;
  if (!fd_.valid()) return lines;
  std::string name = device.substr(device.find_last_of('/') + 1);
  char record[8192];
  for (;;) {
    ssize_t n = ::read(fd_.get(), record, sizeof record - 1);
    if (n < 0 && errno == EPIPE) continue;  // overwritten records: read on
    if (n <= 0) break;
    std::string text(record, static_cast<std::size_t>(n));
    std::size_t semi = text.find(';');
    std::size_t end = text.find('\n');
    if (semi == std::string::npos) continue;
    text = text.substr(semi + 1, end == std::string::npos ? std::string::npos : end - semi - 1);
    if (text.find(name) != std::string::npos) lines.push_back(text);
  }
  return lines;
}

std::vector<std::string> MkfsCommand(const FsSpec& fs, const std::string& device) {
  // Nothing discarded (the device takes no discard) and nothing left for later: ext4 would
  // otherwise zero its inode tables in the background after the first mount.
  if (fs.type == "ext4" && fs.block_bytes != 0) {
    return {"mkfs.ext4",
            "-F",
            "-q",
            "-b",
            std::to_string(fs.block_bytes),
            "-E",
            "nodiscard,lazy_itable_init=0,lazy_journal_init=0",
            device};
  }
  if (fs.type == "ext4") {
    return {"mkfs.ext4", "-F", "-q", "-E", "nodiscard,lazy_itable_init=0,lazy_journal_init=0",
            device};
  }
  if (fs.type == "xfs") return {"mkfs.xfs", "-f", "-q", "-K", device};
  if (fs.type == "btrfs") return {"mkfs.btrfs", "-f", "-q", "-K", device};
  return {};
}

MountOutcome MountDevice(Platform& platform, const std::string& device, const std::string& target,
                         const FsSpec& fs, const std::string& extra) {
  if (Status refused = CheckCrashFsSpec(fs); !refused.ok()) {
    MountOutcome refusal;
    refusal.error = refused.message();
    return refusal;
  }
  MountArgs args = ParseMountOptions(fs.options);
  if (!extra.empty()) args.data += (args.data.empty() ? "" : ",") + extra;
  KernelLog log(platform);
  MountOutcome outcome;
  if (::mount(device.c_str(), target.c_str(), fs.type.c_str(), args.flags,
              args.data.empty() ? nullptr : args.data.c_str()) == 0) {
    outcome.mounted = true;
  } else {
    outcome.error =
        Status::FromErrno(errno, fmt::format("mount {} ({})", device, fs.type)).message();
  }
  outcome.kernel = log.LinesAbout(device);
  return outcome;
}

Status UnmountPath(const std::string& target) {
  for (int attempt = 0; attempt < 20; ++attempt) {
    if (::umount2(target.c_str(), 0) == 0) return Status::Ok();
    if (errno == EINVAL || errno == ENOENT) return Status::Ok();  // not mounted
    if (errno != EBUSY) break;
    ::usleep(50000);
  }
  if (::umount2(target.c_str(), MNT_DETACH) == 0) return Status::Ok();
  return Status::FromErrno(errno, "umount " + target);
}

}  // namespace durprobe::platform
