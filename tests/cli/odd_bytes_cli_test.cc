// Issue 32 item 5, as a user would meet it: the real binary on a directory whose name sets the
// terminal's title, rings its bell and holds a newline followed by a forged line. Neither stdout
// nor stderr carries a raw control byte but the newlines and tabs the formats put there
// themselves, whether the path comes from the command line or from a saved report (summarize,
// diff, report), and no line of output starts with the forged text.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>

#include "tests/cli_runner.h"
#include "tests/test_dirs.h"

namespace durprobe {
namespace {

using testing_support::CliRun;
using testing_support::ExpectUsageError;
using testing_support::RunDurprobe;
using testing_support::TempDir;

const std::string kOddName = "odd \x1b]0;title\x07 \x1b[2J\n=forged $(touch pwned) `b`";

// One shell word for any bytes (the test's own quoting: not the code under test).
std::string Word(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The first byte a terminal would act on (C0 but newline and tab, DEL, a C1 control as UTF-8),
// or -1.
int FirstRawControl(const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    unsigned char u = static_cast<unsigned char>(text[i]);
    bool c1 = u == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
              static_cast<unsigned char>(text[i + 1]) <= 0x9F;
    if ((u < 0x20 && u != '\n' && u != '\t') || u == 0x7F || c1) return static_cast<int>(i);
  }
  return -1;
}

bool ForgesALine(const std::string& text) {
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    std::size_t first = line.find_first_not_of(' ');
    if (first != std::string::npos && line.compare(first, 7, "=forged") == 0) return true;
    start = end + 1;
  }
  return false;
}

// lines: the output is lines of text (console, Markdown), where a newline from a value would
// start a line of its own; in HTML a newline is only white space.
void ExpectClean(const CliRun& run, const std::string& what, bool lines = true) {
  EXPECT_EQ(FirstRawControl(run.out), -1) << what << " stdout:\n" << run.out;
  EXPECT_EQ(FirstRawControl(run.err), -1) << what << " stderr:\n" << run.err;
  if (!lines) return;
  EXPECT_FALSE(ForgesALine(run.out)) << what << " stdout:\n" << run.out;
  EXPECT_FALSE(ForgesALine(run.err)) << what << " stderr:\n" << run.err;
}

class OddBytesCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    odd_ = base_.path() + "/" + kOddName;
    ASSERT_EQ(::mkdir(odd_.c_str(), 0700), 0);
  }
  TempDir base_;
  std::string odd_;
};

TEST_F(OddBytesCliTest, ARunAndItsSavedReportShowTheNameEscaped) {
  std::string json = base_.path() + "/r.json";
  CliRun run = RunDurprobe(
      "probe --quick --budget 1s --primitives fdatasync --patterns overwrite "
      "--verbose --json " +
      Word(json) + " " + Word(odd_));
  ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.err;
  ExpectClean(run, "probe");
  EXPECT_NE(run.out.find("\\x1b]0;title\\x07 \\x1b[2J\\n=forged"), std::string::npos) << run.out;

  for (const std::string& args : {"summarize " + Word(json), "report --html - " + Word(json),
                                  "diff " + Word(json) + " " + Word(json),
                                  "diff --markdown - " + Word(json) + " " + Word(json)}) {
    CliRun saved = RunDurprobe(args);
    EXPECT_EQ(saved.exit_code, 0) << args << "\n" << saved.err;
    ExpectClean(saved, args, args.rfind("report --html", 0) != 0);
  }
  struct stat st;
  EXPECT_NE(::stat("pwned", &st), 0) << "a command in the name ran";
}

TEST_F(OddBytesCliTest, ErrorsNamingThePathStayOneLine) {
  CliRun missing = RunDurprobe("probe --quick " + Word(odd_ + "/missing"));
  ExpectUsageError(missing, "\\x1b]0;title\\x07", "probe of a missing path");
  ExpectClean(missing, "probe of a missing path");

  CliRun inspect = RunDurprobe("inspect " + Word(odd_));
  EXPECT_EQ(inspect.exit_code, 0) << inspect.err;
  ExpectClean(inspect, "inspect");
}

}  // namespace
}  // namespace durprobe
