#include "render/console/progress_console.h"

#include <gtest/gtest.h>

#include <sstream>

#include "text/table.h"

namespace durprobe::render::console {
namespace {

TEST(ProgressConsoleTest, ClockShowsMinutesAndHours) {
  EXPECT_EQ(FormatClock(0), "0:00");
  EXPECT_EQ(FormatClock(7'400'000'000), "0:07");
  EXPECT_EQ(FormatClock(754'000'000'000), "12:34");
  EXPECT_EQ(FormatClock(3'723'000'000'000), "1:02:03");
}

TEST(ProgressConsoleTest, ALineSaysPhaseItemOfTotalElapsedAndLeft) {
  model::ProgressEvent e{"sqlite", "/data: WAL/FULL", 6, 12, 14'000'000'000, 21'000'000'000};
  EXPECT_EQ(FormatProgress(e), "[sqlite 7/12] /data: WAL/FULL  0:14 elapsed, ~0:21 left");
}

TEST(ProgressConsoleTest, TheTerminalLineIsRedrawnInPlaceAndClearedWhenTheRunEnds) {
  std::ostringstream err;
  ProgressLine line(err);
  line.Progress({"probe", "a", 0, 2, 0, 0});
  line.ProbeDone(model::Target{},
                 probes::ProbeResult{});  // nothing printed meanwhile: the line stays
  line.Progress({"probe", "b", 1, 2, 0, 0});
  line.RunFinished(model::Report{});
  EXPECT_EQ(err.str(),
            "\r\x1b[K[probe 1/2] a  0:00 elapsed, ~0:00 left"
            "\r\x1b[K[probe 2/2] b  0:00 elapsed, ~0:00 left"
            "\r\x1b[K");
  line.Clear();  // nothing shown: nothing to clear
  EXPECT_EQ(err.str().size(), std::string("\r\x1b[K").size() * 3 + 2 * 39);
}

TEST(ProgressConsoleTest, TheVerboseLogIsOneLinePerItem) {
  std::ostringstream err;
  ProgressLog log(err);
  log.Progress({"workload", "/d: read", 0, 1, 0, 0});
  EXPECT_EQ(err.str(), "[workload 1/1] /d: read  0:00 elapsed, ~0:00 left\n");
}

TEST(ProgressConsoleTest, TicksRedrawTheShownItemUntilTheLineIsCleared) {
  std::ostringstream err;
  ProgressLine line(err);
  line.Progress({"sqlite", "w", 0, 2, 0, 9'000'000'000});
  line.ProgressTick({"sqlite", "w", 0, 2, 1'000'000'000, 8'000'000'000});
  EXPECT_EQ(err.str(),
            "\r\x1b[K[sqlite 1/2] w  0:00 elapsed, ~0:09 left"
            "\r\x1b[K[sqlite 1/2] w  0:01 elapsed, ~0:08 left");
  err.str("");
  line.SqliteDone(model::Target{},
                  model::SqliteEntry{});  // the line stays up, and ticks still redraw it
  line.ProgressTick({"sqlite", "w", 0, 2, 2'000'000'000, 7'000'000'000});
  EXPECT_EQ(err.str(), "\r\x1b[K[sqlite 1/2] w  0:02 elapsed, ~0:07 left");
  err.str("");
  line.Clear();  // as on an interruption, before its message
  line.ProgressTick({"sqlite", "w", 0, 2, 2'000'000'000, 7'000'000'000});
  EXPECT_EQ(err.str(), "\r\x1b[K");  // cleared, and the tick drew nothing after it
  err.str("");
  line.Progress({"sqlite", "x", 1, 2, 2'000'000'000, 7'000'000'000});
  line.ProgressTick({"sqlite", "w", 0, 2, 2'000'000'000, 7'000'000'000});  // late, for w
  EXPECT_EQ(err.str(), "\r\x1b[K[sqlite 2/2] x  0:02 elapsed, ~0:07 left");
  line.RunFinished(model::Report{});
  err.str("");
  line.ProgressTick({"sqlite", "x", 1, 2, 3'000'000'000, 6'000'000'000});
  EXPECT_EQ(err.str(), "");
}

TEST(ProgressConsoleTest, OnlyTheTerminalLineAsksForTicks) {
  std::ostringstream err;
  ProgressLine line(err);
  ProgressLog log(err);
  EXPECT_EQ(line.TickIntervalNs(), ProgressLine::kTickNs);
  EXPECT_EQ(log.TickIntervalNs(), 0u);  // --verbose: one line per item, never a tick
  model::ListenerList none;
  none.Add(&log);
  EXPECT_EQ(none.TickIntervalNs(), 0u);
  ProgressLine fast(err, 1000);
  model::ListenerList both;
  both.Add(&log);
  both.Add(&line);
  both.Add(&fast);
  EXPECT_EQ(both.TickIntervalNs(), 1000u);
}

// Issue 35 item 2: on a narrow terminal the path gives way from its front; what runs and the
// times stay.
TEST(ProgressConsoleTest, ANarrowLineCutsThePathNotTheTimes) {
  model::ProgressEvent e{"sqlite",
                         "/work/i22lab/some/very/long/path/to/rootdir: DELETE/NORMAL x1 (2/5)",
                         27,
                         51,
                         14'000'000'000,
                         12'000'000'000};
  EXPECT_EQ(FormatProgress(e, 79),
            "[sqlite 28/51] .../to/rootdir: DELETE/NORMAL x1 (2/5)  0:14 elapsed, ~0:12 left");
  std::ostringstream err;
  ProgressLine line(err, ProgressLine::kTickNs, 60);
  line.Progress(e);
  std::string drawn = err.str().substr(std::string("\r\x1b[K").size());
  EXPECT_EQ(drawn, "[sqlite 28/51] ...NORMAL x1 (2/5)  0:14 elapsed, ~0:12 left");
  EXPECT_LE(text::DisplayWidth(drawn), 59u);
}

// Issue 32 item 5: the progress line is drawn with \r and ESC[K of its own; a path's bytes are
// shown, and a long line is cut between characters.
TEST(ProgressConsoleTest, AnItemsControlBytesAreShownNotSent) {
  model::ProgressEvent e{"probe", "/t/\x1b]0;owned\x07\n\r: fsync", 0, 1, 0, 0};
  EXPECT_EQ(FormatProgress(e),
            "[probe 1/1] /t/\\x1b]0;owned\\x07\\n\\r: fsync  0:00 elapsed, ~0:00 left");
  std::ostringstream err;
  ProgressLine line(err, ProgressLine::kTickNs, 20);
  line.Progress({"probe", "\xc2\xb5\xc2\xb5\xc2\xb5\xc2\xb5\xc2\xb5\xc2\xb5\xc2\xb5", 0, 1, 0, 0});
  std::string drawn = err.str().substr(std::string("\r\x1b[K").size());
  EXPECT_EQ(drawn, "[probe 1/1] \xc2\xb5\xc2\xb5\xc2\xb5\xc2\xb5...");
}

}  // namespace
}  // namespace durprobe::render::console
