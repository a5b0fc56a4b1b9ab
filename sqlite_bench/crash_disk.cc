#include "sqlite_bench/crash_disk.h"

#include <algorithm>
#include <cstring>

namespace durprobe::sqlite_bench {
namespace {

void WriteAt(std::string* content, std::uint64_t offset, const char* data, std::size_t n) {
  if (content->size() < offset + n) content->resize(offset + n, '\0');
  std::memcpy(content->data() + offset, data, n);
}

bool IsDirOp(int op_index) { return op_index >= 2; }  // kCreate, kUnlink, kRename

}  // namespace

std::uint64_t SplitMix64::Next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

int CrashDisk::Lookup(const std::string& name) const {
  auto it = live_names_.find(name);
  return it == live_names_.end() ? kNoFile : it->second;
}

void CrashDisk::LogDirOp(Op op, int inode, const std::string& name, const std::string& to) {
  Entry e{op, inode};
  e.name = name;
  e.to = to;
  log_.push_back(std::move(e));
}

int CrashDisk::Create(const std::string& name) {
  int inode = static_cast<int>(inodes_.size());
  inodes_.push_back(Inode{});
  live_names_[name] = inode;
  LogDirOp(Op::kCreate, inode, name);
  return inode;
}

int CrashDisk::CreateAnonymous() {
  inodes_.push_back(Inode{"", "", false});
  return static_cast<int>(inodes_.size()) - 1;
}

bool CrashDisk::Unlink(const std::string& name) {
  int inode = Lookup(name);
  if (inode == kNoFile) return false;
  live_names_.erase(name);
  LogDirOp(Op::kUnlink, inode, name);
  return true;
}

bool CrashDisk::Rename(const std::string& from, const std::string& to) {
  int inode = Lookup(from);
  if (inode == kNoFile) return false;
  live_names_.erase(from);
  live_names_[to] = inode;
  LogDirOp(Op::kRename, inode, from, to);
  return true;
}

void CrashDisk::Write(int inode, std::uint64_t offset, const void* data, std::size_t n) {
  Inode& f = inodes_[inode];
  if (f.named && n > 0) {
    Entry e{Op::kWrite, inode, offset, f.live.size()};
    e.data.assign(static_cast<const char*>(data), n);
    log_.push_back(std::move(e));
  }
  WriteAt(&f.live, offset, static_cast<const char*>(data), n);
}

void CrashDisk::Truncate(int inode, std::uint64_t size) {
  Inode& f = inodes_[inode];
  if (f.named) log_.push_back(Entry{Op::kTruncate, inode, size});
  f.live.resize(size, '\0');
}

std::size_t CrashDisk::Read(int inode, void* buf, std::size_t n, std::uint64_t offset) const {
  const std::string& live = inodes_[inode].live;
  if (offset >= live.size()) return 0;
  std::size_t got = std::min<std::size_t>(n, live.size() - offset);
  std::memcpy(buf, live.data() + offset, got);
  return got;
}

std::uint64_t CrashDisk::Size(int inode) const { return inodes_[inode].live.size(); }

void CrashDisk::SyncFile(int inode) {
  std::string& durable = inodes_[inode].durable;
  auto synced = [&](const Entry& e) {
    if (e.inode != inode || IsDirOp(static_cast<int>(e.op))) return false;
    if (e.op == Op::kWrite) WriteAt(&durable, e.offset, e.data.data(), e.data.size());
    if (e.op == Op::kTruncate) durable.resize(e.offset, '\0');
    return true;
  };
  log_.erase(std::remove_if(log_.begin(), log_.end(), synced), log_.end());
}

void CrashDisk::ApplyDirOp(const Entry& e, std::map<std::string, int>* names) {
  auto it = names->find(e.name);
  switch (e.op) {
    case Op::kCreate:
      (*names)[e.name] = e.inode;
      break;
    case Op::kUnlink:
      if (it != names->end() && it->second == e.inode) names->erase(it);
      break;
    case Op::kRename:
      if (it != names->end() && it->second == e.inode) {
        names->erase(it);
        (*names)[e.to] = e.inode;
      }
      break;
    default:
      break;
  }
}

void CrashDisk::SyncDirectory() {
  auto synced = [&](const Entry& e) {
    if (!IsDirOp(static_cast<int>(e.op))) return false;
    ApplyDirOp(e, &durable_names_);
    return true;
  };
  log_.erase(std::remove_if(log_.begin(), log_.end(), synced), log_.end());
}

void CrashDisk::MakeAllDurable() {
  for (Inode& f : inodes_) f.durable = f.live;
  durable_names_ = live_names_;
  log_.clear();
}

std::size_t CrashDisk::SectorsOf(const Entry& e) const {
  if (e.op != Op::kWrite || e.data.empty()) return 0;
  std::uint64_t ss = device_.sector_size;
  return (e.offset + e.data.size() - 1) / ss - e.offset / ss + 1;
}

std::vector<EntryChoice> CrashDisk::RandomChoices(SplitMix64& rng) const {
  std::size_t n = log_.size();
  std::vector<EntryChoice> choices(n);
  // A sequential device keeps a prefix of the log, the entry at the cut decided as usual.
  std::size_t cut = device_.sequential ? rng.Below(n + 1) : n;
  std::size_t dir_ops = 0;
  for (const Entry& e : log_) dir_ops += IsDirOp(static_cast<int>(e.op));
  std::size_t dir_cut = device_.ordered_metadata ? rng.Below(dir_ops + 1) : dir_ops;
  std::size_t dir_index = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Entry& e = log_[i];
    EntryChoice& c = choices[i];
    std::size_t sectors = SectorsOf(e);
    bool dir_op = IsDirOp(static_cast<int>(e.op));
    if (i != cut && device_.sequential) {
      c.apply = i < cut;
      c.sectors.assign(sectors, c.apply ? SectorFate::kNew : SectorFate::kOld);
    } else if (dir_op && device_.ordered_metadata) {
      c.apply = dir_index < dir_cut;
    } else if (e.op != Op::kWrite) {
      c.apply = rng.Below(2) == 1;
    } else if (device_.safe_append && e.offset >= e.size_before) {
      std::size_t landed = rng.Below(sectors + 1);
      for (std::size_t s = 0; s < sectors; ++s) {
        c.sectors.push_back(s < landed ? SectorFate::kNew : SectorFate::kOld);
      }
    } else {
      for (std::size_t s = 0; s < sectors; ++s) {
        c.sectors.push_back(static_cast<SectorFate>(rng.Below(device_.atomic_sectors ? 2 : 3)));
      }
    }
    if (dir_op) ++dir_index;
  }
  return choices;
}

std::vector<EntryChoice> CrashDisk::SubsetChoices(std::uint64_t mask) const {
  std::vector<EntryChoice> choices(log_.size());
  for (std::size_t i = 0; i < log_.size(); ++i) {
    choices[i].apply = i < 64 && ((mask >> i) & 1) != 0;
    choices[i].sectors.assign(SectorsOf(log_[i]),
                              choices[i].apply ? SectorFate::kNew : SectorFate::kOld);
  }
  return choices;
}

DiskImage CrashDisk::ImageFor(const std::vector<EntryChoice>& choices, std::uint64_t seed) const {
  std::map<std::string, int> names = durable_names_;
  std::vector<std::string> content;
  content.reserve(inodes_.size());
  for (const Inode& f : inodes_) content.push_back(f.durable);
  std::uint64_t ss = device_.sector_size;
  for (std::size_t i = 0; i < log_.size() && i < choices.size(); ++i) {
    const Entry& e = log_[i];
    const EntryChoice& c = choices[i];
    std::string& file = content[e.inode];
    if (e.op == Op::kTruncate) {
      if (c.apply) file.resize(e.offset, '\0');
      continue;
    }
    if (e.op != Op::kWrite) {
      if (c.apply) ApplyDirOp(e, &names);
      continue;
    }
    std::uint64_t first = e.offset / ss, end = e.offset + e.data.size();
    for (std::size_t s = 0; s < c.sectors.size(); ++s) {
      std::uint64_t sector_lo = (first + s) * ss;
      std::uint64_t lo = std::max(sector_lo, e.offset), hi = std::min(sector_lo + ss, end);
      if (c.sectors[s] == SectorFate::kNew) {
        WriteAt(&file, lo, e.data.data() + (lo - e.offset), hi - lo);
      } else if (c.sectors[s] == SectorFate::kGarbage) {
        // Without powersafe overwrite, the whole sector as far as the file reaches: a torn write
        // scrambles its neighbours too. With it, only the bytes the write covered.
        std::uint64_t garbage_lo = device_.powersafe_overwrite ? lo : sector_lo;
        std::uint64_t garbage_hi =
            device_.powersafe_overwrite
                ? hi
                : std::max(hi, std::min(sector_lo + ss, std::uint64_t{file.size()}));
        if (file.size() < garbage_hi) file.resize(garbage_hi, '\0');
        SplitMix64 g(seed ^ (i * 0x9e3779b97f4a7c15ull) ^ (s * 0xc2b2ae3d27d4eb4full));
        for (std::uint64_t b = garbage_lo; b < garbage_hi; ++b) {
          file[b] = static_cast<char>(g.Next() & 0xff);
        }
      }
    }
  }
  DiskImage image;
  for (const auto& [name, inode] : names) image[name] = content[inode];
  return image;
}

DiskImage CrashDisk::LiveImage() const {
  DiskImage image;
  for (const auto& [name, inode] : live_names_) image[name] = inodes_[inode].live;
  return image;
}

}  // namespace durprobe::sqlite_bench
