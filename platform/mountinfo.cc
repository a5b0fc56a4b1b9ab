#include "platform/mountinfo.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "platform/words.h"

namespace durprobe::platform {
namespace {

// Splits on commas before unescaping: the kernel escapes commas inside option values.
std::vector<std::string> SplitOptions(std::string_view field) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= field.size()) {
    std::size_t comma = field.find(',', start);
    if (comma == std::string_view::npos) comma = field.size();
    if (comma > start) out.push_back(UnescapeMountField(field.substr(start, comma - start)));
    start = comma + 1;
  }
  return out;
}

bool ParseInt(std::string_view s, int& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

bool ParseDev(std::string_view s, unsigned& major, unsigned& minor) {
  std::size_t colon = s.find(':');
  if (colon == std::string_view::npos) return false;
  auto a = std::from_chars(s.data(), s.data() + colon, major);
  auto b = std::from_chars(s.data() + colon + 1, s.data() + s.size(), minor);
  return a.ec == std::errc() && a.ptr == s.data() + colon && b.ec == std::errc() &&
         b.ptr == s.data() + s.size();
}

Result<MountEntry> ParseLine(std::string_view line) {
  std::vector<std::string_view> f = SplitSpaces(line);
  auto dash = std::find(f.begin(), f.end(), std::string_view("-"));
  // Six fields before the separator (ID, parent, dev, root, mount point, options), and after it
  // fstype and source; superblock options may be absent on old kernels.
  if (dash == f.end() || dash - f.begin() < 6 || f.end() - dash < 3) {
    return Status::InvalidArgument(
        "expected 'ID PARENT MAJ:MIN ROOT POINT OPTIONS ... - TYPE SOURCE'");
  }
  MountEntry e;
  if (!ParseInt(f[0], e.id) || !ParseInt(f[1], e.parent_id)) {
    return Status::InvalidArgument("mount ID and parent ID must be numbers");
  }
  if (!ParseDev(f[2], e.major, e.minor)) return Status::InvalidArgument("bad MAJ:MIN");
  e.root = UnescapeMountField(f[3]);
  e.mount_point = UnescapeMountField(f[4]);
  e.mount_options = SplitOptions(f[5]);
  for (auto it = f.begin() + 6; it != dash; ++it) e.optional_fields.emplace_back(*it);
  e.fstype = UnescapeMountField(dash[1]);
  e.source = UnescapeMountField(dash[2]);
  if (f.end() - dash > 3) e.super_options = SplitOptions(dash[3]);
  return e;
}

bool Contains(std::string_view mount_point, std::string_view path) {
  if (mount_point == "/") return true;
  if (path.substr(0, mount_point.size()) != mount_point) return false;
  return path.size() == mount_point.size() || path[mount_point.size()] == '/';
}

// The last mount stacked directly on `on` at point, following stacks to the top. A stack is
// at most the table's length: a damaged table whose ids repeat can make parents a cycle (23 on
// 22 on 23 at one point), which the walk leaves at the table's length instead of following.
const MountEntry* TopOfStack(const std::vector<MountEntry>& table, const MountEntry* on,
                             std::string_view point) {
  std::size_t steps = 0;
  for (bool moved = true; moved && steps < table.size(); ++steps) {
    moved = false;
    for (auto it = table.rbegin(); it != table.rend(); ++it) {
      if (it->parent_id == on->id && it->id != on->id && it->mount_point == point) {
        on = &*it;
        moved = true;
        break;
      }
    }
  }
  return on;
}

// Used when the table has no tree to walk (a partial snapshot): deepest point, last listed.
const MountEntry* LongestPrefix(const std::vector<MountEntry>& table, std::string_view path) {
  const MountEntry* best = nullptr;
  for (const MountEntry& e : table) {
    if (!Contains(e.mount_point, path)) continue;
    if (best == nullptr || e.mount_point.size() >= best->mount_point.size()) best = &e;
  }
  return best;
}

// Splits lowerdir's list on ':' that is not escaped with a backslash.
std::vector<std::string> SplitLayers(std::string_view list) {
  std::vector<std::string> out;
  std::string cur;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i] == '\\' && i + 1 < list.size()) {
      cur += list[++i];
    } else if (list[i] == ':') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += list[i];
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

void DecideBind(const std::vector<MountEntry>& table, const MountEntry& e, MountInfo& m) {
  if (e.root == "/") {
    m.bind = false;
    for (const MountEntry& other : table) {
      if (&other != &e && e.major != 0 && other.major == e.major && other.minor == e.minor &&
          other.root == "/" && other.mount_point != e.mount_point) {
        m.bind_note = fmt::format(
            "the same filesystem is also mounted at {}; a bind of a filesystem's top directory "
            "looks the same as a second mount",
            other.mount_point);
        break;
      }
    }
    return;
  }
  if (e.fstype == "btrfs") {
    std::optional<std::string> subvol = OptionValue(e.super_options, "subvol");
    if (subvol && e.root == *subvol) {
      m.bind = false;
      m.bind_note = fmt::format(
          "btrfs subvolume {}: mountinfo's root names the subvolume, which is not a bind (a bind "
          "of that subvolume's top directory would look the same)",
          *subvol);
    } else {
      m.bind = true;
      m.bind_note = subvol ? fmt::format("directory {} inside btrfs subvolume {}", e.root, *subvol)
                           : "btrfs without a subvol option: root may name a subvolume, not a bind";
    }
    return;
  }
  if (e.fstype == "nfs" || e.fstype == "nfs4") {
    std::size_t colon = e.source.find(':');
    std::string exported = colon == std::string::npos ? "" : e.source.substr(colon + 1);
    m.bind = exported.empty() || e.root != exported;
    m.bind_note = m.bind ? "NFS: root can also be a subdirectory of the export mounted directly"
                         : "NFS: root is the exported directory itself, not a bind";
    return;
  }
  m.bind = true;
  m.bind_note = fmt::format("directory {} of {} is mounted here", e.root, e.source);
}

}  // namespace

std::string UnescapeMountField(std::string_view field) {
  std::string out;
  out.reserve(field.size());
  for (std::size_t i = 0; i < field.size(); ++i) {
    if (field[i] == '\\' && i + 3 < field.size() && field[i + 1] >= '0' && field[i + 1] <= '3' &&
        field[i + 2] >= '0' && field[i + 2] <= '7' && field[i + 3] >= '0' && field[i + 3] <= '7') {
      out += static_cast<char>((field[i + 1] - '0') * 64 + (field[i + 2] - '0') * 8 +
                               (field[i + 3] - '0'));
      i += 3;
    } else {
      out += field[i];
    }
  }
  return out;
}

Result<std::vector<MountEntry>> ParseMountInfo(std::string_view text) {
  std::vector<MountEntry> out;
  int number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    Result<MountEntry> e = ParseLine(line);
    if (!e.ok()) {
      return Status::InvalidArgument(
          fmt::format("mountinfo line {}: {}: {}", number, e.status().message(), line));
    }
    out.push_back(std::move(*e));
  }
  return out;
}

const MountEntry* FindMount(const std::vector<MountEntry>& table, std::string_view path) {
  const MountEntry* root = nullptr;
  for (const MountEntry& e : table) {
    if (e.mount_point != "/") continue;
    bool parent_listed = std::any_of(table.begin(), table.end(), [&](const MountEntry& p) {
      return p.id == e.parent_id && p.id != e.id;
    });
    if (!parent_listed) root = &e;
  }
  if (root == nullptr) return LongestPrefix(table, path);
  const MountEntry* cur = TopOfStack(table, root, "/");
  std::size_t pos = 1;
  while (pos <= path.size()) {
    std::size_t slash = path.find('/', pos);
    if (slash == std::string_view::npos) slash = path.size();
    if (slash > pos) cur = TopOfStack(table, cur, path.substr(0, slash));
    pos = slash + 1;
  }
  return cur;
}

bool HasOption(const std::vector<std::string>& options, std::string_view word) {
  for (const std::string& o : options) {
    if (word.ends_with('=') ? o.starts_with(word) : o == word) return true;
  }
  return false;
}

std::optional<std::string> OptionValue(const std::vector<std::string>& options,
                                       std::string_view key) {
  std::optional<std::string> value;
  for (const std::string& o : options) {
    if (o.size() > key.size() && o.starts_with(key) && o[key.size()] == '=') {
      value = o.substr(key.size() + 1);
    }
  }
  return value;
}

std::vector<std::string> MergeOptions(const std::vector<std::string>& a,
                                      const std::vector<std::string>& b) {
  std::vector<std::string> out;
  for (const auto* list : {&a, &b}) {
    for (const std::string& o : *list) {
      if (std::find(out.begin(), out.end(), o) == out.end()) out.push_back(o);
    }
  }
  return out;
}

OverlayInfo ParseOverlayOptions(const std::vector<std::string>& super_options) {
  OverlayInfo o;
  for (const std::string& opt : super_options) {
    if (opt.starts_with("lowerdir=")) {
      o.lower_dirs = SplitLayers(std::string_view(opt).substr(9));
    } else if (opt.starts_with("lowerdir+=")) {
      // Layers added one at a time through the new mount API are listed one option each.
      for (std::string& l : SplitLayers(std::string_view(opt).substr(10))) {
        o.lower_dirs.push_back(std::move(l));
      }
    } else if (opt.starts_with("upperdir=")) {
      o.upper_dir = opt.substr(9);
    } else if (opt.starts_with("workdir=")) {
      o.work_dir = opt.substr(8);
    } else if (opt == "volatile" || opt == "fsync=volatile") {
      o.volatile_mount = true;
    }
  }
  return o;
}

MountInfo DescribeMount(const std::vector<MountEntry>& table, const MountEntry& e,
                        const std::string& path) {
  MountInfo m;
  m.path = path;
  m.fstype = e.fstype;
  if (e.fstype.starts_with("fuse.")) m.fs_subtype = e.fstype.substr(5);
  if (e.fstype == "fuse") {
    m.notes.push_back(fmt::format(
        "FUSE mount without a subtype: mountinfo does not name the program serving it (source {})",
        e.source));
  }
  m.source = e.source;
  m.mount_point = e.mount_point;
  m.root = e.root;
  m.mount_id = e.id;
  m.dev_major = e.major;
  m.dev_minor = e.minor;
  m.mount_options = e.mount_options;
  m.super_options = e.super_options;
  m.options = MergeOptions(e.mount_options, e.super_options);
  DecideBind(table, e, m);
  if (e.fstype == "overlay") m.overlay = ParseOverlayOptions(e.super_options);
  return m;
}

}  // namespace durprobe::platform
