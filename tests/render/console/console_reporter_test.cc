// The probe table's text: a time in every time cell, "-" for a percentile the operation count
// cannot support (never the maximum under its name), columns aligned to the widest cell.
#include "render/console/console_reporter.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <sstream>

#include "tests/render/flush_samples.h"
#include "tests/report_samples.h"
#include "text/line_width.h"

namespace durprobe::render::console {
namespace {

using testing_support::FlushCountedProbe;
using testing_support::FlushInNoiseProbe;
using testing_support::FlushReport;
using testing_support::FlushUnavailableProbe;
using testing_support::SampleProbe;
using testing_support::UnsupportedProbe;

TEST(ConsoleReporterTest, ProbeTableText) {
  probes::ProbeResult few = SampleProbe();
  few.spec = {probes::Primitive::kOdsync, probes::Pattern::kOverwrite, 16384};
  few.ops = 50;
  few.ops_per_sec = 81.2;
  few.latency = {.count = 50,
                 .min = 18'000'000,
                 .p50 = 19'500'000,
                 .p90 = 21'000'000,
                 .p99 = 22'400'000,
                 .p999 = 22'400'000,
                 .max = 22'400'000,
                 .mean = 19'700'000,
                 .p50_ci_relative = 0.02};
  few.has_sync_part = false;
  std::ostringstream out;
  PrintProbeTable({SampleProbe(), few, UnsupportedProbe()}, out);
  EXPECT_EQ(
      out.str(),
      "primitive   pattern      size   ops  ops/s  p50 (95% CI)      p90     p99    p99.9      max "
      " sync p50\n"
      "fdatasync   append      4 KiB  1234  2,468    400 us ±1%"
      "   450 us  900 us  1.50 ms  2.00 ms    380 us\n"
      "odsync      overwrite  16 KiB    50   81.2   19.5 ms ±2%"
      "  21.0 ms       -        -  22.4 ms         -\n"
      "full_fsync  overwrite   4 KiB  unsupported: F_FULLFSYNC is macOS only\n"
      "  note: odsync: a write through O_DSYNC: PostgreSQL's wal_sync_method = open_datasync\n"
      "  p90, p99, p99.9 \"-\": fewer operations than that percentile needs (10, 100, 1,000)\n");
}

// The case: fsync overwrite from one operation printed "4.01 ms ±0%". A median whose
// operations or timed time cannot support an interval prints its count instead.
TEST(ConsoleReporterTest, AMedianWithoutTheOperationsForAnIntervalPrintsItsCount) {
  probes::ProbeResult one = SampleProbe();
  one.spec = {probes::Primitive::kFsync, probes::Pattern::kOverwrite, 4096};
  one.ops = 1;
  one.seconds = 0.004;
  one.ops_per_sec = 250;
  one.latency = {.count = 1, .min = 4'010'000, .p50 = 4'010'000, .max = 4'010'000};
  one.converged = false;
  std::ostringstream out;
  PrintProbeTable({one}, out);
  EXPECT_NE(out.str().find("4.01 ms, 1 op "), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find("±"), std::string::npos) << out.str();
  // Nor the note about the target confidence: too_few_operations says why.
  EXPECT_EQ(out.str().find("target confidence"), std::string::npos) << out.str();

  probes::ProbeResult twenty = SampleProbe();
  twenty.ops = 20;
  twenty.seconds = 0.49;
  std::ostringstream short_time;
  PrintProbeTable({twenty}, short_time);
  EXPECT_NE(short_time.str().find("400 us, 20 ops"), std::string::npos) << short_time.str();
  EXPECT_EQ(short_time.str().find("±"), std::string::npos) << short_time.str();

  twenty.seconds = 0.5;
  std::ostringstream enough;
  PrintProbeTable({twenty}, enough);
  EXPECT_NE(enough.str().find("400 us ±1%"), std::string::npos) << enough.str();
}

// Each probe's figures per device state (device_states) are notes under the table: both states'
// p50 and p99 ("-" where the state's operations cannot support one), or the one state it ran in.
TEST(ConsoleReporterTest, DeviceStatesAreNotesUnderTheTable) {
  model::Target t;
  t.probes = {SampleProbe(), SampleProbe()};
  t.probes[1].spec.pattern = probes::Pattern::kOverwrite;
  t.device_states = model::DeviceStates{"the reference probe (fdatasync overwrite 4 KiB)", 120'000,
                                        4'000'000, 0.38};
  t.probe_states = {
      {0,
       {{.state = model::DeviceState::kFast,
         .time_share = 0.62,
         .ops = 310,
         .p50_ns = 120'000,
         .p99_ns = 210'000},
        {.state = model::DeviceState::kSlow, .time_share = 0.38, .ops = 24, .p50_ns = 4'010'000}}},
      {1,
       {{.state = model::DeviceState::kSlow, .time_share = 1.0, .ops = 200, .p50_ns = 4'000'000}}}};
  std::ostringstream out;
  PrintProbeTable(t.probes, out, &t);
  EXPECT_NE(out.str().find("  note: fdatasync append 4 KiB: fast state (62% of its time, 310 ops) "
                           "p50 120 us, p99 210 us; slow state (38% of its time, 24 ops) p50 "
                           "4.01 ms, p99 - (device_states)\n"),
            std::string::npos)
      << out.str();
  // The probes measured in one state only share one note (issue 57: one note each made a quick
  // run's screen longer than its answer).
  EXPECT_NE(out.str().find("  note: measured wholly in the device's slow state (device_states): "
                           "fdatasync overwrite 4 KiB\n"),
            std::string::npos)
      << out.str();

  // With --repeat, a state's p50 is the median of the repeats' there, with their range.
  t.probe_states[0].states[1].p50_repeats = {4'010'000, 3'970'000, 4'050'000,
                                             3,         3'800'000, 4'230'000};
  std::ostringstream repeated;
  PrintProbeTable(t.probes, repeated, &t);
  EXPECT_NE(repeated.str().find("slow state (38% of its time, 24 ops) p50 4.01 ms (3.80-4.23 ms), "
                                "p99 - (device_states)"),
            std::string::npos)
      << repeated.str();
}

// Issue 35 item 2: piped, a finding's line past 200 characters is broken at 100 (a log viewer
// shows it); with --wide (no long-line width on the stream) it stays one line.
TEST(ConsoleReporterTest, APipedFindingLinePast200CharactersWrapsAt100) {
  model::Target t;
  t.path = "/data";
  std::string message;
  while (message.size() < 260) message += "a long explanation of what the probes measured, ";
  t.findings = {{model::Severity::kInfo, "too_few_operations", message},
                {model::Severity::kWarn, "sync_tail_heavy", "a short one"}};
  std::ostringstream piped, wide;
  text::SetLongLineWrap(piped, text::kPipedLine);
  PrintFindings(t, piped);
  PrintFindings(t, wide);
  std::istringstream lines(piped.str());
  std::size_t widest = 0, count = 0;
  for (std::string line; std::getline(lines, line); ++count) {
    widest = std::max(widest, text::DisplayWidth(line));
  }
  EXPECT_LE(widest, 100u) << piped.str();
  EXPECT_GE(count, 6u) << piped.str();  // "Findings:", three or more lines, the short one
  EXPECT_NE(piped.str().find("\n  [warn] sync_tail_heavy: a short one\n"), std::string::npos);
  EXPECT_NE(piped.str().find("\n    "), std::string::npos) << "continuations hang 4 in";
  EXPECT_NE(wide.str().find("  [info] too_few_operations: " + message + "\n"), std::string::npos)
      << wide.str();
}

// Issue 57: FUA, the deciding layer, x1, reused 100B and the reference probe were on screen with
// no word of explanation; the summary's last line explains those the summary and the findings
// use, and only those.
TEST(ConsoleReporterTest, TheSummaryExplainsTheTermsItAndTheFindingsUse) {
  model::Report report;
  model::Target t;
  t.path = "/data";
  t.findings = {{model::Severity::kInfo, "latency_drift", "the reference probe 16.0 ms before it"}};
  model::PathSummary s;
  s.what = "ext4 on vda (volatile write cache, no FUA)";
  s.durability_line = "unproven (deciding layer: device): the cache was not identified";
  s.next_step = "run crashtest";
  t.summary = s;
  report.targets = {t};
  std::ostringstream out;
  PrintReport(report, out);
  const std::string text = out.str();
  const std::size_t terms = text.find("\n  terms       FUA = Force Unit Access");
  ASSERT_NE(terms, std::string::npos) << text;
  const std::string line = text.substr(terms + 1, text.find('\n', terms + 1) - terms - 1);
  EXPECT_NE(line.find("deciding layer = "), std::string::npos) << line;
  EXPECT_NE(line.find("reference probe = "), std::string::npos) << line;
  EXPECT_EQ(line.find("x1 = "), std::string::npos) << "no x1 on screen: " << line;
  EXPECT_LT(terms, text.find("Findings:")) << "explained before the findings use it";
}

// Issue 35 item 1: on a terminal the summary at the top has scrolled off by the end, so the
// document closes with each path's answer lines; piped or in a file (no width) it does not.
TEST(ConsoleReporterTest, OnATerminalTheReportEndsWithARecapOfTheSummary) {
  model::Report report;
  model::Target t;
  t.path = "/data";
  t.findings = {{model::Severity::kWarn, "sync_tail_heavy", "a tail"}};
  model::PathSummary s;
  s.what = "ext4 on vda";
  s.durability_line = "unproven (deciding layer: device): the cache was not identified";
  s.sync_probe = "fdatasync overwrite 4 KiB";
  s.sync_p50_ns = 2'000'000;
  s.sync_p99_ns = 4'000'000;
  s.synced_writes_per_sec = 480;
  s.findings = {"sync_tail_heavy"};
  s.next_step = "run crashtest";
  t.summary = s;
  report.targets = {t};
  std::ostringstream terminal, piped;
  text::SetLineWidth(terminal, 100);
  PrintReport(report, terminal);
  PrintReport(report, piped);
  const std::string text = terminal.str();
  std::size_t recap = text.find("\nRecap (the Summary above, in short):\n/data\n");
  ASSERT_NE(recap, std::string::npos) << text;
  EXPECT_GT(recap, text.find("[warn] sync_tail_heavy")) << "the recap comes last";
  std::string tail = text.substr(recap);
  EXPECT_NE(tail.find("  durability  unproven (deciding layer: device)"), std::string::npos);
  EXPECT_NE(tail.find("  sync cost   fdatasync overwrite 4 KiB: p50 2.00 ms"), std::string::npos)
      << tail;
  EXPECT_EQ(tail.find("next"), std::string::npos) << "the answer lines only";
  EXPECT_EQ(piped.str().find("Recap"), std::string::npos) << piped.str();
  EXPECT_NE(piped.str().find("== /data ==\nSummary:\n"), std::string::npos) << piped.str();
}

// The flushes per operation: a last column when a probe's were counted ("-" where not), and a
// note naming the device counted under the table, before any probe's reason it was not.
TEST(ConsoleReporterTest, CountedFlushesAreAColumnAndANoteNamingTheDevice) {
  std::vector<probes::ProbeResult> probes = FlushReport().targets[0].probes;
  probes.push_back(FlushUnavailableProbe());
  probes.back().spec.write_size = 8192;
  std::ostringstream out;
  PrintProbeTable(probes, out);
  const std::string text = out.str();
  EXPECT_NE(text.find("max  sync p50  flush/op\n"), std::string::npos) << text;
  EXPECT_NE(text.find("380 us      1.00\n"), std::string::npos) << text;
  EXPECT_NE(text.find("380 us         -\n"), std::string::npos) << "the uncounted probe: " << text;
  const std::size_t device = text.find(
      "  note: flush/op: flush requests the device completed per operation, less the background "
      "(vda)\n");
  ASSERT_NE(device, std::string::npos) << text;
  EXPECT_GT(text.find("  note: flush/op: unavailable: no block device under tmpfs\n"), device)
      << text;
}

TEST(ConsoleReporterTest, AFlushCountBesideABusyBackgroundShowsItWithANote) {
  std::ostringstream out;
  PrintProbeTable({FlushInNoiseProbe()}, out);
  const std::string text = out.str();
  EXPECT_NE(text.find("380 us  1.00 (bg 0.20)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  note: bg: the flushes per operation the same writes made without the "
                      "sync meanwhile"),
            std::string::npos)
      << text;
  std::ostringstream quiet;
  PrintProbeTable({FlushCountedProbe()}, quiet);
  EXPECT_EQ(quiet.str().find("bg"), std::string::npos) << quiet.str();
}

TEST(ConsoleReporterTest, UnavailableFlushesPrintADashAndTheReason) {
  std::ostringstream out;
  PrintProbeTable({FlushUnavailableProbe()}, out);
  EXPECT_NE(out.str().find("380 us         -\n"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("  note: flush/op: unavailable: no block device under tmpfs\n"),
            std::string::npos)
      << out.str();
  EXPECT_EQ(out.str().find("less the background"), std::string::npos) << out.str();
}

TEST(ConsoleReporterTest, NoCountedFlushesNoFlushColumn) {
  std::ostringstream out;
  PrintProbeTable({SampleProbe(), UnsupportedProbe()}, out);
  EXPECT_EQ(out.str().find("flush"), std::string::npos) << out.str();
}

// On a terminal one column too narrow, flush/op is the column left out.
TEST(ConsoleReporterTest, ANarrowTerminalLeavesFlushPerOpOutFirst) {
  const std::vector<probes::ProbeResult> probes = FlushReport().targets[0].probes;
  std::ostringstream wide;
  PrintProbeTable(probes, wide);
  const std::size_t width = wide.str().find('\n');
  std::ostringstream narrow;
  text::SetLineWidth(narrow, width - 1);
  PrintProbeTable(probes, narrow);
  EXPECT_NE(
      narrow.str().find(fmt::format("(left out to fit {} columns: flush/op; --wide", width - 1)),
      std::string::npos)
      << narrow.str();
  EXPECT_NE(narrow.str().find("max  sync p50\n"), std::string::npos) << narrow.str();
}

}  // namespace
}  // namespace durprobe::render::console
