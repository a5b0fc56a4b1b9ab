// The concurrency findings: syncs that serialise, syncs that merge, neither, and the
// serial-versus-concurrent ratio with its serial side taken from the probe or the one-writer row.
#include "analysis/concurrency_findings.h"

#include <gtest/gtest.h>

namespace durprobe::analysis {
namespace {

using probes::ConcurrencyResult;
using probes::WriterMode;

ConcurrencyResult Row(std::uint32_t writers, WriterMode mode, double aggregate, std::uint64_t p50) {
  ConcurrencyResult r;
  r.spec = {writers, mode, probes::Primitive::kFdatasync, 4096};
  r.ops = 100;
  r.aggregate_ops_per_sec = aggregate;
  r.latency.p50 = p50;
  return r;
}

bool Has(const model::Target& t, const std::string& code) {
  for (const model::Finding& f : t.findings) {
    if (f.code == code) return true;
  }
  return false;
}

TEST(ConcurrencyFindingsTest, FlatAggregateWithGrowingLatencyIsSerialised) {
  model::Target t;
  t.concurrency = {Row(1, WriterMode::kThreads, 1000, 1'000'000),
                   Row(8, WriterMode::kThreads, 1100, 7'000'000)};
  AddConcurrencyFindings(t);
  ASSERT_TRUE(Has(t, "concurrent_syncs_serialise"));
  EXPECT_FALSE(Has(t, "concurrent_syncs_merge"));
  const std::string& m = t.findings[0].message;
  EXPECT_NE(m.find("commit_delay"), std::string::npos) << m;
  EXPECT_NE(m.find("with 8 writers (threads)"), std::string::npos) << m;
  std::vector<ConcurrencyShape> shapes = ConcurrencyShapes(t.concurrency);
  ASSERT_EQ(shapes.size(), 1u);
  EXPECT_DOUBLE_EQ(shapes[0].scaling, 1.1);
  EXPECT_DOUBLE_EQ(shapes[0].latency_growth, 7.0);
}

TEST(ConcurrencyFindingsTest, GrowingAggregateWithSteadyLatencyIsMerged) {
  model::Target t;
  t.concurrency = {Row(1, WriterMode::kProcesses, 1000, 1'000'000),
                   Row(4, WriterMode::kProcesses, 3500, 1'100'000)};
  AddConcurrencyFindings(t);
  EXPECT_TRUE(Has(t, "concurrent_syncs_merge"));
  EXPECT_FALSE(Has(t, "concurrent_syncs_serialise"));
}

TEST(ConcurrencyFindingsTest, InBetweenOrIncompleteSaysNothing) {
  model::Target t;
  // 8 writers: aggregate 2x, latency 4x: neither flat nor merged.
  t.concurrency = {Row(1, WriterMode::kThreads, 1000, 1'000'000),
                   Row(8, WriterMode::kThreads, 2000, 4'000'000),
                   Row(8, WriterMode::kSharedFile, 900, 9'000'000)};  // no one-writer row
  AddConcurrencyFindings(t);
  EXPECT_TRUE(t.findings.empty());
  t.concurrency[1].outcome = probes::Outcome::kError;
  EXPECT_TRUE(ConcurrencyShapes(t.concurrency).empty());
}

TEST(ConcurrencyFindingsTest, SerialSideIsTheFdatasyncProbeElseTheOneWriterRow) {
  model::Target t;
  t.serial_vs_concurrent = model::SerialVsConcurrent{};
  t.serial_vs_concurrent->concurrent.ops = 5000;
  t.serial_vs_concurrent->concurrent.ops_per_sec = 50'000;
  t.serial_vs_concurrent->concurrent.engine = "io_uring";
  t.concurrency = {Row(1, WriterMode::kThreads, 1250, 800'000)};
  AddConcurrencyFindings(t);
  EXPECT_EQ(t.serial_vs_concurrent->serial_label, "fdatasync 4 KiB one writer");
  EXPECT_DOUBLE_EQ(t.serial_vs_concurrent->ratio, 40.0);
  ASSERT_TRUE(Has(t, "spec_sheet_iops_ratio"));

  probes::ProbeResult p;
  p.spec = {probes::Primitive::kFdatasync, probes::Pattern::kOverwrite, 4096};
  p.ops = 100;
  p.ops_per_sec = 1000;
  t.probes.push_back(p);
  t.findings.clear();
  AddConcurrencyFindings(t);
  EXPECT_EQ(t.serial_vs_concurrent->serial_label, "fdatasync overwrite 4 KiB");
  EXPECT_DOUBLE_EQ(t.serial_vs_concurrent->ratio, 50.0);
  const model::Finding& f = t.findings.back();
  EXPECT_EQ(f.code, "spec_sheet_iops_ratio");
  EXPECT_NE(f.message.find("50.0x"), std::string::npos) << f.message;
}

TEST(ConcurrencyFindingsTest, NoRatioWithoutBothSides) {
  model::Target t;
  t.serial_vs_concurrent = model::SerialVsConcurrent{};
  t.serial_vs_concurrent->concurrent.outcome = probes::Outcome::kUnsupported;
  AddConcurrencyFindings(t);
  EXPECT_DOUBLE_EQ(t.serial_vs_concurrent->ratio, 0.0);
  EXPECT_TRUE(t.findings.empty());
}

}  // namespace
}  // namespace durprobe::analysis
