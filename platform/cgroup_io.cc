#include "platform/cgroup_io.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>

#include "platform/mountinfo.h"
#include "platform/platform.h"
#include "platform/words.h"

namespace durprobe::platform {
namespace {

constexpr std::size_t kMaxIoCgroupFileBytes = 65536;

bool IoNumber(std::string_view s, std::uint64_t& out) {
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

// "254:0": a device number as the cgroup files write it.
bool IsDeviceNumber(std::string_view s) {
  std::size_t colon = s.find(':');
  std::uint64_t n = 0;
  return colon != std::string_view::npos && IoNumber(s.substr(0, colon), n) &&
         IoNumber(s.substr(colon + 1), n);
}

std::vector<std::string_view> IoLines(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    out.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

IoLimit& EntryFor(std::vector<IoLimit>& limits, std::string_view device) {
  for (IoLimit& l : limits) {
    if (l.device == device) return l;
  }
  limits.push_back({});
  limits.back().device = std::string(device);
  return limits.back();
}

// A limit of value set by dir, unless a tighter one (a lower nonzero) is already there.
void Tighten(IoLimit& l, std::uint64_t IoLimit::*field, std::uint64_t value,
             const std::string& dir) {
  if (value == 0) return;
  if (l.*field != 0 && l.*field <= value) return;
  l.*field = value;
  l.cgroup = dir;
}

// The disk's name for a device number, from sysfs's uevent ("DEVNAME=vda").
std::string DeviceName(Platform& p, const std::string& root, const std::string& device) {
  Result<std::string> uevent =
      p.ReadTextFile(root + "/sys/dev/block/" + device + "/uevent", kMaxIoCgroupFileBytes);
  if (!uevent.ok()) return "";
  for (std::string_view line : IoLines(*uevent)) {
    if (line.starts_with("DEVNAME=")) return std::string(line.substr(8));
  }
  return "";
}

void ReadLimitsIn(Platform& p, const std::string& root, const std::string& dir,
                  const std::string& version, std::vector<IoLimit>& limits) {
  auto read = [&](const char* file) {
    Result<std::string> text = p.ReadTextFile(root + dir + "/" + file, kMaxIoCgroupFileBytes);
    return text.ok() ? *text : std::string();
  };
  if (version == "v2") {
    MergeV2IoMax(read("io.max"), dir, limits);
    MergeV2IoLatency(read("io.latency"), dir, limits);
    MergeWeight(read("io.weight"), dir, limits);
    return;
  }
  MergeV1Throttle(read("blkio.throttle.read_bps_device"), &IoLimit::read_bps, dir, limits);
  MergeV1Throttle(read("blkio.throttle.write_bps_device"), &IoLimit::write_bps, dir, limits);
  MergeV1Throttle(read("blkio.throttle.read_iops_device"), &IoLimit::read_iops, dir, limits);
  MergeV1Throttle(read("blkio.throttle.write_iops_device"), &IoLimit::write_iops, dir, limits);
  MergeWeight(read("blkio.weight_device"), dir, limits);
}

std::string Rate(std::uint64_t bytes_per_sec) {
  if (bytes_per_sec >= 1'000'000) return fmt::format("{:.3g} MB/s", double(bytes_per_sec) / 1e6);
  if (bytes_per_sec >= 1'000) return fmt::format("{:.3g} kB/s", double(bytes_per_sec) / 1e3);
  return fmt::format("{} B/s", bytes_per_sec);
}

}  // namespace

void MergeV1Throttle(std::string_view text, std::uint64_t IoLimit::*field, const std::string& dir,
                     std::vector<IoLimit>& limits) {
  for (std::string_view line : IoLines(text)) {
    std::vector<std::string_view> w = SplitSpaces(line);
    std::uint64_t v = 0;
    if (w.size() != 2 || !IsDeviceNumber(w[0]) || !IoNumber(w[1], v) || v == 0) continue;
    Tighten(EntryFor(limits, w[0]), field, v, dir);
  }
}

void MergeV2IoMax(std::string_view text, const std::string& dir, std::vector<IoLimit>& limits) {
  static const std::pair<std::string_view, std::uint64_t IoLimit::*> kKeys[] = {
      {"rbps=", &IoLimit::read_bps},
      {"wbps=", &IoLimit::write_bps},
      {"riops=", &IoLimit::read_iops},
      {"wiops=", &IoLimit::write_iops}};
  for (std::string_view line : IoLines(text)) {
    std::vector<std::string_view> w = SplitSpaces(line);
    if (w.empty() || !IsDeviceNumber(w[0])) continue;
    for (std::size_t i = 1; i < w.size(); ++i) {
      for (const auto& [key, field] : kKeys) {
        std::uint64_t v = 0;
        if (w[i].starts_with(key) && IoNumber(w[i].substr(key.size()), v)) {
          Tighten(EntryFor(limits, w[0]), field, v, dir);
        }
      }
    }
  }
}

void MergeV2IoLatency(std::string_view text, const std::string& dir, std::vector<IoLimit>& limits) {
  for (std::string_view line : IoLines(text)) {
    std::vector<std::string_view> w = SplitSpaces(line);
    std::uint64_t v = 0;
    if (w.size() < 2 || !IsDeviceNumber(w[0]) || !w[1].starts_with("target=") ||
        !IoNumber(w[1].substr(7), v)) {
      continue;
    }
    Tighten(EntryFor(limits, w[0]), &IoLimit::latency_target_us, v, dir);
  }
}

void MergeWeight(std::string_view text, const std::string& dir, std::vector<IoLimit>& limits) {
  for (std::string_view line : IoLines(text)) {
    std::vector<std::string_view> w = SplitSpaces(line);
    std::uint64_t v = 0;
    if (w.size() != 2 || !IsDeviceNumber(w[0]) || !IoNumber(w[1], v)) continue;
    IoLimit& l = EntryFor(limits, w[0]);
    if (l.weight == 0) l.weight = v;  // the innermost cgroup's weight is the one it competes by
  }
}

IoCgroup FindIoCgroup(std::string_view self_cgroup, const std::vector<MountEntry>& mounts) {
  return FindControllerCgroup(self_cgroup, mounts, "blkio");
}

IoLimits ReadIoLimitsAt(Platform& p, const std::string& proc, const std::string& root) {
  IoLimits out;
  Result<std::string> self = p.ReadTextFile(proc + "/self/cgroup", kMaxIoCgroupFileBytes);
  Result<std::string> mi = p.ReadTextFile(proc + "/self/mountinfo", 1 << 22);
  if (!self.ok() || !mi.ok()) {
    out.note = "no cgroup information: " + (!self.ok() ? self : mi).status().message();
    return out;
  }
  Result<std::vector<MountEntry>> table = ParseMountInfo(*mi);
  if (!table.ok()) {
    out.note = "the mount table: " + table.status().message();
    return out;
  }
  IoCgroup cg = FindIoCgroup(*self, *table);
  if (cg.version.empty()) {
    out.note = "no cgroup I/O controller is mounted here";
    return out;
  }
  out.version = cg.version;
  out.cgroup = cg.dir;
  // Innermost first: a weight is the innermost's, a limit the tightest on the way up.
  for (std::string dir = cg.dir;; dir = CgroupParent(dir)) {
    ReadLimitsIn(p, root, dir, cg.version, out.devices);
    if (dir == cg.mount_point || dir.size() <= cg.mount_point.size() || dir == "/") break;
  }
  // io.weight's and blkio.weight_device's entries alone, at the default 100, limit nothing.
  std::erase_if(out.devices, [](const IoLimit& l) {
    return !l.limits() && l.latency_target_us == 0 && (l.weight == 0 || l.weight == 100);
  });
  for (IoLimit& l : out.devices) l.name = DeviceName(p, root, l.device);
  std::sort(out.devices.begin(), out.devices.end(),
            [](const IoLimit& x, const IoLimit& y) { return x.device < y.device; });
  return out;
}

const IoLimit* LimitFor(const IoLimits& limits, const DeviceInfo& device) {
  for (const IoLimit& l : limits.devices) {
    if (l.name.empty()) continue;
    if (l.name == device.disk || l.name == device.name) return &l;
    for (const DeviceInfo& s : device.slaves) {
      if (const IoLimit* below = LimitFor(limits, s); below != nullptr && below == &l) return &l;
    }
  }
  return nullptr;
}

std::string DescribeLimit(const IoLimit& l) {
  std::vector<std::string> parts;
  if (l.write_iops) parts.push_back(fmt::format("write {} IOPS", l.write_iops));
  if (l.write_bps) parts.push_back("write " + Rate(l.write_bps));
  if (l.read_iops) parts.push_back(fmt::format("read {} IOPS", l.read_iops));
  if (l.read_bps) parts.push_back("read " + Rate(l.read_bps));
  if (l.latency_target_us)
    parts.push_back(fmt::format("latency target {} us", l.latency_target_us));
  if (l.weight) parts.push_back(fmt::format("weight {}", l.weight));
  return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace durprobe::platform
