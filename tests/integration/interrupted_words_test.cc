// Issue 23 point 9, the words of an interrupted run: SIGTERM that lands while the report is being
// written is named SIGTERM (it once said SIGINT); an interrupted compare counts the items its JSON
// lists (it said "0 item(s)" while the JSON listed 10 to 39); an interrupted crashsim lists the
// configurations it never started. Each signal is sent on an event in the fault layer's log or the
// progress log, never after a sleep.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "tests/fault_runner.h"

namespace durprobe {
namespace {

using testing_support::CountLines;
using testing_support::ScratchLeft;
using testing_support::Slurp;
using testing_support::TempDir;

struct Ended {
  int exit_code = -1;
  std::string err;
};

// Runs `env ENV durprobe ARGS` in the background, waits (up to 60 s) for a line matching
// wait_for in the file watched, sends sig, waits for the exit.
Ended SignalWhen(const std::string& env, const std::string& args, const std::string& watched,
                 const std::string& wait_for, const std::string& sig, const std::string& io) {
  std::string cmd = "env LD_PRELOAD=" DURPROBE_FAULTLIB " " + env + " " DURPROBE_BINARY " " + args +
                    " >/dev/null 2>" + io + "/err & pid=$!; i=0; while [ $i -lt 600 ] && " +
                    "! grep -q -- '" + wait_for + "' " + watched + " 2>/dev/null; do sleep 0.1; " +
                    "i=$((i+1)); done; kill -" + sig + " $pid; wait $pid; echo $? > " + io + "/rc";
  EXPECT_EQ(std::system(("(" + cmd + ")").c_str()), 0);
  return {std::atoi(Slurp(io + "/rc").c_str()), Slurp(io + "/err")};
}

// "(N item(s) not run or not finished)" from the interruption line.
int CountedItems(const std::string& err) {
  std::smatch m;
  if (!std::regex_search(err, m, std::regex(R"(\((\d+) item\(s\) not run)"))) return -1;
  return std::stoi(m[1]);
}

std::size_t ListedItems(const nlohmann::json& doc) {
  std::size_t n = 0;
  for (const nlohmann::json& t : doc.at("targets")) {
    if (t.contains("unfinished")) n += t.at("unfinished").size();
  }
  return n;
}

TEST(InterruptedWordsTest, SigtermWhileTheReportIsWrittenIsNamedSigterm) {
  TempDir dir, io;
  std::string log = io.path() + "/faults.log", json_path = io.path() + "/r.json";
  Ended e =
      SignalWhen("DURPROBE_FAULT_LOG=" + log + " DURPROBE_FAULT_PATH='*r.json.durprobe-tmp-*'" +
                     " DURPROBE_FAULT_DELAY_ON=open DURPROBE_FAULT_DELAY_MS=5000",
                 "probe --primitives fsync --patterns overwrite --budget 1s --json " + json_path +
                     " " + dir.path(),
                 log, "durprobe-tmp", "TERM", io.path());
  EXPECT_EQ(e.exit_code, 143) << e.err;
  EXPECT_EQ(CountLines(e.err), 1) << e.err;
  EXPECT_NE(e.err.find("interrupted by SIGTERM"), std::string::npos) << e.err;
  EXPECT_EQ(e.err.find("SIGINT"), std::string::npos) << e.err;
  nlohmann::json doc = nlohmann::json::parse(Slurp(json_path), nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << "the report was not written whole";
  EXPECT_TRUE(ScratchLeft(dir.path()).empty());
}

TEST(InterruptedWordsTest, InterruptedCompareCountsWhatItsJsonLists) {
  TempDir a, b, io;
  std::string log = io.path() + "/faults.log", json_path = io.path() + "/c.json";
  Ended e =
      SignalWhen("DURPROBE_FAULT_LOG=" + log +
                     " DURPROBE_FAULT_PATH='*/.durprobe-scratch-*/*' DURPROBE_FAULT_DELAY_MS=300",
                 "compare --primitives fsync,fdatasync --patterns overwrite --budget 60s "
                 "--json " +
                     json_path + " " + a.path() + " " + b.path(),
                 log, "probe.dat delay", "INT", io.path());
  EXPECT_EQ(e.exit_code, 130) << e.err;
  nlohmann::json doc = nlohmann::json::parse(Slurp(json_path), nullptr, false);
  ASSERT_FALSE(doc.is_discarded());
  std::size_t listed = ListedItems(doc);
  EXPECT_GT(listed, 0u);
  EXPECT_EQ(CountedItems(e.err), static_cast<int>(listed)) << e.err;
}

// Crashsim runs in memory (its own VFS), so the progress log's crashsim line is the event; the
// whole matrix takes many seconds, so the signal lands inside it.
TEST(InterruptedWordsTest, InterruptedCrashsimListsTheConfigurationsNeverStarted) {
  TempDir dir, io;
  std::string json_path = io.path() + "/c.json";
  Ended e = SignalWhen("", "crashsim -v --trials 1000 --json " + json_path + " " + dir.path(),
                       io.path() + "/err", "crashsim", "INT", io.path());
  EXPECT_EQ(e.exit_code, 130) << e.err;
  nlohmann::json doc = nlohmann::json::parse(Slurp(json_path), nullptr, false);
  ASSERT_FALSE(doc.is_discarded());
  const nlohmann::json& t = doc.at("targets").at(0);
  std::size_t rows = t.contains("crashsim") ? t.at("crashsim").size() : 0;
  ASSERT_TRUE(t.contains("unfinished")) << t.dump();
  std::size_t never_started = 0;
  for (const nlohmann::json& u : t.at("unfinished")) {
    EXPECT_EQ(u.at("kind"), "crashsim");
    if (u.at("label").get<std::string>().find("trials") == std::string::npos) ++never_started;
  }
  // Every configuration of the default matrix (4 journal modes x 4 levels) is a row or is
  // listed as never started; the row that was running is listed with its trials as well.
  EXPECT_EQ(rows + never_started, 16u) << t.at("unfinished").dump();
  EXPECT_GT(never_started, 0u);
  bool has_wal_extra = false;
  for (const nlohmann::json& u : t.at("unfinished"))
    has_wal_extra |= u.at("label") == "WAL/EXTRA x1";
  EXPECT_TRUE(has_wal_extra) << "the last configuration is never started: " << t.dump();
  EXPECT_EQ(CountedItems(e.err), static_cast<int>(ListedItems(doc))) << e.err;
}

}  // namespace
}  // namespace durprobe
