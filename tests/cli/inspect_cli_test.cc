// End to end: the durprobe binary's `inspect` subcommand.
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "tests/cli_runner.h"
#include "text/utf8.h"

namespace durprobe {
namespace {

using testing_support::CliRun;
using testing_support::CountLines;
using testing_support::RunDurprobe;

TEST(InspectCliTest, MissingPathIsOneLineAndExitTwo) {
  CliRun r = RunDurprobe("inspect /no/such/durprobe/path");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("/no/such/durprobe/path"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(InspectCliTest, NoPathIsAUsageError) {
  CliRun r = RunDurprobe("inspect");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
}

TEST(InspectCliTest, JsonToStdoutHasTheContractKeys) {
  CliRun r = RunDurprobe("inspect / /dev/shm --json -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema"], "durprobe.report/1");
  EXPECT_EQ(j["context"]["command"], "inspect");
  EXPECT_TRUE(j["context"].contains("ld_preload"));
  ASSERT_EQ(j["targets"].size(), 2u);
  for (const nlohmann::json& t : j["targets"]) {
    const nlohmann::json& m = t["mount"];
    for (const char* key : {"fstype", "source", "mount_point", "options", "bind", "device"}) {
      EXPECT_TRUE(m.contains(key)) << key;
    }
    EXPECT_TRUE(m["fstype"].is_string());
    EXPECT_TRUE(m["options"].is_array());
    EXPECT_TRUE(m["bind"].is_boolean());
    if (!m["device"].is_null()) {
      for (const char* key : {"name", "rotational", "write_cache"}) {
        EXPECT_TRUE(m["device"].contains(key)) << key;
      }
    }
    EXPECT_TRUE(t["findings"].is_array());
    EXPECT_TRUE(t["probes"].empty()) << "inspect measures nothing";
  }
  EXPECT_EQ(j["targets"][0]["path"], "/");
  EXPECT_EQ(j["targets"][0]["mount"]["mount_point"], "/");
  EXPECT_EQ(j["targets"][1]["mount"]["fstype"], "tmpfs");
  EXPECT_TRUE(j["targets"][1]["mount"]["device"].is_null());
  bool noop = false;
  for (const nlohmann::json& f : j["targets"][1]["findings"]) {
    noop = noop || (f["code"] == "sync_noop_memory_fs" && f["severity"] == "fail");
  }
  EXPECT_TRUE(noop) << j["targets"][1]["findings"].dump();
}

// A directory named with byte 0xff: a Linux path, not UTF-8. The JSON stays valid, with the
// exact bytes beside the path.
TEST(InspectCliTest, PathThatIsNotUtf8) {
  testing_support::TempDir dir;
  std::string bad = dir.path() + "/bad-\xff-name";
  ASSERT_TRUE(platform::Default().MakeDirectory(bad).ok());
  CliRun r = RunDurprobe("inspect --json - '" + bad + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  const nlohmann::json& t = j["targets"][0];
  EXPECT_EQ(t["path"], dir.path() + "/bad-\xef\xbf\xbd-name");
  EXPECT_EQ(t["path_bytes"], text::HexBytes(bad));
  EXPECT_TRUE(t["mount"]["fstype"].is_string());
}

TEST(InspectCliTest, ConsoleBlockPerPath) {
  CliRun r = RunDurprobe("inspect /dev/shm");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("== /dev/shm =="), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("filesystem  tmpfs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[fail] sync_noop_memory_fs"), std::string::npos) << r.out;
}

TEST(InspectCliTest, LdPreloadIsNamedInTheFindings) {
  // A library that does not exist: the loader only warns, and durprobe must still name it.
  ::setenv("LD_PRELOAD", "/nonexistent/libdurprobe-test.so", 1);
  CliRun r = RunDurprobe("inspect / --json -");
  ::unsetenv("LD_PRELOAD");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["context"]["ld_preload"], "/nonexistent/libdurprobe-test.so");
  bool named = false;
  for (const nlohmann::json& f : j["targets"][0]["findings"]) {
    named =
        named || (f["code"] == "ld_preload_set" &&
                  f["message"].get<std::string>().find("libdurprobe-test.so") != std::string::npos);
  }
  EXPECT_TRUE(named);
}

}  // namespace
}  // namespace durprobe
