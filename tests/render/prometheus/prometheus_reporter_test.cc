// The Prometheus textfile: metric names, labels, cumulative buckets, and validity by
// `promtool check metrics` (Debian's prometheus package).
#include "render/prometheus/prometheus_reporter.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "tests/check_report_fixture.h"
#include "tests/cli_runner.h"
#include "tests/render/flush_samples.h"

namespace durprobe::render::prometheus {
namespace {

std::string Text() {
  std::ostringstream out;
  EXPECT_TRUE(PrometheusReporter().Write(testing_support::CheckReportFixture(), out).ok());
  return out.str();
}

TEST(PrometheusReporterTest, EtcdBucketsPlusFinerOnes) {
  const std::vector<double>& b = SyncLatencyBuckets();
  ASSERT_EQ(b.size(), 20u);
  EXPECT_DOUBLE_EQ(b.front(), 0.00001);
  EXPECT_DOUBLE_EQ(b[6], 0.001);
  EXPECT_DOUBLE_EQ(b.back(), 8.192);
}

TEST(PrometheusReporterTest, HistogramIsCumulativeAndEndsAtTheCount) {
  std::string text = Text();
  const std::string labels =
      "path=\"/var/lib/etcd\",primitive=\"fdatasync\",pattern=\"preallocated\",size=\"2300\"";
  EXPECT_NE(text.find("# TYPE durprobe_sync_latency_seconds histogram"), std::string::npos);
  EXPECT_NE(text.find("durprobe_sync_latency_seconds_bucket{" + labels + ",le=\"0.0001\"} 10\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("durprobe_sync_latency_seconds_bucket{" + labels + ",le=\"0.001\"} 510\n"),
            std::string::npos);
  EXPECT_NE(text.find("durprobe_sync_latency_seconds_bucket{" + labels + ",le=\"0.004\"} 960\n"),
            std::string::npos);
  EXPECT_NE(text.find("durprobe_sync_latency_seconds_bucket{" + labels + ",le=\"+Inf\"} 1000\n"),
            std::string::npos);
  EXPECT_NE(text.find("durprobe_sync_latency_seconds_count{" + labels + "} 1000\n"),
            std::string::npos);
  EXPECT_NE(
      text.find("durprobe_sync_quantile_latency_seconds{" + labels + ",quantile=\"0.99\"} 0.067\n"),
      std::string::npos);
}

// _sum is in seconds, the unit of the buckets: 1000 syncs of 1.5 ms mean are 1.5 s, exactly.
TEST(PrometheusReporterTest, SumIsTheSecondsOfEverySync) {
  const std::string labels =
      "path=\"/var/lib/etcd\",primitive=\"fdatasync\",pattern=\"preallocated\",size=\"2300\"";
  EXPECT_NE(Text().find("durprobe_sync_latency_seconds_sum{" + labels + "} 1.5\n"),
            std::string::npos)
      << Text();
}

TEST(PrometheusReporterTest, CommitsChecksFindingsAndTimestamp) {
  std::string text = Text();
  EXPECT_NE(text.find("durprobe_sqlite_commits_per_second{path=\"/var/lib/etcd\",journal_mode="
                      "\"WAL\",synchronous=\"FULL\"} 512.5\n"),
            std::string::npos)
      << text;
  EXPECT_NE(
      text.find("durprobe_check_pass{path=\"/var/lib/etcd\",rule=\"etcd_wal_fsync_p99\"} 0\n"),
      std::string::npos);
  EXPECT_NE(
      text.find("durprobe_check_pass{path=\"/var/lib/etcd\",rule=\"etcd_backend_commit_p99\"} 1\n"),
      std::string::npos);
  EXPECT_EQ(text.find("max_p99_full_fsync"), std::string::npos);  // skipped: no series
  EXPECT_NE(text.find("durprobe_finding{path=\"/var/lib/etcd\",code=\"sync_tail_heavy\",severity="
                      "\"warn\"} 1\n"),
            std::string::npos);
  EXPECT_NE(text.find("durprobe_last_run_timestamp_seconds 1796054965\n"), std::string::npos);
}

TEST(PrometheusReporterTest, EpochSecondsAndLabelEscapes) {
  EXPECT_EQ(EpochSeconds("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(EpochSeconds("2000-03-01T00:00:00Z"), 951868800);
  EXPECT_EQ(EpochSeconds("2000-03-01T01:00:00.250+01:00"), 951868800);
  EXPECT_FALSE(EpochSeconds("yesterday").has_value());
  EXPECT_EQ(PromLabel("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
}

// Issue 32 item 5: a label stays one line of UTF-8 whatever the path holds.
TEST(PrometheusReporterTest, LabelsShowOtherControlBytesAsText) {
  EXPECT_EQ(PromLabel("/t/\x1b]0;x\x07\xff"), "/t/\\\\x1b]0;x\\\\x07\\\\xff");
  EXPECT_EQ(PromLabel("a\tb"), "a\tb");
}

TEST(PrometheusReporterTest, PromtoolAcceptsTheFile) {
  if (testing_support::RunShell("command -v promtool").exit_code != 0) {
    GTEST_SKIP() << "promtool is not installed (Debian: prometheus; scripts/deps.sh test)";
  }
  testing_support::TempDir dir;
  std::string file = dir.path() + "/durprobe.prom";
  std::ofstream(file) << Text();
  testing_support::CliRun run = testing_support::RunShell("promtool check metrics < " + file);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_EQ(run.out + run.err, "") << "promtool lint findings";
}

// durprobe_probe_flushes_per_op: a gauge per probe whose flushes were counted, with the probe's
// labels; no family at all when none was (the check fixture).
TEST(PrometheusReporterTest, CountedFlushesAreAGaugePerProbe) {
  model::Report report = testing_support::FlushReport();
  report.targets[0].probes.push_back(testing_support::FlushUnavailableProbe());
  report.targets[0].probes.back().spec.write_size = 8192;
  std::ostringstream out;
  ASSERT_TRUE(PrometheusReporter().Write(report, out).ok());
  const std::string text = out.str();
  EXPECT_NE(text.find("# TYPE durprobe_probe_flushes_per_op gauge\n"), std::string::npos) << text;
  EXPECT_NE(text.find("durprobe_probe_flushes_per_op{path=\"/data\",primitive=\"fdatasync\","
                      "pattern=\"append\",size=\"4096\"} 1\n"),
            std::string::npos)
      << text;
  std::size_t series = 0;
  for (std::size_t at = 0; (at = text.find("\ndurprobe_probe_flushes_per_op{", at)) != text.npos;
       ++at) {
    ++series;
  }
  EXPECT_EQ(series, 1u) << "the uncounted and unavailable probes have none: " << text;
  EXPECT_EQ(Text().find("flushes_per_op"), std::string::npos);
  if (testing_support::RunShell("command -v promtool").exit_code != 0) return;
  testing_support::TempDir dir;
  std::string file = dir.path() + "/durprobe.prom";
  std::ofstream(file) << text;
  testing_support::CliRun run = testing_support::RunShell("promtool check metrics < " + file);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_EQ(run.out + run.err, "") << "promtool lint findings";
}

}  // namespace
}  // namespace durprobe::render::prometheus
