#include "render/html/svg_plot.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "render/html/svg_bars.h"
#include "tests/xml_page.h"

namespace durprobe::render::html::svg {
namespace {

using testing_support::XmlPage;

LinePlot TwoSeries() {
  return LinePlot{.id = "p",
                  .title = "t",
                  .x = {.label = "x", .scale = Scale::kLog},
                  .y = {.label = "y"},
                  .series = {{.name = "fast <1>",
                              .points = {{10, 0}, {100, 0.5}, {1000, 1}},
                              .marks = {{100, 0.5, "p50"}}},
                             {.name = "baseline", .points = {{1, 0}, {5, 1}}, .reference = true}}};
}

TEST(SvgPlotTest, EachSeriesIsOnePathNamedByItsDataAttribute) {
  if (!XmlPage::available()) GTEST_SKIP() << XmlPage::skip_reason();
  XmlPage page(Render(TwoSeries()));
  ASSERT_TRUE(page.parsed()) << page.error();
  EXPECT_EQ(page.Count("/s:svg[@data-plot='p']"), 1);
  EXPECT_EQ(page.Count("//s:path[@data-series]"), 2);
  EXPECT_EQ(page.Count("//s:path[@data-series='fast <1>']"), 1);
  EXPECT_EQ(page.Count("//s:g[contains(@class, 'ref')]/s:path[@data-series='baseline']"), 1);
  EXPECT_EQ(page.Count("//s:g[not(@data-legend)]/s:path[@class='mark']"), 1);
  EXPECT_EQ(page.Count("//s:g[@data-legend]"), 2);  // every series in the legend
  EXPECT_EQ(page.Text("/s:svg/s:title"), "t");
}

TEST(SvgPlotTest, PointsALogAxisCannotShowAreLeftOut) {
  LinePlot plot = TwoSeries();
  plot.series[0].points = {{0, 0.1}, {-5, 0.2}, {std::nan(""), 0.3}, {10, 0.4}, {20, 0.5}};
  std::string svg = Render(plot);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
  if (!XmlPage::available()) GTEST_SKIP() << XmlPage::skip_reason();
  XmlPage page(svg);
  ASSERT_TRUE(page.parsed()) << page.error();
  std::string d = page.Text("//s:path[@data-series='fast <1>']/@d");
  EXPECT_EQ(std::count(d.begin(), d.end(), 'L'), 1) << d;  // two drawable points: M then one L
}

TEST(SvgPlotTest, BarSegmentsStackWithNegativesLeftOfZero) {
  BarChart chart{.id = "b",
                 .title = "bars",
                 .value = {.label = "ns"},
                 .segment_names = {"up", "down"},
                 .bars = {{.label = "one", .segments = {{30, "30"}, {-10, "-10"}}, .note = "n"},
                          {.label = "two", .segments = {{5, "5"}}}}};
  if (!XmlPage::available()) GTEST_SKIP() << XmlPage::skip_reason();
  XmlPage page(Render(chart));
  ASSERT_TRUE(page.parsed()) << page.error();
  EXPECT_EQ(page.Count("//s:rect[@data-series='up']"), 2);
  EXPECT_EQ(page.Count("//s:rect[@data-series='down']"), 1);
  EXPECT_EQ(page.Count("//s:pattern"), 2);  // one fill pattern per segment name
  double up_x = std::stod(page.Text("//s:g[@data-bar='one']/s:rect[@data-series='up']/@x"));
  double down_x = std::stod(page.Text("//s:g[@data-bar='one']/s:rect[@data-series='down']/@x"));
  double down_w = std::stod(page.Text("//s:g[@data-bar='one']/s:rect[@data-series='down']/@width"));
  EXPECT_NEAR(down_x + down_w, up_x, 0.02);  // the negative part ends where zero is
  EXPECT_EQ(page.Text("//s:g[@data-bar='one']/s:text[@class='note']"), "n");
}

}  // namespace
}  // namespace durprobe::render::html::svg
