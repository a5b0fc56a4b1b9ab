// Issue 57's error points, each as a newcomer met it: a list option's empty item accepted or the
// next argument named as the bad value, a misspelt option with no suggestion, a suggested
// duration that is refused in turn, `help powercut write` showing powercut's help.
#include <gtest/gtest.h>

#include <string>

#include "tests/cli_runner.h"

namespace durprobe {
namespace {

using testing_support::CliRun;
using testing_support::ExpectDurprobeUsageError;
using testing_support::RunDurprobe;
using testing_support::TempDir;

// `--writers 1,,2` was measured as 1,2; `--writers ,` took the path after it as its value and
// named the path as the bad count.
TEST(FirstContactErrorsCliTest, AListOptionsEmptyItemIsRefusedNamingTheOption) {
  TempDir dir;
  ExpectDurprobeUsageError("probe --writers 1,,2 --dry-run " + dir.path(),
                           "--writers '1,,2' has an empty item");
  CliRun comma = RunDurprobe("probe --dry-run --writers , " + dir.path());
  testing_support::ExpectUsageError(comma, "--writers ',' has an empty item", "--writers ,");
  EXPECT_EQ(comma.err.find(dir.path()), std::string::npos) << comma.err;
  ExpectDurprobeUsageError("probe --dry-run --writers=2, " + dir.path(),
                           "--writers '2,' has an empty item");
  ExpectDurprobeUsageError("sqlite --dry-run --journal-modes wal,,delete " + dir.path(),
                           "--journal-modes 'wal,,delete' has an empty item");
  // A list without an empty item is still read as before.
  CliRun fine = RunDurprobe("probe --dry-run --writers 1,2 " + dir.path());
  EXPECT_EQ(fine.exit_code, 0) << fine.err;
}

// Misspelt commands got the closest command; misspelt options got CLI11's line alone.
TEST(FirstContactErrorsCliTest, AMisspeltOptionIsNamedWithTheClosestOneOfItsCommand) {
  TempDir dir;
  ExpectDurprobeUsageError("probe --qiuck --dry-run " + dir.path(),
                           "The following argument was not expected: --qiuck (did you mean "
                           "'--quick'?)");
  ExpectDurprobeUsageError("sqlite --journal-mode wal --dry-run " + dir.path(),
                           "(did you mean '--journal-modes'?)");
  ExpectDurprobeUsageError("powercut write --witnes h:1 " + dir.path(),
                           "(did you mean '--witness'?)");
  // Nothing near: no guess.
  CliRun far = RunDurprobe("probe --frobnicate --dry-run " + dir.path());
  testing_support::ExpectUsageError(far, "not expected: --frobnicate", "--frobnicate");
  EXPECT_EQ(far.err.find("did you mean"), std::string::npos) << far.err;
}

// `--budget 0` suggested `0s`, which was then refused as not above zero.
TEST(FirstContactErrorsCliTest, AZeroBudgetSuggestsADurationThatIsAccepted) {
  TempDir dir;
  CliRun zero = RunDurprobe("probe --budget 0 --dry-run " + dir.path());
  testing_support::ExpectUsageError(zero, "give one above zero, with a unit (500ms, 10s, 2m)",
                                    "--budget 0");
  EXPECT_EQ(zero.err.find("(0s"), std::string::npos) << zero.err;
  for (const char* suggested : {"500ms", "10s", "2m"}) {
    CliRun run =
        RunDurprobe(std::string("probe --budget ") + suggested + " --dry-run " + dir.path());
    EXPECT_EQ(run.exit_code, 0) << suggested << run.err;
  }
}

// `help powercut write` printed powercut's help (witness, write, verify), not write's options.
TEST(FirstContactErrorsCliTest, HelpOfANestedCommandShowsItsOwnOptions) {
  CliRun write = RunDurprobe("help powercut write");
  ASSERT_EQ(write.exit_code, 0) << write.err;
  EXPECT_NE(write.out.find("--witness"), std::string::npos) << write.out;
  EXPECT_EQ(write.out.find("SUBCOMMAND"), std::string::npos) << write.out;
  CliRun verify = RunDurprobe("help powercut verify");
  ASSERT_EQ(verify.exit_code, 0) << verify.err;
  EXPECT_NE(verify.out.find("verify"), std::string::npos) << verify.out;
  EXPECT_NE(verify.out, write.out);
  ExpectDurprobeUsageError("help powercut wirte",
                           "unknown powercut command 'wirte': powercut takes one of");
}

}  // namespace
}  // namespace durprobe
