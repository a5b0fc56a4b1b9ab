// The witness's banner shows --log as text: a path holding ESC or BEL reaches the terminal
// escaped, so it can neither recolour nor retitle it (issue 53, item 9).
#include <gtest/gtest.h>

#include "render/console/powercut_console.h"

namespace durprobe::render::console::powercut_witness_banner_test {

TEST(PowercutWitnessBannerTest, TheLogPathsControlCharactersAreEscaped) {
  const std::string banner =
      PowercutWitnessBanner("127.0.0.1:7199", "/tmp/w\x1b]0;owned\x07.log", 2, 40, 48);
  EXPECT_EQ(banner.find('\x1b'), std::string::npos) << banner;
  EXPECT_EQ(banner.find('\x07'), std::string::npos) << banner;
  EXPECT_NE(banner.find("log /tmp/w\\x1b]0;owned\\x07.log (2 runs, 40 acknowledgements"),
            std::string::npos)
      << banner;
  EXPECT_NE(banner.find("at most 48 connections at once"), std::string::npos) << banner;
}

}  // namespace durprobe::render::console::powercut_witness_banner_test
