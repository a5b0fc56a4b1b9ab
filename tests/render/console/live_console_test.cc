#include "render/console/live_console.h"

#include <gtest/gtest.h>

#include <sstream>

namespace durprobe::report {
namespace {

probes::ProbeResult Probe(probes::Primitive p, std::uint64_t p50) {
  probes::ProbeResult r;
  r.spec = {p, probes::Pattern::kOverwrite, 4096};
  r.ops = 500;
  r.seconds = 1.0;
  r.ops_per_sec = 500;
  r.converged = true;
  r.latency.p50 = p50;
  r.latency.p90 = p50;
  r.latency.p99 = p50;
  r.latency.max = p50;
  return r;
}

TEST(LiveConsoleTest, PrintsEachRowAsItArrivesAndTheNotesWhenTheSectionEnds) {
  std::ostringstream out;
  LiveConsole console(out);
  Target t;
  t.path = "/data";
  console.RunStarted(Context{});
  console.TargetStarted(t);
  EXPECT_NE(out.str().find("== /data =="), std::string::npos);
  probes::ProbeResult fsync = Probe(probes::Primitive::kFsync, 2'000'000);
  fsync.converged = false;
  console.ProbeDone(t, fsync);
  std::string after_one = out.str();
  EXPECT_NE(after_one.find("Raw sync primitives"), std::string::npos);
  EXPECT_NE(after_one.find("fsync"), std::string::npos);
  EXPECT_EQ(after_one.find("note:"), std::string::npos);  // notes wait for the section's end
  console.ProbeDone(t, Probe(probes::Primitive::kFdatasync, 1'000'000));
  std::string after_two = out.str();
  EXPECT_EQ(after_two.find("Raw sync primitives"), after_two.rfind("Raw sync primitives"));
  EXPECT_NE(after_two.find("fdatasync"), std::string::npos);
  t.findings.push_back({Severity::kWarn, "some_code", "what to do"});
  t.unfinished.push_back({UnfinishedKind::kSqlite, "WAL/FULL"});
  console.TargetDone(t);
  std::string all = out.str();
  std::size_t note = all.find("note: fsync overwrite 4 KiB: median not within");
  std::size_t unfinished = all.find("Not run or not finished:\n  sqlite WAL/FULL (interrupted)");
  std::size_t finding = all.find("[warn] some_code: what to do");
  ASSERT_NE(note, std::string::npos) << all;
  ASSERT_NE(unfinished, std::string::npos) << all;
  ASSERT_NE(finding, std::string::npos) << all;
  EXPECT_LT(note, unfinished);
  EXPECT_LT(unfinished, finding);
}

// Printed as the run goes, the probe table's notes close with each probe's figures per device
// state, as the whole report's table has them (the analysis has run by the section's end).
TEST(LiveConsoleTest, TheDevicesStatesAreNotesWhenTheProbeSectionEnds) {
  std::ostringstream out;
  LiveConsole console(out);
  Target t;
  t.path = "/data";
  console.RunStarted(Context{});
  console.TargetStarted(t);
  t.probes.push_back(Probe(probes::Primitive::kFdatasync, 1'000'000));
  console.ProbeDone(t, t.probes.back());
  t.device_states = DeviceStates{"the reference probe (fdatasync overwrite 4 KiB)", 1e5, 4e6, 0.4};
  t.probe_states = {{0, {{.state = DeviceState::kSlow, .time_share = 1.0, .ops = 500}}}};
  console.TargetDone(t);
  EXPECT_NE(out.str().find("note: fdatasync overwrite 4 KiB: measured wholly in the device's slow "
                           "state (device_states)"),
            std::string::npos)
      << out.str();
}

// The rows print one by one, so the size column is as wide as the planned probes need from the
// first row: a probe that works between its operations ("8 KiB +200 us work") lines up with the
// rows before it, and its note says what the work is and what its ops/s means.
TEST(LiveConsoleTest, APlannedProbeWithWorkWidensTheSizeColumnFromTheFirstRow) {
  std::ostringstream out;
  LiveConsole console(out);
  Target t;
  t.path = "/data";
  Context context;
  context.options["probes"] = {"fdatasync overwrite 4 KiB",
                               "fdatasync overwrite 8 KiB +200 us work"};
  console.RunStarted(context);
  console.TargetStarted(t);
  console.ProbeDone(t, Probe(probes::Primitive::kFdatasync, 1'000'000));
  probes::ProbeResult worked = Probe(probes::Primitive::kFdatasync, 1'000'000);
  worked.spec.write_size = 8192;
  worked.spec.work_us = 200;
  console.ProbeDone(t, worked);
  console.TargetDone(t);
  std::istringstream lines(out.str());
  std::vector<std::string> rows;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("primitive", 0) == 0 || line.rfind("fdatasync", 0) == 0) rows.push_back(line);
  }
  ASSERT_EQ(rows.size(), 3u) << out.str();
  // "size" ends where each row's size cell ends: the header and both rows agree.
  std::size_t size_end = rows[0].find("size") + 4;
  EXPECT_EQ(rows[1].find("4 KiB") + 5, size_end) << out.str();
  EXPECT_EQ(rows[2].find("8 KiB +200 us work") + 18, size_end) << out.str();
  EXPECT_NE(out.str().find("fdatasync overwrite 8 KiB +200 us work: each operation follows "
                           "200 us of work on the CPU"),
            std::string::npos)
      << out.str();
}

}  // namespace
}  // namespace durprobe::report
