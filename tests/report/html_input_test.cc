#include "report/html_input.h"

#include <gtest/gtest.h>

#include "report/diff_analysis.h"
#include "report/json_reporter.h"
#include "report/sqlite_correlation.h"
#include "tests/fixtures.h"

namespace durprobe::report {
namespace {

TEST(HtmlInputTest, ReadsBackWhatTheJsonReporterWrote) {
  Result<nlohmann::json> doc = ParseJsonText(testing_support::ReadFixture("html/report.json"));
  ASSERT_TRUE(doc.ok());
  Result<Report> read = ReadReportForHtml(*doc);
  ASSERT_TRUE(read.ok()) << read.status().message();
  // Written again, the parts the page draws are what the file holds.
  nlohmann::json again = ToJson(*read);
  const nlohmann::json& t0 = (*doc)["targets"][0];
  const nlohmann::json& t1 = again["targets"][0];
  ASSERT_EQ(t1["probes"].size(), t0["probes"].size());
  for (std::size_t i = 0; i < t0["probes"].size(); ++i) {
    for (const char* key :
         {"primitive", "pattern", "write_size", "status", "ops", "latency_histogram"}) {
      EXPECT_EQ(t1["probes"][i][key], t0["probes"][i][key]) << i << " " << key;
    }
    EXPECT_EQ(t1["probes"][i]["latency_ns"]["p99"], t0["probes"][i]["latency_ns"]["p99"]);
  }
  EXPECT_EQ(t1["mount"]["fstype"], t0["mount"]["fstype"]);
  EXPECT_EQ(t1["findings"], t0["findings"]);
  ASSERT_EQ(read->targets[0].sqlite.size(), t0["sqlite"].size());
  for (std::size_t i = 0; i < t0["sqlite"].size(); ++i) {
    const SqliteEntry& e = read->targets[0].sqlite[i];
    const nlohmann::json& s = t0["sqlite"][i];
    EXPECT_NEAR(SyncsOf(e.result).total, s["syncs_per_commit"]["total"].get<double>(), 1e-3) << i;
    EXPECT_DOUBLE_EQ(e.correlation.sync_ns, s["sync_ns_per_commit"].get<double>());
    EXPECT_EQ(e.result.repetition_commits_per_sec,
              s["repetition_commits_per_sec"].get<std::vector<double>>());
  }
}

TEST(HtmlInputTest, AWrongTypeIsAnErrorNamingTheTarget) {
  nlohmann::json doc = nlohmann::json::parse(
      R"({"schema": "durprobe.report/1", "targets": [{"path": "/x", "probes": [
          {"primitive": "fsync", "pattern": "overwrite", "write_size": "big"}]}]})");
  Result<Report> read = ReadReportForHtml(doc);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("target /x"), std::string::npos)
      << read.status().message();
}

TEST(HtmlInputTest, AnUnknownPrimitiveIsAnError) {
  nlohmann::json doc = nlohmann::json::parse(
      R"({"schema": "durprobe.report/1", "targets": [{"path": "/x", "probes": [
          {"primitive": "teleport", "pattern": "overwrite"}]}]})");
  Result<Report> read = ReadReportForHtml(doc);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("unknown primitive 'teleport'"), std::string::npos);
}

}  // namespace
}  // namespace durprobe::report
