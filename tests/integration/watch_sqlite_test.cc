// durprobe watch against the real thing: Python's sqlite3 started by the test while watch runs
// (--comm, or --pid), under `strace -f -y -e trace=fsync,fdatasync` on the same run. Watch's
// syncs per file equal strace's (within 1%), the journal mode and synchronous level are named
// right, and synchronous=OFF is called not durable. Root, tracefs, strace and python3 needed:
// each test skips saying which is missing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "tests/cli_runner.h"
#include "tests/integration/watch_support.h"
#include "tests/test_dirs.h"

namespace durprobe {
namespace {

using testing_support::CliRun;
using testing_support::kPython;
using testing_support::MissingForWatch;
using testing_support::RunShell;
using testing_support::Slurp;
using testing_support::TempDir;

// The workload: one INSERT per transaction (autocommit), `rows` of them. With a 4th argument
// it writes its pid to that file and waits for a line on stdin before it starts.
constexpr const char* kWorkload = R"py(import os, sqlite3, sys
path, journal, sync, rows = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
if len(sys.argv) > 5:
    with open(sys.argv[5], "w") as f:
        f.write(str(os.getpid()))
    sys.stdin.readline()
db = sqlite3.connect(path, isolation_level=None)
db.execute("PRAGMA journal_mode=" + journal)
db.execute("PRAGMA synchronous=" + sync)
db.execute("CREATE TABLE t(x)")
for i in range(rows):
    db.execute("INSERT INTO t VALUES (?)", (os.urandom(100),))
db.close()
)py";

struct Observed {
  CliRun watch;
  nlohmann::json doc;
  std::map<std::string, int> strace;  // syncs per path
  std::string database;
};

// strace -y's lines: "123 fdatasync(4</d/t.db-journal>) = 0".
std::map<std::string, int> StraceCounts(const std::string& log) {
  std::map<std::string, int> counts;
  std::regex line(R"((?:fsync|fdatasync)\(\d+<([^>]*)>\) = 0)");
  std::istringstream in(log);
  std::string text;
  while (std::getline(in, text)) {
    std::smatch m;
    if (std::regex_search(text, m, line)) ++counts[m[1]];
  }
  return counts;
}

// Watch runs until the workload is done, then SIGINT ends it (its report still written).
Observed RunWatched(const std::string& journal, const std::string& sync, int rows, bool by_pid) {
  TempDir dir("/var/tmp");
  const std::string d = dir.path();
  std::ofstream(d + "/workload.py") << kWorkload;
  // A comm of the test's own, so nothing else on the host is observed.
  std::string comm = "dpw" + std::to_string(::getpid() % 100000);
  EXPECT_EQ(::symlink(kPython, (d + "/" + comm).c_str()), 0);
  Observed o;
  o.database = d + "/t.db";
  std::string workload = "strace -f -qq -y -e trace=fsync,fdatasync -o " + d + "/strace.txt " + d +
                         "/" + comm + " " + d + "/workload.py " + o.database + " " + journal + " " +
                         sync + " " + std::to_string(rows);
  std::string wait_banner =
      "for i in $(seq 300); do grep -q observing " + d + "/err && break; sleep 0.1; done; ";
  std::string script;
  if (by_pid) {
    script = "mkfifo " + d + "/go; (" + workload + " " + d + "/pid < " + d + "/go &) ; " +
             "exec 3>" + d + "/go; " + "for i in $(seq 300); do [ -s " + d +
             "/pid ] && break; sleep 0.1; done; " + DURPROBE_BINARY " watch --pid $(cat " + d +
             "/pid) --json " + d + "/w.json >" + d + "/out 2>" + d + "/err & W=$!; " + wait_banner +
             "echo go >&3; exec 3>&-; " + "while kill -0 $(cat " + d +
             "/pid) 2>/dev/null; do sleep 0.1; done; ";
  } else {
    script = DURPROBE_BINARY " watch --comm " + comm + " --json " + d + "/w.json >" + d +
             "/out 2>" + d + "/err & W=$!; " + wait_banner + workload + "; ";
  }
  script += "sleep 0.3; kill -INT $W; wait $W; echo $? >" + d + "/status";
  CliRun shell = RunShell(script);
  o.watch.out = Slurp(d + "/out");
  o.watch.err = Slurp(d + "/err");
  o.watch.exit_code = std::atoi(Slurp(d + "/status").c_str());
  std::string text = Slurp(d + "/w.json");
  o.doc = nlohmann::json::parse(text.empty() ? "{}" : text);
  o.strace = StraceCounts(Slurp(d + "/strace.txt"));
  EXPECT_EQ(shell.exit_code, 0) << shell.err;
  return o;
}

int WatchSyncs(const nlohmann::json& doc, const std::string& path) {
  int n = 0;
  for (const auto& f : doc.value("files", nlohmann::json::array())) {
    if (f.value("path", "") == path) n += f.value("syncs", 0);
  }
  return n;
}

const nlohmann::json* Sqlite(const nlohmann::json& doc, const std::string& database) {
  if (!doc.contains("sqlite")) return nullptr;
  for (const auto& s : doc["sqlite"]) {
    if (s.value("database", "") == database) return &s;
  }
  return nullptr;
}

// Every file strace saw synced, watch saw synced as often (within 1%), and no more files.
void ExpectCountsMatchStrace(const Observed& o) {
  ASSERT_FALSE(o.strace.empty()) << "strace saw no sync";
  for (const auto& [path, count] : o.strace) {
    int seen = WatchSyncs(o.doc, path);
    EXPECT_LE(std::abs(seen - count), count / 100)
        << path << ": watch " << seen << ", strace " << count << "\n"
        << o.watch.out;
  }
  for (const auto& f : o.doc.value("files", nlohmann::json::array())) {
    if (f.value("syncs", 0) > 0) {
      EXPECT_TRUE(o.strace.contains(f["path"])) << f.dump();
    }
  }
}

class WatchSqliteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string missing = MissingForWatch();
    if (!missing.empty()) GTEST_SKIP() << "durprobe watch " << missing;
  }
};

TEST_F(WatchSqliteTest, DeleteFullCountsEverySyncAndNamesTheMode) {
  Observed o = RunWatched("DELETE", "FULL", 60, false);
  ASSERT_EQ(o.watch.exit_code, 0) << o.watch.err;
  ExpectCountsMatchStrace(o);
  EXPECT_EQ(o.strace[o.database + "-journal"], 2 * o.strace[o.database]);
  const nlohmann::json* s = Sqlite(o.doc, o.database);
  ASSERT_NE(s, nullptr) << o.watch.out;
  EXPECT_EQ((*s)["journal_mode"], "DELETE");
  EXPECT_EQ((*s)["synchronous"], "FULL");
  EXPECT_EQ((*s)["durable"], true);
  EXPECT_EQ((*s)["transactions"], o.strace[o.database]);
  EXPECT_EQ((*s)["small_transactions"], true);  // one INSERT per transaction
}

TEST_F(WatchSqliteTest, WalFullSyncsTheWalPerCommit) {
  Observed o = RunWatched("WAL", "FULL", 60, false);
  ASSERT_EQ(o.watch.exit_code, 0) << o.watch.err;
  ExpectCountsMatchStrace(o);
  const nlohmann::json* s = Sqlite(o.doc, o.database);
  ASSERT_NE(s, nullptr) << o.watch.out;
  EXPECT_EQ((*s)["journal_mode"], "WAL");
  EXPECT_EQ((*s)["synchronous"], "FULL");
  EXPECT_EQ((*s)["durable"], true);
  EXPECT_GE((*s)["transactions"].get<int>(), 60);  // the CREATE TABLE commits too
}

TEST_F(WatchSqliteTest, WalNormalSyncsOnlyAtCheckpoints) {
  // 3,000 one-row commits write 3,000 WAL frames: three automatic checkpoints (1,000 pages).
  Observed o = RunWatched("WAL", "NORMAL", 3000, false);
  ASSERT_EQ(o.watch.exit_code, 0) << o.watch.err;
  ExpectCountsMatchStrace(o);
  const nlohmann::json* s = Sqlite(o.doc, o.database);
  ASSERT_NE(s, nullptr) << o.watch.out;
  EXPECT_EQ((*s)["journal_mode"], "WAL");
  EXPECT_EQ((*s)["synchronous"], "NORMAL");
  EXPECT_EQ((*s)["durable"], false);
  EXPECT_TRUE((*s)["transactions"].is_null());
  EXPECT_LT(o.strace[o.database + "-wal"], 20);
}

TEST_F(WatchSqliteTest, SynchronousOffIsCalledNotDurable) {
  Observed o = RunWatched("DELETE", "OFF", 60, false);
  ASSERT_EQ(o.watch.exit_code, 0) << o.watch.err;
  EXPECT_EQ(o.strace[o.database], 0);
  EXPECT_EQ(WatchSyncs(o.doc, o.database), 0);
  const nlohmann::json* s = Sqlite(o.doc, o.database);
  ASSERT_NE(s, nullptr) << o.watch.out;
  EXPECT_EQ((*s)["synchronous"], "OFF");
  EXPECT_EQ((*s)["durable"], false);
  EXPECT_NE(o.watch.out.find("NOT durable"), std::string::npos) << o.watch.out;
}

TEST_F(WatchSqliteTest, ByPidSeesTheSameSyncsAsStrace) {
  Observed o = RunWatched("DELETE", "FULL", 40, true);
  ASSERT_EQ(o.watch.exit_code, 0) << o.watch.err;
  ExpectCountsMatchStrace(o);
  const nlohmann::json* s = Sqlite(o.doc, o.database);
  ASSERT_NE(s, nullptr) << o.watch.out;
  EXPECT_EQ((*s)["journal_mode"], "DELETE");
  EXPECT_EQ((*s)["synchronous"], "FULL");
}

}  // namespace
}  // namespace durprobe
