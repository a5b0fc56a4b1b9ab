// The fleet rows: one per host and path from reports of several hosts, an older report without
// checks or sync latencies, worst first or by a chosen key, and the CSV and JSON forms.
#include "explain/summary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "codec/json_reader.h"
#include "gate/presets.h"
#include "render/csv/summary_csv.h"
#include "render/json/summary_json.h"
#include "tests/fixtures.h"

namespace durprobe::explain {
namespace {

std::vector<SummaryRow> Fleet() {
  std::vector<SummaryRow> rows;
  for (const char* name : {"fast.json", "slow.json", "old.json"}) {
    Result<model::Report> report =
        codec::FromJson(testing_support::ReadFixture(std::string("summary/") + name));
    EXPECT_TRUE(report.ok()) << report.status().message();
    if (!report.ok()) continue;
    for (SummaryRow& r : RowsFromReport(*report, name)) rows.push_back(r);
  }
  return rows;
}

TEST(SummaryTest, ARowPerHostAndPathWithTheKeyFigures) {
  std::vector<SummaryRow> rows = Fleet();
  ASSERT_EQ(rows.size(), 3u);
  const SummaryRow& fast = rows[0];
  EXPECT_EQ(fast.host, "db-fast");
  EXPECT_EQ(fast.path, "/var/lib/etcd");
  EXPECT_EQ(fast.fstype, "ext4");
  EXPECT_EQ(fast.device, "nvme0n1");
  EXPECT_EQ(fast.sync_probe, "fdatasync preallocated 2300");
  EXPECT_EQ(fast.sync_p99_ns, 900000);
  EXPECT_EQ(fast.commits_wal_full, 2500);
  EXPECT_EQ(fast.commits_delete_full, 900);
  EXPECT_TRUE(fast.failed_rules.empty());
  EXPECT_EQ(rows[1].failed_rules, std::vector<std::string>{"etcd_wal_fsync_p99"});
  EXPECT_EQ(rows[1].findings, std::vector<std::string>{"sync_tail_heavy"});
}

TEST(SummaryTest, AnOlderReportKeepsWhatItHas) {
  SummaryRow old = Fleet()[2];  // a copy: Fleet() returns its rows by value
  EXPECT_EQ(old.host, "db-old");
  EXPECT_EQ(old.sync_p99_ns, 8000000);  // from latency_ns: no sync_latency_ns then
  EXPECT_FALSE(old.commits_wal_full.has_value());
  EXPECT_TRUE(old.failed_rules.empty());
}

TEST(SummaryTest, WorstFirstAndByKey) {
  std::vector<SummaryRow> rows = Fleet();
  SortRows(rows, SummarySort::kWorst);
  EXPECT_EQ(rows[0].host, "db-slow");            // a failed rule
  EXPECT_EQ(rows[1].host, "db-old");             // slower p99 than db-fast
  SortRows(rows, SummarySort::kCommitsWalFull);  // lowest rate first, missing last
  EXPECT_EQ(rows[0].host, "db-slow");
  EXPECT_EQ(rows[2].host, "db-old");
  SortRows(rows, SummarySort::kHost);
  EXPECT_EQ(rows[0].host, "db-fast");
}

TEST(SummaryTest, ANullPercentileStaysUnset) {
  // p99 is written as null below 100 operations (docs/json.md); the row must not show 0 ns.
  std::string text = testing_support::ReadFixture("summary/old.json");
  std::string from = "\"p99\": 8000000", to = "\"p99\": null";
  ASSERT_NE(text.find(from), std::string::npos);
  text.replace(text.find(from), from.size(), to);
  Result<model::Report> report = codec::FromJson(text);
  ASSERT_TRUE(report.ok()) << report.status().message();
  std::vector<SummaryRow> rows = RowsFromReport(*report, "old.json");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_FALSE(rows[0].sync_p99_ns.has_value());
  EXPECT_EQ(rows[0].sync_p50_ns, 2000000);
}

TEST(SummaryTest, CsvAndJsonCarryEveryRow) {
  std::vector<SummaryRow> rows = Fleet();
  std::ostringstream csv;
  render::csv::WriteSummaryCsv(rows, csv);
  std::string text = csv.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 4);
  EXPECT_EQ(text.rfind("host,path,fstype,device,sync_probe,sync_p50_ns,sync_p99_ns,", 0), 0u);
  EXPECT_NE(text.find("db-slow,/var/lib/etcd,xfs,nvme0n1,fdatasync preallocated 2300,4000000,"
                      "67000000,180,,etcd_wal_fsync_p99,sync_tail_heavy,"),
            std::string::npos)
      << text;
  nlohmann::json j = render::json::SummaryJson(rows);
  EXPECT_EQ(j["schema"], "durprobe.summary/1");
  ASSERT_EQ(j["rows"].size(), 3u);
  EXPECT_TRUE(j["rows"][2]["commits_wal_full"].is_null());
}

// Issue 35 item 3: a p99 too few operations could support is not small. It sorts by its p50, a
// floor under it; a row with neither latency sorts last.
TEST(SummaryTest, AMissingP99SortsByItsP50NotBelowEveryMeasuredOne) {
  SummaryRow measured, few, none;
  measured.path = "/measured";
  measured.sync_p50_ns = 500'000;
  measured.sync_p99_ns = 1'000'000;
  few.path = "/few";
  few.sync_p50_ns = 5'000'000;
  none.path = "/none";
  for (SummarySort key : {SummarySort::kSyncP99, SummarySort::kWorst}) {
    std::vector<SummaryRow> rows = {none, measured, few};
    SortRows(rows, key);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].path, "/few");
    EXPECT_EQ(rows[1].path, "/measured");
    EXPECT_EQ(rows[2].path, "/none");
  }
}

// Issue 35 item 4: a check --preset etcd report is summarized by the WAL probe the preset
// measures (fdatasync preallocated 1392 B at 150/s), not by fdatasync overwrite 4 KiB.
TEST(SummaryTest, AnEtcdReportIsSummarizedByItsWalProbe) {
  Result<gate::Policy> etcd = gate::Preset("etcd");
  ASSERT_TRUE(etcd.ok() && !etcd->latency.empty());
  model::Report report;
  model::Target t;
  t.path = "/var/lib/etcd";
  probes::ProbeResult overwrite, wal;
  overwrite.spec = {probes::Primitive::kFdatasync, probes::Pattern::kOverwrite, 4096};
  overwrite.latency.p50 = 100'000;
  overwrite.latency.p99 = 200'000;
  wal = overwrite;
  wal.spec = etcd->latency.front().spec;
  wal.latency.p99 = 900'000;
  t.probes = {overwrite, wal};
  report.targets = {t};
  std::vector<SummaryRow> rows = RowsFromReport(report, "etcd.json");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].sync_probe, "fdatasync preallocated 1392");
  EXPECT_EQ(rows[0].sync_p99_ns, 900'000);
}

}  // namespace
}  // namespace durprobe::explain
