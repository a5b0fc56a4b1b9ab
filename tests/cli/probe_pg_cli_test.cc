// `durprobe probe --pg` end to end (issue 35 item 5): pg_test_fsync's probes on a disk-backed
// directory, its table on the console, its probes in the JSON; with a probe selection, one line.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "tests/cli_runner.h"

namespace durprobe {
namespace {

using testing_support::RunDurprobe;

TEST(ProbePgCliTest, PrintsPgTestFsyncsTableAndMeasuresItsProbes) {
  // /var/tmp: a disk, where O_DIRECT is accepted (tmpfs refuses it: the open_* rows would say so).
  testing_support::TempDir target("/var/tmp"), io;
  const std::string dir = target.path();
  const std::string json = io.path() + "/r.json";
  testing_support::CliRun r = RunDurprobe("probe --pg --budget 3s --json " + json + " " + dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* line : {"Compare file sync methods using one 8kB write:",
                           "Compare file sync methods using two 8kB writes:",
                           "Compare open_sync with different write sizes:",
                           "16 *  1kB open_sync writes", "Non-sync'ed 8kB writes:"}) {
    EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
  }
  nlohmann::json doc = nlohmann::json::parse(testing_support::Slurp(json));
  EXPECT_EQ(doc["context"]["options"]["pg_test_fsync"], true);
  std::set<std::string> primitives;
  for (const auto& p : doc["targets"][0]["probes"]) primitives.insert(p["primitive"]);
  // Every probe is measured, or listed as left out by the budget: on a disk in its slow state
  // the durable probes' flush evidence (20 operations each) can take all of 3 s, and the plain
  // writes, last, are then not run (the fresh-clone run saw it).
  for (const auto& u : doc["targets"][0].value("unfinished", nlohmann::json::array())) {
    EXPECT_EQ(u["reason"], "budget") << u;
    if (u["label"].get<std::string>().rfind("none ", 0) == 0) primitives.insert("none");
  }
  EXPECT_EQ(primitives,
            (std::set<std::string>{"odirect_dsync", "fdatasync", "fsync", "odirect_sync", "none"}));
}

TEST(ProbePgCliTest, ASelectionBesidePgIsOneLine) {
  testing_support::ExpectUsageError(RunDurprobe("probe --pg --primitives fsync /tmp"),
                                    "--pg measures pg_test_fsync's own probes", "--pg");
}

}  // namespace
}  // namespace durprobe
