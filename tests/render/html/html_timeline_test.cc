// The flush latency timeline of the HTML page: the reference probe's samples, the probe of the
// same kind and SQLite's syncs per repetition on one time axis, a mark where drift analysis found a
// step, and nothing at all for a report that kept no samples over time.
#include "render/html/html_timeline.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "codec/json_reader.h"
#include "tests/fixtures.h"
#include "tests/sqlite_samples.h"
#include "tests/xml_page.h"

namespace durprobe::render::html {
namespace {

using testing_support::XmlPage;
constexpr std::uint64_t kOneSecond = 1'000'000'000;

// The reference fast (100 us) for four samples, then slow (4 ms) for four, a second apart; a
// probe series of five windows; a DELETE/FULL configuration with three repetitions.
model::Target DriftingTarget() {
  model::Target t;
  t.path = "/data";
  t.reference_probe = "fdatasync overwrite 4 KiB";
  for (std::uint64_t i = 0; i < 8; ++i) {
    std::uint64_t p50 = i < 4 ? 100'000 + i * 1'000 : 4'000'000 + i * 10'000;
    t.reference.push_back({i * kOneSecond, i == 7 ? "end" : "DELETE/FULL", 40, p50, double(p50)});
  }
  probes::ProbeResult probe = testing_support::Probe(probes::Primitive::kFdatasync,
                                                     probes::Pattern::kOverwrite, 4096, 100'000);
  for (std::uint64_t w = 0; w < 5; ++w) {
    probe.series.push_back(
        {kOneSecond / 2 + w * kOneSecond / 10, 40, 100'000 + w * 500, 101'000.0});
  }
  t.probes.push_back(probe);
  model::SqliteEntry e{.result = testing_support::DeleteFull()};
  for (std::uint64_t r = 0; r < 3; ++r) {
    e.result.repetition_commits_per_sec.push_back(1000.0 - double(r) * 100);
    e.result.repetition_windows.push_back({(2 + 2 * r) * kOneSecond, (3 + 2 * r) * kOneSecond, 100,
                                           70'000'000, 300, 30'000'000 * (r + 1)});
  }
  t.sqlite.push_back(e);
  return t;
}

#define REQUIRE_LIBXML2() \
  if (!XmlPage::available()) GTEST_SKIP() << XmlPage::skip_reason()

std::string Wrapped(const std::string& fragment) {
  return "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body>" + fragment + "</body></html>";
}

TEST(HtmlTimelineTest, DrawsTheReferenceTheSameProbeAndSqliteSyncsOnOneTimeAxis) {
  REQUIRE_LIBXML2();
  XmlPage page(Wrapped(TimelineSection(DriftingTarget(), "t0")));
  ASSERT_TRUE(page.parsed()) << page.error();
  const std::string plot = "//s:svg[@data-plot='t0-timeline']";
  EXPECT_EQ(page.Count(plot), 1);
  EXPECT_EQ(page.Count(plot + "//s:path[@data-series]"), 3);
  EXPECT_EQ(
      page.Count(plot + "//s:path[@data-series='reference probe, fdatasync overwrite 4 KiB (mean "
                        "of each sample)']"),
      1);
  EXPECT_EQ(page.Count(plot + "//s:path[@data-series='probe fdatasync overwrite 4 KiB (mean per "
                              "window)']"),
            1);
  EXPECT_EQ(page.Count(plot + "//s:path[@data-series=\"SQLite's syncs (mean per repetition)\"]"),
            1);
  // A marker per reference sample, per repetition, and one where the step was found.
  EXPECT_EQ(page.Count(plot + "//s:g[not(@data-legend)]/s:path[@class='mark']"), 8 + 3 + 1);
  EXPECT_EQ(page.Count(plot + "//s:title[contains(., 'a step drift analysis found') and "
                              "contains(., 'the reference probe') and contains(., 'at 4.0 s')]"),
            1);
  // The second repetition: 300 syncs in 60 ms, a mean of 200 us, at its middle (4.5 s).
  EXPECT_EQ(page.Count(fmt::format("{}//s:title[contains(., '4.5 s, DELETE/FULL x1 repetition 2: "
                                   "300 syncs, mean 200')]",
                                   plot)),
            1);
  EXPECT_NE(page.Text("//h:figcaption").find("Steps found: the reference probe"),
            std::string::npos);
}

TEST(HtmlTimelineTest, ASteadyRunSaysNoStepWasFound) {
  REQUIRE_LIBXML2();
  model::Target t = DriftingTarget();
  for (model::ReferenceSample& s : t.reference) {
    s.p50_ns = 100'000;
    s.mean_ns = 100'000;
  }
  XmlPage page(Wrapped(TimelineSection(t, "t0")));
  ASSERT_TRUE(page.parsed()) << page.error();
  EXPECT_EQ(page.Count("//s:svg[@data-plot='t0-timeline']//s:path[@data-series]"), 3);
  EXPECT_NE(page.Text("//h:figcaption").find("found no step"), std::string::npos);
}

// A real saved report (tests/fixtures/html/drift_report.json: `durprobe sqlite` with a competing
// fsync writer started 5 s in) is enough to draw it, the step included.
TEST(HtmlTimelineTest, ASavedReportFromARealDriftRunDrawsItsStep) {
  REQUIRE_LIBXML2();
  Result<model::Report> report =
      codec::FromJson(testing_support::ReadFixture("html/drift_report.json"));
  ASSERT_TRUE(report.ok()) << report.status().message();
  XmlPage page(Wrapped(TimelineSection(report->targets[0], "t0")));
  ASSERT_TRUE(page.parsed()) << page.error();
  const std::string plot = "//s:svg[@data-plot='t0-timeline']";
  EXPECT_EQ(page.Count(plot + "//s:path[@data-series]"), 3);
  // Four reference samples and ten repetitions (two configurations, five each).
  EXPECT_EQ(page.Count(plot + "//s:title[contains(., ', before ')]"), 4);
  EXPECT_EQ(page.Count(plot + "//s:title[contains(., ' repetition ')]"), 10);
  EXPECT_EQ(page.Count(plot + "//s:title[contains(., 'a step drift analysis found')]"), 1);
}

TEST(HtmlTimelineTest, AReportWithoutSamplesOverTimeHasNoTimeline) {
  model::Target t = DriftingTarget();
  t.reference.clear();
  t.probes.clear();
  for (model::SqliteEntry& e : t.sqlite) e.result.repetition_windows.clear();
  EXPECT_EQ(TimelineSection(t, "t0"), "");
  // One sample is no line either.
  t.reference = DriftingTarget().reference;
  t.reference.resize(1);
  EXPECT_EQ(TimelineSection(t, "t0"), "");
}

}  // namespace
}  // namespace durprobe::render::html
