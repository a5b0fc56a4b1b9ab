// The write under way at a cut, end to end over loopback (issue 53 item 0): after a run that went
// round its 16-slot file, the slot of the writer's next record holds half of that record, which
// the witness never heard of, as an honest device may keep it. verify passes, counting it
// in_flight; a sector of garbage in the same slot fails the run (torn).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "probes/powercut_record.h"
#include "tests/cli_runner.h"
#include "tests/integration/local_witness.h"
#include "tests/test_dirs.h"

namespace durprobe::powercut_inflight_cli_test {

using testing_support::CliRun;
using testing_support::RunDurprobe;

constexpr std::uint64_t kSlots = 16;
constexpr std::size_t kBytes = 4096;

TEST(PowercutInFlightCli, AHalfWrittenUnacknowledgedRecordPassesAndGarbageFails) {
  testing_support::TempDir files;
  testing_support::TempDir data{"/var/tmp"};
  testing_support::LocalWitness witness(files.path());
  ASSERT_FALSE(witness.address().empty());
  CliRun w = RunDurprobe("powercut write " + data.path() + " --witness " + witness.address() +
                         " --for 300ms --file-size 64KiB");
  ASSERT_EQ(w.exit_code, 0) << w.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(w.err, m,
                                std::regex("run ([0-9a-f]{16}) stopped .* ([0-9]+) "
                                           "logged by it")))
      << w.err;
  const std::string run = m[1];
  const std::uint64_t logged = std::stoull(m[2]);
  ASSERT_GT(logged, 2 * kSlots) << "the writer did not go round its file";
  // Record `logged`, which the witness never heard of, goes where record logged - slots is, the
  // slot's newest acknowledged one: its first half lands.
  const std::uint64_t next = logged;
  std::vector<std::uint8_t> record(kBytes);
  probes::EncodeRecord(next, run, record);
  const std::string records = data.path() + "/.durprobe-powercut-" + run + "/records";
  const std::uint64_t at = next % kSlots * kBytes;
  auto put = [&](std::size_t from, std::size_t n, const std::uint8_t* bytes) {
    std::fstream f(records, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(at + from));
    f.write(reinterpret_cast<const char*>(bytes), static_cast<std::streamsize>(n));
  };
  put(0, kBytes / 2, record.data());
  const std::string verify =
      "powercut verify " + data.path() + " --witness " + witness.address() + " --json -";
  CliRun v = RunDurprobe(verify);
  ASSERT_EQ(v.exit_code, 0) << v.out << v.err;
  nlohmann::json e = nlohmann::json::parse(v.out, nullptr, false);
  ASSERT_TRUE(e.is_object()) << v.out;
  EXPECT_EQ(e["records"]["in_flight"], 1) << v.out;
  EXPECT_EQ(e["records"]["torn"], 0) << v.out;
  EXPECT_EQ(e["verdict"], "passed");
  // One sector that is neither record's: torn, failed.
  const std::vector<std::uint8_t> garbage(512, 0x5a);
  put(1024, garbage.size(), garbage.data());
  CliRun bad = RunDurprobe(verify);
  EXPECT_EQ(bad.exit_code, 1) << bad.out << bad.err;
  e = nlohmann::json::parse(bad.out, nullptr, false);
  ASSERT_TRUE(e.is_object()) << bad.out;
  EXPECT_EQ(e["records"]["torn"], 1) << bad.out;
  EXPECT_EQ(e["records"]["in_flight"], 0) << bad.out;
}

}  // namespace durprobe::powercut_inflight_cli_test
