#include "render/html/html_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace durprobe::render::html {
namespace {

TEST(HtmlTextTest, EscapesMarkupAndQuotes) {
  EXPECT_EQ(Escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(Escape("</svg><script>x</script>"), "&lt;/svg&gt;&lt;script&gt;x&lt;/script&gt;");
}

TEST(HtmlTextTest, KeepsUtf8AndWhitespaceDropsOtherControlCharacters) {
  EXPECT_EQ(Escape("caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x92\xBE"),
            "caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x92\xBE");
  EXPECT_EQ(Escape("a\tb\nc\rd"), "a\tb\nc\rd");
  EXPECT_EQ(Escape(std::string("a\x01\x1b[0mb\0c", 9)), "a[0mbc");
}

// Issue 32 item 13: DEL and the C1 controls are HTML parse errors, and a terminal showing the
// page (--html -) would take U+009B for CSI.
TEST(HtmlTextTest, DropsDelAndTheC1Controls) {
  EXPECT_EQ(Escape("a\x7f"
                   "b\xC2\x9B"
                   "2Jc\xC2\x80"
                   "d\xC2\xA0"
                   "e"),
            "ab2Jcd\xC2\xA0"
            "e");
}

TEST(HtmlTextTest, ReplacesInvalidUtf8) {
  const std::string kReplacement = "\xEF\xBF\xBD";
  EXPECT_EQ(Escape("a\xFFz"), "a" + kReplacement + "z");
  EXPECT_EQ(Escape("\xC3"), kReplacement);                     // truncated sequence
  EXPECT_EQ(Escape("\xC0\xAF"), kReplacement + kReplacement);  // overlong '/'
  EXPECT_EQ(Escape("\xED\xA0\x80"), kReplacement + kReplacement + kReplacement);  // surrogate
}

TEST(HtmlTextTest, CoordinatesAreFiniteAndShort) {
  EXPECT_EQ(Coord(12.0), "12");
  EXPECT_EQ(Coord(12.345), "12.35");
  EXPECT_EQ(Coord(-0.001), "0");
  EXPECT_EQ(Coord(std::nan("")), "0");
  EXPECT_EQ(Coord(std::numeric_limits<double>::infinity()), "0");
}

}  // namespace
}  // namespace durprobe::render::html
