// The fsync-error experiments' classifications, on plain values: what a page read back was, how
// a failed write was reported, and each call's result as the errno's name.
#include "probes/fsync_errors.h"

#include <gtest/gtest.h>

#include <cerrno>

namespace durprobe::probes {
namespace fsync_errors_test {

TEST(FsyncErrorsTest, APageReadBackIsNewOldZerosOrOther) {
  const std::string marker = "durprobe-faulty!";
  const std::string fresh = MarkedPage(marker, 'B');
  const std::string old(4096, 'A');
  ASSERT_EQ(fresh.size(), 4096u);
  EXPECT_EQ(fresh.substr(0, 16), marker);
  EXPECT_EQ(fresh.substr(512, 16), marker) << "the marker heads every 512-byte sector";
  EXPECT_EQ(fresh[16], 'B');
  EXPECT_EQ(ClassifyPage(fresh, fresh, old), PageContent::kNew);
  EXPECT_EQ(ClassifyPage(old, fresh, old), PageContent::kOld);
  EXPECT_EQ(ClassifyPage(std::string(4096, '\0'), fresh, old), PageContent::kZeros);
  EXPECT_EQ(ClassifyPage("", fresh, old), PageContent::kMissing) << "past the end of the file";
  std::string mixed = old;
  mixed.replace(0, 2048, fresh.substr(0, 2048));
  EXPECT_EQ(ClassifyPage(mixed, fresh, old), PageContent::kOther);
  EXPECT_EQ(ClassifyPage(old.substr(0, 100), fresh, old), PageContent::kOther);
}

TEST(FsyncErrorsTest, ReportingIsOnceEveryTimeOrNever) {
  EXPECT_EQ(ClassifyReporting("ok", "EIO", "ok"), Reporting::kReportedOnce);
  EXPECT_EQ(ClassifyReporting("ok", "EIO", "EIO"), Reporting::kReportedEveryTime);
  EXPECT_EQ(ClassifyReporting("ok", "ENOSPC", "EIO"), Reporting::kReportedEveryTime);
  EXPECT_EQ(ClassifyReporting("ok", "ok", "ok"), Reporting::kNotReported);
  EXPECT_EQ(ClassifyReporting("EIO", "ok", "ok"), Reporting::kReportedByWrite)
      << "an O_DIRECT write that failed said so itself";
  EXPECT_EQ(ClassifyReporting("ok", "", ""), Reporting::kUnknown);
}

TEST(FsyncErrorsTest, ACallIsOkOrItsErrnosName) {
  EXPECT_EQ(CallResult(Status::Ok()), "ok");
  EXPECT_EQ(CallResult(Status::FromErrno(EIO, "fsync")), "EIO");
  EXPECT_EQ(CallResult(Status::FromErrno(ENOSPC, "fsync")), "ENOSPC");
  EXPECT_EQ(CallResult(Status::FromErrno(EROFS, "open")), "EROFS");
  EXPECT_EQ(CallResult(Status::FromErrno(ENOTTY, "ioctl")), "errno " + std::to_string(ENOTTY));
  EXPECT_EQ(CallResult(Status::Error("the server went away")), "the server went away");
}

TEST(FsyncErrorsTest, EveryNameReadsBack) {
  for (int i = 0;; ++i) {
    std::string_view name = NameOf(static_cast<FaultKind>(i));
    if (name.empty()) break;
    EXPECT_NE(name.find_first_not_of("abcdefghijklmnopqrstuvwxyz_"), 0u) << name;
  }
  EXPECT_EQ(NameOf(FaultKind::kDataNoSpace), "data_enospc");
  EXPECT_EQ(NameOf(Reporting::kReportedOnce), "reported_once");
  EXPECT_EQ(NameOf(PageContent::kZeros), "zeros");
  EXPECT_EQ(NameOf(FsState::kShutDown), "shut_down");
  EXPECT_EQ(NameOf(FaultKind::kDataAppend), "data_append");
  EXPECT_EQ(NameOf(PageContent::kMissing), "missing");
}

}  // namespace fsync_errors_test
}  // namespace durprobe::probes
