// Real faults on the real system call path: the durprobe binary (probe, sqlite, compare, check)
// runs with the LD_PRELOAD fault layer (tests/faultlib/faultlib.c), which fails or slows the
// fsync, fdatasync, write, pwrite and open calls durprobe's platform layer and SQLite's unix VFS
// make. Each fault must end as a
// result and a finding carrying its errno text, never as a success, a crash or leftover scratch.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "run/reference.h"
#include "sqlite_bench/device_warmup.h"
#include "tests/fault_runner.h"

namespace durprobe {
namespace {

using nlohmann::json;
using testing_support::CliRun;
using testing_support::RunFaulted;
using testing_support::ScratchLeft;
using testing_support::Slurp;
using testing_support::TempDir;

constexpr const char* kScratchFiles = "DURPROBE_FAULT_PATH='*/.durprobe-scratch-*/*' ";
// The probe's own file only, not the reference probe's (scratch/reference/probe.dat, sampled
// before each probe): '*' spans '/', so the digit closing the scratch directory's name is what
// leaves the reference directory out.
constexpr const char* kProbeFile = "DURPROBE_FAULT_PATH='*/.durprobe-scratch-*[0-9]/probe.dat' ";

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

bool HasFinding(const json& target, const std::string& code, const std::string& text) {
  for (const json& f : target["findings"]) {
    if (f["code"] == code && f["message"].get<std::string>().find(text) != std::string::npos) {
      return true;
    }
  }
  return false;
}

class FaultTest : public ::testing::Test {
 protected:
  std::string Log() const { return out_.path() + "/faults.log"; }
  std::string Json() const { return out_.path() + "/report.json"; }
  json Report() const { return json::parse(Slurp(Json())); }
  void TearDown() override {
    EXPECT_TRUE(ScratchLeft(dir_.path()).empty()) << "scratch left in " << dir_.path();
  }
  TempDir dir_, out_;
};

// The layer is on the path: every sync SQLite issues (counted by durprobe's VFS shim) is one
// line in the layer's log, so SQLite's syscall table reaches the interposed fsync/fdatasync.
TEST_F(FaultTest, EverySqliteSyncGoesThroughTheInterposedSymbols) {
  CliRun run = RunFaulted(
      std::string("DURPROBE_FAULT_PATH='*/.durprobe-scratch-*' ") + "DURPROBE_FAULT_LOG=" + Log(),
      "sqlite --journal-modes wal,delete --synchronous full --commits 10 "
      "--repetitions 1 --warmup 1 --no-probes --quiet --json " +
          Json() + " " + dir_.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  long logged = 0;
  for (const std::string& line : Lines(Slurp(Log()))) {
    // The session's device warm-up and the reference probe sync their own files, not SQLite's.
    if (line.find(sqlite_bench::kDeviceWarmupFile) != std::string::npos) continue;
    if (line.find(std::string("/") + run::kReferenceDir + "/") != std::string::npos) continue;
    logged += line.rfind("fsync ", 0) == 0 || line.rfind("fdatasync ", 0) == 0;
  }
  long counted = 0;
  json report = Report();
  for (const json& e : report["targets"][0]["sqlite"]) {
    counted += e["vfs_totals"]["all"]["sync_calls"].get<long>();
  }
  EXPECT_GT(counted, 20);
  EXPECT_EQ(logged, counted);
}

// The same, checked against the kernel's view: strace sees as many fsync/fdatasync system calls
// in the whole process as the layer logged, so no sync bypasses the interposed symbols.
TEST_F(FaultTest, StraceSeesNoSyncTheLayerMissed) {
  if (testing_support::RunShell("strace -qq -e trace=none true").exit_code != 0) {
    GTEST_SKIP() << "strace is not installed or cannot trace here";
  }
  std::string trace = out_.path() + "/trace";
  CliRun run = testing_support::RunShell(
      "strace -f -qq -e trace=fsync,fdatasync -o " + trace +
      " env LD_PRELOAD=" DURPROBE_FAULTLIB " DURPROBE_FAULT_LOG=" + Log() +
      " DURPROBE_FAULT_PATH='*/.durprobe-scratch-*' " DURPROBE_BINARY
      " sqlite --journal-modes wal,delete --synchronous full --commits 10 --repetitions 1 "
      "--warmup 1 --no-probes --quiet " +
      dir_.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  long traced = 0, logged = 0;
  for (const std::string& line : Lines(Slurp(trace))) {
    if (line.find("resumed>") != std::string::npos) continue;
    traced +=
        line.find("fsync(") != std::string::npos || line.find("fdatasync(") != std::string::npos;
  }
  for (const std::string& line : Lines(Slurp(Log()))) {
    logged += line.rfind("fsync ", 0) == 0 || line.rfind("fdatasync ", 0) == 0;
  }
  EXPECT_GT(traced, 20);
  EXPECT_EQ(logged, traced);
}

TEST_F(FaultTest, ProbeSyncsGoThroughTheInterposedSymbols) {
  CliRun run = RunFaulted(std::string(kScratchFiles) + "DURPROBE_FAULT_LOG=" + Log(),
                          "probe --primitives fsync,fdatasync --patterns overwrite --budget 400ms "
                          "--quiet " +
                              dir_.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::string log = Slurp(Log());
  EXPECT_NE(log.find("fsync " + dir_.path()), std::string::npos) << log.substr(0, 500);
  EXPECT_NE(log.find("fdatasync " + dir_.path()), std::string::npos);
}

// PostgreSQL's rule: one failed sync, then the layer lets syncs succeed again. The probe must
// report the failure and stop; a retry would show as an "ok" sync after the EIO in the log.
class SyncFailsOnceTest : public FaultTest, public ::testing::WithParamInterface<const char*> {};

TEST_P(SyncFailsOnceTest, IsAnErrorResultAndAFindingAndNeverRetried) {
  std::string primitive = GetParam();
  CliRun run =
      RunFaulted(std::string(kProbeFile) + "DURPROBE_FAULT_SYNC=EIO " +
                     "DURPROBE_FAULT_AFTER=3 DURPROBE_FAULT_TIMES=1 DURPROBE_FAULT_LOG=" + Log(),
                 "probe --primitives " + primitive + " --patterns overwrite --sizes 4k " +
                     "--budget 2s --quiet --json " + Json() + " " + dir_.path());
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("Input/output error"), std::string::npos) << run.err;
  json target = Report()["targets"][0];
  ASSERT_EQ(target["probes"].size(), 1u);
  const json& probe = target["probes"][0];
  EXPECT_EQ(probe["status"], "error");
  EXPECT_NE(probe["reason"].get<std::string>().find("Input/output error"), std::string::npos);
  // The figures stop at the failure: no more operations than syncs that succeeded.
  EXPECT_LE(probe["ops"].get<long>() + probe["warmup_ops"].get<long>(), 3);
  EXPECT_TRUE(HasFinding(target, "probe_error", "Input/output error")) << target["findings"];
  std::vector<std::string> log = Lines(Slurp(Log()));
  ASSERT_FALSE(log.empty());
  EXPECT_NE(log.back().find(" EIO"), std::string::npos)
      << "a sync followed the failed one: " << log.back();
}

INSTANTIATE_TEST_SUITE_P(FaultTest, SyncFailsOnceTest, ::testing::Values("fsync", "fdatasync"));

TEST_F(FaultTest, WriteEnospcIsAnErrorResultWithItsErrnoText) {
  CliRun run = RunFaulted("DURPROBE_FAULT_PATH='*/probe.dat' DURPROBE_FAULT_WRITE=ENOSPC",
                          "probe --primitives fdatasync --patterns append --budget 1s --quiet "
                          "--json " +
                              Json() + " " + dir_.path());
  EXPECT_EQ(run.exit_code, 1) << run.err;
  json target = Report()["targets"][0];
  EXPECT_EQ(target["probes"][0]["status"], "error");
  EXPECT_TRUE(HasFinding(target, "probe_error", "No space left on device")) << target["findings"];
}

// A short write is legal: the platform layer and SQLite both write the rest. Nothing fails and
// SQLite's rows read back intact (checksummed).
TEST_F(FaultTest, ShortWritesAreCompletedNotReportedAsErrors) {
  std::string env =
      std::string(kScratchFiles) + "DURPROBE_FAULT_WRITE=short DURPROBE_FAULT_LOG=" + Log() + " ";
  CliRun probe = RunFaulted(env,
                            "probe --primitives fdatasync --patterns overwrite,append "
                            "--budget 400ms --quiet " +
                                dir_.path());
  EXPECT_EQ(probe.exit_code, 0) << probe.err;
  CliRun sqlite = RunFaulted(env,
                             "sqlite --journal-modes wal,delete --synchronous full "
                             "--commits 5 --repetitions 1 --warmup 1 --no-probes --quiet " +
                                 dir_.path());
  EXPECT_EQ(sqlite.exit_code, 0) << sqlite.err;
  EXPECT_NE(Slurp(Log()).find(" short"), std::string::npos);
}

TEST_F(FaultTest, OpenEaccesOnAProbeFileIsAnErrorResult) {
  CliRun run = RunFaulted("DURPROBE_FAULT_PATH='*/probe.dat' DURPROBE_FAULT_OPEN=EACCES",
                          "probe --primitives fsync --patterns overwrite --budget 400ms --quiet "
                          "--json " +
                              Json() + " " + dir_.path());
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_TRUE(HasFinding(Report()["targets"][0], "probe_error", "Permission denied"));
}

// The scratch marker cannot be written: nothing is measured, exit 2, the half-made directory
// is removed.
TEST_F(FaultTest, ScratchThatCannotBeCreatedStopsWithOneLine) {
  CliRun run = RunFaulted("DURPROBE_FAULT_PATH='*/DURPROBE_SCRATCH' DURPROBE_FAULT_OPEN=EROFS",
                          "probe --budget 400ms " + dir_.path());
  testing_support::ExpectUsageError(run, "cannot create a scratch directory in " + dir_.path(),
                                    "marker EROFS");
  EXPECT_NE(run.err.find("Read-only file system"), std::string::npos) << run.err;
}

struct SqliteFault {
  const char* name;
  const char* journal;
  const char* env;
  const char* errno_text;
};

// SQLITE_IOERR_FSYNC, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_READONLY on the journal, the WAL or
// the database: each configuration hit becomes an error row and a finding with the error text
// (with the errno text for SQLITE_IOERR_* and SQLITE_CANTOPEN, the codes SQLite keeps it for).
class SqliteFaultTest : public FaultTest, public ::testing::WithParamInterface<SqliteFault> {};

TEST_P(SqliteFaultTest, BecomesARowErrorNotACrash) {
  const SqliteFault& f = GetParam();
  CliRun run = RunFaulted(f.env, std::string("sqlite --journal-modes ") + f.journal +
                                     " --synchronous full --commits 5 --repetitions 1 "
                                     "--warmup 1 --no-probes --quiet --json " +
                                     Json() + " " + dir_.path());
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find(f.errno_text), std::string::npos) << run.err;
  json target = Report()["targets"][0];
  ASSERT_EQ(target["sqlite"].size(), 1u);
  EXPECT_EQ(target["sqlite"][0]["status"], "error");
  EXPECT_NE(target["sqlite"][0]["reason"].get<std::string>().find(f.errno_text), std::string::npos)
      << target["sqlite"][0]["reason"];
  EXPECT_TRUE(HasFinding(target, "sqlite_commit_error", f.errno_text)) << target["findings"];
}

INSTANTIATE_TEST_SUITE_P(
    FaultTest, SqliteFaultTest,
    ::testing::Values(SqliteFault{"WalFsyncEio", "wal",
                                  "DURPROBE_FAULT_PATH='*-wal' DURPROBE_FAULT_SYNC=EIO",
                                  "Input/output error"},
                      SqliteFault{"JournalFsyncEio", "delete",
                                  "DURPROBE_FAULT_PATH='*-journal' DURPROBE_FAULT_SYNC=EIO",
                                  "Input/output error"},
                      SqliteFault{"DatabaseFsyncEio", "delete",
                                  "DURPROBE_FAULT_PATH='*/commit-*.db' DURPROBE_FAULT_SYNC=EIO "
                                  "DURPROBE_FAULT_AFTER=2",
                                  "Input/output error"},
                      SqliteFault{"WalWriteEnospc", "wal",
                                  "DURPROBE_FAULT_PATH='*-wal' DURPROBE_FAULT_WRITE=ENOSPC",
                                  "database or disk is full"},
                      SqliteFault{"JournalOpenEacces", "delete",
                                  "DURPROBE_FAULT_PATH='*-journal' DURPROBE_FAULT_OPEN=EACCES",
                                  "attempt to write a readonly database"},
                      SqliteFault{"DatabaseOpenErofs", "wal",
                                  "DURPROBE_FAULT_PATH='*/commit-*.db' DURPROBE_FAULT_OPEN=EROFS",
                                  "Read-only file system"}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

// The workloads, the forked-process ones included: errors, exit 1, no orphan children.
TEST_F(FaultTest, WorkloadSyncFailuresAreErrorsWithoutOrphans) {
  CliRun run = RunFaulted(std::string(kScratchFiles) + "DURPROBE_FAULT_SYNC=EIO",
                          "sqlite --workloads read,connect,locks,concurrency,wal_growth "
                          "--budget 4s --quiet --json " +
                              Json() + " " + dir_.path());
  EXPECT_EQ(run.exit_code, 1) << run.err;
  // The workloads open SQLite's own unix VFS (no counting shim), which keeps no errno for
  // commit-time failures: SQLite's text is what there is.
  EXPECT_NE(run.err.find("disk I/O error"), std::string::npos) << run.err;
  EXPECT_FALSE(Report()["targets"][0]["sqlite_workloads"].empty());
  EXPECT_TRUE(testing_support::ProcessesMentioning(dir_.path()).empty());
}

// compare: the faulted path's probes fail with a finding; the other path measures normally.
TEST_F(FaultTest, CompareReportsTheFaultOnTheFaultedPathOnly) {
  TempDir good;
  CliRun run =
      RunFaulted("DURPROBE_FAULT_PATH='" + dir_.path() + "/*/probe.dat' DURPROBE_FAULT_SYNC=EIO",
                 "compare --primitives fdatasync --patterns overwrite --no-sqlite "
                 "--rounds 1 --budget 2s --quiet --json " +
                     Json() + " " + good.path() + " " + dir_.path());
  EXPECT_EQ(run.exit_code, 1) << run.err;
  json report = Report();
  ASSERT_EQ(report["targets"].size(), 2u);
  EXPECT_EQ(report["targets"][0]["probes"][0]["status"], "ok");
  EXPECT_EQ(report["targets"][1]["probes"][0]["status"], "error");
  EXPECT_TRUE(HasFinding(report["targets"][1], "probe_error", "Input/output error"));
  EXPECT_FALSE(HasFinding(report["targets"][0], "probe_error", ""));
  EXPECT_TRUE(ScratchLeft(good.path()).empty());
}

// check: a rule whose probe hit a fault could not be measured: exit 2 (docs/provisioning.md),
// the rule an error naming the errno text, never a pass. kPassRule no disk can fail.
constexpr const char* kPassRule = "--budget 1s --max-sync-p99 fdatasync:overwrite:4k=59m";
constexpr const char* kRule = "max_p99_fdatasync_overwrite_4096";

TEST_F(FaultTest, CheckWithFailingSyncsCannotMeasureExitTwo) {
  std::string junit = out_.path() + "/check.xml";
  CliRun run = RunFaulted(std::string(kScratchFiles) + "DURPROBE_FAULT_SYNC=EIO",
                          std::string("check ") + kPassRule + " --json " + Json() + " --junit " +
                              junit + " " + dir_.path());
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  // The console's rule line names the rule and the errno text.
  EXPECT_NE(run.out.find("ERROR   " + dir_.path() + "  " + kRule), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Input/output error"), std::string::npos) << run.out;
  json report = Report();
  ASSERT_EQ(report["checks"].size(), 1u);
  const json& check = report["checks"][0];
  EXPECT_EQ(check["rule"], kRule);
  EXPECT_EQ(check["status"], "error");
  EXPECT_EQ(check["pass"], false);
  EXPECT_TRUE(check["measured"].is_null());
  EXPECT_NE(check["message"].get<std::string>().find("Input/output error"), std::string::npos)
      << check["message"];
  EXPECT_TRUE(HasFinding(report["targets"][0], "probe_error", "Input/output error"));
  std::string xml = Slurp(junit);
  EXPECT_NE(xml.find("<error"), std::string::npos) << xml;
  EXPECT_EQ(xml.find("<failure"), std::string::npos) << xml;
}

// PostgreSQL's rule under check: the one failed sync ends the probe; no sync follows it.
TEST_F(FaultTest, CheckNeverRetriesAFailedSyncIntoAPass) {
  CliRun run = RunFaulted(
      std::string(kProbeFile) +
          "DURPROBE_FAULT_SYNC=EIO DURPROBE_FAULT_AFTER=3 "
          "DURPROBE_FAULT_TIMES=1 DURPROBE_FAULT_LOG=" +
          Log(),
      std::string("check ") + kPassRule + " --quiet --json " + Json() + " " + dir_.path());
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  EXPECT_EQ(Report()["checks"][0]["status"], "error");
  std::vector<std::string> log = Lines(Slurp(Log()));
  ASSERT_FALSE(log.empty());
  EXPECT_NE(log.back().find(" EIO"), std::string::npos)
      << "a sync followed the failed one: " << log.back();
}

TEST_F(FaultTest, CheckWithAFullDiskCannotMeasureExitTwo) {
  CliRun run = RunFaulted(
      "DURPROBE_FAULT_PATH='*/probe.dat' DURPROBE_FAULT_WRITE=ENOSPC",
      std::string("check ") + kPassRule + " --quiet --json " + Json() + " " + dir_.path());
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  const json check = Report()["checks"][0];
  EXPECT_EQ(check["status"], "error");
  EXPECT_NE(check["message"].get<std::string>().find("No space left on device"), std::string::npos)
      << check["message"];
}

// A commit rule whose WAL sync fails: SQLite's SQLITE_IOERR_FSYNC is the rule's error.
TEST_F(FaultTest, CheckCommitRuleWithFailingWalSyncsCannotMeasureExitTwo) {
  CliRun run = RunFaulted(
      "DURPROBE_FAULT_PATH='*-wal' DURPROBE_FAULT_SYNC=EIO",
      "check --budget 2s --min-commits 'WAL:FULL>=1' --quiet --json " + Json() + " " + dir_.path());
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  const json check = Report()["checks"][0];
  EXPECT_EQ(check["status"], "error");
  EXPECT_NE(check["message"].get<std::string>().find("Input/output error"), std::string::npos)
      << check["message"];
}

// One path's rule failed, the other's could not be measured: exit 1, since what was measured
// already rejects the storage (docs/provisioning.md). The healthy path is measured as usual.
TEST_F(FaultTest, CheckFailureOnOnePathOutranksAFaultOnAnother) {
  TempDir good;
  CliRun run =
      RunFaulted("DURPROBE_FAULT_PATH='" + dir_.path() + "/*/probe.dat' DURPROBE_FAULT_SYNC=EIO",
                 "check --budget 2s --max-sync-p99 fdatasync:overwrite:4k=1ns --quiet --json " +
                     Json() + " " + good.path() + " " + dir_.path());
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  json report = Report();
  ASSERT_EQ(report["checks"].size(), 2u);
  EXPECT_EQ(report["checks"][0]["path"], good.path());
  EXPECT_EQ(report["checks"][0]["status"], "fail");
  EXPECT_EQ(report["checks"][1]["path"], dir_.path());
  EXPECT_EQ(report["checks"][1]["status"], "error");
  EXPECT_TRUE(ScratchLeft(good.path()).empty());
}

}  // namespace
}  // namespace durprobe
