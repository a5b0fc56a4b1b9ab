// scripts/bench-vs-real.sh for real, one short round per system: etcd and PostgreSQL started by
// the script from Debian's packages (127.0.0.1 or a unix socket, a directory of their own), their
// own metrics read, durprobe's preset run beside them, and everything stopped and removed after.
// These tests assert behaviour (the system ran, its metrics were read, durprobe's report has what
// the comparison needs); the agreement figures are benchmark results (docs/accuracy.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/cli_runner.h"

namespace durprobe {
namespace {

using nlohmann::json;
using testing_support::CliRun;
using testing_support::RunShell;
using testing_support::Slurp;
using testing_support::TempDir;

const std::string kScripts = std::string(DURPROBE_SOURCE_DIR) + "/scripts/";

CliRun RunBench(const std::string& args, const std::string& dir, const std::string& keep) {
  return RunShell("bash " + kScripts +
                  "bench-vs-real.sh --rounds 1 --dp-secs 2 --drain 0 --durprobe " +
                  DURPROBE_BINARY + " --keep " + keep + " " + args + " " + dir);
}

json ProbeOf(const json& report, const std::string& primitive, const std::string& pattern,
             int size) {
  for (const json& p : report["targets"][0]["probes"]) {
    if (p["primitive"] == primitive && p["pattern"] == pattern && p["write_size"] == size &&
        p.value("writes_per_op", 1) == 1) {
      return p;
    }
  }
  return nullptr;
}

// The table row that starts with label: its rounds column and what follows, as printed.
std::string TableRow(const std::string& out, const std::string& label) {
  std::size_t at = out.find(label);
  if (at == std::string::npos) return "";
  std::size_t end = out.find('\n', at);
  std::string rest = out.substr(at + label.size(), end - at - label.size());
  return rest.substr(std::min(rest.find_first_not_of(' '), rest.size()));
}

// The rule was judged on a measured value: a pass, a fail, or unstable (this disk can change
// level within seconds, and then a limit inside the drift's range is neither).
bool HasCheck(const json& report, const std::string& rule) {
  for (const json& c : report["checks"]) {
    if (c["rule"] == rule) {
      return (c["status"] == "pass" || c["status"] == "fail" || c["status"] == "unstable") &&
             c.contains("measured");
    }
  }
  return false;
}

TEST(BenchVsRealTest, EtcdRanItsMetricsWereReadAndThePresetRanBeside) {
  for (const char* tool : {"etcd", "etcdctl", "curl"}) {
    if (RunShell(std::string("command -v ") + tool).exit_code != 0) {
      GTEST_SKIP() << tool << " is not installed (Debian: etcd-server, etcd-client, curl)";
    }
  }
  TempDir dir, keep;
  CliRun run = RunBench("--systems etcd --etcd-loads put:50", dir.path(), keep.path());
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  std::string round = keep.path() + "/etcd-put50/r0/";
  // etcd synced its WAL for the puts, and its own histogram counted them.
  std::istringstream before(
      RunShell("python3 " + kScripts + "real_table.py etcd-metrics " + round + "etcd-before.prom")
          .out);
  std::istringstream after(
      RunShell("python3 " + kScripts + "real_table.py etcd-metrics " + round + "etcd-after.prom")
          .out);
  double sum0 = -1, count0 = -1, sum1 = -1, count1 = -1;
  before >> sum0 >> count0;
  after >> sum1 >> count1;
  EXPECT_GE(count1 - count0, 50) << Slurp(round + "etcd-after.prom").substr(0, 2000);
  EXPECT_GT(sum1, sum0);
  json report = json::parse(Slurp(round + "dp-etcd.json"));
  json wal = ProbeOf(report, "fdatasync", "preallocated", 1392);
  ASSERT_FALSE(wal.is_null()) << report["targets"][0]["probes"].dump();
  EXPECT_GT(wal["ops"].get<int>(), 0);
  EXPECT_TRUE(HasCheck(report, "etcd_wal_fsync_p99")) << report["checks"].dump();
  EXPECT_EQ(TableRow(run.out, "etcd WAL fsync mean, durprobe / etcd").rfind("1 ", 0), 0u)
      << run.out;
  // etcd's data directory and durprobe's scratch are gone; etcd was stopped (its port is free).
  EXPECT_EQ(RunShell("ls -A " + dir.path()).out, "");
}

TEST(BenchVsRealTest, PostgresRanUnderEachWalSyncMethodAndThePresetRanBeside) {
  if (RunShell("test -x /usr/lib/postgresql/15/bin/initdb").exit_code != 0) {
    GTEST_SKIP() << "PostgreSQL 15 is not installed (Debian: postgresql-15)";
  }
  if (RunShell("test \"$(id -u)\" != 0 || id postgres").exit_code != 0) {
    GTEST_SKIP() << "running as root, and there is no postgres user to run PostgreSQL as";
  }
  TempDir dir, keep;
  // PostgreSQL runs as the postgres user when the tests run as root: it must reach the directory.
  RunShell("chmod 755 " + dir.path());
  CliRun run = RunBench("--systems postgres --pg-secs 2", dir.path(), keep.path());
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  std::string round = keep.path() + "/pg/r0/";
  for (const char* method : {"fdatasync", "open_datasync", "fsync", "open_sync"}) {
    std::string text = Slurp(round + "pg-" + method + ".txt");
    EXPECT_NE(text.find("tps = "), std::string::npos) << method << ": " << text;
    EXPECT_NE(text.find("\nwal "), std::string::npos) << method << ": " << text;
  }
  // fdatasync syncs with a call of its own, which pg_stat_wal counts and times.
  std::string fdatasync = Slurp(round + "pg-fdatasync.txt");
  std::istringstream wal(fdatasync.substr(fdatasync.find("\nwal ") + 5));
  long syncs = 0;
  double sync_ms = 0;
  wal >> syncs >> sync_ms;
  EXPECT_GT(syncs, 0) << fdatasync;
  EXPECT_GT(sync_ms, 0) << fdatasync;
  json report = json::parse(Slurp(round + "dp-pg.json"));
  for (const char* primitive : {"fdatasync", "odsync", "fsync", "osync"}) {
    EXPECT_FALSE(ProbeOf(report, primitive, "overwrite", 8192).is_null()) << primitive;
  }
  EXPECT_TRUE(HasCheck(report, "postgres_wal_sync_method")) << report["checks"].dump();
  // The one-client commit the sync time and commit rate are compared with: 8 KiB after its 260 us
  // of work.
  int worked = 0;
  for (const json& p : report["targets"][0]["probes"]) worked += p.value("work_us", 0) == 260;
  EXPECT_EQ(worked, 1) << report["targets"][0]["probes"].dump();
  EXPECT_TRUE(HasCheck(report, "postgres_one_client_commits")) << report["checks"].dump();
  for (const char* row :
       {"WAL sync time, durprobe / pg_stat_wal", "commit rate, durprobe one client / pgbench",
        "wal_sync_method choice = PostgreSQL answer"}) {
    EXPECT_EQ(TableRow(run.out, row).rfind("1 ", 0), 0u) << row << " in\n" << run.out;
  }
  EXPECT_EQ(TableRow(run.out, "wal_sync_method order equal (by rate)").rfind("1 ", 0), 0u)
      << run.out;
  EXPECT_EQ(RunShell("ls -A " + dir.path()).out, "");
}

TEST(BenchVsRealTest, SqliteComparisonsRunInTheSameScript) {
  for (const char* tool : {"sqlite3", "python3"}) {
    if (RunShell(std::string("command -v ") + tool).exit_code != 0) {
      GTEST_SKIP() << tool << " is not installed (Debian: sqlite3, python3)";
    }
  }
  TempDir dir, keep;
  CliRun run = RunBench("--systems sqlite --sqlite-only WAL/FULL", dir.path(), keep.path());
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("python/shell"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nWAL      FULL      1 "), std::string::npos) << run.out;
  EXPECT_EQ(RunShell("ls -A " + dir.path()).out, "");
}

}  // namespace
}  // namespace durprobe
