// What a faults result means for a database: the retry column and the two findings.
#include "analysis/fsync_error_meaning.h"

#include <gtest/gtest.h>

#include "model/finding_codes.h"

namespace durprobe::analysis {
namespace fsync_error_meaning_test {

using probes::FaultKind;
using probes::PageContent;
using probes::Reporting;

probes::FsyncErrorOutcome Data(Reporting reporting, PageContent on_disk,
                               FaultKind fault = FaultKind::kDataOnce) {
  probes::FsyncErrorOutcome o;
  o.fault = fault;
  o.sync = "fsync";
  o.write = "ok";
  o.first_sync = reporting == Reporting::kNotReported ? "ok" : "EIO";
  o.second_sync = reporting == Reporting::kReportedEveryTime ? "EIO" : "ok";
  o.reporting = reporting;
  o.remounted = on_disk;
  o.remount_ok = true;
  return o;
}

TEST(FsyncErrorMeaningTest, ARetryThatSaysOkOverAnUnwrittenPageIsUnsafe) {
  EXPECT_TRUE(RetryUnsafe(Data(Reporting::kReportedOnce, PageContent::kOld)));
  EXPECT_TRUE(RetryUnsafe(Data(Reporting::kReportedOnce, PageContent::kZeros)));
  EXPECT_FALSE(RetryUnsafe(Data(Reporting::kReportedOnce, PageContent::kNew)))
      << "the page stayed dirty and the retry wrote it";
  EXPECT_FALSE(RetryUnsafe(Data(Reporting::kReportedEveryTime, PageContent::kOld)));
  EXPECT_FALSE(RetryUnsafe(Data(Reporting::kReportedOnce, PageContent::kOld, FaultKind::kMetadata)))
      << "a metadata failure asks no retry question";
  EXPECT_EQ(RetryMeaning(Data(Reporting::kReportedOnce, PageContent::kOld)),
            "unsafe: retry ok, page old on disk");
  EXPECT_EQ(RetryMeaning(Data(Reporting::kReportedEveryTime, PageContent::kOld)),
            "safe: every retry failed");
  EXPECT_EQ(RetryMeaning(Data(Reporting::kNotReported, PageContent::kOld)), "lost silently");
  EXPECT_EQ(RetryMeaning(Data(Reporting::kReportedOnce, PageContent::kNew)), "retry wrote it");
}

// A write and a sync that said ok over a failed page lose it silently, unless it was the home
// write of a page whose journal copy a remount replayed.
TEST(FsyncErrorMeaningTest, AnUnreportedFailureIsSilentLossUnlessTheJournalReplayedThePage) {
  EXPECT_TRUE(LostSilently(Data(Reporting::kNotReported, PageContent::kOld)));
  EXPECT_TRUE(LostSilently(Data(Reporting::kNotReported, PageContent::kNew)))
      << "an ordinary data fault said ok: the row says so whatever the page holds";
  EXPECT_FALSE(LostSilently(Data(Reporting::kReportedOnce, PageContent::kOld)));
  EXPECT_FALSE(
      LostSilently(Data(Reporting::kNotReported, PageContent::kNew, FaultKind::kDataCheckpoint)));
  EXPECT_TRUE(
      LostSilently(Data(Reporting::kNotReported, PageContent::kOld, FaultKind::kDataCheckpoint)));
  EXPECT_EQ(
      RetryMeaning(Data(Reporting::kNotReported, PageContent::kNew, FaultKind::kDataCheckpoint)),
      "nothing to retry: the journal's copy was replayed");
  EXPECT_FALSE(
      LostSilently(Data(Reporting::kNotReported, PageContent::kOld, FaultKind::kMetadata)));
}

TEST(FsyncErrorMeaningTest, EachFilesystemGetsItsFindingsOnceAndEveryRowItsMeaning) {
  Target t;
  probes::FsyncErrorsResult ext4;
  ext4.fs = "ext4";
  ext4.kernel = "6.18.0";
  ext4.outcomes = {
      Data(Reporting::kReportedOnce, PageContent::kOld),
      Data(Reporting::kReportedOnce, PageContent::kOld, FaultKind::kDataNoSpace),
      Data(Reporting::kReportedEveryTime, PageContent::kOld, FaultKind::kDataPersistent)};
  probes::FsyncErrorsResult silent;
  silent.fs = "btrfs";
  silent.outcomes = {Data(Reporting::kNotReported, PageContent::kOld)};
  t.fsync_errors = {ext4, silent};
  std::vector<model::Finding> findings = AssessFsyncErrors(t);
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].code, model::codes::kFsyncRetryUnsafe);
  EXPECT_EQ(findings[0].severity, Severity::kWarn);
  EXPECT_NE(findings[0].message.find("on ext4 (kernel 6.18.0)"), std::string::npos);
  EXPECT_NE(findings[0].message.find("data_once fsync, data_enospc fsync"), std::string::npos)
      << findings[0].message;
  EXPECT_EQ(findings[1].code, model::codes::kFsyncErrorNotReported);
  EXPECT_EQ(findings[1].severity, Severity::kFail);
  EXPECT_EQ(t.fsync_errors[0].outcomes[2].retry, "safe: every retry failed");
  EXPECT_EQ(t.fsync_errors[1].outcomes[0].retry, "lost silently");
}

TEST(FsyncErrorMeaningTest, TheTellingKernelLineIsTheFilesystemsStateElseTheFirstError) {
  EXPECT_EQ(TellingKernelLine({"EXT4-fs (loop2): mounted filesystem x r/w",
                               "I/O error, dev loop2, sector 18434",
                               "EXT4-fs (loop2): Remounting filesystem read-only"}),
            "EXT4-fs (loop2): Remounting filesystem read-only");
  EXPECT_EQ(TellingKernelLine({"EXT4-fs (loop2): mounted filesystem x r/w",
                               "I/O error, dev loop2, sector 18434"}),
            "I/O error, dev loop2, sector 18434");
  EXPECT_EQ(TellingKernelLine({"EXT4-fs (loop2): mounted filesystem x r/w"}), "");
}

}  // namespace fsync_error_meaning_test
}  // namespace durprobe::analysis
