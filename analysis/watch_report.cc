#include "analysis/watch_report.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "analysis/watch_files.h"
#include "analysis/watch_sqlite.h"
#include "model/percentiles.h"
#include "probes/histogram.h"
#include "probes/statistics.h"

namespace durprobe::analysis {
namespace {

using FileKey = std::pair<std::uint32_t, std::string>;  // pid, path

struct FileTally {
  model::WatchFile file;
  probes::Histogram latency;
  std::map<std::string, std::uint64_t> calls;
  bool directory = false;
};

std::string Parent(const std::string& path) {
  std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return "";
  return slash == 0 ? "/" : path.substr(0, slash);
}

model::WatchLatency LatencyOf(const probes::Histogram& h) {
  model::WatchLatency l;
  if (h.count() == 0) return l;
  l.p50_ns = probes::Percentile(h, 0.5);
  probes::Interval ci = probes::MedianConfidenceInterval(h);
  l.p50_low_ns = ci.low;
  l.p50_high_ns = ci.high;
  if (model::PercentileSupported(0.99, h.count())) l.p99_ns = probes::Percentile(h, 0.99);
  l.max_ns = h.max();
  return l;
}

// The database a SQLite file belongs to: the journal's and WAL's name without the suffix.
std::string DatabaseOf(const std::string& path, model::WatchFileKind kind) {
  if (kind == model::WatchFileKind::kSqliteJournal) return path.substr(0, path.size() - 8);
  if (kind == model::WatchFileKind::kSqliteWal) return path.substr(0, path.size() - 4);
  if (kind == model::WatchFileKind::kSqliteDatabase) return path;
  return "";
}

std::vector<model::WatchSqlite> SqliteDatabases(const model::WatchRecording& rec,
                                                const std::map<FileKey, FileTally>& files,
                                                const std::set<std::string>& seen) {
  std::set<FileKey> databases;
  for (const auto& [key, tally] : files) {
    std::string db = DatabaseOf(key.second, tally.file.kind);
    if (!db.empty()) databases.insert({key.first, db});
  }
  std::vector<model::WatchSqlite> out;
  for (const auto& [pid, db] : databases) {
    std::vector<SqliteFileSync> syncs;
    for (const model::WatchSync& w : rec.syncs) {
      const std::string& p = w.sync.path;
      if (w.sync.pid != pid || w.sync.result < 0) continue;
      model::WatchFileKind kind = ClassifyWatchFile(p, w.directory, seen);
      bool ours = p == db || p == db + "-journal" || p == db + "-wal" ||
                  (kind == model::WatchFileKind::kDirectory && p == Parent(db));
      if (!ours) continue;
      if (p == db) kind = model::WatchFileKind::kSqliteDatabase;
      syncs.push_back({kind, w.sync.bytes_since_sync, w.at_seconds});
    }
    SqliteUnsynced unsynced;
    for (const platform::UnsyncedWrites& u : rec.unsynced) {
      if (u.pid != pid) continue;
      if (u.path == db) unsynced.database += u.bytes;
      if (u.path == db + "-journal") unsynced.journal += u.bytes;
      if (u.path == db + "-wal") unsynced.wal += u.bytes;
    }
    out.push_back(InferSqlite(pid, db, syncs, unsynced, rec.seconds));
  }
  return out;
}

}  // namespace

model::WatchReport BuildWatchReport(const model::WatchRecording& rec) {
  model::WatchReport report;
  report.context = rec.context;
  report.seconds = rec.seconds;
  report.pids = rec.pids;
  report.comm = rec.comm;
  report.path = rec.path;
  report.lost = rec.lost;
  report.unobserved = rec.unobserved;
  report.syncs = rec.syncs.size();

  std::set<std::string> seen;
  for (const model::WatchSync& w : rec.syncs) seen.insert(w.sync.path);
  for (const platform::UnsyncedWrites& u : rec.unsynced) seen.insert(u.path);
  std::map<std::string, std::vector<std::string>> devices_of(rec.file_devices.begin(),
                                                             rec.file_devices.end());

  std::map<FileKey, FileTally> files;
  auto tally_of = [&](std::uint32_t pid, const std::string& path, const std::string& comm,
                      bool directory) -> FileTally& {
    FileTally& t = files[{pid, path}];
    if (t.file.path.empty()) {
      t.file.pid = pid;
      t.file.path = path;
      t.file.comm = comm;
      t.file.kind = ClassifyWatchFile(path, directory, seen);
      auto devices = devices_of.find(path);
      if (devices != devices_of.end()) t.file.devices = devices->second;
    }
    return t;
  };
  for (const model::WatchSync& w : rec.syncs) {
    const platform::ObservedSync& s = w.sync;
    FileTally& t = tally_of(s.pid, s.path, s.comm, w.directory);
    ++t.file.syncs;
    if (s.result < 0) ++t.file.failed;
    ++t.calls[std::string(platform::ObservedCallName(s.call))];
    t.latency.Record(s.latency_ns);
    t.file.latency_sum_ns += s.latency_ns;
    t.file.bytes += s.bytes_since_sync;
  }
  for (const platform::UnsyncedWrites& u : rec.unsynced) {
    tally_of(u.pid, u.path, "", false).file.unsynced_bytes += u.bytes;
  }
  for (auto& [key, t] : files) {
    model::WatchFile f = t.file;
    f.calls.assign(t.calls.begin(), t.calls.end());
    f.latency = LatencyOf(t.latency);
    f.latency_buckets = probes::NonEmptyBuckets(t.latency);
    if (rec.seconds > 0) f.syncs_per_second = static_cast<double>(f.syncs) / rec.seconds;
    if (f.syncs > 0) f.bytes_per_sync = static_cast<double>(f.bytes) / static_cast<double>(f.syncs);
    report.files.push_back(std::move(f));
  }
  std::stable_sort(report.files.begin(), report.files.end(),
                   [](const model::WatchFile& a, const model::WatchFile& b) {
                     return std::tie(b.syncs, b.unsynced_bytes) <
                            std::tie(a.syncs, a.unsynced_bytes);
                   });

  for (const model::WatchDevice& d : rec.devices) {
    model::WatchDeviceRow row{d, 0, std::nullopt};
    for (const model::WatchFile& f : report.files) {
      if (std::find(f.devices.begin(), f.devices.end(), d.name) != f.devices.end()) {
        row.syncs += f.syncs;
      }
    }
    if (row.syncs == 0) continue;
    row.flushes_per_sync = static_cast<double>(d.flushes) / static_cast<double>(row.syncs);
    report.devices.push_back(row);
  }
  report.sqlite = SqliteDatabases(rec, files, seen);
  return report;
}

}  // namespace durprobe::analysis
