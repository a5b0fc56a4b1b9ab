// targets[].fsync_errors[]: every key written, read back equal, written again the same.
#include "codec/fsync_errors_json.h"

#include <gtest/gtest.h>

#include <sstream>

#include "codec/json_reader.h"
#include "codec/report_json.h"

namespace durprobe::codec {
namespace fsync_errors_json_test {

TEST(FsyncErrorsJsonTest, AFilesystemsExperimentsRoundTrip) {
  probes::FsyncErrorsResult r;
  r.fs = "ext4";
  r.fs_options = "data=journal";
  r.paths_own_fs = true;
  r.kernel = "6.18.0";
  r.ns = 12'000'000'000;
  probes::FsyncErrorOutcome o;
  o.fault = probes::FaultKind::kDataPersistent;
  o.sync = "fdatasync";
  o.write = "ok";
  o.first_sync = "EIO";
  o.second_sync = "EIO";
  o.other_sync = "ok";
  o.later_sync = "ok";
  o.reporting = probes::Reporting::kReportedEveryTime;
  o.cached = probes::PageContent::kNew;
  o.remounted = probes::PageContent::kOld;
  o.size = 16384;
  o.state = probes::FsState::kReadOnly;
  o.state_error = "EROFS";
  o.remount_ok = true;
  o.state_after_remount = probes::FsState::kAvailable;
  o.kernel = {"EXT4-fs error (device loop3): ext4_journal_check_start"};
  o.retry = "safe: every retry failed";
  probes::FsyncErrorOutcome failed;
  failed.fault = probes::FaultKind::kMetadata;
  failed.status = probes::Outcome::kError;
  failed.reason = "mkfs.ext4 exited with 1";
  r.outcomes = {o, failed};
  probes::SqliteSyncFailure s;
  s.journal_mode = "WAL";
  s.rows_before = 3;
  s.commit = "disk I/O error (1034)";
  s.reopened = "rolled_back";
  s.rows_reopened = 3;
  s.remounted = "rolled_back";
  s.rows_remounted = 3;
  r.sqlite = {s};
  model::Report report;
  model::Target t;
  t.path = "/data";
  t.fsync_errors = {r};
  report.targets = {t};
  std::ostringstream out;
  WriteJson(report, out);
  const nlohmann::json j = nlohmann::json::parse(out.str())["targets"][0]["fsync_errors"][0];
  EXPECT_EQ(j["experiments"][0]["fault"], "data_persistent");
  EXPECT_EQ(j["experiments"][0]["reporting"], "reported_every_time");
  EXPECT_EQ(j["experiments"][0]["page_after_remount"], "old");
  EXPECT_EQ(j["sqlite"][0]["reopened"], "rolled_back");
  Result<model::Report> read = FromJson(out.str());
  ASSERT_TRUE(read.ok()) << read.status().message();
  ASSERT_EQ(read->targets[0].fsync_errors.size(), 1u);
  EXPECT_EQ(read->targets[0].fsync_errors[0], r);
  EXPECT_EQ(ToJson(read->targets[0].fsync_errors), ToJson(t.fsync_errors)) << "byte for byte";
}

}  // namespace fsync_errors_json_test
}  // namespace durprobe::codec
