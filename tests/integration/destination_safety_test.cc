// Issue 32, items 2 and 3: root durprobe writing its reports into a directory another user can
// write. The attacker is `nobody` (setpriv), planting a symlink to a sentinel file at every
// destination before the run and during it (after the destination check), in a world-writable
// directory with and without the sticky bit and in a directory the attacker owns, under
// fs.protected_symlinks 0 and 1. Every writer (JSON, CSV, Markdown, HTML, JUnit, Prometheus) and
// the summarize, report and diff commands: the sentinel's hash never changes, the link is refused
// with one line (exit 2). A temporary name planted from the pid no longer loses the report.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "tests/cli_runner.h"
#include "tests/fault_runner.h"
#include "tests/test_dirs.h"

namespace durprobe {
namespace {

using testing_support::CliRun;
using testing_support::CountLines;
using testing_support::RunShell;
using testing_support::ScratchLeft;
using testing_support::Slurp;
using testing_support::TempDir;

using testing_support::kAsNobody;

struct Place {
  const char* name;
  mode_t mode;
  bool attacker_owns;
};

const Place kPlaces[] = {
    {"Sticky", 01777, false}, {"WorldWritable", 0777, false}, {"AttackerOwned", 0755, true}};

// The destinations of one probe run: one per format it offers (--junit, a testcase per rule, is
// check's; every format goes through the one atomic writer).
const std::vector<std::pair<std::string, std::string>> kProbeFiles = {{"--json", "r.json"},
                                                                      {"--csv", "r.csv"},
                                                                      {"--markdown", "r.md"},
                                                                      {"--html", "r.html"},
                                                                      {"--prometheus", "r.prom"}};

std::string ReadSysctl() { return Slurp("/proc/sys/fs/protected_symlinks"); }

bool WriteSysctl(const std::string& value) {
  return RunShell("echo " + value + " > /proc/sys/fs/protected_symlinks").exit_code == 0 &&
         ReadSysctl().substr(0, 1) == value.substr(0, 1);
}

class DestinationSafetyTest : public ::testing::TestWithParam<std::tuple<Place, int>> {
 protected:
  void SetUp() override {
    if (!testing_support::IsRoot()) GTEST_SKIP() << "needs root: durprobe runs as root here";
    if (RunShell(kAsNobody + "true").exit_code != 0) {
      GTEST_SKIP() << "setpriv cannot run a command as nobody (uid 65534)";
    }
    saved_sysctl_ = ReadSysctl();
    if (saved_sysctl_.empty()) GTEST_SKIP() << "no /proc/sys/fs/protected_symlinks";
    if (!WriteSysctl(std::to_string(std::get<1>(GetParam())))) {
      GTEST_SKIP() << "cannot set fs.protected_symlinks (read-only /proc/sys?)";
    }
    restore_ = true;
    ASSERT_EQ(::chmod(root_.path().c_str(), 0755), 0);
    pub_ = root_.path() + "/pub";
    const Place& place = std::get<0>(GetParam());
    ASSERT_EQ(::mkdir(pub_.c_str(), 0755), 0);
    ASSERT_EQ(::chmod(pub_.c_str(), place.mode), 0);
    if (place.attacker_owns) {
      ASSERT_EQ(::chown(pub_.c_str(), 65534, 65534), 0);
    }
    sentinel_ = root_.path() + "/sentinel.conf";
    ASSERT_TRUE(platform::Default().WriteTextFile(sentinel_, "root's own file\n").ok());
    hash_ = Hash();
    ASSERT_FALSE(hash_.empty());
  }
  void TearDown() override {
    if (restore_) WriteSysctl(saved_sysctl_.substr(0, 1));
  }

  std::string Hash() { return RunShell("sha256sum " + sentinel_ + " | cut -d' ' -f1").out; }
  // The attacker's command: a symlink to the sentinel at each name in pub.
  std::string Plant(const std::vector<std::string>& names) {
    std::string links;
    for (const std::string& n : names) links += "ln -sf " + sentinel_ + " " + pub_ + "/" + n + "; ";
    return kAsNobody + "sh -c '" + links + "'";
  }
  void ExpectSentinelKept(const std::vector<std::string>& names) {
    EXPECT_EQ(Hash(), hash_) << "the sentinel was written through a planted link";
    for (const std::string& n : names) {
      EXPECT_EQ(platform::Default().KindOfNoFollow(pub_ + "/" + n), platform::PathKind::kSymlink)
          << n << ": the attacker's link was replaced, not refused";
    }
    CliRun tmp = RunShell("ls -a " + pub_ + " | grep -c durprobe-tmp");
    EXPECT_EQ(std::atoi(tmp.out.c_str()), 0) << "a temporary file was left in " << pub_;
  }
  static void ExpectRefused(int code, const std::string& err) {
    EXPECT_EQ(code, 2) << err;
    EXPECT_EQ(CountLines(err), 1) << err;
    EXPECT_NE(err.find("is a symlink owned by another user (uid 65534)"), std::string::npos) << err;
  }
  std::string ProbeDestinations() {
    std::string args;
    for (const auto& [option, name] : kProbeFiles) args += option + " " + pub_ + "/" + name + " ";
    return args;
  }
  static std::vector<std::string> ProbeNames() {
    std::vector<std::string> names;
    for (const auto& file : kProbeFiles) names.push_back(file.second);
    return names;
  }
  // A bash script run as root (the planted names use the run's $pid).
  CliRun RunScript(const std::string& text) {
    std::string path = io_.path() + "/script.sh";
    EXPECT_TRUE(platform::Default().WriteTextFile(path, text + "\n").ok());
    return RunShell("bash " + path);
  }
  std::string Report() const {
    return std::string(DURPROBE_SOURCE_DIR) + "/tests/fixtures/golden/reports/run.json";
  }

  TempDir root_, measured_, io_;
  std::string pub_, sentinel_, hash_, saved_sysctl_;
  bool restore_ = false;
};

TEST_P(DestinationSafetyTest, ALinkPlantedBeforeTheRunIsRefusedForEveryWriter) {
  for (const auto& [option, name] : kProbeFiles) {
    SCOPED_TRACE(option);
    ASSERT_EQ(RunShell(Plant({name})).exit_code, 0);
    CliRun r = RunShell(std::string(DURPROBE_BINARY) + " probe --quick --budget 1s " + option +
                        " " + pub_ + "/" + name + " " + measured_.path());
    ExpectRefused(r.exit_code, r.err);
  }
  ExpectSentinelKept(ProbeNames());
  EXPECT_TRUE(ScratchLeft(measured_.path()).empty());
}

TEST_P(DestinationSafetyTest, ALinkPlantedDuringTheRunIsRefusedForEveryWriter) {
  // Planted once the scratch exists: the destination check has passed by then.
  std::string cmd = std::string(DURPROBE_BINARY) + " probe --quick --budget 2s " +
                    ProbeDestinations() + measured_.path() + " >/dev/null 2>" + io_.path() +
                    "/err & pid=$!; i=0; while [ $i -lt 500 ] && ! ls -d " + measured_.path() +
                    "/.durprobe-scratch-* >/dev/null 2>&1; do sleep 0.02; i=$((i+1)); done; " +
                    "ls -d " + measured_.path() + "/.durprobe-scratch-* > " + io_.path() +
                    "/seen 2>/dev/null; " + Plant(ProbeNames()) + "; wait $pid; echo $? > " +
                    io_.path() + "/rc";
  ASSERT_EQ(RunScript(cmd).exit_code, 0);
  std::string err = Slurp(io_.path() + "/err");
  EXPECT_FALSE(Slurp(io_.path() + "/seen").empty()) << "the run ended before the links: " << err;
  ExpectRefused(std::atoi(Slurp(io_.path() + "/rc").c_str()), err);
  EXPECT_NE(err.find("cannot write the report"), std::string::npos) << err;
  ExpectSentinelKept(ProbeNames());
}

// summarize, report and diff write what they read: before (the link is there at the check) and
// during (planted while the command waits for its input on a FIFO, after its check).
TEST_P(DestinationSafetyTest, SummarizeReportAndDiffRefuseALinkBeforeAndDuring) {
  const std::vector<std::pair<std::string, std::string>> commands = {
      {"summarize --csv " + pub_ + "/s.csv --json " + pub_ + "/s.json", "s.csv"},
      {"report --html " + pub_ + "/p.html", "p.html"},
      {"diff --markdown " + pub_ + "/d.md --json " + pub_ + "/d.json", "d.md"}};
  std::string fifo = io_.path() + "/in.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::vector<std::string> names;
  for (const auto& [args, name] : commands) {
    SCOPED_TRACE(args);
    names.push_back(name);
    bool diff = args.starts_with("diff");
    ASSERT_EQ(RunShell(Plant({name})).exit_code, 0);
    CliRun before = RunShell(std::string(DURPROBE_BINARY) + " " + args + " " + Report() +
                             (diff ? " " + Report() : ""));
    ExpectRefused(before.exit_code, before.err);
    ASSERT_EQ(::unlink((pub_ + "/" + name).c_str()), 0);
    std::string cmd = std::string(DURPROBE_BINARY) + " " + args + " " + fifo +
                      (diff ? " " + Report() : "") + " >/dev/null 2>" + io_.path() +
                      "/err & pid=$!; sleep 0.3; " + Plant({name}) + "; cat " + Report() + " > " +
                      fifo + "; wait $pid; echo $? > " + io_.path() + "/rc";
    ASSERT_EQ(RunScript(cmd).exit_code, 0);
    ExpectRefused(std::atoi(Slurp(io_.path() + "/rc").c_str()), Slurp(io_.path() + "/err"));
  }
  ExpectSentinelKept(names);
}

// The temporary file was r.json.durprobe-tmp-PID: planted from the pid, it made the finished run
// exit 2 without its report. A random name, drawn again on EEXIST, writes it.
TEST_P(DestinationSafetyTest, ATemporaryNamePlantedFromThePidLosesNothing) {
  std::string json = pub_ + "/r.json";
  std::string planted = pub_ + "/r.json.durprobe-tmp-$pid";
  std::string cmd = std::string(DURPROBE_BINARY) + " probe --quick --budget 1s --json " + json +
                    " " + measured_.path() + " >/dev/null 2>" + io_.path() + "/err & pid=$!; " +
                    kAsNobody + "ln -s " + sentinel_ + " " + planted + "; test -L " + planted +
                    " && echo planted > " + io_.path() + "/planted; wait $pid; " + "echo $? > " +
                    io_.path() + "/rc";
  ASSERT_EQ(RunScript(cmd).exit_code, 0);
  std::string err = Slurp(io_.path() + "/err");
  ASSERT_FALSE(Slurp(io_.path() + "/planted").empty()) << "the name was not planted";
  EXPECT_EQ(std::atoi(Slurp(io_.path() + "/rc").c_str()), 0) << err;
  nlohmann::json doc = nlohmann::json::parse(Slurp(json), nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << "the report was lost: " << err;
  EXPECT_EQ(Hash(), hash_);
}

// Issue 32, item 15: durprobe run as a user other than the link's owner, under
// fs.protected_symlinks=1 in a sticky directory, said "is a symlink to a file that does not
// exist" (the kernel's EACCES read as a missing file) of a link to a file that exists.
TEST_P(DestinationSafetyTest, AnUnprivilegedRunNamesTheLinksOwnerNotAMissingFile) {
  std::string link = pub_ + "/theirs.json";
  ASSERT_EQ(testing_support::Symlink(sentinel_, link), 0);
  ASSERT_EQ(::lchown(link.c_str(), 65533, 65533), 0);
  CliRun r = RunShell(kAsNobody + DURPROBE_BINARY + " probe --quick --dry-run --json " + link +
                      " " + pub_);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("is a symlink owned by another user (uid 65533)"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("does not exist"), std::string::npos) << r.err;
  EXPECT_EQ(Hash(), hash_);
}

INSTANTIATE_TEST_SUITE_P(Places, DestinationSafetyTest,
                         ::testing::Combine(::testing::ValuesIn(kPlaces), ::testing::Values(0, 1)),
                         [](const auto& param_info) {
                           return std::string(std::get<0>(param_info.param).name) +
                                  "ProtectedSymlinks" +
                                  std::to_string(std::get<1>(param_info.param));
                         });

}  // namespace
}  // namespace durprobe
