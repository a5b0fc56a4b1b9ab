#include "report/format/console/live_console.h"

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
  t.unfinished.push_back({"sqlite", "WAL/FULL"});
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

}  // namespace
}  // namespace durprobe::report
