// Issue 22, point 3: on a terminal every command's console fits the terminal's width. Each
// measuring command runs for real (small budgets, scratch on tmpfs so it is quick) under a
// pseudo-terminal (util-linux `script`) of 80, 100 and 120 columns, and no line it prints,
// the progress line included, may be wider. diff and summarize read saved fixture reports.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/cli_runner.h"

namespace durprobe {
namespace {

using testing_support::CliRun;
using testing_support::RunShell;
using testing_support::TempDir;

const std::string kFixtures = std::string(DURPROBE_SOURCE_DIR) + "/tests/fixtures";

// What the terminal shows: a carriage return starts the line again and an escape sequence
// (the progress line's "clear to end of line") takes no column.
std::vector<std::string> ScreenLines(const std::string& text) {
  std::vector<std::string> lines{""};
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      lines.emplace_back();
    } else if (c == '\r') {
      if (i + 1 < text.size() && text[i + 1] == '\n') continue;
      lines.back().clear();  // a redrawn line: only the last drawing stays
    } else if (c == '\x1b') {
      while (i + 1 < text.size() && !std::isalpha(static_cast<unsigned char>(text[i + 1]))) ++i;
      ++i;
    } else {
      lines.back() += c;
    }
  }
  return lines;
}

std::size_t Columns(const std::string& line) {
  std::size_t n = 0;
  for (char c : line) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// args under a terminal `columns` wide; COLUMNS is unset so the terminal's own size decides.
CliRun UnderTerminal(int columns, const std::string& args) {
  std::string inner =
      "stty cols " + std::to_string(columns) + " rows 60; " + DURPROBE_BINARY + " " + args;
  return RunShell("env -u COLUMNS script -qfec '" + inner + "' /dev/null");
}

struct Command {
  const char* name;
  std::string args;  // PATH is replaced by a fresh tmpfs directory
};

class TerminalWidthTest : public ::testing::TestWithParam<int> {};

TEST_P(TerminalWidthTest, NoCommandPrintsALineWiderThanTheTerminal) {
  if (RunShell("command -v script").exit_code != 0) GTEST_SKIP() << "util-linux script missing";
  TempDir shm("/dev/shm"), shm2("/dev/shm");
  if (shm.path().empty()) GTEST_SKIP() << "no /dev/shm to measure on quickly";
  const std::string p = shm.path(), q = shm2.path();
  const std::vector<Command> commands = {
      {"run", "run --quick --budget 2s " + p},
      {"probe", "probe --quick --budget 1s " + p},
      {"sqlite", "sqlite --quick --budget 2s --journal-modes wal,delete " + p},
      {"compare", "compare --quick --budget 2s " + p + " " + q},
      {"diff",
       "diff " + kFixtures + "/diff/probes_a.json " + kFixtures + "/diff/probes_b_sync.json"},
      {"diff_sqlite",
       "diff " + kFixtures + "/diff/a.json " + kFixtures + "/diff/b_sync_latency.json"},
      {"check", "check --quick --budget 1s --max-sync-p99 1us " + p},
      {"summarize", "summarize " + kFixtures + "/golden/reports/check.json " + kFixtures +
                        "/golden/reports/run.json"},
      {"crashsim", "crashsim --trials 5 --journal-modes wal,delete " + p},
      {"help", "help check"},
      {"help_sqlite", "sqlite --help"},
      {"error", "probe --budget 1s --probes fdatasync:overwrite:4k --no-such-option-" +
                    std::string(120, 'x') + " " + p},
  };
  const int width = GetParam();
  for (const Command& c : commands) {
    CliRun r = UnderTerminal(width, c.args);
    const bool error = std::string(c.name) == "error";
    EXPECT_TRUE(error ? r.exit_code == 2 : r.exit_code == 0 || r.exit_code == 1)
        << c.name << " exit " << r.exit_code << "\n"
        << r.out << r.err;
    std::size_t printed = 0;
    for (const std::string& line : ScreenLines(r.out)) {
      printed += !line.empty();
      EXPECT_LE(Columns(line), static_cast<std::size_t>(width))
          << c.name << " at " << width << " columns:\n"
          << line;
    }
    EXPECT_GT(printed, 0u) << c.name << " printed nothing\n" << r.err;
  }
}

INSTANTIATE_TEST_SUITE_P(Widths, TerminalWidthTest, ::testing::Values(80, 100, 120));

TEST(TerminalWidthPipedTest, PipedOutputAndWideKeepTheFullTables) {
  std::string run = kFixtures + "/golden/reports/run.json";
  // summarize prints the same table piped and with --wide under a narrow terminal.
  CliRun piped = testing_support::RunDurprobe("summarize " + run);
  CliRun wide = UnderTerminal(80, "summarize --wide " + run);
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  auto trimmed = [](std::vector<std::string> lines) {
    while (!lines.empty() && lines.back().empty()) lines.pop_back();
    return lines;
  };
  EXPECT_EQ(trimmed(ScreenLines(wide.out)), trimmed(ScreenLines(piped.out)));
  std::size_t widest = 0;
  for (const std::string& line : ScreenLines(piped.out)) widest = std::max(widest, Columns(line));
  EXPECT_GT(widest, 80u) << "the fixture's table should be wider than 80 columns";
}

// Issue 35 item 1: on a terminal the summary has scrolled off by the end, so the report ends
// with a recap of it; piped, the same document opens with it, and check's with its headline.
TEST(TerminalWidthPipedTest, ATerminalRunEndsWithARecapAndPipedOutputOpensWithTheAnswer) {
  if (RunShell("command -v script").exit_code != 0) GTEST_SKIP() << "util-linux script missing";
  TempDir shm("/dev/shm");
  if (shm.path().empty()) GTEST_SKIP() << "no /dev/shm to measure on quickly";
  CliRun terminal = UnderTerminal(80, "run --quick --budget 2s " + shm.path());
  ASSERT_EQ(terminal.exit_code, 0) << terminal.out << terminal.err;
  std::vector<std::string> lines = ScreenLines(terminal.out);
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  std::size_t recap = lines.size();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i] == "Recap (the Summary above, in short):") recap = i;
  }
  ASSERT_LT(recap, lines.size()) << terminal.out;
  EXPECT_LE(lines.size() - recap, 12u) << "a short recap, the last lines";
  EXPECT_EQ(lines[recap + 1], shm.path());
  EXPECT_EQ(lines[recap + 2].rfind("  durability  not_durable", 0), 0u) << lines[recap + 2];

  CliRun piped = testing_support::RunDurprobe("run --quick --budget 2s " + shm.path());
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  std::size_t summary = piped.out.find("\nSummary:\n");
  EXPECT_LT(summary, piped.out.find("Raw sync primitives")) << piped.out;
  EXPECT_EQ(piped.out.find("Recap"), std::string::npos);

  CliRun check =
      testing_support::RunDurprobe("check --quick --budget 1s --max-sync-p99 1s " + shm.path());
  ASSERT_EQ(check.exit_code, 0) << check.err;
  EXPECT_EQ(check.out.rfind("check: PASS (1 rule(s), Checks below)\n", 0), 0u) << check.out;
}

// Issue 35 item 2: diff's tables leave columns out to fit, as run's do, instead of breaking a
// row inside its values.
TEST(TerminalWidthPipedTest, DiffLeavesColumnsOutRatherThanBreakingRows) {
  if (RunShell("command -v script").exit_code != 0) GTEST_SKIP() << "util-linux script missing";
  CliRun r = UnderTerminal(
      80, "diff " + kFixtures + "/diff/a.json " + kFixtures + "/diff/b_sync_latency.json");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  std::vector<std::string> lines = ScreenLines(r.out);
  auto row = std::find_if(lines.begin(), lines.end(),
                          [](const std::string& l) { return l.rfind("WAL      FULL", 0) == 0; });
  ASSERT_NE(row, lines.end()) << r.out;
  EXPECT_NE(row->find("1/15x  216 us  3.90 ms"), std::string::npos) << *row;
  EXPECT_NE(r.out.find("(left out to fit 80 columns: rows, stmt, payload"), std::string::npos)
      << r.out;
}

// Issue 35 item 2: piped, a finding's line past 200 characters is broken at 100; --wide keeps it.
TEST(TerminalWidthPipedTest, PipedFindingLinesPast200CharactersWrapAt100UnlessWide) {
  TempDir shm("/dev/shm");
  if (shm.path().empty()) GTEST_SKIP() << "no /dev/shm to measure on quickly";
  // tmpfs: too_few_operations names every probe cut short, a line of several hundred characters.
  const std::string args = "probe --quick --budget 1s " + shm.path();
  CliRun piped = testing_support::RunDurprobe(args);
  CliRun wide = testing_support::RunDurprobe(args + " --wide");
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  auto widest_finding = [](const std::string& out) {
    std::size_t widest = 0;
    bool findings = false;
    for (const std::string& line : ScreenLines(out)) {
      if (line == "Findings:") findings = true;
      if (findings) widest = std::max(widest, Columns(line));
    }
    return widest;
  };
  EXPECT_LE(widest_finding(piped.out), 200u) << piped.out;  // shorter lines stay whole
  EXPECT_NE(piped.out.find("\n  [info] too_few_operations: "), std::string::npos) << piped.out;
  bool wrapped_at_100 = false;
  for (const std::string& line : ScreenLines(piped.out)) {
    wrapped_at_100 = wrapped_at_100 ||
                     (line.rfind("    ", 0) == 0 && Columns(line) <= 100 && Columns(line) > 90);
  }
  EXPECT_TRUE(wrapped_at_100) << piped.out;
  EXPECT_GT(widest_finding(wide.out), 200u) << wide.out;

  // The piped probe table stays aligned: io_uring_fdatasync, the longest primitive name, no
  // longer overflows its column (it did while rows were printed one by one into fixed widths).
  std::size_t pattern_column = std::string::npos, aligned = 0;
  for (const std::string& line : ScreenLines(piped.out)) {
    if (line.rfind("primitive ", 0) == 0) pattern_column = line.find("pattern");
    if (line.rfind("io_uring_", 0) == 0) {
      EXPECT_EQ(line.find("overwrite"), pattern_column) << line;
      ++aligned;
    }
  }
  EXPECT_GT(aligned, 0u) << piped.out;
}

}  // namespace
}  // namespace durprobe
