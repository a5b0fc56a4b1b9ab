// The gate is never weakened without a word (issue 23, points 3, 5 and 6): a policy is read whole
// or refused with one line, a deep policy is refused instead of crashing, an unknown finding code
// or a second rule of one name is an error, and an interrupted check exits 2 with an error test
// case in its JUnit file and its pass series kept at 0.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/cli_runner.h"

namespace durprobe {
namespace {

using testing_support::CliRun;
using testing_support::ExpectUsageError;
using testing_support::RunDurprobe;
using testing_support::RunShell;
using testing_support::Slurp;
using testing_support::TempDir;

void Write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// Over 1 MiB, a rule that no disk can pass (100000 synced writes a second) came first and the
// file was cut to its first MiB: once `min = 100000` cut to `min = 1`, the check passed.
TEST(CheckGateCliTest, APolicyOverOneMebibyteIsRefusedNotCut) {
  TempDir dir;
  std::string policy = dir.path() + "/big.toml";
  std::string text = "[[rate]]\nmin = 100000\n";
  text += std::string((1u << 20) - text.size(), '#') + "\n";  // 1 MiB + 1 byte
  Write(policy, text);
  ExpectUsageError(RunDurprobe("check --policy " + policy + " " + dir.path()),
                   policy + ": the policy is over 1 MiB", "1 MiB + 1 byte");
  std::string ten = dir.path() + "/ten.toml";
  Write(ten, "preset = \"etcd\"\n" + std::string(10u << 20, '\n'));
  ExpectUsageError(RunDurprobe("check --policy " + ten + " " + dir.path()), "over 1 MiB", "10 MB");
}

// Exactly 1 MiB is read whole: a rule in its last bytes is in the plan.
TEST(CheckGateCliTest, APolicyOfOneMebibyteIsReadToItsLastRule) {
  TempDir dir;
  std::string policy = dir.path() + "/full.toml";
  std::string rule = "[[latency]]\nprimitive = \"fsync\"\npattern = \"append\"\np99 = \"10ms\"\n";
  Write(policy, std::string((1u << 20) - rule.size() - 1, '#') + "\n" + rule);
  CliRun run = RunDurprobe("check --dry-run --policy " + policy + " " + dir.path());
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("\"fsync append 4 KiB\""), std::string::npos) << run.out;
}

TEST(CheckGateCliTest, APolicyNestedTenThousandDeepIsOneLineNotACrash) {
  TempDir dir;
  std::string json = dir.path() + "/deep.json";
  Write(json, "{\"preset\":\n" + std::string(10000, '[') + std::string(10000, ']') + "}\n");
  ExpectUsageError(RunDurprobe("check --policy " + json + " " + dir.path()),
                   json + ":2: nested deeper than 16 levels", "deep JSON");
  std::string toml = dir.path() + "/deep.toml";
  std::string key = "a";
  for (int i = 0; i < 10000; ++i) key += ".a";
  Write(toml, "preset = \"etcd\"\n" + key + " = 1\n");
  ExpectUsageError(RunDurprobe("check --policy " + toml + " " + dir.path()),
                   toml + ":2: nested deeper than 16 levels", "deep TOML");
}

TEST(CheckGateCliTest, UnknownFindingCodesAndDuplicateRuleNamesAreErrors) {
  TempDir dir;
  ExpectUsageError(RunDurprobe("check --preset etcd --fail-on barrier_disabeld " + dir.path()),
                   "unknown --fail-on item 'barrier_disabeld'", "--fail-on typo");
  std::string typo = dir.path() + "/typo.toml";
  Write(typo, "preset = \"etcd\"\nfail_on = [\"sync_noop_suspectd\"]\n");
  ExpectUsageError(RunDurprobe("check --policy " + typo + " " + dir.path()),
                   typo + ":2: key 'fail_on': unknown --fail-on item 'sync_noop_suspectd'",
                   "fail_on typo");
  std::string twice = dir.path() + "/twice.toml";
  Write(twice,
        "[[latency]]\nname = \"wal\"\np99 = \"10ms\"\n\n[[latency]]\nname = \"wal\"\n"
        "p99 = \"20ms\"\n");
  ExpectUsageError(RunDurprobe("check --policy " + twice + " " + dir.path()),
                   "a second rule named 'wal' (the first is on line 1)", "two rules named wal");
  std::string own = dir.path() + "/own.toml";
  Write(own, "[[latency]]\nname = \"etcd_wal_fsync_p99\"\np99 = \"1ms\"\n");
  ExpectUsageError(RunDurprobe("check --preset etcd --policy " + own + " " + dir.path()),
                   "two rules are named 'etcd_wal_fsync_p99'", "a preset's name in a file");
  // The same preset twice is its rules once.
  EXPECT_EQ(RunDurprobe("check --dry-run --preset etcd --preset etcd " + dir.path()).exit_code, 0);
}

// Runs `check --preset etcd` and sends SIGTERM when its --verbose log on stderr first matches
// pattern (an event, not a sleep): exit 2 with the signal named, no rule a pass in the JUnit
// file (no <system-out>, which only a pass writes), an error test case, and the WAL rule's pass
// series present and 0.
void ExpectInterruptedCheckIsNoPass(const std::string& pattern) {
  TempDir dir;
  std::string target = dir.path() + "/t";
  ASSERT_EQ(RunShell("mkdir " + target).exit_code, 0);
  std::string junit = dir.path() + "/c.xml", prom = dir.path() + "/c.prom";
  std::string err = dir.path() + "/err";
  CliRun r = RunShell(std::string(DURPROBE_BINARY) +
                      " check --verbose --budget 60s --preset etcd --junit " + junit +
                      " --prometheus " + prom + " " + target + " 2>" + err +
                      " >/dev/null & pid=$!; while ! grep -q '" + pattern + "' " + err +
                      "; do kill -0 $pid 2>/dev/null || break; sleep 0.05; done; kill -TERM $pid; "
                      "wait $pid; s=$?; cat " +
                      err + " >&2; exit $s");
  EXPECT_EQ(r.exit_code, 2) << pattern << "\n" << r.err;
  EXPECT_NE(r.err.find("durprobe: error: interrupted by SIGTERM"), std::string::npos) << r.err;
  std::string xml = Slurp(junit);
  EXPECT_EQ(xml.find("<system-out>"), std::string::npos) << xml;
  EXPECT_EQ(xml.find("errors=\"0\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<error type=\"not_measured\" message=\"interrupted by SIGTERM"),
            std::string::npos)
      << xml;
  std::string metrics = Slurp(prom);
  std::string wal = "durprobe_check_pass{path=\"" + target + "\",rule=\"etcd_wal_fsync_p99\"} ";
  EXPECT_NE(metrics.find(wal + "0"), std::string::npos) << metrics;
  EXPECT_EQ(metrics.find(wal + "1"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("durprobe_last_run_timestamp_seconds "), std::string::npos) << metrics;
}

TEST(CheckGateCliTest, AnInterruptedCheckIsNeverAPassOnItsFirstProbe) {
  ExpectInterruptedCheckIsNoPass("probe 1/");
}

// After the WAL probe has finished (and its rule would have passed).
TEST(CheckGateCliTest, AnInterruptedCheckIsNeverAPassAfterARuleWasMeasured) {
  ExpectInterruptedCheckIsNoPass("probe 2/");
}

}  // namespace
}  // namespace durprobe
