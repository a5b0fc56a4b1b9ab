#include "platform/block_counters.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "platform/fs_kinds.h"

namespace durprobe::platform {
namespace {

constexpr std::size_t kWritesField = 5;    // write requests completed
constexpr std::size_t kFlushesField = 16;  // flush requests completed (Linux 5.5 and later)
constexpr std::size_t kStatBytes = 4096;

void AddOnce(std::vector<std::string>& names, const std::string& name) {
  if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) {
    names.push_back(name);
  }
}

// The disk of d and of every member beneath it (dm on md on partitions).
void AddDevice(const DeviceInfo& d, std::vector<std::string>& names) {
  AddOnce(names, d.disk.empty() ? d.name : d.disk);
  for (const DeviceInfo& slave : d.slaves) AddDevice(slave, names);
}

// m's device, then its backing file's, down the loop chain.
void AddChain(const MountInfo& m, std::vector<std::string>& names) {
  if (!m.device) return;
  AddDevice(*m.device, names);
  for (const MountInfo& b : m.backing) AddChain(b, names);
}

// Whether sys_root/block/name is a disk a write could land on: not a RAM disk, and a loop device
// only while a file backs it.
bool LocalDisk(Platform& p, const std::string& sys_root, const std::string& name) {
  if (name.starts_with("ram") || name.starts_with("zram")) return false;
  if (!name.starts_with("loop")) return true;
  return p.KindOf(fmt::format("{}/block/{}/loop/backing_file", sys_root, name)) == PathKind::kFile;
}

std::string WhyEveryDisk(const MountInfo& m) {
  if (m.fstype.starts_with("fuse")) {
    return fmt::format(
        "every local disk: {} is served by a FUSE process whose storage is not "
        "known",
        m.fstype);
  }
  if (m.overlay) return "every local disk: the overlay's upper layer is not visible here";
  return fmt::format("every local disk: no block device is known under {} ({})", m.mount_point,
                     m.fstype);
}

}  // namespace

Result<BlockCount> ParseBlockStat(std::string_view name, std::string_view text) {
  BlockCount c{std::string(name), 0, 0};
  std::size_t field = 0;
  std::size_t at = 0;
  while (field < kFlushesField) {
    at = text.find_first_not_of(" \t\n", at);
    if (at == std::string_view::npos) break;
    std::size_t end = text.find_first_of(" \t\n", at);
    if (end == std::string_view::npos) end = text.size();
    ++field;
    std::uint64_t value = 0;
    auto [ptr, ec] = std::from_chars(text.data() + at, text.data() + end, value);
    if (ec != std::errc() || ptr != text.data() + end) {
      return Status::InvalidArgument(
          fmt::format("{}: field {} of its stat is not a number", name, field));
    }
    if (field == kWritesField) c.writes = value;
    if (field == kFlushesField) c.flushes = value;
    at = end;
  }
  if (field < kFlushesField) {
    return Status::InvalidArgument(fmt::format(
        "{}: its stat has {} fields, not the {} that count flushes (Linux 5.5 and later)", name,
        field, kFlushesField));
  }
  return c;
}

CountedDevices DevicesToCount(Platform& platform, const std::string& sys_root, const MountInfo& m) {
  CountedDevices out;
  if (IsMemoryFs(m.fstype)) {
    out.unavailable = fmt::format("no block device: {} keeps its files in memory", m.fstype);
    return out;
  }
  if (m.device) {
    AddChain(m, out.names);
    out.how = m.backing.empty() ? "the device under the filesystem"
                                : "the device under the filesystem, down the loop device's chain";
    return out;
  }
  Result<std::vector<std::string>> all = platform.ListDirectory(sys_root + "/block");
  if (!all.ok()) {
    out.unavailable =
        fmt::format("{}/block cannot be read here: {}", sys_root, all.status().message());
    return out;
  }
  std::sort(all->begin(), all->end());
  for (const std::string& name : *all) {
    if (LocalDisk(platform, sys_root, name)) out.names.push_back(name);
  }
  if (out.names.empty()) {
    out.unavailable = fmt::format("{}/block lists no local disk", sys_root);
    return out;
  }
  out.how = WhyEveryDisk(m);
  return out;
}

Result<std::vector<BlockCount>> ReadBlockCounts(Platform& platform, const std::string& sys_root,
                                                const std::vector<std::string>& names) {
  std::vector<BlockCount> counts;
  counts.reserve(names.size());
  for (const std::string& name : names) {
    Result<std::string> text =
        platform.ReadTextFile(fmt::format("{}/class/block/{}/stat", sys_root, name), kStatBytes);
    if (!text.ok()) return text.status();
    Result<BlockCount> c = ParseBlockStat(name, *text);
    if (!c.ok()) return c.status();
    counts.push_back(std::move(*c));
  }
  return counts;
}

}  // namespace durprobe::platform
