#include "render/prometheus/watch_prometheus.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <map>
#include <tuple>

#include "analysis/watch_files.h"
#include "analysis/watch_sqlite.h"
#include "render/prometheus/prometheus_reporter.h"

namespace durprobe::render::prometheus {
namespace {

struct Series {
  std::vector<std::uint64_t> at_or_under;  // per SyncLatencyBuckets() bound
  std::uint64_t count = 0;
  std::uint64_t sum_ns = 0;
  std::uint64_t bytes = 0;
};

void Header(std::string_view name, std::string_view type, std::string_view help,
            std::ostream& out) {
  fmt::print(out, "# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
}

}  // namespace

void WriteWatchPrometheus(const model::WatchReport& r, std::ostream& out) {
  const std::vector<double>& bounds = SyncLatencyBuckets();
  std::map<std::pair<std::string, std::string>, Series> series;  // comm, kind
  for (const model::WatchFile& f : r.files) {
    if (f.syncs == 0) continue;
    Series& s = series[{f.comm, std::string(analysis::WatchFileKindName(f.kind))}];
    s.at_or_under.resize(bounds.size());
    for (std::size_t i = 0; i < bounds.size(); ++i) {
      auto le_ns = static_cast<std::uint64_t>(bounds[i] * 1e9 + 0.5);
      for (const probes::HistogramBucket& b : f.latency_buckets) {
        s.at_or_under[i] += b.upper_bound_ns <= le_ns ? b.count : 0;
      }
    }
    s.count += f.syncs;
    s.sum_ns += f.latency_sum_ns;
    s.bytes += f.bytes;
  }
  Header("durprobe_watch_sync_latency_seconds", "histogram",
         "Latency of the observed processes' syncs over the window, per command and file kind.",
         out);
  for (const auto& [key, s] : series) {
    std::string labels =
        fmt::format("comm=\"{}\",kind=\"{}\"", PromLabel(key.first), PromLabel(key.second));
    for (std::size_t i = 0; i < bounds.size(); ++i) {
      fmt::print(out, "durprobe_watch_sync_latency_seconds_bucket{{{},le=\"{}\"}} {}\n", labels,
                 bounds[i], s.at_or_under[i]);
    }
    fmt::print(out, "durprobe_watch_sync_latency_seconds_bucket{{{},le=\"+Inf\"}} {}\n", labels,
               s.count);
    fmt::print(out, "durprobe_watch_sync_latency_seconds_sum{{{}}} {}\n", labels,
               static_cast<double>(s.sum_ns) / 1e9);
    fmt::print(out, "durprobe_watch_sync_latency_seconds_count{{{}}} {}\n", labels, s.count);
  }
  Header("durprobe_watch_synced_bytes", "gauge",
         "Bytes written before the syncs of the window, per command and file kind.", out);
  for (const auto& [key, s] : series) {
    fmt::print(out, "durprobe_watch_synced_bytes{{comm=\"{}\",kind=\"{}\"}} {}\n",
               PromLabel(key.first), PromLabel(key.second), s.bytes);
  }
  Header("durprobe_watch_sqlite_commit_durable", "gauge",
         "1 when a SQLite database's commits are on stable storage when they return, as its sync "
         "pattern shows; 0 for synchronous=OFF and for WAL with NORMAL.",
         out);
  for (const model::WatchSqlite& s : r.sqlite) {
    if (s.synchronous == model::SqliteSyncSeen::kUnknown) continue;
    fmt::print(out,
               "durprobe_watch_sqlite_commit_durable{{database=\"{}\",journal_mode=\"{}\","
               "synchronous=\"{}\"}} {}\n",
               PromLabel(s.database), PromLabel(analysis::SqliteJournalSeenName(s.journal_mode)),
               PromLabel(analysis::SqliteSyncSeenName(s.synchronous)), s.durable ? 1 : 0);
  }
  Header("durprobe_watch_window_seconds", "gauge", "How long watch observed.", out);
  fmt::print(out, "durprobe_watch_window_seconds {}\n", r.seconds);
}

}  // namespace durprobe::render::prometheus
