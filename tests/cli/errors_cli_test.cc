// Bad input, each case as docs/errors.md lists it: one line "durprobe: error: ..." on stderr
// naming the problem, nothing on stdout, exit status 2. And awkward but valid paths (spaces,
// newlines, UTF-8, bytes that are not UTF-8) are measured, reported and cleaned like any other.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/fault_runner.h"

namespace durprobe {
namespace {

using testing_support::CliRun;
using testing_support::RunDurprobe;
using testing_support::RunShell;
using testing_support::ScratchLeft;
using testing_support::TempDir;

void ExpectError(const std::string& args, const std::string& message) {
  testing_support::ExpectUsageError(RunDurprobe(args), message, args);
}

TEST(ErrorsCliTest, MissingPath) {
  ExpectError("probe /nonexistent/dir", "path '/nonexistent/dir' does not exist");
  ExpectError("inspect /nonexistent/dir", "path '/nonexistent/dir' does not exist");
  ExpectError("clean /nonexistent/dir", "path '/nonexistent/dir' does not exist");
  ExpectError("diff /nonexistent/a.json /nonexistent/b.json",
              "report '/nonexistent/a.json' does not exist");
}

TEST(ErrorsCliTest, FileInsteadOfDirectory) {
  TempDir dir;
  ASSERT_TRUE(platform::Default().WriteTextFile(dir.path() + "/file", "x").ok());
  ExpectError("sqlite " + dir.path() + "/file",
              "path '" + dir.path() +
                  "/file' is not a directory (durprobe measures inside a "
                  "directory)");
}

TEST(ErrorsCliTest, NumbersOutOfRange) {
  ExpectError("probe --ci nan --dry-run /tmp", "--ci: 'nan' is not in 0.1..100");
  // It wrapped to 2^64-1 untimed commits.
  ExpectError("sqlite --warmup -1 --dry-run /tmp", "--warmup: '-1' is not in 0..100000000");
}

// Root ignores permission bits, so these run as nobody (or as the user, when not root).
TEST(ErrorsCliTest, NoPermission) {
  TempDir dir;
  ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);
  ASSERT_TRUE(platform::Default().MakeDirectory(dir.path() + "/closed").ok());
  ASSERT_EQ(::chmod((dir.path() + "/closed").c_str(), 0700), 0);
  std::string prefix;
  if (testing_support::IsRoot()) {
    if (RunShell("setpriv --reuid=65534 --regid=65534 --clear-groups test -x " DURPROBE_BINARY)
            .exit_code != 0) {
      GTEST_SKIP() << "root, and the unprivileged uid cannot reach the binary";
    }
    prefix = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
  } else {
    ASSERT_EQ(::chmod(dir.path().c_str(), 0555), 0);
  }
  auto as_user = [&](const std::string& args) {
    return RunShell(prefix + DURPROBE_BINARY " " + args);
  };
  // Not writable: the scratch directory cannot be made.
  testing_support::ExpectUsageError(as_user("probe --quick " + dir.path()),
                                    "cannot create a scratch directory in " + dir.path() +
                                        ": mkdir " + dir.path() + "/.durprobe-scratch-",
                                    "read-only directory");
  // Not reachable: a parent directory forbids the lookup.
  testing_support::ExpectUsageError(
      as_user("probe --quick " + dir.path() + "/closed/inner"),
      "cannot reach path '" + dir.path() + "/closed/inner': Permission denied", "unreachable");
  ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);
}

// A path whose lookup fails with an errno other than ENOENT is named with that errno's text.
TEST(ErrorsCliTest, SymlinkLoop) {
  TempDir dir;
  ASSERT_EQ(::symlink("loop", (dir.path() + "/loop").c_str()), 0);
  ExpectError("probe --quick " + dir.path() + "/loop",
              "cannot reach path '" + dir.path() +
                  "/loop': Too many levels of symbolic links (a symlink on the way leads back "
                  "to itself)");
}

TEST(ErrorsCliTest, ReadOnlyMount) {
  TempDir dir;
  if (!testing_support::IsRoot() ||
      ::mount("tmpfs", dir.path().c_str(), "tmpfs", MS_RDONLY, "size=64m") != 0) {
    GTEST_SKIP() << "needs root and permission to mount a read-only tmpfs";
  }
  CliRun run = RunDurprobe("probe --quick " + dir.path());
  ::umount2(dir.path().c_str(), MNT_DETACH);
  testing_support::ExpectUsageError(run, dir.path() + " is on a read-only filesystem",
                                    "read-only mount");
}

TEST(ErrorsCliTest, UnknownOptionValues) {
  TempDir d;
  const std::string p = " " + d.path();
  ExpectError("probe --primitives fsyncc" + p, "'fsyncc' is not one of ");
  ExpectError("probe --patterns sideways" + p, "'sideways' is not one of ");
  ExpectError("sqlite --journal-modes wall" + p, "'wall' is not one of ");
  ExpectError("sqlite --synchronous maybe" + p, "'maybe' is not one of ");
  ExpectError("sqlite --workloads everything" + p, "everything");
  ExpectError("probe --frobnicate" + p, "frobnicate");
}

TEST(ErrorsCliTest, SizesEachWithTheirOwnMessage) {
  TempDir d;
  const std::string p = " " + d.path();
  ExpectError("probe --sizes 0" + p, "invalid size '0': must be at least 1 byte");
  ExpectError("probe --sizes=-4k" + p, "invalid size '-4k': must not be negative");
  ExpectError("probe --file-size 2000000g" + p,
              "invalid size '2000000g': too large (at most 1 PB, 10^15 bytes)");
  ExpectError("probe --sizes 1.5" + p, "invalid size '1.5': must be a whole number of bytes");
  ExpectError("probe --sizes 4parsecs" + p, "invalid size '4parsecs': expected a number");
  ExpectError("sqlite --payload 2m" + p, "--payload must be between 1 byte and 1 MiB, not 2m");
}

TEST(ErrorsCliTest, DurationsEachWithTheirOwnMessage) {
  TempDir d;
  const std::string p = " " + d.path();
  ExpectError("probe --budget 0s" + p, "invalid duration '0s': must be above zero");
  ExpectError("probe --budget=-1s" + p, "invalid duration '-1s': must not be negative");
  ExpectError("probe --budget 99999h" + p,
              "invalid duration '99999h': too long (at most 1000000s, about 11 days)");
  ExpectError("probe --budget 10parsecs" + p, "invalid duration '10parsecs': expected a number");
}

TEST(ErrorsCliTest, UnitlessNumberWhereAUnitIsRequired) {
  TempDir d;
  ExpectError("run --budget 30 " + d.path(), "invalid duration '30': give a unit (30s, 30ms, 30m)");
}

TEST(ErrorsCliTest, MalformedOrTruncatedJson) {
  TempDir d;
  platform::Platform& p = platform::Default();
  ASSERT_TRUE(p.WriteTextFile(d.path() + "/truncated.json", "{\"schema\": \"durprobe.rep").ok());
  ASSERT_TRUE(p.WriteTextFile(d.path() + "/garbage.json", "{\"schema\": 1,, \"b\": 2}").ok());
  ASSERT_TRUE(p.WriteTextFile(d.path() + "/other.json", "{\"name\": \"x\"}").ok());
  ASSERT_TRUE(p.WriteTextFile(d.path() + "/array.json", "[1, 2]").ok());
  const std::string t = d.path() + "/truncated.json";
  ExpectError("diff " + t + " " + t, "not valid JSON: it ends early (truncated?)");
  const std::string g = d.path() + "/garbage.json";
  ExpectError("diff " + g + " " + g, "not valid JSON: syntax error at byte");
  const std::string o = d.path() + "/other.json";
  ExpectError("diff " + o + " " + o, "no \"schema\" key: not a durprobe report");
  const std::string a = d.path() + "/array.json";
  ExpectError("diff " + a + " " + a, "not a JSON object");
}

// Awkward names are just names: measured, reported in valid JSON, scratch removed. Bytes that
// are not UTF-8 come out as U+FFFD in JSON (which cannot carry them), never as an abort.
class AwkwardPathTest : public ::testing::TestWithParam<std::pair<const char*, std::string>> {};

TEST_P(AwkwardPathTest, IsMeasuredReportedAndCleaned) {
  TempDir parent;
  std::string dir = parent.path() + "/" + GetParam().second;
  ASSERT_TRUE(platform::Default().MakeDirectory(dir).ok());
  std::string quoted = "'" + dir + "'";
  CliRun run = RunDurprobe(
      "probe --budget 300ms --primitives fsync --patterns overwrite "
      "--file-size 64k --json - " +
      quoted);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["targets"][0]["probes"][0]["status"], "ok");
  std::string reported = j["targets"][0]["path"];
  if (std::string(GetParam().first) == "InvalidUtf8") {
    EXPECT_NE(reported.find("\xEF\xBF\xBD"), std::string::npos) << reported;
  } else {
    EXPECT_EQ(reported, dir);
  }
  EXPECT_TRUE(ScratchLeft(dir).empty());
  EXPECT_EQ(RunDurprobe("inspect --quiet " + quoted).exit_code, 0);
  CliRun clean = RunDurprobe("clean " + quoted);
  EXPECT_EQ(clean.exit_code, 0) << clean.err;
}

INSTANTIATE_TEST_SUITE_P(
    ErrorsCliTest, AwkwardPathTest,
    ::testing::Values(std::make_pair("Spaces", std::string("a dir with  spaces")),
                      std::make_pair("Newline", std::string("line\nbreak")),
                      std::make_pair("Utf8", std::string("donn\xC3\xA9"
                                                         "es-\xE6\x97\xA5\xE6\x9C\xAC")),
                      std::make_pair("InvalidUtf8", std::string("latin1-\xE9t\xE9-\xFF"))),
    [](const auto& param_info) { return std::string(param_info.param.first); });

}  // namespace
}  // namespace durprobe
