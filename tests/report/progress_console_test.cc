#include "report/progress_console.h"

#include <gtest/gtest.h>

#include <sstream>

namespace durprobe::report {
namespace {

TEST(ProgressConsoleTest, ClockShowsMinutesAndHours) {
  EXPECT_EQ(FormatClock(0), "0:00");
  EXPECT_EQ(FormatClock(7'400'000'000), "0:07");
  EXPECT_EQ(FormatClock(754'000'000'000), "12:34");
  EXPECT_EQ(FormatClock(3'723'000'000'000), "1:02:03");
}

TEST(ProgressConsoleTest, ALineSaysPhaseItemOfTotalElapsedAndLeft) {
  ProgressEvent e{"sqlite", "/data: WAL/FULL", 6, 12, 14'000'000'000, 21'000'000'000};
  EXPECT_EQ(FormatProgress(e), "[sqlite 7/12] /data: WAL/FULL  0:14 elapsed, ~0:21 left");
}

TEST(ProgressConsoleTest, TheTerminalLineIsRedrawnInPlaceAndClearedBeforeOutput) {
  std::ostringstream err;
  ProgressLine line(err);
  line.Progress({"probe", "a", 0, 2, 0, 0});
  line.Progress({"probe", "b", 1, 2, 0, 0});
  line.ProbeDone(Target{}, probes::ProbeResult{});
  EXPECT_EQ(err.str(),
            "\r\x1b[K[probe 1/2] a  0:00 elapsed, ~0:00 left"
            "\r\x1b[K[probe 2/2] b  0:00 elapsed, ~0:00 left"
            "\r\x1b[K");
  line.TargetDone(Target{});  // nothing shown: nothing to clear
  EXPECT_EQ(err.str().size(), std::string("\r\x1b[K").size() * 3 + 2 * 39);
}

TEST(ProgressConsoleTest, TheVerboseLogIsOneLinePerItem) {
  std::ostringstream err;
  ProgressLog log(err);
  log.Progress({"workload", "/d: read", 0, 1, 0, 0});
  EXPECT_EQ(err.str(), "[workload 1/1] /d: read  0:00 elapsed, ~0:00 left\n");
}

}  // namespace
}  // namespace durprobe::report
