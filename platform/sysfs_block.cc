#include "platform/sysfs_block.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace durprobe::platform {
namespace {

constexpr int kMaxSlaveDepth = 4;  // dm on md on partitions is already three

std::string Trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\t')) s.pop_back();
  std::size_t first = s.find_first_not_of(" \t");
  return first == std::string::npos ? std::string() : s.substr(first);
}

std::string SysfsBaseName(const std::string& path) {
  std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string DirName(const std::string& path) {
  std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos || slash == 0 ? "/" : path.substr(0, slash);
}

// An attribute's text without the trailing newline, or "" when the file is absent.
std::string Attr(Platform& p, const std::string& path) {
  Result<std::string> text = p.ReadTextFile(path, 4096);
  return text.ok() ? Trim(*text) : std::string();
}

std::uint64_t AttrNumber(Platform& p, const std::string& path) {
  std::string text = Attr(p, path);
  std::uint64_t n = 0;
  std::from_chars(text.data(), text.data() + text.size(), n);
  return n;
}

std::optional<bool> AttrBool(Platform& p, const std::string& path) {
  std::string text = Attr(p, path);
  if (text == "1") return true;
  if (text == "0") return false;
  return std::nullopt;
}

// "none [mq-deadline] kyber" -> "mq-deadline"; a single name stands alone.
std::string SelectedScheduler(const std::string& text) {
  std::size_t open = text.find('[');
  std::size_t close = text.find(']', open);
  if (open == std::string::npos || close == std::string::npos) return text;
  return text.substr(open + 1, close - open - 1);
}

void ParseDev(const std::string& text, unsigned& major, unsigned& minor) {
  std::size_t colon = text.find(':');
  if (colon == std::string::npos) return;
  std::from_chars(text.data(), text.data() + colon, major);
  std::from_chars(text.data() + colon + 1, text.data() + text.size(), minor);
}

DeviceInfo Describe(Platform& p, const std::string& sys_root, const std::string& dir, int depth) {
  DeviceInfo d;
  d.name = SysfsBaseName(dir);
  ParseDev(Attr(p, dir + "/dev"), d.major, d.minor);
  d.partition = p.KindOf(dir + "/partition") == PathKind::kFile;
  std::string disk_dir = d.partition ? DirName(dir) : dir;
  d.disk = SysfsBaseName(disk_dir);
  const std::string queue = disk_dir + "/queue/";
  d.rotational = AttrBool(p, queue + "rotational");
  d.write_cache = Attr(p, queue + "write_cache");
  d.fua = AttrBool(p, queue + "fua");
  d.logical_block_size = AttrNumber(p, queue + "logical_block_size");
  d.physical_block_size = AttrNumber(p, queue + "physical_block_size");
  d.scheduler = SelectedScheduler(Attr(p, queue + "scheduler"));
  d.queue_depth = AttrNumber(p, queue + "nr_requests");
  d.model = Attr(p, disk_dir + "/device/model");
  // The serial: NVMe and SCSI keep it under device/, virtio-blk beside the disk.
  d.serial = Attr(p, disk_dir + "/device/serial");
  if (d.serial.empty()) d.serial = Attr(p, disk_dir + "/serial");
  d.backing_file = Attr(p, disk_dir + "/loop/backing_file");
  d.dm_name = Attr(p, disk_dir + "/dm/name");
  d.md_level = Attr(p, disk_dir + "/md/level");
  if (d.partition) {
    d.kind = "partition";
  } else if (!d.backing_file.empty() || d.disk.starts_with("loop")) {
    d.kind = "loop";
  } else if (!d.dm_name.empty() || d.disk.starts_with("dm-")) {
    d.kind = "dm";
  } else if (!d.md_level.empty() || d.disk.starts_with("md")) {
    d.kind = "md";
  } else {
    d.kind = "disk";
  }
  if (depth >= kMaxSlaveDepth) return d;
  Result<std::vector<std::string>> slaves = p.ListDirectory(disk_dir + "/slaves");
  if (!slaves.ok()) return d;
  std::sort(slaves->begin(), slaves->end());  // readdir order is arbitrary
  for (const std::string& name : *slaves) {
    Result<std::string> slave_dir = p.RealPath(sys_root + "/class/block/" + name);
    if (slave_dir.ok()) d.slaves.push_back(Describe(p, sys_root, *slave_dir, depth + 1));
  }
  return d;
}

// The sysfs directory of major:minor: /sys/dev/block/MAJ:MIN, or, where a container runtime masks
// /sys/dev/block (Podman and Docker do by default), the /sys/class/block entry whose dev file
// holds MAJ:MIN.
Result<std::string> DeviceDir(Platform& p, const std::string& sys_root, unsigned major,
                              unsigned minor, std::string* how) {
  std::string link = fmt::format("{}/dev/block/{}:{}", sys_root, major, minor);
  if (p.KindOf(link) == PathKind::kDirectory) return p.RealPath(link);
  std::string wanted = fmt::format("{}:{}", major, minor);
  std::string class_dir = sys_root + "/class/block";
  Result<std::vector<std::string>> names = p.ListDirectory(class_dir);
  if (names.ok()) {
    std::sort(names->begin(), names->end());
    for (const std::string& name : *names) {
      if (Attr(p, class_dir + "/" + name + "/dev") != wanted) continue;
      if (how != nullptr && p.KindOf(sys_root + "/dev/block") == PathKind::kMissing) {
        *how = fmt::format(
            "found through {}/{}: {}/dev/block is not visible here (a container "
            "runtime masks it)",
            class_dir, name, sys_root);
      } else if (how != nullptr) {
        *how = fmt::format("found through {}/{}: {} is missing", class_dir, name, link);
      }
      return p.RealPath(class_dir + "/" + name);
    }
  }
  return Status::Error(fmt::format("sysfs has no block device {}:{} ({}, nor in {})", major, minor,
                                   link, class_dir));
}

}  // namespace

Result<DeviceInfo> DescribeBlockDevice(Platform& platform, const std::string& sys_root,
                                       unsigned major, unsigned minor, std::string* how) {
  Result<std::string> dir = DeviceDir(platform, sys_root, major, minor, how);
  if (!dir.ok()) return dir.status();
  DeviceInfo d = Describe(platform, sys_root, *dir, 0);
  d.major = major;
  d.minor = minor;
  return d;
}

}  // namespace durprobe::platform
