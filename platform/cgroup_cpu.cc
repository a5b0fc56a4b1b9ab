#include "platform/cgroup_cpu.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "platform/mountinfo.h"
#include "platform/platform.h"

namespace durprobe::platform {
namespace {

constexpr std::size_t kMaxCgroupFileBytes = 65536;

bool ToUint(std::string_view s, std::uint64_t& out) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.remove_suffix(1);
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    std::size_t at = s.find(sep, start);
    out.push_back(s.substr(start, at == std::string_view::npos ? s.npos : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

bool HasWord(const std::vector<std::string>& words, std::string_view w) {
  return std::find(words.begin(), words.end(), w) != words.end();
}

// PATH as seen under a mount whose root is mount_root: the part below that root, or "" when
// PATH lies outside it (a view from another cgroup namespace).
bool Below(std::string_view path, std::string_view mount_root, std::string& rest) {
  if (mount_root == "/") {
    rest = std::string(path == "/" ? "" : path);
    return true;
  }
  if (path == mount_root) {
    rest.clear();
    return true;
  }
  if (path.starts_with(mount_root) && path.size() > mount_root.size() &&
      path[mount_root.size()] == '/') {
    rest = std::string(path.substr(mount_root.size()));
    return true;
  }
  return false;
}

ControllerCgroup Under(const MountEntry& m, std::string_view path, const char* version) {
  ControllerCgroup c;
  c.version = version;
  c.mount_point = m.mount_point;
  std::string rest;
  if (path.find("/..") != std::string_view::npos || !Below(path, m.root, rest)) rest.clear();
  c.dir = m.mount_point + rest;
  return c;
}

// The limit in one directory: v2's cpu.max, v1's two files. false when the directory has none.
bool LimitIn(Platform& p, const std::string& dir, const std::string& version,
             std::uint64_t& quota_us, std::uint64_t& period_us) {
  quota_us = period_us = 0;
  if (version == "v2") {
    Result<std::string> max = p.ReadTextFile(dir + "/cpu.max", kMaxCgroupFileBytes);
    return max.ok() && ParseCpuMax(*max, quota_us, period_us);
  }
  Result<std::string> q = p.ReadTextFile(dir + "/cpu.cfs_quota_us", kMaxCgroupFileBytes);
  Result<std::string> per = p.ReadTextFile(dir + "/cpu.cfs_period_us", kMaxCgroupFileBytes);
  if (!q.ok() || !per.ok() || !ToUint(*per, period_us)) return false;
  std::string_view qv = *q;
  while (!qv.empty() && qv.back() == '\n') qv.remove_suffix(1);
  if (qv == "-1") {
    quota_us = 0;  // v1's "no limit"
    return true;
  }
  return ToUint(qv, quota_us);
}

}  // namespace

CpuThrottleCount Difference(const CpuThrottleCount& before, const CpuThrottleCount& after) {
  auto minus = [](std::uint64_t a, std::uint64_t b) { return a >= b ? a - b : 0; };
  return {minus(after.periods, before.periods), minus(after.throttled, before.throttled),
          minus(after.throttled_ns, before.throttled_ns)};
}

bool ParseCpuMax(std::string_view text, std::uint64_t& quota_us, std::uint64_t& period_us) {
  while (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  std::vector<std::string_view> parts = Split(text, ' ');
  if (parts.size() != 2 || !ToUint(parts[1], period_us) || period_us == 0) return false;
  if (parts[0] == "max") {
    quota_us = 0;
    return true;
  }
  return ToUint(parts[0], quota_us);
}

Result<CpuThrottleCount> ParseCpuStat(std::string_view text) {
  CpuThrottleCount c;
  bool throttled = false;
  for (std::string_view line : Split(text, '\n')) {
    std::size_t sp = line.find(' ');
    if (sp == std::string_view::npos) continue;
    std::string_view key = line.substr(0, sp);
    std::uint64_t v = 0;
    if (!ToUint(line.substr(sp + 1), v)) continue;
    if (key == "nr_periods") c.periods = v;
    if (key == "nr_throttled") {
      c.throttled = v;
      throttled = true;
    }
    if (key == "throttled_usec") c.throttled_ns = v * 1000;
    if (key == "throttled_time") c.throttled_ns = v;
  }
  if (!throttled) return Status::Error("cpu.stat has no nr_throttled (no CPU bandwidth control)");
  return c;
}

std::string CgroupParent(const std::string& dir) {
  std::size_t slash = dir.rfind('/');
  return slash == std::string::npos || slash == 0 ? "/" : dir.substr(0, slash);
}

CpuCgroup FindCpuCgroup(std::string_view self_cgroup, const std::vector<MountEntry>& mounts) {
  return FindControllerCgroup(self_cgroup, mounts, "cpu");
}

ControllerCgroup FindControllerCgroup(std::string_view self_cgroup,
                                      const std::vector<MountEntry>& mounts,
                                      std::string_view v1_controller) {
  std::string v2_path, v1_path;
  bool has_v2 = false, has_v1 = false;
  for (std::string_view line : Split(self_cgroup, '\n')) {
    // hierarchy-ID:controller-list:path; the path may itself hold ':'.
    std::size_t a = line.find(':');
    std::size_t b = a == std::string_view::npos ? a : line.find(':', a + 1);
    if (b == std::string_view::npos) continue;
    std::string_view id = line.substr(0, a), controllers = line.substr(a + 1, b - a - 1);
    std::string_view path = line.substr(b + 1);
    if (id == "0" && controllers.empty()) {
      has_v2 = true;
      v2_path = path;
    }
    for (std::string_view c : Split(controllers, ',')) {
      if (c == v1_controller) {
        has_v1 = true;
        v1_path = path;
      }
    }
  }
  // A v1 hierarchy with the controller wins on a hybrid host: the v2 tree then lacks it.
  if (has_v1) {
    for (const MountEntry& m : mounts) {
      if (m.fstype == "cgroup" && HasWord(m.super_options, v1_controller)) {
        return Under(m, v1_path, "v1");
      }
    }
  }
  if (has_v2) {
    for (const MountEntry& m : mounts) {
      if (m.fstype == "cgroup2") return Under(m, v2_path, "v2");
    }
  }
  return {};
}

CpuQuota ReadCpuQuotaAt(Platform& p, const std::string& proc, const std::string& root) {
  CpuQuota q;
  Result<std::string> self = p.ReadTextFile(proc + "/self/cgroup", kMaxCgroupFileBytes);
  Result<std::string> mi = p.ReadTextFile(proc + "/self/mountinfo", 1 << 22);
  if (!self.ok() || !mi.ok()) {
    q.note = "no cgroup information: " + (!self.ok() ? self : mi).status().message();
    return q;
  }
  Result<std::vector<MountEntry>> table = ParseMountInfo(*mi);
  if (!table.ok()) {
    q.note = "the mount table: " + table.status().message();
    return q;
  }
  CpuCgroup cg = FindCpuCgroup(*self, *table);
  if (cg.version.empty()) {
    q.note = "no cgroup CPU controller is mounted here";
    return q;
  }
  q.version = cg.version;
  q.cgroup = cg.dir;
  // The tightest ratio among the cgroup and its ancestors up to the mount point; every limited
  // level's cpu.stat counts the throttling it imposes.
  double tightest = 0;
  for (std::string dir = cg.dir;; dir = CgroupParent(dir)) {
    std::uint64_t quota = 0, period = 0;
    const bool read = LimitIn(p, root + dir, cg.version, quota, period);
    if (read && dir == cg.dir && q.period_us == 0) q.period_us = period;  // without a limit
    if (read && quota > 0) {
      q.stat_files.push_back(root + dir + "/cpu.stat");
      double ratio = double(quota) / double(period);
      if (tightest == 0 || ratio < tightest) {
        tightest = ratio;
        q.quota_us = quota;
        q.period_us = period;
        q.cgroup = dir;
      }
    }
    if (dir == cg.mount_point || dir.size() <= cg.mount_point.size() || dir == "/") break;
  }
  return q;
}

Result<CpuThrottleCount> ReadCpuThrottlingAt(Platform& p, const CpuQuota& quota) {
  if (quota.stat_files.empty()) return Status::Unsupported("no CPU quota applies");
  CpuThrottleCount sum;
  for (const std::string& file : quota.stat_files) {
    Result<std::string> text = p.ReadTextFile(file, kMaxCgroupFileBytes);
    if (!text.ok()) return text.status();
    Result<CpuThrottleCount> c = ParseCpuStat(*text);
    if (!c.ok()) return Status::Error(file + ": " + c.status().message());
    sum.periods = std::max(sum.periods, c->periods);
    sum.throttled += c->throttled;
    sum.throttled_ns += c->throttled_ns;
  }
  return sum;
}

}  // namespace durprobe::platform
