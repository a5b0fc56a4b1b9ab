// The watch textfile: one histogram per command and file kind, files of one kind summed, the
// buckets cumulative (a sync counted under every bound at or above it), labels escaped, and a
// SQLite database's durability as 0 or 1.
#include "render/prometheus/watch_prometheus.h"

#include <gtest/gtest.h>

#include <sstream>

#include "probes/histogram.h"

namespace durprobe::render::prometheus {
namespace {

model::WatchFile File(const std::string& path, model::WatchFileKind kind,
                      std::vector<std::uint64_t> ns) {
  model::WatchFile f;
  f.comm = "app\"1";
  f.path = path;
  f.kind = kind;
  probes::Histogram h;
  for (std::uint64_t v : ns) {
    h.Record(v);
    f.latency_sum_ns += v;
  }
  f.syncs = ns.size();
  f.latency_buckets = probes::NonEmptyBuckets(h);
  f.bytes = 4096 * ns.size();
  return f;
}

TEST(WatchPrometheusTest, OneHistogramPerCommandAndKind) {
  model::WatchReport r;
  r.seconds = 10;
  r.files.push_back(File("/d/a-wal", model::WatchFileKind::kSqliteWal, {500000, 3000000}));
  r.files.push_back(File("/d/b-wal", model::WatchFileKind::kSqliteWal, {3000000}));
  model::WatchSqlite s;
  s.database = "/d/a";
  s.journal_mode = model::SqliteJournalSeen::kWal;
  s.synchronous = model::SqliteSyncSeen::kNormal;
  s.durable = false;
  r.sqlite.push_back(s);
  std::ostringstream out;
  WriteWatchPrometheus(r, out);
  const std::string text = out.str();
  const std::string labels = "comm=\"app\\\"1\",kind=\"sqlite_wal\"";
  EXPECT_NE(
      text.find("durprobe_watch_sync_latency_seconds_bucket{" + labels + ",le=\"0.001\"} 1\n"),
      std::string::npos)
      << text;
  EXPECT_NE(
      text.find("durprobe_watch_sync_latency_seconds_bucket{" + labels + ",le=\"0.004\"} 3\n"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("durprobe_watch_sync_latency_seconds_bucket{" + labels + ",le=\"+Inf\"} 3\n"),
            std::string::npos);
  EXPECT_NE(text.find("durprobe_watch_sync_latency_seconds_count{" + labels + "} 3\n"),
            std::string::npos);
  EXPECT_NE(text.find("durprobe_watch_sync_latency_seconds_sum{" + labels + "} 0.0065\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("durprobe_watch_synced_bytes{" + labels + "} 12288\n"), std::string::npos);
  EXPECT_NE(text.find("durprobe_watch_sqlite_commit_durable{database=\"/d/a\",journal_mode=\"WAL\","
                      "synchronous=\"NORMAL\"} 0\n"),
            std::string::npos);
}

}  // namespace
}  // namespace durprobe::render::prometheus
